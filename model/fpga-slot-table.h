/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_SLOT_TABLE_H
#define FPGA_SLOT_TABLE_H

#include "fpga-slot-index.h"
#include "gradient-header.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief The aggregation memory of an FPGA (FpgaAggregatorNetDevice at the edge,
 *        TransitAggregatorNetDevice beside a router): its slots, their deadlines, the senders'
 *        frontiers, and when a slot is settled and must be emitted.
 *
 * One slot per (job, round, clique, chunk), pooled so its sum buffer's memory is reused. A
 * piece added to a slot is one sender's DATA or an aggregate of several (its contributor
 * bitmap); it is added only if disjoint from what the slot holds. A
 * slot is settled when every expected sender has contributed, or (early flush) when every
 * missing sender's first pass has gone past its chunk; it is then emitted after the pipeline
 * latency. A slot still open at its deadline is emitted at once as a partial aggregate.
 * Emitting is the device's job: the table calls its emit callback, and the device builds the
 * AGGREGATE packet from the slot and frees it (Free()).
 *
 * Frontiers: a sender's first-pass chunks reach the FPGA in chunk order, so the table keeps,
 * per (job, round, clique), one past the highest chunk index seen from each sender (or the
 * chunk count once its END passed). Flows of rounds long over are forgotten.
 */
class FpgaSlotTable
{
  public:
    /** Slot key: one chunk of one clique's round of one job. */
    using SlotKey = FpgaSlotKey;

    /** One clique's round of one job: the unit whose senders' frontiers are tracked. */
    struct FlowKey
    {
        uint32_t jobId;    //!< job
        uint32_t round;    //!< round
        uint32_t cliqueId; //!< clique
        /** \param other key \return equality */
        bool operator==(const FlowKey& other) const;
        /** \param header a gradient header \return the flow it belongs to */
        static FlowKey Of(const GradientHeader& header);
    };

    /** Hash of a FlowKey. */
    struct FlowKeyHash
    {
        /** \param key key \return hash */
        size_t operator()(const FlowKey& key) const;
    };

    /** The IPv4 and UDP fields of one contribution that an aggregate reuses. */
    struct InputFields
    {
        Ipv4Address source;      //!< IPv4 source
        Ipv4Address destination; //!< IPv4 destination
        uint16_t sourcePort;     //!< UDP source port
        uint8_t ttl;             //!< IPv4 TTL
        uint8_t tos;             //!< IPv4 TOS byte
    };

    /** One aggregation slot. */
    struct Slot
    {
        SlotKey key;               //!< what it aggregates
        GradientHeader header;     //!< first contribution's header (template of the aggregate)
        IslandBitmap expected;     //!< the senders it waits for
        IslandBitmap contributors; //!< senders added so far (union of the pieces' contributors)
        std::vector<uint32_t> sum; //!< element sums (real payloads), as two's-complement bits
        uint32_t sources;          //!< data encodings its pieces may be sums of (the meet of
                                   //!< their UpdateFormat::SumSources)
        InputFields fields;        //!< first contribution's IPv4/UDP fields (ECN: CE if any
                                   //!< contribution's was)
        uint64_t serial;           //!< allocation number: tells a live deadline from a stale one
        EventId emission;          //!< emission once settled (PipelineLatency > 0)
        bool emitting;             //!< settled; waiting for PipelineLatency
        bool settled;              //!< every missing sender went past it (EarlyFlush)
    };

    /**
     * Chunk indices in ascending order, each once: the table keeps one per flow and sender,
     * the chunks of the flow's open slots waiting with the sender's contribution. A sender's
     * chunks come mostly in order and leave mostly from the oldest, so a deque takes both at
     * its ends, where a tree set allocates a node per chunk and rebalances on every change.
     */
    class ChunkList
    {
      public:
        /** \param chunk a chunk index \brief add it (nothing if listed) */
        void Insert(uint32_t chunk);
        /** \param chunk a chunk index \brief remove it (nothing if not listed) */
        void Erase(uint32_t chunk);
        /** \return true if no chunk is listed */
        bool IsEmpty() const;
        /**
         * \param chunk a chunk index \param below receives the highest listed chunk below it
         * \return true if there is one
         */
        bool FindBelow(uint32_t chunk, uint32_t& below) const;

      private:
        std::deque<uint32_t> m_chunks; //!< ascending
    };

    /** What Offer() did with a piece. */
    enum AddResult
    {
        OPENED,    //!< opened its chunk's slot and summed into it
        ADDED,     //!< summed into the open slot
        DUPLICATE, //!< every contributor of it is already in the slot: absorbed, not added
        OVERLAP,   //!< some, not all, of its contributors are in the slot: not added
        MISMATCH,  //!< element count, members, payload kind or the data encoding it sums
                   //!< (UpdateFormat::SumSources) differ from the slot's
        OVERFLOW,  //!< no slot open for its chunk and none free: not added
    };

