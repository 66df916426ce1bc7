/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gradient-header.h"

#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GradientHeader");

NS_OBJECT_ENSURE_REGISTERED(GradientHeader);

namespace
{

/** Byte offsets of the fixed part (see the table in gradient-header.h). */
constexpr uint32_t OFFSET_MAGIC = 0;
constexpr uint32_t OFFSET_VERSION = 2;
constexpr uint32_t OFFSET_TYPE = 3;
constexpr uint32_t OFFSET_FLAGS = 4;
constexpr uint32_t OFFSET_SENDER = 6;
constexpr uint32_t OFFSET_JOB = 8;
constexpr uint32_t OFFSET_ROUND = 12;
constexpr uint32_t OFFSET_CLIQUE = 16;
constexpr uint32_t OFFSET_CHUNK_INDEX = 20;
constexpr uint32_t OFFSET_CHUNK_COUNT = 24;
constexpr uint32_t OFFSET_ELEMENTS = 28;
constexpr uint32_t OFFSET_RING_STEP = 32;
constexpr uint32_t OFFSET_WORDS = 34;
constexpr uint32_t OFFSET_RANGES = 35;
constexpr uint32_t BYTES_PER_WORD = 8;
constexpr uint32_t BYTES_PER_RANGE = 8;
/** Flags a version-1 sender may set; other bits make the header invalid. */
constexpr uint16_t KNOWN_FLAGS =
    GradientHeader::FLAG_RETRANSMISSION | GradientHeader::FLAG_NO_AGGREGATE |
    GradientHeader::FLAG_REAL_PAYLOAD | GradientHeader::FLAG_SETTLED |
    GradientHeader::FLAG_SILENCE | GradientHeader::FLAG_CONGESTION | GradientHeader::FLAG_REDUCE;
/** The flags field's bits that hold the payload's Encoding. */
constexpr uint16_t ENCODING_MASK = 0x0380;
/** The shift of the Encoding code within the flags field. */
constexpr uint32_t ENCODING_SHIFT = 7;
static_assert((KNOWN_FLAGS & ENCODING_MASK) == 0, "the encoding bits are not flags");

/** Bits of one element of each Encoding, by wire code (top-k: one entry). */
constexpr uint32_t ENCODING_BITS[] = {32, 16, 8, 4, 16, 64};
/** Wire codes beyond this are no Encoding. */
constexpr uint32_t ENCODING_COUNT = sizeof(ENCODING_BITS) / sizeof(ENCODING_BITS[0]);

/** \param flagsField the flags field on the wire \return its Encoding code */
uint32_t
EncodingCodeOf(uint16_t flagsField)
{
    return (flagsField & ENCODING_MASK) >> ENCODING_SHIFT;
}

bool
IsKnownType(uint8_t type)
{
    NS_LOG_FUNCTION(type);
    return type >= GradientHeader::DATA && type <= GradientHeader::START;
}

} // namespace

TypeId
GradientHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GradientHeader")
                            .SetParent<Header>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<GradientHeader>();
    return tid;
}

TypeId
GradientHeader::GetInstanceTypeId() const
{
    NS_LOG_FUNCTION(this);
    return GetTypeId();
}

GradientHeader::GradientHeader()
    : m_type(DATA),
      m_flags(0),
      m_sender(0),
      m_jobId(0),
      m_round(0),
      m_cliqueId(0),
      m_chunkIndex(0),
      m_chunkCount(1),
      m_elementCount(0),
      m_encoding(ENCODING_INT32),
      m_ringStep(0)
{
    NS_LOG_FUNCTION(this);
}

bool
GradientHeader::Parse(Ptr<const Packet> packet, GradientHeader& header, uint32_t* headerSize)
{
    NS_LOG_FUNCTION(packet);
    // Copy at most the largest header: the copy stops at the end of the packet, so a
    // truncated packet cannot make us read past it.
    uint8_t bytes[MAX_SERIALIZED_SIZE];
    const uint32_t size = packet->GetSize();
    const uint32_t available = packet->CopyData(bytes, std::min(size, MAX_SERIALIZED_SIZE));
    return ParseBytes(bytes, available, size, header, headerSize);
}

