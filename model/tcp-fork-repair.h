/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_FORK_REPAIR_H
#define TCP_FORK_REPAIR_H

#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

class ObjectBase;
class Socket;

/**
 * \ingroup wan-training
 * \brief Gives a TCP socket that a listener accepted the listener's congestion-control
 *        configuration.
 *
 * ns-3 makes an accepted socket by copying the listener (TcpSocketBase's copy constructor),
 * and the listener's congestion control by its Fork(), a copy constructor too. A copy
 * constructor that misses a field leaves it to whatever the heap held: the TcpCubic of ns-3
 * 3.43 and 3.48 copies every attribute but TcpFriendliness, so an accepted connection ran with
 * or without the Reno-friendly window depending on earlier allocations, and a TCP result
 * depended on what ran before it in the same process. The repair copies every plain attribute of
 * the listener's congestion control to the accepted socket's before the connection's first
 * acknowledgement is processed (ns-3 calls the accept callback first); on a correct fork the
 * values are already equal.
 */
class TcpForkRepair
{
  public:
    /**
     * \brief Copy every attribute of \p from that can be read and written and holds a plain
     *        value (not an object pointer or container, which two connections must not share).
     * \param from the object whose attributes are the configuration
     * \param to an object of the same TypeId; its values are not read (a field a copy
     *        constructor missed is uninitialised)
     * \return the names of the attributes copied, in the TypeId's order (the most derived
     *         class first)
     */
    static std::vector<std::string> CopyAttributes(const ObjectBase& from, ObjectBase& to);

    /**
     * \brief Give \p accepted's congestion control the attributes of \p listener's.
     * \param listener the listening TcpSocketBase \param accepted a socket it accepted
     * \return the names of the attributes copied (none when either socket has no congestion
     *         control or the two are of different types)
     */
    static std::vector<std::string> RepairAccepted(Ptr<Socket> listener, Ptr<Socket> accepted);
};

} // namespace ns3

#endif /* TCP_FORK_REPAIR_H */
