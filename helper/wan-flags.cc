/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-flags.h"

#include "../model/wan-training-compat.h"

#include "ns3/command-line.h"
#include "ns3/log.h"
#include "ns3/tcp-transport.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanFlags");

namespace
{

/** Base of the decimal digits of a whole number. */
constexpr uint64_t DECIMAL = 10;

/** \param min smallest \param max largest \return "min..max" */
std::string
IntegerRange(uint64_t min, uint64_t max)
{
    return std::to_string(min) + ".." + std::to_string(max);
}

/**
 * \brief Parse a whole number strictly (digits only) and check its range.
 * \param name flag \param text value as typed \param min smallest \param max largest
 * \param limit why max is the limit (may be empty) \return the number
 * \throws WanInputError naming the flag and the value
 */
uint64_t
ParseUnsigned(const std::string& name,
              const std::string& text,
              uint64_t min,
              uint64_t max,
              const std::string& limit)
{
    const std::string expected = "expected a whole number in " + IntegerRange(min, max);
    if (!text.empty() && text[0] == '-')
    {
        throw WanInputError(
            WanFlags::Rejection(name, text, "must not be negative (" + expected + ")"));
    }
    uint64_t value = 0;
    bool overflow = false;
    for (const char c : text)
    {
        if (!std::isdigit(static_cast<unsigned char>(c)))
        {
            throw WanInputError(WanFlags::Rejection(name, text, expected));
        }
        const auto digit = static_cast<uint64_t>(c - '0');
        overflow = overflow || value > (std::numeric_limits<uint64_t>::max() - digit) / DECIMAL;
        value = overflow ? value : value * DECIMAL + digit;
    }
    if (text.empty())
    {
        throw WanInputError(WanFlags::Rejection(name, text, expected));
    }
    if (overflow || value < min || value > max)
    {
        throw WanInputError(WanFlags::Rejection(name,
                                                text,
                                                "must be in " + IntegerRange(min, max) +
                                                    (limit.empty() ? "" : " (" + limit + ")")));
    }
    return value;
}

/**
 * \param name flag \param value target \param min smallest \param max largest (fits T)
 * \param limit why max is the limit \return the conversion of a whole-number flag
 */
template <typename T>
std::function<void(const std::string&)>
Whole(const std::string& name, T& value, uint64_t min, uint64_t max, const std::string& limit)
{
    return [name, &value, min, max, limit](const std::string& text) {
        value = static_cast<T>(ParseUnsigned(name, text, min, max, limit));
    };
}

/**
 * \brief Parse a real number strictly: decimal digits, optional point and exponent; no blanks,
 *        hexadecimal, "inf" or "nan".
 * \param name flag \param text value as typed \param range where it must lie \return it
 * \throws WanInputError naming the flag and the value
 */
double
ParseReal(const std::string& name, const std::string& text, const WanFlagRange& range)
{
    const std::string expected = "expected a number in " + range.ToString();
    for (const char c : text)
    {
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+' &&
            c != 'e' && c != 'E')
        {
            throw WanInputError(WanFlags::Rejection(name, text, expected));
        }
    }
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    double value = 0;
    in >> value;
    if (text.empty() || in.fail() || in.peek() != std::char_traits<char>::eof() ||
        !std::isfinite(value))
    {
        throw WanInputError(WanFlags::Rejection(name, text, expected));
    }
    if (!range.Contains(value))
    {
        throw WanInputError(WanFlags::Rejection(name, text, "must be in " + range.ToString()));
    }
    return value;
}

/**
 * \brief Run a WanUnits parser and restate its error as "--name=text: problem".
 * \param name flag \param text value as typed \param parse the parser, given "--name"
 * \return what the parser returned
 */
template <typename T, typename Parser>
T
ParseWithUnits(const std::string& name, const std::string& text, Parser parse)
{
    const std::string flag = "--" + name;
    try
    {
        return parse(text, flag);
    }
    catch (const WanInputError& e)
    {
        // WanUnits says "<what>: "<text>": <problem>"; keep the problem.
        const std::string prefix = flag + ": " + WanInputError::Quote(text) + ": ";
        const std::string message = e.what();
        const std::string problem = message.compare(0, prefix.size(), prefix) == 0
                                        ? message.substr(prefix.size())
                                        : message;
        throw WanInputError(WanFlags::Rejection(name, text, problem));
    }
}

} // namespace

bool
WanFlagRange::Contains(double value) const
{
    const bool aboveMin = minOpen ? value > min : value >= min;
    const bool belowMax = maxOpen ? value < max : value <= max;
    return aboveMin && belowMax;
}

std::string
WanFlagRange::ToString() const
{
    return std::string(minOpen ? "(" : "[") + WanUnits::FormatNumber(min) + ", " +
           WanUnits::FormatNumber(max) + (maxOpen ? ")" : "]");
}

WanFlags::WanFlags(CommandLine& cmd)
    : m_cmd(cmd)
{
}

WanFlags::~WanFlags() = default;

std::string
WanFlags::Rejection(const std::string& name, const std::string& text, const std::string& problem)
{
    return "--" + name + "=" + WanInputError::Escape(text) + ": " + problem;
}

void
WanFlags::Add(const std::string& name,
              const std::string& help,
              const std::string& text,
              std::function<void(const std::string&)> convert)
{
    m_flags.push_back(std::make_unique<Flag>(Flag{name, text, std::move(convert)}));
    AddText(m_cmd, name, help, m_flags.back()->text);
}

