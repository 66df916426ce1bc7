/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-ring-plan.h"

#include "chunk-layout.h"
#include "sync-path-table.h"
#include "wan-wire.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SyncRingPlan");

double
SyncRingPlan::Complete(const SyncPathTable& paths,
                       const Clique& ring,
                       const std::vector<double>& rates,
                       const ChunkLayout& layout,
                       uint64_t overhead,
                       std::vector<std::vector<StepTime>>* times,
                       std::vector<double>* completion)
{
    NS_LOG_FUNCTION(layout.GetElements() << overhead);
    const uint32_t k = ring.size();
    NS_ASSERT_MSG(k >= 2 && rates.size() == k, "one rate per ring member");
    const uint32_t steps = 2 * (k - 1);
    if (times)
    {
        times->assign(k, std::vector<StepTime>(steps, StepTime{0, 0}));
    }
    // handed[p]: member p handed its previous step's last packet to the socket.
    // input[p]: the last packet of the predecessor's previous step reached p.
    std::vector<double> handed(k, 0.0);
    std::vector<double> input(k, 0.0);
    std::vector<double> nextInput(k, 0.0);
    // Per step and segment: the wire bits of its last packet and of the whole segment (an
    // empty segment still sends one header-only packet). A step's encoding depends on the
    // step only through its contributors, so the first step of each encoding is computed.
    std::vector<uint64_t> segmentLastWire(k);
    std::vector<double> segmentWireBits(k);
    bool computed = false;
    GradientHeader::Encoding encoding = GradientHeader::ENCODING_INT32;
    // Per member: the last-packet size whose transit to the successor is in transitTime.
    std::vector<uint64_t> transitWire(k, std::numeric_limits<uint64_t>::max());
    std::vector<double> transitTime(k, 0.0);
    for (uint32_t step = 0; step < steps; ++step)
    {
        if (!computed || layout.GetRingEncoding(k, step) != encoding)
        {
            computed = true;
            encoding = layout.GetRingEncoding(k, step);
            for (uint32_t g = 0; g < k; ++g)
            {
                uint64_t chunks = 0;
                uint32_t lastPayload = 0;
                const uint64_t bytes = layout.GetRingStepPayload(k, g, step, chunks, lastPayload);
                segmentLastWire[g] = lastPayload + overhead;
                segmentWireBits[g] = WanWire::BITS_PER_BYTE * (bytes + chunks * overhead);
            }
        }
        for (uint32_t p = 0; p < k; ++p)
        {
            if (!(rates[p] > 0))
            {
                return std::numeric_limits<double>::infinity();
            }
            const uint32_t q = (p + 1) % k;
            const double start = std::max(handed[p], input[p]);
            const uint32_t segment = ChunkLayout::RingSendSegment(k, p, step);
            const uint64_t lastWire = segmentLastWire[segment];
            const double wireBits = segmentWireBits[segment];
            // Pacing hands packet n to the socket when the bits before it are paid for at the
            // stream's rate: the step is handed off one packet before its fluid end.
            handed[p] = start + (wireBits - WanWire::BITS_PER_BYTE * lastWire) / rates[p];
            // The last packet then crosses every link store-and-forward, then propagates.
            // Segments share a few sizes, so the transit is recomputed only when the size of
            // this member's last packet changes.
            if (lastWire != transitWire[p])
            {
                transitWire[p] = lastWire;
                transitTime[p] = paths.GetPacketTransit(ring[p], ring[q], lastWire);
            }
            nextInput[q] = handed[p] + transitTime[p];
            if (times)
            {
                (*times)[p][step] = StepTime{start, nextInput[q]};
            }
        }
        input.swap(nextInput);
    }
    // A member is done when it has sent its last step and received its predecessor's.
    double sum = 0;
    if (completion)
    {
        completion->assign(k, 0.0);
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        const double done = std::max(handed[p], input[p]);
        sum += done;
        if (completion)
        {
            (*completion)[p] = done;
        }
    }
    return sum / k;
}

} // namespace ns3
