/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "transit-end-gate.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TransitEndGate");

void
TransitEndGate::Hold(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    Flow& flow = m_flows[FpgaSlotTable::FlowKey::Of(header)];
    header.GetContributors().ForEach([&flow](uint32_t member) {
        if (flow.holding.size() <= member)
        {
            flow.holding.resize(member + 1, 0);
        }
        ++flow.holding[member];
        ++flow.held;
    });
}

std::vector<Ptr<const Packet>>
TransitEndGate::Release(const GradientHeader& header, const IslandBitmap& contributors)
{
    NS_LOG_FUNCTION(this << contributors);
    std::vector<Ptr<const Packet>> released;
    auto it = m_flows.find(FpgaSlotTable::FlowKey::Of(header));
    if (it == m_flows.end())
    {
        return released;
    }
    Flow& flow = it->second;
    contributors.ForEach([&flow](uint32_t member) {
        if (member < flow.holding.size() && flow.holding[member] > 0)
        {
            --flow.holding[member];
            --flow.held;
        }
    });
    auto kept = flow.kept.begin();
    while (kept != flow.kept.end())
    {
        const uint32_t member = kept->first;
        if (member < flow.holding.size() && flow.holding[member] > 0)
        {
            ++kept;
            continue;
        }
        NS_LOG_LOGIC("END of " << member << " leaves behind its last slot");
        released.push_back(kept->second);
        kept = flow.kept.erase(kept);
    }
    if (flow.held == 0 && flow.kept.empty())
    {
        m_flows.erase(it);
    }
    return released;
}

bool
TransitEndGate::Admit(const GradientHeader& header, Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    auto it = m_flows.find(FpgaSlotTable::FlowKey::Of(header));
    const uint32_t member = header.GetSender();
    if (it == m_flows.end() || member >= it->second.holding.size() ||
        it->second.holding[member] == 0)
    {
        return true;
    }
    NS_LOG_LOGIC("END of " << member << " kept: " << it->second.holding[member]
                           << " slot(s) here hold its pieces");
    it->second.kept.emplace_back(member, packet);
    return false;
}

uint32_t
TransitEndGate::GetKept() const
{
    NS_LOG_FUNCTION(this);
    uint32_t kept = 0;
    for (const auto& [key, flow] : m_flows)
    {
        kept += flow.kept.size();
    }
    return kept;
}

} // namespace ns3
