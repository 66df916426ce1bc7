/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sparse-change.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SparseChange");

void
SparseChange::SetDecay(double decay)
{
    NS_LOG_FUNCTION(this << decay);
    NS_ABORT_MSG_IF(!(decay >= 0 && decay <= 1),
                    "SparseChange: decay " << decay << " not in [0, 1]");
    m_decay = decay;
}

void
SparseChange::Rebase(const std::vector<double>& x)
{
    NS_LOG_FUNCTION(this << x.size());
    m_reference = x;
    m_residual.resize(x.size(), 0.0);
}

size_t
SparseChange::Encode(const std::vector<double>& x,
                     const ChunkLayout& layout,
                     std::vector<int32_t>& entries)
{
    NS_LOG_FUNCTION(this << x.size());
    NS_ABORT_MSG_IF(x.size() != m_reference.size() || x.size() != layout.GetElements(),
                    "SparseChange: " << x.size() << " parameters, reference of "
                                     << m_reference.size() << ", layout of "
                                     << layout.GetElements());
    m_change.resize(x.size());
    for (size_t e = 0; e < x.size(); ++e)
    {
        m_change[e] = x[e] - m_reference[e] + m_decay * m_residual[e];
        if (!(std::fabs(m_change[e]) <= std::numeric_limits<float>::max()))
        {
            return e;
        }
    }
    const UpdateFormat& format = layout.GetFormat();
    entries.clear();
    for (uint32_t c = 0; c < layout.GetChunkCount(); ++c)
    {
        uint32_t first = 0;
        const uint32_t count = layout.GetChunkSpan(c, first);
        const uint32_t kept = format.GetWireElements(count);
        // The kept entries: largest |d| first, the lower index among equals.
        m_order.resize(count);
        for (uint32_t i = 0; i < count; ++i)
        {
            m_order[i] = i;
        }
        const double* d = m_change.data() + first;
        std::partial_sort(m_order.begin(),
                          m_order.begin() + kept,
                          m_order.end(),
                          [d](uint32_t a, uint32_t b) {
                              const double da = std::fabs(d[a]);
                              const double db = std::fabs(d[b]);
                              return da > db || (da == db && a < b);
                          });
        std::sort(m_order.begin(), m_order.begin() + kept);
        // Everything stays behind but what is sent, and of that its fp32 rounding error.
        std::copy(d, d + count, m_residual.begin() + first);
        for (uint32_t j = 0; j < kept; ++j)
        {
            const uint32_t i = m_order[j];
            const int32_t bits = UpdateFormat::ToFloatBits(d[i]);
            entries.push_back(static_cast<int32_t>(i));
            entries.push_back(bits);
            m_residual[first + i] = d[i] - UpdateFormat::FromFloatBits(bits);
        }
    }
    return x.size();
}

const std::vector<double>&
SparseChange::GetReference() const
{
    return m_reference;
}

const std::vector<double>&
SparseChange::GetResidual() const
{
    return m_residual;
}

} // namespace ns3