bool
GradientHeader::ParseBytes(const uint8_t* bytes,
                           uint32_t available,
                           uint32_t packetSize,
                           GradientHeader& header,
                           uint32_t* headerSize)
{
    NS_LOG_FUNCTION(available << packetSize);
    if (available < FIXED_SIZE || packetSize < available)
    {
        return false;
    }
    const uint32_t size = HeaderSizeOf(bytes);
    if (size == 0 || size + PayloadSizeOf(bytes) != packetSize || available < size)
    {
        return false;
    }
    const uint32_t words = bytes[OFFSET_WORDS];
    const uint16_t sender = WanWire::ReadU16(bytes + OFFSET_SENDER);
    if (sender >= 64 * words)
    {
        return false;
    }
    // Decode: the whole header is within the bytes.
    header.DecodeFixedFields(bytes);
    header.DecodeBitmapsAndRanges(bytes);
    if (!header.IsConsistent())
    {
        return false;
    }
    if (headerSize != nullptr)
    {
        *headerSize = size;
    }
    return true;
}

void
GradientHeader::DecodeFixedFields(const uint8_t* fixed)
{
    NS_LOG_FUNCTION(this);
    m_type = fixed[OFFSET_TYPE];
    const uint16_t flagsField = WanWire::ReadU16(fixed + OFFSET_FLAGS);
    m_flags = flagsField & ~ENCODING_MASK;
    m_encoding = static_cast<Encoding>(EncodingCodeOf(flagsField));
    m_sender = WanWire::ReadU16(fixed + OFFSET_SENDER);
    m_jobId = WanWire::ReadU32(fixed + OFFSET_JOB);
    m_round = WanWire::ReadU32(fixed + OFFSET_ROUND);
    m_cliqueId = WanWire::ReadU32(fixed + OFFSET_CLIQUE);
    m_chunkIndex = WanWire::ReadU32(fixed + OFFSET_CHUNK_INDEX);
    m_chunkCount = WanWire::ReadU32(fixed + OFFSET_CHUNK_COUNT);
    m_elementCount = WanWire::ReadU32(fixed + OFFSET_ELEMENTS);
    m_ringStep = WanWire::ReadU16(fixed + OFFSET_RING_STEP);
}

void
GradientHeader::DecodeBitmapsAndRanges(const uint8_t* bytes)
{
    NS_LOG_FUNCTION(this);
    const uint32_t words = bytes[OFFSET_WORDS];
    const uint32_t ranges = bytes[OFFSET_RANGES];
    const uint8_t* p = bytes + FIXED_SIZE;
    m_members.Clear();
    m_contributors.Clear();
    for (uint32_t i = 0; i < words; ++i, p += BYTES_PER_WORD)
    {
        m_members.SetWord(i, WanWire::ReadU64(p));
    }
    for (uint32_t i = 0; i < words; ++i, p += BYTES_PER_WORD)
    {
        m_contributors.SetWord(i, WanWire::ReadU64(p));
    }
    m_nackRanges.resize(ranges);
    for (ChunkRange& range : m_nackRanges)
    {
        range.first = WanWire::ReadU32(p);
        range.count = WanWire::ReadU32(p + 4);
        p += BYTES_PER_RANGE;
    }
}

bool
GradientHeader::IsConsistent() const
{
    NS_LOG_FUNCTION(this);
    if (m_chunkCount < 1 || m_chunkIndex >= m_chunkCount || !m_members.Test(m_sender) ||
        !m_contributors.IsSubsetOf(m_members))
    {
        return false;
    }
    // Only data goes up a reduction tree, and the END behind it.
    if (HasFlag(FLAG_REDUCE) && m_type != DATA && m_type != AGGREGATE && m_type != END)
    {
        return false;
    }
    return IsConsistentForType();
}

bool
GradientHeader::IsConsistentForType() const
{
    NS_LOG_FUNCTION(this);
    switch (m_type)
    {
    case DATA:
        return IsFromSenderAlone();
    case END:
        return IsFromSenderAlone() && m_chunkIndex + 1 == m_chunkCount && m_elementCount == 0;
    case LATE:
    case START: {
        const uint32_t elements = m_type == START ? START_ELEMENTS : 0;
        return IsFromSenderAlone() && m_chunkCount == 1 && m_elementCount == elements &&
               !HasFlag(FLAG_REAL_PAYLOAD);
    }
    case AGGREGATE:
        return !m_contributors.IsEmpty();
    case NACK:
        return AreNackRangesInside();
    default:
        return true;
    }
}

bool
GradientHeader::IsFromSenderAlone() const
{
    IslandBitmap self;
    self.Set(m_sender);
    return m_contributors == self;
}