void
WanFlags::AddText(CommandLine& cmd,
                  const std::string& name,
                  const std::string& help,
                  std::string& value)
{
    AddWholeTextValue(cmd, name, help, value);
}

template <typename T>
void
WanFlags::AddWhole(const std::string& name,
                   const std::string& help,
                   T& value,
                   uint64_t min,
                   uint64_t max,
                   const std::string& limit)
{
    Add(name,
        help + " (" + IntegerRange(min, max) + ")",
        std::to_string(value),
        Whole(name, value, min, max, limit));
}

void
WanFlags::AddUnsigned(const std::string& name,
                      const std::string& help,
                      uint64_t& value,
                      uint64_t min,
                      uint64_t max,
                      const std::string& limit)
{
    AddWhole(name, help, value, min, max, limit);
}

void
WanFlags::AddUnsigned(const std::string& name,
                      const std::string& help,
                      uint32_t& value,
                      uint32_t min,
                      uint32_t max,
                      const std::string& limit)
{
    AddWhole(name, help, value, min, max, limit);
}

void
WanFlags::AddReal(const std::string& name,
                  const std::string& help,
                  double& value,
                  const WanFlagRange& range)
{
    Add(name,
        help + ", in " + range.ToString(),
        WanUnits::FormatNumber(value),
        [name, &value, range](const std::string& t) { value = ParseReal(name, t, range); });
}

void
WanFlags::AddDuration(const std::string& name,
                      const std::string& help,
                      double& seconds,
                      const std::string& text,
                      const WanFlagRange& range)
{
    const bool optional = text.empty();
    Add(name, help, text, [name, &seconds, range, optional](const std::string& t) {
        if (optional && t.empty())
        {
            return;
        }
        const double value = ParseWithUnits<double>(name, t, &WanUnits::ParseDelay);
        if (!range.Contains(value))
        {
            throw WanInputError(Rejection(name, t, "must be in " + range.ToString() + " seconds"));
        }
        seconds = value;
    });
}

void
WanFlags::AddRate(const std::string& name, const std::string& help, uint64_t& bps)
{
    Add(name, help, "", [name, &bps](const std::string& t) {
        if (!t.empty())
        {
            bps = ParseWithUnits<uint64_t>(name, t, &WanUnits::ParseRate);
        }
    });
}

void
WanFlags::AddUpdateFormat(const std::string& name, const std::string& help, UpdateFormat& value)
{
    const std::string expected =
        std::string("expected ") + UpdateFormat::EXPECTED + ", FRACTION in (0, 1] in steps of 1e-6";
    Add(name,
        help + " (" + UpdateFormat::EXPECTED + ")",
        value.ToString(),
        [name, &value, expected](const std::string& t) {
            try
            {
                value = UpdateFormat::FromString(t);
            }
            catch (const std::invalid_argument&)
            {
                throw WanInputError(Rejection(name, t, expected));
            }
        });
}

void
WanFlags::AddChoice(const std::string& name,
                    const std::string& help,
                    std::string& value,
                    const std::vector<std::string>& choices,
                    const std::map<std::string, std::string>& refused)
{
    std::string expected;
    for (const std::string& choice : choices)
    {
        expected += (expected.empty() ? "" : "|") + choice;
    }
    Add(name,
        help + " (" + expected + ")",
        value,
        [name, &value, choices, refused, expected](const std::string& t) {
            if (std::find(choices.begin(), choices.end(), t) != choices.end())
            {
                value = t;
                return;
            }
            const auto it = refused.find(t);
            throw WanInputError(
                Rejection(name,
                          t,
                          (it != refused.end() ? it->second + "; " : "") + "expected " + expected));
        });
}

void
WanFlags::AddCongestionControl(const std::string& name, const std::string& help, TypeId& value)
{
    const std::string text = value.GetName().substr(value.GetName().rfind(':') + 1);
    Add(name, help, text, [name, &value](const std::string& t) {
        TypeId tid;
        if (!TcpTransport::LookupCongestionControl(t, tid))
        {
            std::string known;
            for (const std::string& control : TcpTransport::GetCongestionControls())
            {
                known += (known.empty() ? "" : ", ") + control;
            }
            throw WanInputError(
                Rejection(name,
                          t,
                          "not a TCP congestion control of this ns-3; expected one of " + known));
        }
        value = tid;
    });
}

std::set<std::string>
WanFlags::NamesGiven(int argc, char** argv)
{
    std::set<std::string> names;
    for (int i = 1; i < argc; ++i)
    {
        // ns-3's CommandLine takes --name=value, -name=value and, for booleans, --name.
        const std::string arg = argv[i];
        const std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        if (dashes > 0)
        {
            names.insert(arg.substr(dashes, arg.find('=') - dashes));
        }
    }
    return names;
}

std::string
WanFlags::ChangesNothing(const std::string& name, const std::string& why)
{
    return "--" + name + ": changes nothing in this run; " + why;
}

void
WanFlags::Check() const
{
    for (const auto& flag : m_flags)
    {
        NS_LOG_INFO("--" << flag->name << "=" << flag->text);
        flag->convert(flag->text);
    }
}

const std::string&
WanFlags::GetText(const std::string& name) const
{
    for (const auto& flag : m_flags)
    {
        if (flag->name == name)
        {
            return flag->text;
        }
    }
    throw std::out_of_range("WanFlags: no flag --" + name);
}

} // namespace ns3
