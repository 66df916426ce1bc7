/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_CAPABILITIES_H
#define WAN_CAPABILITIES_H

#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Which in-network capabilities a city's edge offers.
 */
struct WanCapabilities
{
    bool multicast{false}; //!< the city's router replicates multicast
    bool fpga{false};      //!< an FPGA aggregator sits in-line in front of the city's islands
    bool transit{false};   //!< an FPGA beside the city's router adds up reduction-tree traffic
                           //!< passing through (TransitAggregatorNetDevice)

    /**
     * \brief Parse a capability-set name: "none", "multicast", "fpga" or "both", each but
     *        "none" optionally followed by "+transit", or "transit" alone.
     * \param text the capability-set name
     * \param what where the text came from (a flag or field name), for the error message
     * \return the capabilities
     * \throws WanInputError naming \p what and \p text
     */
    static WanCapabilities Parse(const std::string& text, const std::string& what);
    /** \return the set's name, as Parse() reads it: e.g. "both", "transit", "fpga+transit" */
    std::string ToString() const;
    /** \param other capabilities to compare \return true if equal */
    bool operator==(const WanCapabilities& other) const;
};

} // namespace ns3

#endif /* WAN_CAPABILITIES_H */
