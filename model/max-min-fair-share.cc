/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "max-min-fair-share.h"

#include "ns3/assert.h"

#include <algorithm>
#include <limits>

namespace ns3
{

namespace
{
/**
 * A resource counts as saturated when its residual capacity is within this fraction of its
 * capacity: several resources reached by the same filling step then freeze together instead
 * of one rounding error apart.
 */
constexpr double SATURATION_TOLERANCE = 1e-12;
} // namespace

uint32_t
MaxMinFairShare::AddResource(double capacity)
{
    NS_ASSERT_MSG(capacity >= 0, "negative capacity " << capacity);
    m_capacity.push_back(capacity);
    return static_cast<uint32_t>(m_capacity.size() - 1);
}

uint32_t
MaxMinFairShare::AddFlow(const std::vector<Usage>& usages)
{
    // Merge in one pass (a flow down a multicast tree has hundreds of usages): m_slot maps a
    // resource to its place in the merged list, in order of first use.
    m_slot.resize(m_capacity.size(), 0);
    std::vector<Usage> merged;
    merged.reserve(usages.size());
    for (const auto& [resource, weight] : usages)
    {
        NS_ASSERT_MSG(resource < m_capacity.size(), "unknown resource " << resource);
        NS_ASSERT_MSG(weight >= 0, "negative weight " << weight);
        if (weight == 0)
        {
            continue;
        }
        if (m_slot[resource] == 0)
        {
            merged.emplace_back(resource, weight);
            m_slot[resource] = static_cast<uint32_t>(merged.size());
        }
        else
        {
            merged[m_slot[resource] - 1].second += weight;
        }
    }
    for (const auto& u : merged)
    {
        m_slot[u.first] = 0;
    }
    m_flows.push_back(std::move(merged));
    return static_cast<uint32_t>(m_flows.size() - 1);
}

uint32_t
MaxMinFairShare::GetResourceCount() const
{
    return static_cast<uint32_t>(m_capacity.size());
}

uint32_t
MaxMinFairShare::GetFlowCount() const
{
    return static_cast<uint32_t>(m_flows.size());
}

const std::vector<MaxMinFairShare::Usage>&
MaxMinFairShare::GetFlowUsages(uint32_t flow) const
{
    return m_flows.at(flow);
}

double
MaxMinFairShare::GetCapacity(uint32_t resource) const
{
    return m_capacity.at(resource);
}

void
MaxMinFairShare::Clear()
{
    m_capacity.clear();
    m_flows.clear();
    m_slot.clear();
}

std::vector<double>
MaxMinFairShare::Solve() const
{
    const double inf = std::numeric_limits<double>::infinity();
    size_t nf = m_flows.size();
    size_t nr = m_capacity.size();
    std::vector<double> rate(nf, 0.0);
    std::vector<bool> frozen(nf, false);
    std::vector<double> residual = m_capacity;
    // Sum of the weights of the unfrozen flows on each resource.
    std::vector<double> activeWeight(nr, 0.0);
    // Flows by resource, to freeze them when the resource saturates.
    std::vector<std::vector<uint32_t>> flowsOn(nr);
    size_t unfrozen = 0;
    for (size_t f = 0; f < nf; ++f)
    {
        if (m_flows[f].empty())
        {
            rate[f] = inf;
            frozen[f] = true;
            continue;
        }
        ++unfrozen;
        for (const auto& [r, w] : m_flows[f])
        {
            activeWeight[r] += w;
            flowsOn[r].push_back(static_cast<uint32_t>(f));
        }
    }
    // The resources some unfrozen flow still uses, ascending. A resource whose active weight
    // has dropped to 0 never regains it, so the list only shrinks; a round of a large WAN uses
    // a small part of its resources, and an unused one costs nothing per filling step.
    std::vector<uint32_t> active;
    for (size_t r = 0; r < nr; ++r)
    {
        if (activeWeight[r] > 0)
        {
            active.push_back(static_cast<uint32_t>(r));
        }
    }
    double level = 0; // the common rate of all unfrozen flows
    while (unfrozen > 0)
    {
        // The smallest increment that saturates some resource.
        double step = inf;
        for (uint32_t r : active)
        {
            if (activeWeight[r] > 0)
            {
                step = std::min(step, std::max(0.0, residual[r]) / activeWeight[r]);
            }
        }
        NS_ASSERT(step < inf);
        level += step;
        for (uint32_t r : active)
        {
            if (activeWeight[r] > 0)
            {
                residual[r] -= step * activeWeight[r];
            }
        }
        // Freeze every flow on a saturated resource.
        for (uint32_t r : active)
        {
            if (activeWeight[r] <= 0 || residual[r] > SATURATION_TOLERANCE * m_capacity[r])
            {
                continue;
            }
            for (uint32_t f : flowsOn[r])
            {
                if (frozen[f])
                {
                    continue;
                }
                frozen[f] = true;
                rate[f] = level;
                --unfrozen;
                for (const auto& [r2, w] : m_flows[f])
                {
                    activeWeight[r2] -= w;
                    if (activeWeight[r2] < SATURATION_TOLERANCE * w)
                    {
                        activeWeight[r2] = 0;
                    }
                }
            }
        }
        active.erase(std::remove_if(active.begin(),
                                    active.end(),
                                    [&activeWeight](uint32_t r) { return activeWeight[r] <= 0; }),
                     active.end());
    }
    return rate;
}

} // namespace ns3
