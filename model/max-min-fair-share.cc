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

/**
 * The state of one progressive filling. Solve() starts it (IndexResources(), StartFlows(),
 * ListActiveResources()) and then repeats filling steps until every flow is frozen.
 */
struct MaxMinFairShare::FillState
{
    std::vector<double> rate;         //!< by flow: its rate once frozen
    std::vector<bool> frozen;         //!< by flow: frozen
    std::vector<double> residual;     //!< by resource: capacity not yet consumed
    std::vector<double> activeWeight; //!< by resource: sum of the unfrozen flows' weights
    /**
     * Flows by resource in flow order, to freeze them when the resource saturates: flowsOn
     * holds the flows of resource r at [onStart[r], onStart[r + 1]).
     */
    std::vector<uint32_t> onStart;
    std::vector<uint32_t> flowsOn; //!< see onStart
    /**
     * The resources some unfrozen flow still uses, ascending. A resource whose active weight
     * has dropped to 0 never regains it, so the list only shrinks; a round of a large WAN uses
     * a small part of its resources, and an unused one costs nothing per filling step.
     */
    std::vector<uint32_t> active;
    size_t unfrozen{0}; //!< flows not yet frozen
    double level{0};    //!< the common rate of all unfrozen flows
};

std::vector<double>
MaxMinFairShare::Solve() const
{
    NS_LOG_FUNCTION(this);
    FillState st;
    st.rate.assign(m_flowEnd.size(), 0.0);
    st.frozen.assign(m_flowEnd.size(), false);
    st.residual = m_capacity;
    st.activeWeight.assign(m_capacity.size(), 0.0);
    IndexResources(st);
    StartFlows(st);
    ListActiveResources(st);
    while (st.unfrozen > 0)
    {
        const double step = SaturatingStep(st);
        Fill(st, step);
        FreezeSaturated(st);
        DropIdleResources(st);
    }
    return std::move(st.rate);
}

void
MaxMinFairShare::IndexResources(FillState& st) const
{
    NS_LOG_FUNCTION(this);
    const size_t nr = m_capacity.size();
    st.onStart.assign(nr + 1, 0);
    for (const auto& u : m_usages)
    {
        ++st.onStart[u.first + 1];
    }
    for (size_t r = 0; r < nr; ++r)
    {
        st.onStart[r + 1] += st.onStart[r];
    }
    st.flowsOn.resize(m_usages.size());
}

void
MaxMinFairShare::StartFlows(FillState& st) const
{
    NS_LOG_FUNCTION(this);
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<uint32_t> fill(st.onStart.begin(), st.onStart.end() - 1);
    for (size_t f = 0; f < m_flowEnd.size(); ++f)
    {
        if (Begin(f) == m_flowEnd[f])
        {
            st.rate[f] = inf;
            st.frozen[f] = true;
            continue;
        }
        ++st.unfrozen;
        for (size_t u = Begin(f); u < m_flowEnd[f]; ++u)
        {
            const auto& [r, w] = m_usages[u];
            st.activeWeight[r] += w;
            st.flowsOn[fill[r]++] = static_cast<uint32_t>(f);
        }
    }
}

void
MaxMinFairShare::ListActiveResources(FillState& st) const
{
    NS_LOG_FUNCTION(this);
    for (size_t r = 0; r < m_capacity.size(); ++r)
    {
        if (st.activeWeight[r] > 0)
        {
            st.active.push_back(static_cast<uint32_t>(r));
        }
    }
}

double
MaxMinFairShare::SaturatingStep(const FillState& st) const
{
    NS_LOG_FUNCTION(this);
    const double inf = std::numeric_limits<double>::infinity();
    double step = inf;
    for (uint32_t r : st.active)
    {
        if (st.activeWeight[r] > 0)
        {
            step = std::min(step, std::max(0.0, st.residual[r]) / st.activeWeight[r]);
        }
    }
    NS_ASSERT(step < inf);
    return step;
}

void
MaxMinFairShare::Fill(FillState& st, double step) const
{
    NS_LOG_FUNCTION(this << step);
    st.level += step;
    for (uint32_t r : st.active)
    {
        if (st.activeWeight[r] > 0)
        {
            st.residual[r] -= step * st.activeWeight[r];
        }
    }
}

void
MaxMinFairShare::FreezeSaturated(FillState& st) const
{
    NS_LOG_FUNCTION(this);
    for (uint32_t r : st.active)
    {
        if (st.activeWeight[r] <= 0 || st.residual[r] > SATURATION_TOLERANCE * m_capacity[r])
        {
            continue;
        }
        for (uint32_t k = st.onStart[r]; k < st.onStart[r + 1]; ++k)
        {
            const uint32_t f = st.flowsOn[k];
            if (!st.frozen[f])
            {
                FreezeFlow(st, f);
            }
        }
    }
}

void
MaxMinFairShare::FreezeFlow(FillState& st, uint32_t flow) const
{
    // No NS_LOG_FUNCTION: called once per flow from the filling loop.
    st.frozen[flow] = true;
    st.rate[flow] = st.level;
    --st.unfrozen;
    for (size_t u = Begin(flow); u < m_flowEnd[flow]; ++u)
    {
        const auto& [r, w] = m_usages[u];
        st.activeWeight[r] -= w;
        if (st.activeWeight[r] < SATURATION_TOLERANCE * w)
        {
            st.activeWeight[r] = 0;
        }
    }
}

void
MaxMinFairShare::DropIdleResources(FillState& st) const
{
    NS_LOG_FUNCTION(this);
    const std::vector<double>& activeWeight = st.activeWeight;
    st.active.erase(std::remove_if(st.active.begin(),
                                   st.active.end(),
                                   [&activeWeight](uint32_t r) { return activeWeight[r] <= 0; }),
                    st.active.end());
}

} // namespace ns3
