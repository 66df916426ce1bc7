/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "exchange-sum.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExchangeSum");

double
FixedPoint::ValueLimit(uint32_t members, const UpdateFormat& format)
{
    NS_LOG_FUNCTION(members << format.ToString());
    if (format != UpdateFormat())
    {
        return UpdateFormat::MaxValue(format.GetDataEncoding());
    }
    return std::numeric_limits<int32_t>::max() / std::max(1.0, double(members));
}

double
FixedPoint::Limit(double scale, uint32_t members, const UpdateFormat& format)
{
    NS_LOG_FUNCTION(scale << members);
    if (format.GetDataEncoding() == GradientHeader::ENCODING_BF16)
    {
        return UpdateFormat::BF16_MAX;
    }
    return ValueLimit(members, format) / scale;
}

size_t
FixedPoint::Encode(const std::vector<double>& x,
                   double scale,
                   uint32_t members,
                   const UpdateFormat& format,
                   std::vector<int32_t>& out)
{
    NS_LOG_FUNCTION(scale << members);
    out.resize(x.size());
    if (format.GetDataEncoding() == GradientHeader::ENCODING_BF16)
    {
        // Floating point: no scale, only the range of bf16.
        for (size_t e = 0; e < x.size(); ++e)
        {
            if (!(std::fabs(x[e]) <= UpdateFormat::BF16_MAX))
            {
                return e;
            }
            out[e] = UpdateFormat::ToBf16(x[e]);
        }
        return x.size();
    }
    const double limit = ValueLimit(members, format);
    for (size_t e = 0; e < x.size(); ++e)
    {
        const double scaled = std::round(x[e] * scale);
        if (!(std::fabs(scaled) <= limit))
        {
            return e;
        }
        out[e] = static_cast<int32_t>(scaled);
    }
    return x.size();
}

void
DirectSum::Init(const ChunkLayout& layout)
{
    NS_LOG_FUNCTION(this);
    m_bf16 = layout.GetFormat().GetDataEncoding() == GradientHeader::ENCODING_BF16;
    m_sparse = layout.GetFormat().IsSparse();
    const bool reals = m_bf16 || m_sparse;
    m_sum.assign(reals ? 0 : layout.GetElements(), 0);
    m_floatSum.assign(reals ? layout.GetElements() : 0, 0.0);
    m_count.assign(layout.GetChunkCount(), 0);
}

void
DirectSum::Add(uint32_t chunk,
               uint32_t first,
               const std::vector<int32_t>& values,
               uint32_t contributors)
{
    NS_LOG_FUNCTION(this << chunk << first << contributors);
    m_count[chunk] += contributors;
    if (m_sparse)
    {
        AddEntries(first, values);
        return;
    }
    for (uint32_t e = 0; e < values.size() && m_bf16; ++e)
    {
        m_floatSum[first + e] += UpdateFormat::FromBf16(static_cast<uint16_t>(values[e]));
    }
    for (uint32_t e = 0; e < values.size() && !m_bf16; ++e)
    {
        m_sum[first + e] = WrapAdd(m_sum[first + e], values[e]);
    }
}

void
DirectSum::AddEntries(uint32_t first, const std::vector<int32_t>& values)
{
    NS_LOG_FUNCTION(this << first);
    for (size_t w = 0; w + 1 < values.size(); w += 2)
    {
        m_floatSum[first + static_cast<uint32_t>(values[w])] +=
            UpdateFormat::FromFloatBits(values[w + 1]);
    }
}

bool
DirectSum::AreEntriesInside(const std::vector<int32_t>& values, uint32_t count)
{
    NS_LOG_FUNCTION(count);
    for (size_t w = 0; w < values.size(); w += 2)
    {
        if (static_cast<uint32_t>(values[w]) >= count)
        {
            return false;
        }
    }
    return true;
}

