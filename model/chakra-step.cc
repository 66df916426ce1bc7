/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-step.h"

#include "chunk-layout.h"
#include "wan-units.h"

#include "ns3/log.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraStep");

ChakraStep::ChakraStep(const ChakraTrace& trace)
{
    NS_LOG_FUNCTION(this << trace.GetName());
    CheckTypes(trace);
    RunNodes(trace);
    if (m_syncs.empty())
    {
        throw ChakraTraceError(trace.GetName() +
                               ": no ALL_REDUCE or REDUCE_SCATTER node: a data-parallel step "
                               "synchronises its gradients at least once");
    }
}

bool
ChakraStep::IsSync(const ChakraNode& node)
{
    return node.type == ChakraNodeType::COMM_COLL_NODE &&
           (node.commType == ChakraCollective::ALL_REDUCE ||
            node.commType == ChakraCollective::REDUCE_SCATTER);
}

void
ChakraStep::CheckTypes(const ChakraTrace& trace) const
{
    NS_LOG_FUNCTION(this);
    const std::vector<ChakraNode>& nodes = trace.GetNodes();
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        const ChakraNode& node = nodes[i];
        const bool known = node.type == ChakraNodeType::COMP_NODE ||
                           node.type == ChakraNodeType::METADATA_NODE ||
                           node.type == ChakraNodeType::COMM_COLL_NODE;
        if (!known)
        {
            throw trace.NodeError(i,
                                  "type",
                                  std::string(ChakraTrace::NodeTypeName(node.type)) +
                                      " is no part of a data-parallel step here (compute, "
                                      "collectives and metadata only)");
        }
        if (node.type == ChakraNodeType::COMM_COLL_NODE && !IsSync(node) &&
            node.commType != ChakraCollective::ALL_GATHER)
        {
            throw trace.NodeError(i,
                                  "comm_type",
                                  std::string(ChakraTrace::CollectiveName(node.commType)) +
                                      ": a data-parallel step here synchronises with ALL_REDUCE "
                                      "or REDUCE_SCATTER (and ALL_GATHER)");
        }
        if (IsSync(node) && node.commSize == 0)
        {
            throw trace.NodeError(i, "comm_size", "0 bytes: nothing to synchronise");
        }
    }
}

Time
ChakraStep::DependenciesEnd(const ChakraTrace& trace, std::size_t index)
{
    const ChakraNode& node = trace.GetNodes()[index];
    Time end;
    const std::pair<const char*, const std::vector<uint64_t>*> lists[] = {
        {"ctrl_deps", &node.ctrlDeps},
        {"data_deps", &node.dataDeps}};
    for (const auto& [field, deps] : lists)
    {
        for (uint64_t id : *deps)
        {
            const std::size_t dep = *trace.FindIndex(id);
            m_afterSync[index] =
                m_afterSync[index] || m_afterSync[dep] || IsSync(trace.GetNodes()[dep]);
            if (node.type == ChakraNodeType::COMP_NODE && m_afterSync[index])
            {
                throw trace.NodeError(index,
                                      field,
                                      "compute after a synchronisation (through node " +
                                          std::to_string(id) +
                                          ") is not modelled: a round's compute comes before "
                                          "its exchanges end");
            }
            end = std::max(end, m_end[dep]);
        }
    }
    return end;
}

void
ChakraStep::RunNodes(const ChakraTrace& trace)
{
    NS_LOG_FUNCTION(this);
    const std::vector<ChakraNode>& nodes = trace.GetNodes();
    m_end.assign(nodes.size(), Time(0));
    m_afterSync.assign(nodes.size(), false);
    // (ready, place in the dependency order, sync): the issue order.
    std::vector<std::tuple<Time, std::size_t, Sync>> syncs;
    Time deviceFree;
    uint64_t syncBytes = 0;
    const std::vector<std::size_t>& order = trace.GetTopologicalOrder();
    for (std::size_t place = 0; place < order.size(); ++place)
    {
        const std::size_t i = order[place];
        const ChakraNode& node = nodes[i];
        const Time ready = DependenciesEnd(trace, i);
        if (node.type != ChakraNodeType::COMP_NODE)
        {
            m_end[i] = ready; // collectives and metadata take no device time
            if (IsSync(node))
            {
                // The buckets are one island's update: within what a round can carry.
                if (node.commSize > ChunkLayout::MAX_MODEL_BYTES - syncBytes)
                {
                    throw trace.NodeError(i,
                                          "comm_size",
                                          std::to_string(node.commSize) +
                                              " bytes: the step's buckets would sum "
                                              "to more than " +
                                              std::to_string(ChunkLayout::MAX_MODEL_BYTES) +
                                              " bytes (" + ChunkLayout::MAX_MODEL_BYTES_REASON +
                                              ")");
                }
                syncBytes += node.commSize;
                syncs.emplace_back(ready, place, Sync{node.id, node.name, node.commSize, ready});
            }
            continue;
        }
        const Time start = std::max(deviceFree, ready);
        // A duration may be up to 2^64 - 1 us, and MicroSeconds() would wrap: compare first.
        if (start.GetSeconds() + static_cast<double>(node.durationMicros) * 1e-6 >
            WanUnits::MAX_TIME_SECONDS)
        {
            throw trace.NodeError(i,
                                  "duration_micros",
                                  std::to_string(node.durationMicros) +
                                      " us: the step's compute would end " +
                                      WanUnits::TOO_LARGE_FOR_TIME);
        }
        m_end[i] = start + MicroSeconds(node.durationMicros);
        deviceFree = m_end[i];
        m_computeTime = std::max(m_computeTime, m_end[i]);
    }
    std::sort(syncs.begin(), syncs.end(), [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    m_syncs.clear();
    for (auto& entry : syncs)
    {
        m_syncs.push_back(std::move(std::get<2>(entry)));
    }
}

Time
ChakraStep::GetComputeTime() const
{
    NS_LOG_FUNCTION(this);
    return m_computeTime;
}

const std::vector<ChakraStep::Sync>&
ChakraStep::GetSyncs() const
{
    NS_LOG_FUNCTION(this);
    return m_syncs;
}

FragmentPlan
ChakraStep::MakePlan() const
{
    NS_LOG_FUNCTION(this);
    std::vector<uint64_t> bytes;
    std::vector<Time> ready;
    for (const Sync& sync : m_syncs)
    {
        bytes.push_back(sync.bytes);
        ready.push_back(sync.ready);
    }
    return FragmentPlan(bytes, ready, m_computeTime);
}

uint64_t
ChakraStep::GetSyncBytes() const
{
    NS_LOG_FUNCTION(this);
    uint64_t bytes = 0;
    for (const Sync& sync : m_syncs)
    {
        bytes += sync.bytes;
    }
    return bytes;
}

} // namespace ns3
