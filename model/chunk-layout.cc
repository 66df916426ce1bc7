/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chunk-layout.h"

#include "gradient-header.h"
#include "gradient-payload.h"
#include "wan-wire.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChunkLayout");

ChunkLayout::ChunkLayout()
    : m_elements(0),
      m_chunkElements(1),
      m_chunkCount(1)
{
    NS_LOG_FUNCTION(this);
}

ChunkLayout::ChunkLayout(uint64_t modelBytes, uint32_t chunkPayloadBytes)
    : m_elements(ElementsOf(modelBytes)),
      m_chunkElements(chunkPayloadBytes / GradientHeader::ELEMENT_SIZE)
{
    NS_LOG_FUNCTION(this << modelBytes << chunkPayloadBytes);
    NS_ASSERT_MSG(m_chunkElements > 0 && chunkPayloadBytes % GradientHeader::ELEMENT_SIZE == 0,
                  "chunk payload " << chunkPayloadBytes << " is not a positive multiple of 4");
    CountChunks(modelBytes);
}

ChunkLayout::ChunkLayout(uint64_t modelBytes,
                         uint32_t chunkPayloadBytes,
                         const UpdateFormat& format,
                         uint32_t islandCount)
    : m_format(format),
      m_elements(ElementsOf(modelBytes)),
      m_chunkElements(format.GetChunkElements(chunkPayloadBytes, islandCount)),
      m_maxContributors(islandCount)
{
    NS_LOG_FUNCTION(this << modelBytes << chunkPayloadBytes << format.ToString() << islandCount);
    NS_ABORT_MSG_IF(m_chunkElements == 0,
                    "a chunk payload of " << chunkPayloadBytes << " bytes holds no element of "
                                          << format.ToString());
    CountChunks(modelBytes);
}

void
ChunkLayout::CountChunks(uint64_t modelBytes)
{
    NS_LOG_FUNCTION(this << modelBytes);
    const uint64_t chunks = (m_elements + m_chunkElements - 1) / m_chunkElements;
    NS_ASSERT_MSG(m_elements <= MAX_ELEMENTS, "model of " << modelBytes << " bytes too large");
    NS_ASSERT_MSG(chunks < UINT32_MAX, "too many chunks");
    m_chunkCount = static_cast<uint32_t>(std::max<uint64_t>(1, chunks));
}

const UpdateFormat&
ChunkLayout::GetFormat() const
{
    NS_LOG_FUNCTION(this);
    return m_format;
}

uint64_t
ChunkLayout::GetPayloadBytes() const
{
    NS_LOG_FUNCTION(this);
    uint32_t first = 0;
    const uint32_t last = GetChunkSpan(m_chunkCount - 1, first);
    return uint64_t{m_chunkCount - 1} * m_format.GetPayloadBytes(m_chunkElements) +
           m_format.GetPayloadBytes(last);
}

uint64_t
ChunkLayout::GetSumPayloadBytes(uint32_t contributors) const
{
    NS_LOG_FUNCTION(this << contributors);
    uint32_t first = 0;
    const uint32_t last = GetChunkSpan(m_chunkCount - 1, first);
    return uint64_t{m_chunkCount - 1} * m_format.GetSumPayloadBytes(m_chunkElements, contributors) +
           m_format.GetSumPayloadBytes(last, contributors);
}

uint64_t
ChunkLayout::GetElements() const
{
    NS_LOG_FUNCTION(this);
    return m_elements;
}

uint32_t
ChunkLayout::GetChunkElements() const
{
    NS_LOG_FUNCTION(this);
    return m_chunkElements;
}

uint32_t
ChunkLayout::GetChunkCount() const
{
    NS_LOG_FUNCTION(this);
    return m_chunkCount;
}

