/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-json-input.h"

#include "wan-units.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanJsonInput");

namespace
{

using Json = WanJsonInput::Json;

/**
 * \brief Turn a parse error's byte offset into "line L, column C".
 * \param text the document \param byte nlohmann's 1-based count of bytes read
 * \return the position text
 */
std::string
LineAndColumn(const std::string& text, std::size_t byte)
{
    NS_LOG_FUNCTION(text << byte);
    const std::size_t offset = std::min(byte > 0 ? byte - 1 : 0, text.size());
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i)
    {
        if (text[i] == '\n')
        {
            ++line;
            lineStart = i + 1;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1);
}

/**
 * \param what an nlohmann exception's text, e.g. "[json.exception.parse_error.101] parse error
 *        at line 1, column 2: syntax error ..."
 * \return the explanation alone, without nlohmann's tag and position
 */
std::string
Reason(const std::string& what)
{
    NS_LOG_FUNCTION(what);
    std::string reason = what;
    const auto tag = reason.find("] ");
    if (reason.rfind("[json.exception.", 0) == 0 && tag != std::string::npos)
    {
        reason = reason.substr(tag + 2);
    }
    if (reason.rfind("parse error", 0) == 0)
    {
        const auto colon = reason.find(": ");
        if (colon != std::string::npos)
        {
            reason = reason.substr(colon + 2);
        }
    }
    return reason;
}

/**
 * \brief Where the parser is: one frame per open object or array, so that a repeated key is
 *        named by its path ("links[3].delay").
 */
struct Frame
{
    bool object{true};          //!< an object (else an array)
    std::string key;            //!< object: the key being read
    std::size_t index{0};       //!< array: the element being read
    std::set<std::string> keys; //!< object: the keys read so far
};

/** \param frames the open objects and arrays \param key the innermost key \return its path */
std::string
PathOf(const std::vector<Frame>& frames, const std::string& key)
{
    NS_LOG_FUNCTION(key);
    std::string path;
    for (std::size_t i = 0; i + 1 < frames.size(); ++i)
    {
        if (frames[i].object)
        {
            path += (path.empty() ? "" : ".") + frames[i].key;
        }
        else
        {
            path += "[" + std::to_string(frames[i].index) + "]";
        }
    }
    return path + (path.empty() ? "" : ".") + key;
}

/**
 * \brief nlohmann SAX events of a document's structure: rejects a repeated key and nesting
 *        past MAX_DEPTH, builds nothing.
 *
 * A pass of its own before the DOM parse: nlohmann's parser callback, which did this before,
 * scans the enclosing array for discarded values at every object's end, so an array of n
 * objects cost n^2 (60,536 cross-traffic flows: 2 s in release, 93 s under ASan).
 * Syntax errors are left to the DOM parse, which reports them with their position.
 */
class StructureCheck
{
  public:
    /** \param source the document's name, for messages */
    explicit StructureCheck(const std::string& source)
        : m_source(source)
    {
    }

    /** \return true: go on */
    bool null()
    {
        return Value();
    }

    /** \return true: go on */
    bool boolean(bool)
    {
        return Value();
    }

    /** \return true: go on */
    bool number_integer(Json::number_integer_t)
    {
        return Value();
    }

    /** \return true: go on */
    bool number_unsigned(Json::number_unsigned_t)
    {
        return Value();
    }

    /** \return true: go on */
    bool number_float(Json::number_float_t, const Json::string_t&)
    {
        return Value();
    }

    /** \return true: go on */
    bool string(Json::string_t&)
    {
        return Value();
    }

    /** \return true: go on */
    bool binary(Json::binary_t&)
    {
        return Value();
    }

    /** \return true: go on \throw WanInputError when nested too deep */
    bool start_object(std::size_t)
    {
        return Open(true);
    }

    /** \param key the key \return true: go on \throw WanInputError on a repeated key */
    bool key(Json::string_t& key)
    {
        if (!m_frames.back().keys.insert(key).second)
        {
            WanJsonInput::Reject(m_source,
                                 PathOf(m_frames, key),
                                 Json(key),
                                 "duplicate key (a key may appear once in an object)");
        }
        m_frames.back().key = key;
        return true;
    }

    /** \return true: go on */
    bool end_object()
    {
        return Close();
    }

    /** \return true: go on \throw WanInputError when nested too deep */
    bool start_array(std::size_t)
    {
        return Open(false);
    }

    /** \return true: go on */
    bool end_array()
    {
        return Close();
    }

    /** \return false: stop; the DOM parse reports the error */
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&)
    {
        return false;
    }

  private:
    /** \return true \brief A value ends: the enclosing array's next element follows. */
    bool Value()
    {
        if (!m_frames.empty() && !m_frames.back().object)
        {
            ++m_frames.back().index;
        }
        return true;
    }