bool
GradientHeader::AreNackRangesInside() const
{
    NS_LOG_FUNCTION(this);
    for (const ChunkRange& range : m_nackRanges)
    {
        if (range.count < 1 || range.first >= m_chunkCount ||
            range.count > m_chunkCount - range.first)
        {
            return false;
        }
    }
    return true;
}

uint32_t
GradientHeader::HeaderSizeOf(const uint8_t* fixed)
{
    NS_LOG_FUNCTION_NOARGS();
    const uint16_t flagsField = WanWire::ReadU16(fixed + OFFSET_FLAGS);
    const uint8_t type = fixed[OFFSET_TYPE];
    const uint32_t encoding = EncodingCodeOf(flagsField);
    const bool carriesValues = type == DATA || type == AGGREGATE || type == RING;
    if (WanWire::ReadU16(fixed + OFFSET_MAGIC) != MAGIC || fixed[OFFSET_VERSION] != VERSION ||
        !IsKnownType(type) || (flagsField & ~(KNOWN_FLAGS | ENCODING_MASK)) != 0 ||
        encoding >= ENCODING_COUNT || (encoding != ENCODING_INT32 && !carriesValues))
    {
        return 0;
    }
    const uint32_t words = fixed[OFFSET_WORDS];
    const uint32_t ranges = fixed[OFFSET_RANGES];
    if (words < 1 || words > IslandBitmap::MAX_WORDS)
    {
        return 0;
    }
    if ((type == NACK && (ranges < 1 || ranges > MAX_NACK_RANGES)) || (type != NACK && ranges != 0))
    {
        return 0;
    }
    return FIXED_SIZE + 2 * BYTES_PER_WORD * words + BYTES_PER_RANGE * ranges;
}

uint64_t
GradientHeader::PayloadSizeOf(const uint8_t* fixed)
{
    NS_LOG_FUNCTION_NOARGS();
    return PayloadBytes(
        static_cast<Encoding>(EncodingCodeOf(WanWire::ReadU16(fixed + OFFSET_FLAGS))),
        WanWire::ReadU32(fixed + OFFSET_ELEMENTS));
}

uint32_t
GradientHeader::EncodingBits(Encoding encoding)
{
    NS_LOG_FUNCTION_NOARGS();
    NS_ASSERT_MSG(encoding < ENCODING_COUNT, "no such encoding: " << int(encoding));
    return ENCODING_BITS[encoding];
}

uint64_t
GradientHeader::PayloadBytes(Encoding encoding, uint64_t elements)
{
    NS_LOG_FUNCTION_NOARGS();
    return (elements * EncodingBits(encoding) + 7) / 8;
}

uint16_t
GradientHeader::PeekFlags(const uint8_t* bytes)
{
    NS_LOG_FUNCTION_NOARGS();
    static_assert(OFFSET_FLAGS + 2 == PEEK_SIZE, "PeekFlags reads up to the flags");
    if (WanWire::ReadU16(bytes + OFFSET_MAGIC) != MAGIC || bytes[OFFSET_VERSION] != VERSION)
    {
        return 0;
    }
    return WanWire::ReadU16(bytes + OFFSET_FLAGS);
}

uint64_t
GradientHeader::FramedSize(const uint8_t* fixed)
{
    NS_LOG_FUNCTION_NOARGS();
    const uint32_t size = HeaderSizeOf(fixed);
    return size == 0 ? 0 : size + PayloadSizeOf(fixed);
}

const char*
GradientHeader::TypeName(uint8_t type)
{
    switch (type)
    {
    case DATA:
        return "DATA";
    case AGGREGATE:
        return "AGGREGATE";
    case NACK:
        return "NACK";
    case RING:
        return "RING";
    case ACK:
        return "ACK";
    case END:
        return "END";
    case LATE:
        return "LATE";
    case START:
        return "START";
    default:
        return "UNKNOWN";
    }
}

uint32_t
GradientHeader::GetWireWords() const
{
    NS_LOG_FUNCTION(this);
    return std::max<uint32_t>(1, std::max(m_members.GetUsedWords(), m_contributors.GetUsedWords()));
}

uint32_t
GradientHeader::GetSerializedSize() const
{
    NS_LOG_FUNCTION(this);
    return FIXED_SIZE + 2 * BYTES_PER_WORD * GetWireWords() +
           BYTES_PER_RANGE * static_cast<uint32_t>(m_nackRanges.size());
}

