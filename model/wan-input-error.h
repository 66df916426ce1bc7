/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_INPUT_ERROR_H
#define WAN_INPUT_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Error raised for an invalid input: a topology or schedule file, a capability set, a
 *        generator parameter or an override.
 *
 * The message names the source (file), the field and the offending value, in the form
 * "source: field: value: problem" (see doc/input-rules.rst). Examples catch it and exit
 * non-zero; nothing in the module aborts on bad input.
 */
class WanInputError : public std::runtime_error
{
  public:
    /** \param message the complete, user-facing message */
    explicit WanInputError(const std::string& message)
        : std::runtime_error(message)
    {
    }

    /**
     * \brief Make a value safe to print in a message: every control character (C0, DEL and the
     *        C1 range U+0080..U+009F) written as an escape, so a message never carries raw
     *        terminal controls. Other text, UTF-8 included, stays as it is.
     *
     * Escapes are those of JSON: \\b, \\f, \\n, \\r, \\t, else \\u00XX.
     * \param text any text \return the text with its control characters escaped
     */
    static std::string Escape(const std::string& text);
    /**
     * \param text any text
     * \return it in double quotes as messages quote values: control characters escaped as
     *         Escape() does, and a double quote or backslash inside with a backslash, so the
     *         quoted value reads as a JSON string
     */
    static std::string Quote(const std::string& text);
};

/** \ingroup wan-training \brief The name topology code has always used for WanInputError. */
using WanTopologyError = WanInputError;

} // namespace ns3

#endif /* WAN_INPUT_ERROR_H */
