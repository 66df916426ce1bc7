/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-frame-error-model.h"

#include "wan-wire.h"

#include "ns3/double.h"
#include "ns3/hash.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanFrameErrorModel");
NS_OBJECT_ENSURE_REGISTERED(WanFrameErrorModel);

namespace
{

/** What a frame's draw is computed from: the model's salt, then the frame's key bytes. */
struct DrawKey
{
    uint64_t seed;                                          //!< RngSeedManager seed
    uint64_t run;                                           //!< RngSeedManager run
    int64_t stream;                                         //!< the model's stream
    uint64_t size;                                          //!< the frame's size, bytes
    std::array<uint8_t, WanFrameErrorModel::KEY_BYTES> key; //!< its first bytes, zero-padded
};

/** Bits of a draw's mantissa: a double holds 53 exactly. */
constexpr int DRAW_BITS = 53;

} // namespace

TypeId
WanFrameErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanFrameErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanFrameErrorModel>()
            .AddAttribute("ErrorRate",
                          "Probability that a frame is lost: each frame's draw is a hash of its "
                          "first bytes, its size, the seed, the run and the stream",
                          DoubleValue(0),
                          MakeDoubleAccessor(&WanFrameErrorModel::m_rate),
                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

WanFrameErrorModel::WanFrameErrorModel()
    : m_rate(0),
      m_stream(0)
{
    NS_LOG_FUNCTION(this);
}

WanFrameErrorModel::~WanFrameErrorModel()
{
    NS_LOG_FUNCTION(this);
}

int64_t
WanFrameErrorModel::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_stream = stream;
    return 1;
}

double
WanFrameErrorModel::Draw(Ptr<const Packet> packet) const
{
    NS_LOG_FUNCTION(this << packet);
    DrawKey draw;
    std::memset(&draw, 0, sizeof(draw));
    draw.seed = RngSeedManager::GetSeed();
    draw.run = RngSeedManager::GetRun();
    draw.stream = m_stream;
    draw.size = packet->GetSize();
    uint8_t* key = draw.key.data();
    packet->CopyData(key, std::min<uint32_t>(packet->GetSize(), KEY_BYTES));
    if (packet->GetSize() >= WanWire::IPV4_HEADER_BYTES && (key[0] >> 4) == WanWire::IPV4_VERSION)
    {
        // A queue may mark ECN on the way (and the checksum follows it): not the frame's identity.
        key[WanWire::IPV4_TOS_OFFSET] = 0;
        key[WanWire::IPV4_CHECKSUM_OFFSET] = 0;
        key[WanWire::IPV4_CHECKSUM_OFFSET + 1] = 0;
    }
    const uint64_t hash = Hash64(reinterpret_cast<const char*>(&draw), sizeof(draw));
    return std::ldexp(static_cast<double>(hash >> (64 - DRAW_BITS)), -DRAW_BITS);
}

bool
WanFrameErrorModel::DoCorrupt(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    if (m_rate <= 0)
    {
        return false;
    }
    const bool lost = Draw(p) < m_rate;
    NS_LOG_LOGIC("frame " << p->GetUid() << (lost ? " lost" : " passes"));
    return lost;
}

void
WanFrameErrorModel::DoReset()
{
    NS_LOG_FUNCTION(this);
    // Nothing to reset: a frame's fate depends on the frame alone.
}

} // namespace ns3
