/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "max-min-fair-share.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MaxMinFairShare");

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
    NS_LOG_FUNCTION(this << capacity);
    NS_ASSERT_MSG(capacity >= 0, "negative capacity " << capacity);
    m_capacity.push_back(capacity);
    return static_cast<uint32_t>(m_capacity.size() - 1);
}

uint32_t
MaxMinFairShare::AddFlow(const std::vector<Usage>& usages)
{
    NS_LOG_FUNCTION(this);
    // Merge in one pass (a flow down a multicast tree has hundreds of usages): m_slot maps a
    // resource to its place in the merged list, in order of first use. All flows share one
    // array (a round of a large WAN has tens of thousands of flows).
    m_slot.resize(m_capacity.size(), 0);
    const size_t first = m_usages.size();
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
            m_usages.emplace_back(resource, weight);
            m_slot[resource] = static_cast<uint32_t>(m_usages.size() - first);
        }
        else
        {
            m_usages[first + m_slot[resource] - 1].second += weight;
        }
    }
    for (size_t u = first; u < m_usages.size(); ++u)
    {
        m_slot[m_usages[u].first] = 0;
    }
    m_flowEnd.push_back(m_usages.size());
    return static_cast<uint32_t>(m_flowEnd.size() - 1);
}

uint32_t
MaxMinFairShare::GetResourceCount() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_capacity.size());
}

uint32_t
MaxMinFairShare::GetFlowCount() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_flowEnd.size());
}

std::vector<MaxMinFairShare::Usage>
MaxMinFairShare::GetFlowUsages(uint32_t flow) const
{
    NS_LOG_FUNCTION(this << flow);
    if (flow >= m_flowEnd.size())
    {
        throw std::out_of_range("MaxMinFairShare: unknown flow " + std::to_string(flow));
    }
    return std::vector<Usage>(m_usages.begin() + Begin(flow), m_usages.begin() + m_flowEnd[flow]);
}

size_t
MaxMinFairShare::Begin(uint32_t flow) const
{
    NS_LOG_FUNCTION(this << flow);
    return flow == 0 ? 0 : m_flowEnd[flow - 1];
}

double
MaxMinFairShare::GetCapacity(uint32_t resource) const
{
    NS_LOG_FUNCTION(this << resource);
    return m_capacity.at(resource);
}

void
MaxMinFairShare::Clear()
{
    NS_LOG_FUNCTION(this);
    m_capacity.clear();
    m_usages.clear();
    m_flowEnd.clear();
    m_slot.clear();
}

std::vector<double>
MaxMinFairShare::Solve() const
{
    NS_LOG_FUNCTION(this);
    const double inf = std::numeric_limits<double>::infinity();
    size_t nf = m_flowEnd.size();
    size_t nr = m_capacity.size();
    std::vector<double> rate(nf, 0.0);
    std::vector<bool> frozen(nf, false);
    std::vector<double> residual = m_capacity;
    // Sum of the weights of the unfrozen flows on each resource.
    std::vector<double> activeWeight(nr, 0.0);
    // Flows by resource in flow order, to freeze them when the resource saturates: flowsOn
    // holds the flows of resource r at [onStart[r], onStart[r + 1]).
    std::vector<uint32_t> onStart(nr + 1, 0);
    for (const auto& u : m_usages)
    {
        ++onStart[u.first + 1];
    }
    for (size_t r = 0; r < nr; ++r)
    {
        onStart[r + 1] += onStart[r];
    }
    std::vector<uint32_t> flowsOn(m_usages.size());
    std::vector<uint32_t> fill(onStart.begin(), onStart.end() - 1);
    size_t unfrozen = 0;
    for (size_t f = 0; f < nf; ++f)
    {
        if (Begin(f) == m_flowEnd[f])
        {
            rate[f] = inf;
            frozen[f] = true;
            continue;
        }
        ++unfrozen;
        for (size_t u = Begin(f); u < m_flowEnd[f]; ++u)
        {
            const auto& [r, w] = m_usages[u];
            activeWeight[r] += w;
            flowsOn[fill[r]++] = static_cast<uint32_t>(f);
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
            for (uint32_t k = onStart[r]; k < onStart[r + 1]; ++k)
            {
                const uint32_t f = flowsOn[k];
                if (frozen[f])
                {
                    continue;
                }
                frozen[f] = true;
                rate[f] = level;
                --unfrozen;
                for (size_t u = Begin(f); u < m_flowEnd[f]; ++u)
                {
                    const auto& [r2, w] = m_usages[u];
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