    /** \param object an object (else an array) \return true */
    bool Open(bool object)
    {
        if (m_frames.size() == WanJsonInput::MAX_DEPTH)
        {
            throw WanInputError(m_source + ": " +
                                (m_frames.front().object ? m_frames.front().key : "document") +
                                ": objects and arrays nested deeper than " +
                                std::to_string(WanJsonInput::MAX_DEPTH) + " levels");
        }
        m_frames.emplace_back();
        m_frames.back().object = object;
        return true;
    }

    /** \return true */
    bool Close()
    {
        m_frames.pop_back();
        return Value();
    }

    std::string m_source;        //!< the document's name
    std::vector<Frame> m_frames; //!< the open objects and arrays
};

} // namespace

// ---------------------------------------------------------------------------------------------
// WanJsonInput

Json
WanJsonInput::Parse(const std::string& text, const std::string& source)
{
    NS_LOG_FUNCTION(source);
    // nlohmann keeps the last of two equal keys; a repeated key is rejected instead, as a
    // typo or a copy-paste slip that would otherwise go unnoticed.
    StructureCheck check(source);
    try
    {
        Json::sax_parse(text, &check);
        return Json::parse(text);
    }
    catch (const Json::parse_error& e)
    {
        throw WanInputError(source + ": " + LineAndColumn(text, e.byte) +
                            ": invalid JSON: " + Reason(e.what()));
    }
    catch (const Json::out_of_range& e)
    {
        // A number beyond a double, e.g. 1e400: nlohmann gives no position.
        throw WanInputError(source + ": invalid JSON: " + Reason(e.what()));
    }
}

std::string
WanJsonInput::ReadFile(const std::string& path, const std::string& what)
{
    NS_LOG_FUNCTION(path << what);
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw WanInputError(path + ": cannot open " + what);
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw WanInputError(path + ": cannot read " + what);
    }
    return text.str();
}

std::string
WanJsonInput::Show(const Json& value)
{
    NS_LOG_FUNCTION_NOARGS();
    // Invalid UTF-8 is shown replaced rather than thrown about: the message is for people.
    // JSON escapes C0 controls; DEL and the C1 range it leaves raw.
    std::string text =
        WanInputError::Escape(value.dump(-1, ' ', false, Json::error_handler_t::replace));
    if (text.size() > MAX_QUOTED_VALUE)
    {
        text = text.substr(0, MAX_QUOTED_VALUE) + "...";
    }
    return text;
}

std::string
WanJsonInput::Element(const std::string& name, std::size_t index)
{
    NS_LOG_FUNCTION(name << index);
    return name + "[" + std::to_string(index) + "]";
}

std::string
WanJsonInput::NameProblem(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    if (WanInputError::Escape(name) != name)
    {
        return "must not contain a control character";
    }
    for (char c : name)
    {
        if (c == ',' || c == '"' || c == '\\')
        {
            return "must not contain a comma, a double quote or a backslash (names are written "
                   "as they are into CSV and JSON outputs)";
        }
    }
    return "";
}

void
WanJsonInput::Fail(const std::string& source,
                   const std::string& field,
                   const std::string& value,
                   const std::string& problem)
{
    NS_LOG_FUNCTION(source << field << value << problem);
    throw WanInputError(source + ": " + field + ": " + value + ": " + problem);
}

void
WanJsonInput::Reject(const std::string& source,
                     const std::string& field,
                     const Json& value,
                     const std::string& problem)
{
    NS_LOG_FUNCTION(source << field << problem);
    Fail(source, field, Show(value), problem);
}

// ---------------------------------------------------------------------------------------------
// WanJsonObject

WanJsonObject::WanJsonObject(const Json& value,
                             const std::string& source,
                             const std::string& path,
                             std::initializer_list<const char*> allowed)
    : m_value(value),
      m_source(source),
      m_path(path)
{
    NS_LOG_FUNCTION(this << source << path);
    if (!value.is_object())
    {
        WanJsonInput::Reject(source, path.empty() ? "document" : path, value, "expected an object");
    }
    for (auto it = value.begin(); it != value.end(); ++it)
    {
        bool known = false;
        std::string list;
        for (const char* name : allowed)
        {
            known = known || it.key() == name;
            list += (list.empty() ? "" : ", ") + std::string(name);
        }
        if (!known)
        {
            Fail(it.key(), it.value(), "unknown field (expected one of " + list + ")");
        }
    }
}

std::string
WanJsonObject::Field(const std::string& key) const
{
    NS_LOG_FUNCTION(this << key);
    return m_path.empty() ? key : m_path + "." + key;
}

std::string
WanJsonObject::Where(const std::string& key) const
{
    NS_LOG_FUNCTION(this << key);
    return m_source + ": " + Field(key);
}

void
WanJsonObject::Fail(const std::string& key, const Json& value, const std::string& problem) const
{
    NS_LOG_FUNCTION(this << key << problem);
    WanJsonInput::Reject(m_source, Field(key), value, problem);
}

