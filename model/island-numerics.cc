/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "island-numerics.h"

#include "exchange-sum.h"
#include "round-exchange.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IslandNumerics");

void
IslandNumerics::Configure(Ptr<TrainingWorkload> workload,
                          uint32_t island,
                          uint32_t islandCount,
                          bool real,
                          uint64_t elements,
                          double scale,
                          double residualDecay)
{
    NS_LOG_FUNCTION(this << workload << island << islandCount << real << elements << scale);
    NS_ABORT_MSG_IF(
        real && (!workload || !workload->IsReal() || workload->GetDimension() != elements),
        "TrainingApplication: real payloads need a real workload of dimension " << elements);
    m_workload = workload;
    m_island = island;
    m_islandCount = islandCount;
    m_real = real;
    m_scale = scale;
    m_change.SetDecay(residualDecay);
}

void
IslandNumerics::Dispose()
{
    NS_LOG_FUNCTION(this);
    m_workload = nullptr;
}

void
IslandNumerics::TakeInnerSteps(uint32_t round, uint32_t innerSteps, const UpdateFormat& format)
{
    NS_LOG_FUNCTION(this << round << innerSteps);
    if (!m_workload)
    {
        return;
    }
    // A top-k change is the inner steps' (SparseChange); the other formats carry parameters.
    if (m_real && format.IsSparse())
    {
        m_change.Rebase(m_workload->GetParameters(m_island));
    }
    m_workload->LocalUpdate(m_island, round, innerSteps);
}

std::string
IslandNumerics::Encode(uint32_t round,
                       const UpdateFormat& format,
                       uint32_t members,
                       const ChunkLayout& layout,
                       std::vector<int32_t>& own)
{
    NS_LOG_FUNCTION(this << round << members);
    const std::vector<double>& x = m_workload->GetParameters(m_island);
    std::ostringstream message;
    message << "TrainingApplication: island " << m_island << ", round " << round << ": ";
    if (format.IsSparse())
    {
        // A sum of changes from different references would keep the islands apart.
        if (members != m_islandCount)
        {
            message << "real top-k changes are averaged in cliques of every island, not of "
                    << members << " of " << m_islandCount;
            return message.str();
        }
        const size_t e = m_change.Encode(x, layout, own);
        if (e < x.size())
        {
            message << "the change of parameter " << e << " is no finite float";
            return message.str();
        }
        return "";
    }
    // Every value must fit its format (int32: the clique's sum of k of them too) for the mean
    // to be exact.
    const size_t e = FixedPoint::Encode(x, m_scale, members, format, own);
    if (e < x.size())
    {
        message << "parameter " << e << " = " << x[e] << " is outside the fixed-point range +-"
                << FixedPoint::Limit(m_scale, members, format) << " (Scale " << m_scale << ", "
                << (format == UpdateFormat() ? std::to_string(members) + " members summed in int32"
                                             : format.ToString() + " values")
                << "); lower Scale or check the workload";
        return message.str();
    }
    return "";
}

void
IslandNumerics::Average(const RoundExchange& exchange, const UpdateFormat& format)
{
    NS_LOG_FUNCTION(this);
    // Top-k adds the mean change to where the island's change started (SparseChange).
    m_parameters =
        format.IsSparse() ? m_change.GetReference() : m_workload->GetParameters(m_island);
    exchange.Average(m_parameters, m_scale);
    m_workload->SetParameters(m_island, m_parameters);
}

} // namespace ns3