uint32_t
ChunkLayout::GetChunkSpan(uint32_t chunk, uint32_t& first) const
{
    NS_LOG_FUNCTION(this << chunk);
    const uint64_t start = uint64_t{chunk} * m_chunkElements;
    if (start >= m_elements)
    {
        first = static_cast<uint32_t>(m_elements);
        return 0;
    }
    first = static_cast<uint32_t>(start);
    return static_cast<uint32_t>(std::min<uint64_t>(m_chunkElements, m_elements - start));
}

uint32_t
ChunkLayout::GetValueSpan(uint32_t chunk, uint64_t& first) const
{
    NS_LOG_FUNCTION(this << chunk);
    uint32_t element = 0;
    const uint32_t count = GetChunkSpan(chunk, element);
    const uint32_t words = GradientPayload::ValueWords(m_format.GetDataEncoding());
    // Every chunk before this one is whole.
    first =
        uint64_t{words} * std::min(chunk, m_chunkCount) * m_format.GetWireElements(m_chunkElements);
    return count == 0 ? 0 : words * m_format.GetWireElements(count);
}

uint32_t
ChunkLayout::GetSegmentSpan(uint32_t k, uint32_t segment, uint32_t& first) const
{
    NS_LOG_FUNCTION(this << k << segment);
    uint64_t start = 0;
    const uint64_t length = SegmentOf(m_elements, k, segment, start);
    first = static_cast<uint32_t>(start);
    return static_cast<uint32_t>(length);
}

uint32_t
ChunkLayout::GetSegmentChunkCount(uint32_t k, uint32_t segment) const
{
    NS_LOG_FUNCTION(this << k << segment);
    uint32_t first = 0;
    const uint32_t length = GetSegmentSpan(k, segment, first);
    return std::max<uint32_t>(1, (length + m_chunkElements - 1) / m_chunkElements);
}

uint32_t
ChunkLayout::GetSegmentChunkSpan(uint32_t k,
                                 uint32_t segment,
                                 uint32_t chunk,
                                 uint32_t& first) const
{
    NS_LOG_FUNCTION(this << k << segment << chunk);
    uint32_t segmentFirst = 0;
    const uint32_t length = GetSegmentSpan(k, segment, segmentFirst);
    const uint64_t offset = uint64_t{chunk} * m_chunkElements;
    first = static_cast<uint32_t>(segmentFirst + std::min<uint64_t>(offset, length));
    return offset < length
               ? static_cast<uint32_t>(std::min<uint64_t>(m_chunkElements, length - offset))
               : 0;
}

uint32_t
ChunkLayout::RingSendSegment(uint32_t k, uint32_t position, uint32_t step)
{
    NS_LOG_FUNCTION(k << position << step);
    NS_ASSERT_MSG(k > 1 && position < k && step < RingSteps(k), "ring step out of range");
    if (step < k - 1)
    {
        return (position + k - step) % k; // reduce-scatter: own index minus the step
    }
    const uint32_t t = step - (k - 1);
    return (position + 1 + k - t) % k; // all-gather: from the segment reduced here
}

uint32_t
ChunkLayout::RingReceiveSegment(uint32_t k, uint32_t position, uint32_t step)
{
    NS_LOG_FUNCTION(k << position << step);
    // What the predecessor sends in the same step.
    return RingSendSegment(k, (position + k - 1) % k, step);
}

uint32_t
ChunkLayout::RingSteps(uint32_t k)
{
    NS_LOG_FUNCTION(k);
    return k > 1 ? 2 * (k - 1) : 0;
}

uint32_t
ChunkLayout::RingContributors(uint32_t k, uint32_t step)
{
    NS_LOG_FUNCTION(k << step);
    return step + 1 < k ? step + 1 : k;
}

GradientHeader::Encoding
ChunkLayout::GetRingEncoding(uint32_t k, uint32_t step) const
{
    NS_LOG_FUNCTION(this << k << step);
    return UpdateFormat::SumEncoding(m_format.GetDataEncoding(), RingContributors(k, step));
}

