/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_JSON_INPUT_H
#define WAN_JSON_INPUT_H

// Private to the module's loaders (not installed): it exposes nlohmann::json, which users of
// the public headers need not have.

#include "wan-input-error.h"
#include "wan-queue-spec.h"

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The input rules every JSON input file shares: strict parsing (no repeated keys),
 *        value quoting for messages, file reading and the rule for names.
 *
 * Used by the topology and schedule loaders, so both files are read by one set of rules.
 * Every error is a WanInputError "source: field: value: problem".
 */
class WanJsonInput
{
  public:
    /** The JSON document type of the loaders. */
    using Json = nlohmann::json;

    /** Longest value quoted in an error message; longer values are cut. */
    static constexpr std::size_t MAX_QUOTED_VALUE = 60;
    /**
     * Deepest nesting of objects and arrays a document may have: the module's files need 4;
     * far deeper ones would exhaust the stack when a value is quoted in a message.
     */
    static constexpr std::size_t MAX_DEPTH = 64;

    /**
     * \brief Parse a JSON document, rejecting a key repeated within one object.
     * \param text the document \param source the file name for messages
     * \return the document
     * \throws WanInputError naming \p source and the line and column of a syntax error, or the
     *         path of a repeated key
     */
    static Json Parse(const std::string& text, const std::string& source);
    /**
     * \brief Read a whole file.
     * \param path the file \param what its kind for messages, e.g. "topology file"
     * \return its bytes \throws WanInputError "path: cannot open <what>"
     */
    static std::string ReadFile(const std::string& path, const std::string& what);
    /** \param value a JSON value \return it as compact JSON text, cut if long */
    static std::string Show(const Json& value);
    /** \param name an array's path \param index an index \return e.g. "links[3]" */
    static std::string Element(const std::string& name, std::size_t index);
    /**
     * \brief The rule for names (cities, islands, topologies, schedules): what every output
     *        format (CSV, JSON, logs) carries as it is.
     * \param name a name
     * \return "" if \p name is fine, else what is wrong with it (a control character, a
     *         comma, a double quote or a backslash)
     */
    static std::string NameProblem(const std::string& name);
    /**
     * \brief Throw a WanInputError "source: field: value: problem".
     * \param source the file \param field the field path, e.g. "links[3].bandwidth"
     * \param value the value as quoted in messages \param problem what is wrong
     */
    [[noreturn]] static void Fail(const std::string& source,
                                  const std::string& field,
                                  const std::string& value,
                                  const std::string& problem);
    /**
     * \brief Throw a WanInputError "source: field: value: problem", the value shown as JSON.
     * \param source the file \param field the field path \param value the offending value
     * \param problem what is wrong
     */
    [[noreturn]] static void Reject(const std::string& source,
                                    const std::string& field,
                                    const Json& value,
                                    const std::string& problem);
};

/**
 * \ingroup wan-training
 * \brief The fields of one JSON object, read with type checks and rejected when unknown.
 *
 * Every error names the source, the field path (e.g. "links[3].bandwidth") and the value.
 */
class WanJsonObject
{
  public:
    /** The JSON document type. */
    using Json = WanJsonInput::Json;

    /**
     * \param value the JSON value that must be an object
     * \param source the file name for messages
     * \param path the object's own path, e.g. "cities[2]" ("" for the document)
     * \param allowed the field names this object may hold; any other is rejected
     * \throws WanInputError if \p value is not an object or holds an unknown field
     */
    WanJsonObject(const Json& value,
                  const std::string& source,
                  const std::string& path,
                  std::initializer_list<const char*> allowed);

    /** \param key a field name \return the field's path for messages */
    std::string Field(const std::string& key) const;
    /** \param key a field name \return "source: path.key", the prefix of messages */
    std::string Where(const std::string& key) const;
    /** \param key a field \param value its value \param problem what is wrong */
    [[noreturn]] void Fail(const std::string& key,
                           const Json& value,
                           const std::string& problem) const;
    /** \param key a field name \return true if present */
    bool Has(const char* key) const;
    /** \param key a field \return its value \throws WanInputError if missing */
    const Json& Require(const char* key) const;
    /**
     * \param key a field \param required throw if missing \param fallback used if missing
     * \return the string
     */
    std::string String(const char* key, bool required, const std::string& fallback = "") const;
    /**
     * \brief A string field that is a name (see WanJsonInput::NameProblem).
     * \param key a field \param required throw if missing \param fallback used if missing
     * \return the name
     */
    std::string Name(const char* key, bool required, const std::string& fallback = "") const;
    /** \param key a required numeric field \return its value */
    double Number(const char* key) const;
    /** \param key an optional numeric field \param fallback used if missing \return value */
    double Number(const char* key, double fallback) const;
    /**
     * \param key a required integer field \param low, high the allowed range
     * \return its value \throws WanInputError if not an integer in [low, high]
     */
    uint64_t Integer(const char* key, uint64_t low, uint64_t high) const;
    /** \param key an optional boolean field \param fallback used if missing \return value */
    bool Bool(const char* key, bool fallback) const;
    /**
     * \param key an array field \param required throw if missing
     * \return the array, or an empty array if missing and not required
     */
    const Json& Array(const char* key, bool required) const;
    /**
     * \brief An optional rate field: a string with a unit (WanUnits::ParseRate) or a bare
     *        number of bits per second.
     * \param key a field \param fallback used if missing \return bits per second
     */
    uint64_t Rate(const char* key, uint64_t fallback) const;
    /**
     * \brief An optional time field: a string with a unit (WanUnits::ParseDelay) or a bare
     *        number of seconds, checked by \p problem.
     * \param key a field \param fallback used if missing
     * \param problem the range rule: "" if a number of seconds is fine, else what is wrong
     * \return seconds
     */
    double Seconds(const char* key, double fallback, std::string (*problem)(double)) const;
    /**
     * \brief An optional queue field: a string WanQueueSpec::Parse reads ("100p", "125MB",
     *        "50ms", "bdp").
     * \param key a field \param fallback used if missing \return the spec
     */
    WanQueueSpec Queue(const char* key, const WanQueueSpec& fallback) const;

  private:
    const Json& m_value;  //!< the object
    std::string m_source; //!< file name
    std::string m_path;   //!< path of the object
};

} // namespace ns3

#endif /* WAN_JSON_INPUT_H */
