/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-capabilities.h"

#include "wan-input-error.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCapabilities");

WanCapabilities
WanCapabilities::Parse(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    static const std::string TRANSIT = "transit";
    static const std::string PLUS_TRANSIT = "+transit";
    WanCapabilities caps;
    std::string edge = text;
    if (text == TRANSIT)
    {
        caps.transit = true;
        return caps;
    }
    if (text.size() > PLUS_TRANSIT.size() &&
        text.compare(text.size() - PLUS_TRANSIT.size(), PLUS_TRANSIT.size(), PLUS_TRANSIT) == 0)
    {
        caps.transit = true;
        edge = text.substr(0, text.size() - PLUS_TRANSIT.size());
    }
    caps.multicast = edge == "multicast" || edge == "both";
    caps.fpga = edge == "fpga" || edge == "both";
    if (!caps.multicast && !caps.fpga && !(edge == "none" && !caps.transit))
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) +
                            ": expected none|multicast|fpga|both, each but none optionally "
                            "with +transit, or transit");
    }
    return caps;
}

std::string
WanCapabilities::ToString() const
{
    NS_LOG_FUNCTION(this);
    std::string edge = "none";
    if (multicast && fpga)
    {
        edge = "both";
    }
    else if (multicast)
    {
        edge = "multicast";
    }
    else if (fpga)
    {
        edge = "fpga";
    }
    if (!transit)
    {
        return edge;
    }
    return edge == "none" ? "transit" : edge + "+transit";
}

bool
WanCapabilities::operator==(const WanCapabilities& other) const
{
    return multicast == other.multicast && fpga == other.fpga && transit == other.transit;
}

} // namespace ns3