uint64_t
ChunkLayout::GetRingStepPayload(uint32_t k,
                                uint32_t segment,
                                uint32_t step,
                                uint64_t& chunks,
                                uint32_t& lastPayload) const
{
    NS_LOG_FUNCTION(this << k << segment << step);
    const GradientHeader::Encoding encoding = GetRingEncoding(k, step);
    chunks = GetSegmentChunkCount(k, segment);
    uint32_t first = 0;
    const uint32_t last = GetSegmentChunkSpan(k, segment, chunks - 1, first);
    lastPayload = static_cast<uint32_t>(GradientHeader::PayloadBytes(encoding, last));
    return (chunks - 1) * GradientHeader::PayloadBytes(encoding, m_chunkElements) + lastPayload;
}

uint32_t
ChunkLayout::GetLargestChunkPayload() const
{
    NS_LOG_FUNCTION(this);
    return std::max(m_format.GetPayloadBytes(m_chunkElements),
                    m_format.GetSumPayloadBytes(m_chunkElements, m_maxContributors));
}

uint64_t
ChunkLayout::ElementsOf(uint64_t bytes)
{
    NS_LOG_FUNCTION(bytes);
    return bytes / GradientHeader::ELEMENT_SIZE + (bytes % GradientHeader::ELEMENT_SIZE != 0);
}

uint64_t
ChunkLayout::RingSegmentBytes(uint64_t modelBytes, uint32_t k, uint32_t segment)
{
    NS_LOG_FUNCTION(modelBytes << k << segment);
    uint64_t start = 0;
    return SegmentOf(ElementsOf(modelBytes), k, segment, start) * GradientHeader::ELEMENT_SIZE;
}

uint64_t
ChunkLayout::SegmentOf(uint64_t elements, uint32_t k, uint32_t segment, uint64_t& start)
{
    NS_LOG_FUNCTION(elements << k << segment);
    NS_ASSERT_MSG(k > 0 && segment < k, "segment " << segment << " of " << k);
    const uint64_t size = (elements + k - 1) / k;
    start = std::min<uint64_t>(elements, size * segment);
    return std::min<uint64_t>(elements, start + size) - start;
}

uint64_t
ChunkLayout::ChunksOf(uint64_t payloadBytes, uint32_t chunkPayloadBytes)
{
    NS_LOG_FUNCTION(payloadBytes << chunkPayloadBytes);
    NS_ASSERT_MSG(chunkPayloadBytes > 0, "empty chunks");
    return payloadBytes / chunkPayloadBytes + (payloadBytes % chunkPayloadBytes != 0);
}

uint32_t
ChunkLayout::DataHeaderBytes(uint32_t islandCount)
{
    NS_LOG_FUNCTION(islandCount);
    const uint32_t words = std::max<uint32_t>(1,
                                              (islandCount + IslandBitmap::BITS_PER_WORD - 1) /
                                                  IslandBitmap::BITS_PER_WORD);
    return GradientHeader::FIXED_SIZE + 2 * sizeof(uint64_t) * words;
}

uint32_t
ChunkLayout::FitPayload(uint32_t room)
{
    NS_LOG_FUNCTION(room);
    return room - room % GradientHeader::ELEMENT_SIZE;
}

uint32_t
ChunkLayout::DefaultChunkPayload(uint32_t mtu, uint32_t islandCount)
{
    NS_LOG_FUNCTION(mtu << islandCount);
    const uint32_t overhead = WanWire::IPV4_UDP_HEADER_BYTES + DataHeaderBytes(islandCount);
    return mtu > overhead ? FitPayload(mtu - overhead) : 0;
}

uint32_t
ChunkLayout::DataWireBytes(uint32_t payloadBytes, uint32_t islandCount, uint32_t framingBytes)
{
    NS_LOG_FUNCTION(payloadBytes << islandCount << framingBytes);
    return payloadBytes + DataHeaderBytes(islandCount) + WanWire::IPV4_UDP_HEADER_BYTES +
           framingBytes;
}

} // namespace ns3
