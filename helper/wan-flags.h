/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_FLAGS_H
#define WAN_FLAGS_H

#include "ns3/type-id.h"
#include "ns3/update-format.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class CommandLine;

/**
 * \ingroup wan-training
 * \brief An interval of reals a flag must lie in, e.g. [0, 1) for a loss rate.
 */
struct WanFlagRange
{
    double min;   //!< lower bound
    double max;   //!< upper bound
    bool minOpen; //!< true: min itself is excluded
    bool maxOpen; //!< true: max itself is excluded

    /** \param value a finite number \return true if it lies in the interval */
    bool Contains(double value) const;
    /** \return the interval as text, e.g. "[0, 1)" */
    std::string ToString() const;
};

/**
 * \ingroup wan-training
 * \brief Numeric command-line flags read as text, then parsed strictly and range-checked.
 *
 * ns-3's CommandLine parses "--rounds=-1" into a uint32_t as 4294967295 and "1e9" into 1: a
 * typo becomes a run of four billion rounds. Flags registered here are handed to CommandLine
 * as strings; Check() (called right after CommandLine::Parse, before anything runs) converts
 * each, and rejects negative, malformed, non-finite and out-of-range values with a
 * WanInputError of the form
 *
 *     --flag=VALUE: problem
 *
 * which names the flag and the value as typed (doc/input-rules.rst lists every rule).
 * The targets keep their defaults until Check() succeeds; --PrintHelp shows them as text.
 */
class WanFlags
{
  public:
    /** \param cmd the command line the flags are registered on (kept; must outlive this) */
    explicit WanFlags(CommandLine& cmd);
    ~WanFlags();
    WanFlags(const WanFlags&) = delete;
    WanFlags& operator=(const WanFlags&) = delete;

    /**
     * \brief A whole number in [min, max].
     * \param name flag name \param help help text \param value target, holding its default
     * \param min smallest value \param max largest value
     * \param limit why max is the limit, for the message (may be empty)
     */
    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     uint64_t& value,
                     uint64_t min,
                     uint64_t max,
                     const std::string& limit = "");
    /** \copydoc AddUnsigned */
    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     uint32_t& value,
                     uint32_t min,
                     uint32_t max,
                     const std::string& limit = "");
    /**
     * \brief A real number (decimal, optional exponent) in \p range.
     * \param name flag name \param help help text \param value target, holding its default
     * \param range the interval it must lie in
     */
    void AddReal(const std::string& name,
                 const std::string& help,
                 double& value,
                 const WanFlagRange& range);
    /**
     * \brief A duration with a unit (WanUnits::ParseDelay: s, ms, us, ns) in \p range seconds.
     * \param name flag name \param help help text
     * \param seconds target in seconds, unchanged if the flag is empty and \p text is empty
     * \param text the default as text ("": the flag may be left empty, meaning "not given")
     * \param range the interval of seconds it must lie in
     */
    void AddDuration(const std::string& name,
                     const std::string& help,
                     double& seconds,
                     const std::string& text,
                     const WanFlagRange& range);
    /**
     * \brief A rate with a unit (WanUnits::ParseRate: bps .. Tbps), positive; empty: not given.
     * \param name flag name \param help help text
     * \param bps target in bits per second, left unchanged when the flag is empty
     */
    void AddRate(const std::string& name, const std::string& help, uint64_t& bps);
    /**
     * \brief One word of a fixed list.
     * \param name flag name \param help help text \param value target, holding its default
     * \param choices the words accepted
     * \param refused words known but refused, each with why (e.g. not available yet)
     */
    void AddChoice(const std::string& name,
                   const std::string& help,
                   std::string& value,
                   const std::vector<std::string>& choices,
                   const std::map<std::string, std::string>& refused = {});
    /**
     * \brief A TCP congestion control of this ns-3 by class name, e.g. TcpCubic
     *        (TcpTransport::LookupCongestionControl); the message of a bad name lists them all.
     * \param name flag name \param help help text \param value target, holding its default
     */
    void AddCongestionControl(const std::string& name, const std::string& help, TypeId& value);
    /**
     * \brief An update format (UpdateFormat::FromString: int32, bf16, int8, int4, topk:F).
     * \param name flag name \param help help text \param value target, holding its default
     */
    void AddUpdateFormat(const std::string& name, const std::string& help, UpdateFormat& value);

    /**
     * \brief Convert and check every flag registered here (call after CommandLine::Parse).
     * \throws WanInputError "--flag=VALUE: problem" for the first bad flag
     */
    void Check() const;
    /**
     * \param name a flag registered here \return its value as typed (or its default text)
     * \throws std::out_of_range if no such flag is registered
     */
    const std::string& GetText(const std::string& name) const;

    /**
     * \brief Register a text flag on \p cmd that keeps the value whole. ns-3's CommandLine
     *        reads a std::string target with operator>>, which stops at the first blank:
     *        "--output=my results" would write into "my", and "--rounds=1 5" would read as 1.
     * \param cmd the command line \param name flag name \param help help text
     * \param value target, holding its default (kept by address: must outlive \p cmd's Parse)
     */
    static void AddText(CommandLine& cmd,
                        const std::string& name,
                        const std::string& help,
                        std::string& value);

    /**
     * \param argc argument count \param argv arguments, as main() got them
     * \return the names of the flags they hold (--name=value, -name=value, --name), without
     *         dashes: what the user gave, told apart from defaults
     */
    static std::set<std::string> NamesGiven(int argc, char** argv);
    /**
     * \param name a flag the user gave where it has no effect \param why where it applies
     * \return the message that refuses it: "--name: changes nothing in this run; why"
     */
    static std::string ChangesNothing(const std::string& name, const std::string& why);

    /**
     * \param name flag name \param text the value as typed \param problem what is wrong
     * \return the message of a rejected flag: "--name=text: problem"
     */
    static std::string Rejection(const std::string& name,
                                 const std::string& text,
                                 const std::string& problem);

  private:
    /** \copydoc AddUnsigned \brief Both AddUnsigned overloads: T is the target's type. */
    template <typename T>
    void AddWhole(const std::string& name,
                  const std::string& help,
                  T& value,
                  uint64_t min,
                  uint64_t max,
                  const std::string& limit);

    /** One flag: its text as CommandLine wrote it and how to convert it. */
    struct Flag
    {
        std::string name;                                //!< flag name
        std::string text;                                //!< value as typed (or default)
        std::function<void(const std::string&)> convert; //!< parse, check, store; throws
    };

    /**
     * \param name flag name \param help help text \param text default as text
     * \param convert the conversion \brief register a flag
     */
    void Add(const std::string& name,
             const std::string& help,
             const std::string& text,
             std::function<void(const std::string&)> convert);

    CommandLine& m_cmd;                         //!< where the flags are registered
    std::vector<std::unique_ptr<Flag>> m_flags; //!< stable addresses for CommandLine
};

} // namespace ns3

#endif /* WAN_FLAGS_H */
