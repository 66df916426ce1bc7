/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cross-traffic-socket-factory.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrossTrafficSocketFactory");

NS_OBJECT_ENSURE_REGISTERED(CrossTrafficSocketFactory);

TypeId
CrossTrafficSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CrossTrafficSocketFactory")
                            .SetParent<SocketFactory>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<CrossTrafficSocketFactory>();
    return tid;
}

CrossTrafficSocketFactory::CrossTrafficSocketFactory()
{
    NS_LOG_FUNCTION(this);
}

CrossTrafficSocketFactory::~CrossTrafficSocketFactory()
{
    NS_LOG_FUNCTION(this);
}

void
CrossTrafficSocketFactory::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_attributes.clear();
    SocketFactory::DoDispose();
}

void
CrossTrafficSocketFactory::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_attributes.emplace_back(name, value.Copy());
}

Ptr<Socket>
CrossTrafficSocketFactory::CreateSocket()
{
    NS_LOG_FUNCTION(this);
    const Ptr<SocketFactory> tcp = GetObject<TcpSocketFactory>();
    NS_ABORT_MSG_IF(!tcp,
                    "CrossTrafficSocketFactory: the node has no TCP (install the internet stack "
                    "before the factory is used)");
    const Ptr<Socket> socket = tcp->CreateSocket();
    for (const auto& [name, value] : m_attributes)
    {
        socket->SetAttribute(name, *value);
    }
    return socket;
}

} // namespace ns3