void
GradientHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this);
    const uint32_t words = GetWireWords();
    start.WriteHtonU16(MAGIC);
    start.WriteU8(VERSION);
    start.WriteU8(m_type);
    start.WriteHtonU16(m_flags | static_cast<uint16_t>(m_encoding << ENCODING_SHIFT));
    start.WriteHtonU16(m_sender);
    start.WriteHtonU32(m_jobId);
    start.WriteHtonU32(m_round);
    start.WriteHtonU32(m_cliqueId);
    start.WriteHtonU32(m_chunkIndex);
    start.WriteHtonU32(m_chunkCount);
    start.WriteHtonU32(m_elementCount);
    start.WriteHtonU16(m_ringStep);
    start.WriteU8(static_cast<uint8_t>(words));
    start.WriteU8(static_cast<uint8_t>(m_nackRanges.size()));
    for (uint32_t i = 0; i < words; ++i)
    {
        start.WriteHtonU64(m_members.GetWord(i));
    }
    for (uint32_t i = 0; i < words; ++i)
    {
        start.WriteHtonU64(m_contributors.GetWord(i));
    }
    for (const ChunkRange& range : m_nackRanges)
    {
        start.WriteHtonU32(range.first);
        start.WriteHtonU32(range.count);
    }
}

uint32_t
GradientHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this);
    // Callers validate with Parse() first; the bounds below only keep a direct caller with a
    // bad packet from reading past the buffer or growing the header without limit.
    if (start.GetRemainingSize() < FIXED_SIZE)
    {
        return 0;
    }
    start.ReadNtohU16(); // magic, checked by Parse()
    start.ReadU8();      // version, checked by Parse()
    m_type = start.ReadU8();
    const uint16_t flagsField = start.ReadNtohU16();
    m_flags = flagsField & ~ENCODING_MASK;
    m_encoding =
        static_cast<Encoding>(std::min<uint32_t>(EncodingCodeOf(flagsField), ENCODING_COUNT - 1));
    m_sender = start.ReadNtohU16();
    m_jobId = start.ReadNtohU32();
    m_round = start.ReadNtohU32();
    m_cliqueId = start.ReadNtohU32();
    m_chunkIndex = start.ReadNtohU32();
    m_chunkCount = start.ReadNtohU32();
    m_elementCount = start.ReadNtohU32();
    m_ringStep = start.ReadNtohU16();
    uint32_t words = std::min<uint32_t>(start.ReadU8(), IslandBitmap::MAX_WORDS);
    uint32_t ranges = std::min<uint32_t>(start.ReadU8(), MAX_NACK_RANGES);
    if (start.GetRemainingSize() < 2 * BYTES_PER_WORD * words)
    {
        words = 0;
    }
    m_members.Clear();
    m_contributors.Clear();
    for (uint32_t i = 0; i < words; ++i)
    {
        m_members.SetWord(i, start.ReadNtohU64());
    }
    for (uint32_t i = 0; i < words; ++i)
    {
        m_contributors.SetWord(i, start.ReadNtohU64());
    }
    ranges = std::min(ranges, start.GetRemainingSize() / BYTES_PER_RANGE);
    m_nackRanges.resize(ranges);
    for (ChunkRange& range : m_nackRanges)
    {
        range.first = start.ReadNtohU32();
        range.count = start.ReadNtohU32();
    }
    return FIXED_SIZE + 2 * BYTES_PER_WORD * words + BYTES_PER_RANGE * ranges;
}

void
GradientHeader::Print(std::ostream& os) const
{
    NS_LOG_FUNCTION(this << &os);
    os << TypeName(m_type) << " job=" << m_jobId << " round=" << m_round << " clique=" << m_cliqueId
       << " sender=" << m_sender << " chunk=" << m_chunkIndex << "/" << m_chunkCount
       << " elements=" << m_elementCount << " flags=0x" << std::hex << m_flags << std::dec
       << " members=" << m_members.Count() << " contributors=" << m_contributors.Count();
    if (m_encoding != ENCODING_INT32)
    {
        os << " encoding=" << static_cast<uint32_t>(m_encoding);
    }
    if (m_type == RING)
    {
        os << " step=" << m_ringStep;
    }
    for (const ChunkRange& range : m_nackRanges)
    {
        os << " nack=[" << range.first << "+" << range.count << ")";
    }
}

void
GradientHeader::SetType(Type type)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(type));
    m_type = type;
}

