/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-received-bytes.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpReceivedBytes");

void
TcpReceivedBytes::Append(Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    if (packet->GetSize() > 0)
    {
        m_size += packet->GetSize();
        m_pieces.push_back(packet);
    }
}

uint64_t
TcpReceivedBytes::GetSize() const
{
    NS_LOG_FUNCTION(this);
    return m_size;
}

void
TcpReceivedBytes::Peek(uint8_t* out, uint32_t count) const
{
    NS_LOG_FUNCTION(this << count);
    NS_ABORT_MSG_IF(count > m_size, "TcpReceivedBytes: peek " << count << " of " << m_size);
    for (auto piece = m_pieces.begin(); count > 0; ++piece)
    {
        const uint32_t take = std::min(count, (*piece)->GetSize());
        (*piece)->CopyData(out, take);
        out += take;
        count -= take;
    }
}

void
TcpReceivedBytes::Consume(uint64_t count)
{
    NS_LOG_FUNCTION(this << count);
    NS_ABORT_MSG_IF(count > m_size, "TcpReceivedBytes: consume " << count << " of " << m_size);
    m_size -= count;
    while (count > 0)
    {
        const uint32_t front = m_pieces.front()->GetSize();
        if (count >= front)
        {
            m_pieces.pop_front();
            count -= front;
        }
        else
        {
            const uint32_t cut = static_cast<uint32_t>(count);
            m_pieces.front() = m_pieces.front()->CreateFragment(cut, front - cut);
            count = 0;
        }
    }
}

void
TcpReceivedBytes::Clear()
{
    NS_LOG_FUNCTION(this);
    m_pieces.clear();
    m_size = 0;
}

} // namespace ns3
