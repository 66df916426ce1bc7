/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-csv.h"

namespace ns3
{

std::string
TrainingCsv::Field(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
    {
        return text;
    }
    std::string field = "\"";
    for (char c : text)
    {
        field += c;
        if (c == '"')
        {
            field += '"';
        }
    }
    field += '"';
    return field;
}

} // namespace ns3
