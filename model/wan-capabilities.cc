/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-capabilities.h"

#include "wan-input-error.h"

namespace ns3
{

WanCapabilities
WanCapabilities::Parse(const std::string& text, const std::string& what)
{
    WanCapabilities caps;
    if (text == "none")
    {
        return caps;
    }
    if (text == "multicast")
    {
        caps.multicast = true;
        return caps;
    }
    if (text == "fpga")
    {
        caps.fpga = true;
        return caps;
    }
    if (text == "both")
    {
        caps.multicast = true;
        caps.fpga = true;
        return caps;
    }
    throw WanInputError(what + ": \"" + text + "\": expected none|multicast|fpga|both");
}

std::string
WanCapabilities::ToString() const
{
    if (multicast && fpga)
    {
        return "both";
    }
    if (multicast)
    {
        return "multicast";
    }
    if (fpga)
    {
        return "fpga";
    }
    return "none";
}

bool
WanCapabilities::operator==(const WanCapabilities& other) const
{
    return multicast == other.multicast && fpga == other.fpga;
}

} // namespace ns3