GradientHeader::Type
GradientHeader::GetType() const
{
    return static_cast<Type>(m_type);
}

void
GradientHeader::SetFlags(uint16_t flags)
{
    NS_LOG_FUNCTION(this << flags);
    NS_ASSERT_MSG((flags & ENCODING_MASK) == 0, "flags " << flags << " hold encoding bits");
    m_flags = flags;
}

uint16_t
GradientHeader::GetFlags() const
{
    NS_LOG_FUNCTION(this);
    return m_flags;
}

bool
GradientHeader::HasFlag(Flag flag) const
{
    return (m_flags & flag) != 0;
}

void
GradientHeader::SetJobId(uint32_t jobId)
{
    NS_LOG_FUNCTION(this << jobId);
    m_jobId = jobId;
}

uint32_t
GradientHeader::GetJobId() const
{
    NS_LOG_FUNCTION(this);
    return m_jobId;
}

void
GradientHeader::SetRound(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_round = round;
}

uint32_t
GradientHeader::GetRound() const
{
    NS_LOG_FUNCTION(this);
    return m_round;
}

void
GradientHeader::SetCliqueId(uint32_t cliqueId)
{
    NS_LOG_FUNCTION(this << cliqueId);
    m_cliqueId = cliqueId;
}

uint32_t
GradientHeader::GetCliqueId() const
{
    NS_LOG_FUNCTION(this);
    return m_cliqueId;
}

void
GradientHeader::SetSender(uint16_t island)
{
    NS_LOG_FUNCTION(this << island);
    NS_ABORT_MSG_IF(island >= IslandBitmap::MAX_ISLANDS, "sender " << island << " out of range");
    m_sender = island;
}

uint16_t
GradientHeader::GetSender() const
{
    return m_sender;
}

void
GradientHeader::SetChunkIndex(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_chunkIndex = index;
}

uint32_t
GradientHeader::GetChunkIndex() const
{
    NS_LOG_FUNCTION(this);
    return m_chunkIndex;
}

void
GradientHeader::SetChunkCount(uint32_t count)
{
    NS_LOG_FUNCTION(this << count);
    m_chunkCount = count;
}

uint32_t
GradientHeader::GetChunkCount() const
{
    NS_LOG_FUNCTION(this);
    return m_chunkCount;
}

void
GradientHeader::SetElementCount(uint32_t count)
{
    NS_LOG_FUNCTION(this << count);
    m_elementCount = count;
}

uint32_t
GradientHeader::GetElementCount() const
{
    NS_LOG_FUNCTION(this);
    return m_elementCount;
}

void
GradientHeader::SetRingStep(uint16_t step)
{
    NS_LOG_FUNCTION(this << step);
    m_ringStep = step;
}

uint16_t
GradientHeader::GetRingStep() const
{
    NS_LOG_FUNCTION(this);
    return m_ringStep;
}

void
GradientHeader::SetMembers(const IslandBitmap& members)
{
    NS_LOG_FUNCTION(this << members);
    m_members = members;
}

const IslandBitmap&
GradientHeader::GetMembers() const
{
    NS_LOG_FUNCTION(this);
    return m_members;
}

void
GradientHeader::SetContributors(const IslandBitmap& contributors)
{
    NS_LOG_FUNCTION(this << contributors);
    m_contributors = contributors;
}

const IslandBitmap&
GradientHeader::GetContributors() const
{
    NS_LOG_FUNCTION(this);
    return m_contributors;
}

void
GradientHeader::SetNackRanges(const std::vector<ChunkRange>& ranges)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(ranges.size() > MAX_NACK_RANGES, "too many NACK ranges: " << ranges.size());
    m_nackRanges = ranges;
}

const std::vector<GradientHeader::ChunkRange>&
GradientHeader::GetNackRanges() const
{
    NS_LOG_FUNCTION(this);
    return m_nackRanges;
}

uint32_t
GradientHeader::GetPayloadSize() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(PayloadBytes(m_encoding, m_elementCount));
}

void
GradientHeader::SetEncoding(Encoding encoding)
{
    NS_LOG_FUNCTION(this << int(encoding));
    NS_ASSERT_MSG(encoding < ENCODING_COUNT, "no such encoding: " << int(encoding));
    m_encoding = encoding;
}

GradientHeader::Encoding
GradientHeader::GetEncoding() const
{
    return m_encoding;
}

} // namespace ns3