    /** \param result an Offer result \return its name, for logs */
    static const char* AddResultName(AddResult result);

    /**
     * Emits a settled or expired slot: \p index the slot, \p complete true if every expected
     * sender contributed. The receiver must Free() the slot.
     */
    typedef Callback<void, uint32_t, bool> EmitCallback;

    FpgaSlotTable();

    /** \param emit called to emit a slot (see EmitCallback) */
    void SetEmitCallback(EmitCallback emit);
    /** \param earlyFlush settle a slot once every missing sender has gone past its chunk */
    void SetEarlyFlush(bool earlyFlush);
    /** \return whether early flush is on */
    bool GetEarlyFlush() const;
    /** \param latency delay from settling a slot to emitting it */
    void SetPipelineLatency(Time latency);
    /** \return the delay from settling a slot to emitting it */
    Time GetPipelineLatency() const;

    /**
     * \param key a slot key \param index receives the open slot's index if found
     * \return true if a slot is open for the key
     */
    bool Find(const SlotKey& key, uint32_t& index) const;
    /**
     * \brief A resend (FLAG_RETRANSMISSION) of a chunk whose open slot already holds its
     *        sender's contribution: the island gets it with the slot's aggregate, so the
     *        resend is absorbed (counted as a duplicate).
     * \param header the resend's header
     * \return true if absorbed; false if no open slot holds the sender's contribution (the
     *         resend must go on to the island)
     */
    bool AbsorbResend(const GradientHeader& header);
    /**
     * \brief Add a piece to its chunk's slot, opening the slot if none is open and fewer than
     *        \p capacity are; settle the slot if it can be. A piece is one sender's DATA or an
     *        AGGREGATE of several (its contributor bitmap); one marked CE marks the slot.
     * \param header the piece's header \param fields its IPv4/UDP fields
     * \param expected the senders a new slot waits for
     * \param packet the IPv4 packet \param payloadOffset byte offset of its payload
     * \param capacity slots that may be open at once
     * \param timeout a new slot is emitted partial this long after it opened
     * \return what was done with it
     */
    AddResult Offer(const GradientHeader& header,
                    const InputFields& fields,
                    const IslandBitmap& expected,
                    Ptr<const Packet> packet,
                    uint32_t payloadOffset,
                    uint32_t capacity,
                    Time timeout);
    /**
     * \brief A sender's first pass has come as far as \p next: settle the slots it skipped.
     * \param header a DATA or END header from the sender \param next one past its last chunk
     */
    void AdvanceFrontier(const GradientHeader& header, uint32_t next);
    /**
     * \brief The first passes of \p senders have come as far as \p next, together in one
     *        piece (an aggregate of them, on the one path they all take from here on): settle
     *        the slots they skipped.
     * \param header the piece's header (its job, round and clique) \param senders its
     *        contributors \param next one past its chunk
     */
    void AdvanceFrontiers(const GradientHeader& header, const IslandBitmap& senders, uint32_t next);
    /** \param index an open slot's index \return the slot */
    const Slot& GetSlot(uint32_t index) const;
    /**
     * \brief A contribution to an open slot arrived marked CE: its aggregate leaves marked CE
     *        (the island then notifies every contributor; transport adaptive).
     * \param index the slot
     */
    void MarkCongested(uint32_t index);
    /** \brief Close a slot (emitted): its deadline goes stale. \param index the slot */
    void Free(uint32_t index);
    /** \brief Cancel every event and forget every slot and frontier. */
    void Clear();

    /** \return slots in use now */
    uint32_t GetSlotsInUse() const;
    /** \return pieces added to a slot (duplicates excluded) */
    uint64_t GetAggregatedCount() const;
    /** \return pieces whose contributors were all in their slot already (absorbed, not added) */
    uint64_t GetDuplicateCount() const;
    /** \return slots settled early: every missing sender had gone past */
    uint64_t GetEarlyFlushCount() const;
    /** \return element additions that wrapped around (int32 overflow) */
    uint64_t GetWrapCount() const;

  private:
    /**
     * When a slot times out. Deadlines are kept in a FIFO (a constant Timeout makes them
     * ascend in allocation order) with one timer event for the earliest live one, instead of
     * one event per slot: emitted slots leave stale entries that the timer skips.
     */
    struct Deadline
    {
        Time at;         //!< allocation time + Timeout
        uint32_t index;  //!< slot index
        uint64_t serial; //!< the slot's serial when the deadline was set
    };

