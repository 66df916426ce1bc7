/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_MULTICAST_TREE_H
#define WAN_MULTICAST_TREE_H

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class WanTopologyHelper;

/**
 * \ingroup wan-training
 * \brief The WAN controller's multicast rule: one (source, group) shortest-path tree per
 *        sender, installed as entries on the routers it crosses, and the verdict whether the
 *        routers would carry it.
 *
 * The tree is WanRouting::GetTree from the sender's city to its receivers' cities. Each router
 * on it gets one entry: the WAN ports of the tree edges that leave it, then the access ports of
 * its local receivers. The tree is carried only if every one of its routers is in a
 * multicast-capable city, has MulticastEnabled and would replicate to no more than MaxFanOut
 * ports; otherwise the sender must send unicast copies (the rule the cost model follows too).
 */
class WanMulticastTree
{
  public:
    /**
     * \brief Install the (sender, group) tree towards the receivers on every router it crosses.
     * \param wan the installed WAN \param sender sending island \param group group address
     * \param receivers receiving islands (the sender itself is ignored)
     * \param refusal if not null, receives why the routers would not carry the tree ("" when
     *        they would): a city without the multicast capability, a router whose
     *        MulticastEnabled attribute is false, or a router entry over its MaxFanOut
     * \return true if the routers would replicate the group's packets
     * \throws WanTopologyError for an island out of range or a group that is not multicast
     */
    static bool Install(WanTopologyHelper& wan,
                        uint32_t sender,
                        Ipv4Address group,
                        const std::vector<uint32_t>& receivers,
                        std::string* refusal);
};

} // namespace ns3

#endif /* WAN_MULTICAST_TREE_H */
