/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-rank-bundle.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRankBundle");

WanRankBundle::WanRankBundle()
    : m_words{MAGIC, 0}
{
    NS_LOG_FUNCTION(this);
}

uint32_t
WanRankBundle::GetFrameBytes(Ptr<const Packet> packet)
{
    return FrameBytes(packet->GetSerializedSize());
}

bool
WanRankBundle::Add(Time arrival, Ptr<const Packet> packet, uint16_t protocol, uint32_t maxBytes)
{
    NS_LOG_FUNCTION(this << arrival << packet << protocol << maxBytes);
    NS_ABORT_MSG_IF(!IsEmpty() && arrival < m_lastArrival,
                    "WanRankBundle: frame arriving at " << arrival << " after one at "
                                                        << m_lastArrival);
    const uint32_t bytes = packet->GetSerializedSize();
    NS_ABORT_MSG_UNLESS(bytes % 4 == 0,
                        "WanRankBundle: serialised packet of " << bytes << " bytes, not words");
    if (!IsEmpty() && GetBytes() + FrameBytes(bytes) > maxBytes)
    {
        return false;
    }
    const auto step = static_cast<uint64_t>(arrival.GetTimeStep());
    const std::size_t at = m_words.size();
    m_words.resize(at + FRAME_HEAD_WORDS + bytes / 4);
    m_words[at] = static_cast<uint32_t>(step >> 32);
    m_words[at + 1] = static_cast<uint32_t>(step);
    m_words[at + 2] = protocol;
    m_words[at + 3] = bytes;
    const uint32_t ok =
        packet->Serialize(reinterpret_cast<uint8_t*>(&m_words[at + FRAME_HEAD_WORDS]), bytes);
    NS_ABORT_MSG_UNLESS(ok, "WanRankBundle: Packet::Serialize failed for " << packet);
    m_lastArrival = arrival;
    ++m_words[1];
    return true;
}

uint32_t
WanRankBundle::FrameBytes(uint32_t serialised)
{
    return FRAME_HEAD_WORDS * 4 + serialised;
}

Time
WanRankBundle::ReadArrival(const uint32_t* frameHead)
{
    return TimeStep(static_cast<int64_t>((uint64_t(frameHead[0]) << 32) | frameHead[1]));
}

bool
WanRankBundle::IsEmpty() const
{
    return m_words[1] == 0;
}

uint32_t
WanRankBundle::GetFrames() const
{
    return m_words[1];
}

uint32_t
WanRankBundle::GetBytes() const
{
    return static_cast<uint32_t>(m_words.size() * 4);
}

Time
WanRankBundle::GetFirstArrival() const
{
    NS_ABORT_MSG_IF(IsEmpty(), "WanRankBundle::GetFirstArrival: empty bundle");
    return ReadArrival(&m_words[HEAD_WORDS]);
}

Ptr<Packet>
WanRankBundle::Take()
{
    NS_LOG_FUNCTION(this << GetFrames());
    Ptr<Packet> packet =
        Create<Packet>(reinterpret_cast<const uint8_t*>(m_words.data()), GetBytes());
    m_words.assign({MAGIC, 0});
    return packet;
}

std::vector<WanRankBundle::Frame>
WanRankBundle::Open(Ptr<const Packet> bundle)
{
    NS_LOG_FUNCTION(bundle);
    const uint32_t size = bundle->GetSize();
    NS_ABORT_MSG_UNLESS(size % 4 == 0 && size >= HEAD_WORDS * 4,
                        "WanRankBundle: a packet of " << size << " bytes is no bundle");
    std::vector<uint32_t> words(size / 4);
    bundle->CopyData(reinterpret_cast<uint8_t*>(words.data()), size);
    NS_ABORT_MSG_UNLESS(words[0] == MAGIC, "WanRankBundle: a packet without the bundle's magic");
    std::vector<Frame> frames;
    frames.reserve(words[1]);
    std::size_t at = HEAD_WORDS;
    for (uint32_t f = 0; f < words[1]; ++f)
    {
        NS_ABORT_MSG_IF(words.size() - at < FRAME_HEAD_WORDS,
                        "WanRankBundle: frame " << f << " of " << words[1] << " cut short");
        const Time arrival = ReadArrival(&words[at]);
        const uint32_t bytes = words[at + 3];
        at += FRAME_HEAD_WORDS;
        NS_ABORT_MSG_IF(bytes % 4 != 0 || (words.size() - at) * 4 < bytes,
                        "WanRankBundle: frame " << f << " of " << words[1] << " claims " << bytes
                                                << " bytes");
        frames.push_back({arrival,
                          Create<Packet>(reinterpret_cast<const uint8_t*>(&words[at]), bytes, true),
                          static_cast<uint16_t>(words[at - 2])});
        at += bytes / 4;
    }
    NS_ABORT_MSG_UNLESS(at == words.size(),
                        "WanRankBundle: " << (words.size() - at) * 4 << " bytes after the last of "
                                          << words[1] << " frames");
    return frames;
}

} // namespace ns3
