/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-fork-repair.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-base.h"
#include "ns3/object-ptr-container.h"
#include "ns3/pointer.h"
#include "ns3/socket.h"
#include "ns3/tcp-congestion-ops.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpForkRepair");

namespace
{
/**
 * \param info an attribute
 * \return whether it can be read and written and holds a plain value, not an object pointer
 *         or container (copying those would share an object between two connections)
 */
bool
IsPlainReadWrite(const TypeId::AttributeInformation& info)
{
    const bool readWrite =
        (info.flags & TypeId::ATTR_GET) != 0 && (info.flags & TypeId::ATTR_SET) != 0;
    const std::string type = info.checker->GetValueTypeName();
    return readWrite && type != "ns3::PointerValue" && type != "ns3::ObjectPtrContainerValue";
}

/**
 * \param socket a TCP socket
 * \return its congestion control (TcpSocketBase's CongestionOps attribute), or nullptr
 */
Ptr<TcpCongestionOps>
CongestionOf(Ptr<Socket> socket)
{
    PointerValue ops;
    if (!socket || !socket->GetAttributeFailSafe("CongestionOps", ops))
    {
        return nullptr;
    }
    return ops.Get<TcpCongestionOps>();
}
} // namespace

std::vector<std::string>
TcpForkRepair::CopyAttributes(const ObjectBase& from, ObjectBase& to)
{
    NS_LOG_FUNCTION(&from << &to);
    NS_ABORT_MSG_UNLESS(from.GetInstanceTypeId() == to.GetInstanceTypeId(),
                        "TcpForkRepair: " << from.GetInstanceTypeId().GetName() << " and "
                                          << to.GetInstanceTypeId().GetName() << " differ");
    std::vector<std::string> copied;
    for (TypeId tid = from.GetInstanceTypeId();; tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!IsPlainReadWrite(info))
            {
                continue;
            }
            // An attribute the object's class does not have reads as a failure: ns-3 3.37 lists
            // TcpSocketBase as TcpCubic's parent TypeId. The copy's value is written without
            // being read: it may be uninitialised.
            const Ptr<AttributeValue> value = info.checker->Create();
            if (from.GetAttributeFailSafe(info.name, *value) &&
                to.SetAttributeFailSafe(info.name, *value))
            {
                copied.push_back(info.name);
            }
        }
        if (tid == tid.GetParent())
        {
            NS_LOG_LOGIC(copied.size() << " attributes of " << to.GetInstanceTypeId().GetName());
            return copied;
        }
    }
}

std::vector<std::string>
TcpForkRepair::RepairAccepted(Ptr<Socket> listener, Ptr<Socket> accepted)
{
    NS_LOG_FUNCTION(listener << accepted);
    const Ptr<TcpCongestionOps> configured = CongestionOf(listener);
    const Ptr<TcpCongestionOps> forked = CongestionOf(accepted);
    if (!configured || !forked || configured->GetInstanceTypeId() != forked->GetInstanceTypeId())
    {
        return {};
    }
    return CopyAttributes(*configured, *forked);
}

} // namespace ns3