    /**
     * \brief Open a slot for a header's chunk (no slot may be open for it).
     * \param header the first piece's header \param fields its IPv4/UDP fields
     * \param expected the senders to wait for \param deadline when to emit it partial
     * \return the slot's index
     */
    uint32_t Open(const GradientHeader& header,
                  const InputFields& fields,
                  const IslandBitmap& expected,
                  Time deadline);
    /**
     * \brief Add one piece to its open slot, and settle the slot if it can be.
     * \param index the slot \param header the piece's header
     * \param packet the IPv4 packet \param payloadOffset byte offset of its payload
     * \return ADDED, DUPLICATE, OVERLAP or MISMATCH
     */
    AddResult Add(uint32_t index,
                  const GradientHeader& header,
                  Ptr<const Packet> packet,
                  uint32_t payloadOffset);
    /**
     * \brief Add a real payload to a slot's sums.
     * \param slot the slot \param encoding the piece's encoding \param packet the IPv4 packet
     * \param payloadOffset payload offset
     */
    void AddPayload(Slot& slot,
                    GradientHeader::Encoding encoding,
                    Ptr<const Packet> packet,
                    uint32_t payloadOffset);
    /**
     * \param header a header of a flow \return the flow's frontiers (created if new; flows of
     *         rounds long over are forgotten then)
     */
    std::vector<uint32_t>& FrontierOf(const GradientHeader& header);
    /**
     * \brief One sender's first pass has come as far as \p next: settle the slots it skipped.
     * \param flow the flow \param frontier its frontiers (FrontierOf) \param sender the sender
     * \param next one past its last chunk
     */
    void Advance(const FlowKey& flow,
                 std::vector<uint32_t>& frontier,
                 uint32_t sender,
                 uint32_t next);
    /**
     * \brief Emit the slot (after the pipeline latency) if it is complete, or if every missing
     *        sender has gone past its chunk.
     * \param index slot index
     */
    void MaybeSettle(uint32_t index);
    /**
     * \param index slot index \param complete full bitmap
     * \brief the slot's pipeline latency elapsed: emit it
     */
    void EmitLater(uint32_t index, bool complete);
    /** \param key a slot \param sender a sender \return true if it has gone past the chunk */
    bool HasPassed(const SlotKey& key, uint32_t sender) const;
    /** \param index slot index \param serial its serial \return true if the slot is open */
    bool IsOpen(uint32_t index, uint64_t serial) const;
    /** \brief Add a new slot's deadline and arm the timer if it is the earliest. \param d it */
    void AddDeadline(const Deadline& d);
    /** \brief Drop stale deadlines at the front; schedule the timer for the first live one. */
    void ArmTimer();
    /** \brief The timer fired: emit partial every open slot whose deadline has come. */
    void ExpireSlots();
    /**
     * \brief A slot is about to time out: emit partial, ascending, the open slots of its flow
     *        below its chunk that share a sender with it (or with another slot so emitted), so
     *        each sender's contributions reach the island in chunk order.
     * \param key the slot timing out
     */
    void EmitEarlierSlots(const SlotKey& key);
    /** \param slot a slot no longer waiting (emitting or freed): drop it from m_waitingBySender */
    void Unlist(const Slot& slot);

    /** The serial of a free slot (allocation numbers start at 1). */
    static constexpr uint64_t FREE_SERIAL = 0;

    EmitCallback m_emit;    //!< the device's emission
    bool m_earlyFlush;      //!< settle slots whose missing senders have gone past
    Time m_pipelineLatency; //!< delay from settling to emission

    std::vector<Slot> m_slots;         //!< pool
    std::vector<uint32_t> m_freeSlots; //!< indices of free pool slots
    FpgaSlotIndex m_index;             //!< key -> pool index
    std::vector<uint8_t> m_scratch;    //!< payload copy buffer
    std::deque<Deadline> m_deadlines;  //!< ascending by time
    EventId m_timerEvent;              //!< earliest live deadline
    uint64_t m_nextSerial;             //!< next slot allocation number

    /** Per flow, per sender island: one past the highest first-pass chunk seen. */
    std::unordered_map<FlowKey, std::vector<uint32_t>, FlowKeyHash> m_frontiers;
    uint32_t m_latestRound; //!< highest round seen (old flows are forgotten)

    /**
     * Per flow, per sender island: the chunks of the flow's open slots that hold the sender's
     * contribution and are not emitting. EmitEarlierSlots finds the next earlier slot sharing
     * a sender from these, without visiting the slots that share none.
     */
    std::unordered_map<FlowKey, std::unordered_map<uint32_t, ChunkList>, FlowKeyHash>
        m_waitingBySender;

    uint64_t m_aggregated;   //!< contributions added
    uint64_t m_duplicates;   //!< duplicate contributions absorbed
    uint64_t m_earlyFlushes; //!< slots settled early
    uint64_t m_wraps;        //!< wrapped element additions
};

} // namespace ns3

#endif /* FPGA_SLOT_TABLE_H */
