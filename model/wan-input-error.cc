/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-input-error.h"

#include "ns3/log.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanInputError");

namespace
{

/** First byte of the UTF-8 encoding of U+0080..U+00BF; the C1 controls follow it. */
constexpr unsigned char UTF8_LEAD_C2 = 0xc2;
/** Second byte range of the C1 controls U+0080..U+009F after UTF8_LEAD_C2. */
constexpr unsigned char C1_FIRST = 0x80;
/** \copydoc C1_FIRST */
constexpr unsigned char C1_LAST = 0x9f;
/** The DEL character, a control character that C0 does not cover. */
constexpr unsigned char DEL = 0x7f;

/**
 * \param out where the escape goes \param code a code point below 0x100
 * \brief append JSON's escape of a control character
 */
void
AppendEscape(std::string& out, unsigned code)
{
    switch (code)
    {
    case '\b':
        out += "\\b";
        return;
    case '\f':
        out += "\\f";
        return;
    case '\n':
        out += "\\n";
        return;
    case '\r':
        out += "\\r";
        return;
    case '\t':
        out += "\\t";
        return;
    default:
        char hex[8];
        std::snprintf(hex, sizeof(hex), "\\u%04x", code);
        out += hex;
    }
}

/**
 * \param text any text \param quoted true: also escape '"' and '\\'
 * \return the text with its control characters (and, if quoted, quotes) escaped
 */
std::string
EscapeText(const std::string& text, bool quoted)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i)
    {
        const auto byte = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0U;
        if (byte < 0x20 || byte == DEL)
        {
            AppendEscape(out, byte);
        }
        else if (byte == UTF8_LEAD_C2 && next >= C1_FIRST && next <= C1_LAST)
        {
            AppendEscape(out, next);
            ++i;
        }
        else
        {
            if (quoted && (byte == '"' || byte == '\\'))
            {
                out += '\\';
            }
            out += text[i];
        }
    }
    return out;
}

} // namespace

std::string
WanInputError::Escape(const std::string& text)
{
    NS_LOG_FUNCTION_NOARGS();
    return EscapeText(text, false);
}

std::string
WanInputError::Quote(const std::string& text)
{
    NS_LOG_FUNCTION_NOARGS();
    return "\"" + EscapeText(text, true) + "\"";
}

} // namespace ns3
