/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_UNITS_H
#define WAN_UNITS_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Rates and delays as text: the one parser of "100Gbps" and "7.3ms" for files and flags.
 *
 * Hand-written rather than strtod-based, so that a value means exactly what it looks like: no
 * "inf", "nan", hexadecimal numbers or trailing text. Errors are WanInputError naming where
 * the text came from and the text.
 */
class WanUnits
{
  public:
    /** Largest rate, bits per second: below 2^63, so it fits DataRate's uint64_t. */
    static constexpr double MAX_RATE_BPS = 9.2e18;
    /** Largest delay or duration, seconds: 2^63 ns (292 years), what ns-3's Time holds. */
    static constexpr double MAX_TIME_SECONDS = 9.2e9;
    /** Largest byte or packet count: what ns-3's QueueSize holds (uint32_t). */
    static constexpr double MAX_COUNT = 4294967295.0;

    /**
     * \brief Parse a rate: a number and a unit bps, Kbps (or kbps), Mbps, Gbps or Tbps.
     * \param text e.g. "100Gbps" or "2.5 Mbps"
     * \param what where the text came from (file and field, or flag), for the error message
     * \return the rate in bits per second, at least 1
     * \throws WanInputError naming \p what and \p text if malformed, not positive or too large
     */
    static uint64_t ParseRate(const std::string& text, const std::string& what);
    /**
     * \brief Parse a delay: a number and a unit s, ms, us or ns.
     * \param text e.g. "7.3ms" or "50us"
     * \param what where the text came from (file and field, or flag), for the error message
     * \return the delay in seconds, in [0, MAX_TIME_SECONDS]
     * \throws WanInputError naming \p what and \p text if malformed, negative or too large
     */
    static double ParseDelay(const std::string& text, const std::string& what);
    /**
     * \brief Parse a size in bytes: a number and a unit B, KB, MB, GB (powers of 1000) or KiB,
     *        MiB, GiB (powers of 1024).
     * \param text e.g. "125MB" or "64KiB"
     * \param what where the text came from, for the error message
     * \return the bytes, a whole number in [1, MAX_COUNT]
     * \throws WanInputError naming \p what and \p text if malformed, fractional or out of range
     */
    static uint64_t ParseBytes(const std::string& text, const std::string& what);
    /**
     * \brief Parse a packet count: a number and the unit p or packets.
     * \param text e.g. "100p" \param what where the text came from, for the error message
     * \return the count, a whole number in [1, MAX_COUNT]
     * \throws WanInputError naming \p what and \p text if malformed, fractional or out of range
     */
    static uint64_t ParsePackets(const std::string& text, const std::string& what);
    /**
     * \brief Format a rate with the largest unit that divides it exactly.
     * \param bps bits per second \return e.g. "100Gbps", "2500Mbps" or "7bps"
     */
    static std::string FormatRate(uint64_t bps);
    /**
     * \brief The range rule of rates, for a rate given as a bare number.
     * \param bps a rate in bits per second, rounded to whole bits
     * \return "" if it lies in [1, MAX_RATE_BPS), else what is wrong
     */
    static std::string RateProblem(double bps);
    /**
     * \brief The range rule of a duration or a point in time given as a number of seconds.
     * \param seconds the number \param max the largest allowed
     * \param tooLarge what is wrong with a larger one, e.g. "must be at most 1000 s"
     * \return "" if finite and in [0, max], else what is wrong
     */
    static std::string DurationProblem(double seconds, double max, const std::string& tooLarge);
    /** What is wrong with a duration above MAX_TIME_SECONDS. */
    static const char TOO_LARGE_FOR_TIME[];
    /**
     * \brief Read a plain decimal number strictly (optional sign, digits, point, exponent;
     *        no blanks, "inf", "nan" or hex), whatever the locale.
     * \param text the text \param value receives the number on success
     * \return false if \p text is not exactly one finite number
     */
    static bool ParseNumber(const std::string& text, double& value);
    /** \param value a number \return it as short text for messages, whatever the locale */
    static std::string FormatNumber(double value);
};

} // namespace ns3

#endif /* WAN_UNITS_H */