bool
WanJsonObject::Has(const char* key) const
{
    NS_LOG_FUNCTION(this << key);
    return m_value.contains(key);
}

const WanJsonObject::Json&
WanJsonObject::Require(const char* key) const
{
    NS_LOG_FUNCTION(this << key);
    if (!Has(key))
    {
        throw WanInputError(Where(key) + ": missing required field");
    }
    return m_value.at(key);
}

std::string
WanJsonObject::String(const char* key, bool required, const std::string& fallback) const
{
    NS_LOG_FUNCTION(this << key << required << fallback);
    if (!required && !Has(key))
    {
        return fallback;
    }
    const Json& value = Require(key);
    if (!value.is_string())
    {
        Fail(key, value, "expected a string");
    }
    return value.get<std::string>();
}

std::string
WanJsonObject::Name(const char* key, bool required, const std::string& fallback) const
{
    NS_LOG_FUNCTION(this << key << required << fallback);
    const std::string name = String(key, required, fallback);
    const std::string problem = WanJsonInput::NameProblem(name);
    if (!problem.empty())
    {
        Fail(key, Json(name), problem);
    }
    return name;
}

double
WanJsonObject::Number(const char* key) const
{
    NS_LOG_FUNCTION(this << key);
    const Json& value = Require(key);
    if (!value.is_number())
    {
        Fail(key, value, "expected a number");
    }
    return value.get<double>();
}

double
WanJsonObject::Number(const char* key, double fallback) const
{
    NS_LOG_FUNCTION(this << key << fallback);
    return Has(key) ? Number(key) : fallback;
}

uint64_t
WanJsonObject::Integer(const char* key, uint64_t low, uint64_t high) const
{
    NS_LOG_FUNCTION(this << key << low << high);
    const Json& value = Require(key);
    if (!value.is_number_integer())
    {
        Fail(key, value, "expected an integer");
    }
    const bool negative = !value.is_number_unsigned() && value.get<int64_t>() < 0;
    if (negative || value.get<uint64_t>() < low || value.get<uint64_t>() > high)
    {
        Fail(key, value, "must be in " + std::to_string(low) + ".." + std::to_string(high));
    }
    return value.get<uint64_t>();
}

bool
WanJsonObject::Bool(const char* key, bool fallback) const
{
    NS_LOG_FUNCTION(this << key << fallback);
    if (!Has(key))
    {
        return fallback;
    }
    const Json& value = m_value.at(key);
    if (!value.is_boolean())
    {
        Fail(key, value, "expected true or false");
    }
    return value.get<bool>();
}

const WanJsonObject::Json&
WanJsonObject::Array(const char* key, bool required) const
{
    NS_LOG_FUNCTION(this << key << required);
    static const Json empty = Json::array();
    if (!required && !Has(key))
    {
        return empty;
    }
    const Json& value = Require(key);
    if (!value.is_array())
    {
        Fail(key, value, "expected an array");
    }
    return value;
}

uint64_t
WanJsonObject::Rate(const char* key, uint64_t fallback) const
{
    NS_LOG_FUNCTION(this << key << fallback);
    if (!Has(key))
    {
        return fallback;
    }
    const Json& value = Require(key);
    if (value.is_string())
    {
        return WanUnits::ParseRate(value.get<std::string>(), Where(key));
    }
    if (!value.is_number())
    {
        Fail(key, value, "expected a rate such as \"100Gbps\" or a number of bits/s");
    }
    // A bare number is bits per second.
    const double bps = std::round(value.get<double>());
    const std::string problem = WanUnits::RateProblem(bps);
    if (!problem.empty())
    {
        Fail(key, value, problem);
    }
    return static_cast<uint64_t>(bps);
}

WanQueueSpec
WanJsonObject::Queue(const char* key, const WanQueueSpec& fallback) const
{
    NS_LOG_FUNCTION(this << key);
    if (!Has(key))
    {
        return fallback;
    }
    const Json& value = Require(key);
    if (!value.is_string())
    {
        Fail(key, value, "expected a queue size such as \"100p\", \"125MB\", \"50ms\" or \"bdp\"");
    }
    return WanQueueSpec::Parse(value.get<std::string>(), Where(key));
}

double
WanJsonObject::Seconds(const char* key, double fallback, std::string (*problem)(double)) const
{
    NS_LOG_FUNCTION(this << key << fallback);
    if (!Has(key))
    {
        return fallback;
    }
    const Json& value = Require(key);
    double seconds = 0;
    if (value.is_string())
    {
        seconds = WanUnits::ParseDelay(value.get<std::string>(), Where(key));
    }
    else if (value.is_number())
    {
        seconds = value.get<double>(); // a bare number is seconds
    }
    else
    {
        Fail(key, value, "expected a time such as \"7.3ms\" or a number of seconds");
    }
    const std::string wrong = problem(seconds);
    if (!wrong.empty())
    {
        Fail(key, value, wrong);
    }
    return seconds;
}

} // namespace ns3