void
DirectSum::Average(const ChunkLayout& layout,
                   const std::vector<int32_t>& own,
                   std::vector<double>& x,
                   double scale) const
{
    NS_LOG_FUNCTION(this << scale);
    const bool withOwn = !own.empty();
    for (uint32_t c = 0; c < layout.GetChunkCount(); ++c)
    {
        uint32_t first = 0;
        const uint32_t count = layout.GetChunkSpan(c, first);
        const double members = (withOwn ? 1.0 : 0.0) + m_count[c];
        if (m_sparse)
        {
            AverageChange(layout, c, own, x, members);
            continue;
        }
        for (uint32_t e = first; e < first + count && m_bf16; ++e)
        {
            const double mine = withOwn ? UpdateFormat::FromBf16(static_cast<uint16_t>(own[e])) : 0;
            x[e] = (mine + m_floatSum[e]) / members;
        }
        for (uint32_t e = first; e < first + count && !m_bf16; ++e)
        {
            x[e] = (withOwn ? WrapAdd(own[e], m_sum[e]) : m_sum[e]) / (scale * members);
        }
    }
}

void
DirectSum::AverageChange(const ChunkLayout& layout,
                         uint32_t chunk,
                         const std::vector<int32_t>& own,
                         std::vector<double>& x,
                         double members) const
{
    NS_LOG_FUNCTION(this << chunk << members);
    uint32_t first = 0;
    const uint32_t count = layout.GetChunkSpan(chunk, first);
    uint64_t word = 0;
    const uint32_t words = layout.GetValueSpan(chunk, word);
    const uint64_t end = own.empty() ? 0 : word + words;
    for (uint32_t i = 0; i < count; ++i)
    {
        double change = m_floatSum[first + i];
        if (word < end && static_cast<uint32_t>(own[word]) == i)
        {
            change = UpdateFormat::FromFloatBits(own[word + 1]) + change;
            word += 2;
        }
        x[first + i] += change / members;
    }
}

void
DirectSum::Total(uint32_t first,
                 uint32_t count,
                 const std::vector<int32_t>& own,
                 std::vector<int32_t>& out) const
{
    NS_LOG_FUNCTION(this << first << count);
    NS_ASSERT_MSG(!m_bf16 && !m_sparse, "bf16 and top-k are not sent down reduction trees");
    out.resize(count);
    for (uint32_t e = 0; e < count; ++e)
    {
        out[e] = WrapAdd(own[first + e], m_sum[first + e]);
    }
}

void
RingSum::Init(uint64_t elements)
{
    NS_LOG_FUNCTION(this << elements);
    m_sum.assign(elements, 0);
    m_full.assign(elements, 0);
}

void
RingSum::Absorb(uint32_t k, uint32_t step, uint32_t first, const std::vector<int32_t>& values)
{
    NS_LOG_FUNCTION(this << k << step << first);
    if (step + 1 < k)
    {
        for (uint32_t e = 0; e < values.size(); ++e)
        {
            m_sum[first + e] = DirectSum::WrapAdd(m_sum[first + e], values[e]);
        }
        return;
    }
    std::copy(values.begin(), values.end(), m_full.begin() + first);
}

void
RingSum::Fill(uint32_t k,
              uint32_t step,
              uint32_t first,
              uint32_t count,
              const std::vector<int32_t>& own,
              std::vector<int32_t>& out) const
{
    NS_LOG_FUNCTION(this << k << step << first << count);
    out.resize(count);
    if (step < k)
    {
        // Reduce-scatter steps and the first all-gather step carry own + what came in.
        for (uint32_t e = 0; e < count; ++e)
        {
            out[e] = DirectSum::WrapAdd(own[first + e], m_sum[first + e]);
        }
        return;
    }
    std::copy(m_full.begin() + first, m_full.begin() + first + count, out.begin());
}

void
RingSum::Average(const ChunkLayout& layout,
                 uint32_t k,
                 uint32_t position,
                 const std::vector<int32_t>& own,
                 std::vector<double>& x,
                 double scale) const
{
    NS_LOG_FUNCTION(this << k << position << scale);
    // Own reduced segment: own + reduce-scatter sum; the others came in all-gather.
    std::vector<int32_t> full = m_full;
    uint32_t first = 0;
    const uint32_t mine = (position + 1) % k;
    const uint32_t length = layout.GetSegmentSpan(k, mine, first);
    for (uint32_t e = first; e < first + length; ++e)
    {
        full[e] = DirectSum::WrapAdd(own[e], m_sum[e]);
    }
    const double divisor = scale * k;
    for (uint32_t e = 0; e < full.size(); ++e)
    {
        x[e] = full[e] / divisor;
    }
}

} // namespace ns3
