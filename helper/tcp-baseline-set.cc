/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-baseline-set.h"

namespace ns3
{

namespace
{
/** Connections per peer of the striped baselines: NCCL's default sockets times threads. */
constexpr uint32_t STRIPED_STREAMS = 8;
} // namespace

std::string
TcpBaseline::GetLabel() const
{
    return congestion + " x" + std::to_string(streams);
}

std::vector<TcpBaseline>
TcpBaselineSet::GetDefault()
{
    return {{"TcpCubic", 1},
            {"TcpCubic", STRIPED_STREAMS},
            {"TcpBbr", 1},
            {"TcpBbr", STRIPED_STREAMS}};
}

std::optional<size_t>
TcpBaselineSet::FindBest(const std::vector<TrainingSummary>& summaries)
{
    std::optional<size_t> best;
    for (size_t i = 0; i < summaries.size(); ++i)
    {
        const TrainingSummary& s = summaries[i];
        if (!s.IsComplete() || !s.timeToEpsilon)
        {
            continue;
        }
        if (!best || *s.timeToEpsilon < *summaries[*best].timeToEpsilon)
        {
            best = i;
        }
    }
    return best;
}

} // namespace ns3
