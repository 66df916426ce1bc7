/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CROSS_TRAFFIC_SOCKET_FACTORY_H
#define CROSS_TRAFFIC_SOCKET_FACTORY_H

#include "ns3/attribute.h"
#include "ns3/socket-factory.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The TCP sockets of a cross-traffic host: made by the node's own TcpSocketFactory, then
 *        given the host's socket attributes (segment size, buffer sizes).
 *
 * ns-3's applications create their sockets when they start, from the TcpSocket attribute
 * defaults, which are global (Config::SetDefault) and would change every other TCP socket of
 * the simulation too. Aggregated to a cross-traffic host and named as the applications'
 * Protocol, this factory sets the attributes on the host's sockets alone: the listening socket
 * of a PacketSink passes them on to every connection it accepts.
 */
class CrossTrafficSocketFactory : public SocketFactory
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    CrossTrafficSocketFactory();
    ~CrossTrafficSocketFactory() override;

    /**
     * \brief Set an attribute of every socket created from now on (e.g. "SegmentSize").
     * \param name a TcpSocket attribute \param value its value
     */
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);
    /** \return a TCP socket of the node, with the attributes set */
    Ptr<Socket> CreateSocket() override;

  protected:
    void DoDispose() override;

  private:
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_attributes; //!< set on each socket
};

} // namespace ns3

#endif /* CROSS_TRAFFIC_SOCKET_FACTORY_H */
