/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHUNK_REPAIR_H
#define CHUNK_REPAIR_H

#include "gradient-header.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The receive side of one incoming stream (one peer's update, or one ring step): which
 *        chunks are in, which are known to be missing, and when each was last asked for.
 *
 * A stream's first pass arrives in chunk order (one path, FIFO queues), so when chunk c
 * arrives, or the sender's END says it sent them all, every chunk below that is still missing
 * was lost: the frontier marks how far the stream is known to have come. Missing chunks below
 * the frontier are asked for at once, and again only when a repair interval has passed since
 * they were last asked for.
 *
 * Under sustained loss thousands of chunks of a stream can be asked for and not due yet, so
 * nothing scans the stream to find what is due: the asked chunks are indexed by when they were
 * asked (NextDue is the oldest), and the chunks to ask for next are kept in chunk order. An
 * asked chunk joins them when a call's due threshold (now - interval) passes its ask time, so
 * CollectDue costs O(log n) per chunk it returns or that became due, n the chunks asked for.
 */
class ChunkTracker
{
  public:
    ChunkTracker();
    /** \param chunks chunks of the stream (>= 1) \brief reset to "nothing received" */
    void Init(uint32_t chunks);
    /** \return chunks of the stream */
    uint32_t GetChunkCount() const;
    /** \return chunks not received yet */
    uint32_t GetMissing() const;
    /** \return true once every chunk is in */
    bool IsComplete() const;
    /**
     * \return true once the first pass is over: every chunk is in or known sent (the frontier
     *         reached the end), so the missing ones were lost and are being repaired
     */
    bool IsPassOver() const;
    /** \param chunk index \return true if received */
    bool Has(uint32_t chunk) const;
    /**
     * \param chunk index
     * \return true if it is missing and known to be (a gap below the frontier, known lost,
     *         asked for, or any missing chunk once CollectDue asked for all after silence)
     */
    bool IsKnownMissing(uint32_t chunk) const;
    /** \param chunk index (not received yet) \brief mark it received */
    void Mark(uint32_t chunk);
    /**
     * \brief The stream is known to have come as far as \p frontier (chunks below it were sent
     *        before something that arrived).
     * \param frontier one past the highest chunk known sent
     * \return true if a chunk below it is missing and was never asked for
     */
    bool Advance(uint32_t frontier);
    /** \param chunk a chunk known lost (e.g. absent from a partial aggregate) \return as Advance */
    bool MarkLost(uint32_t chunk);
    /**
     * \brief Collect the chunks to ask for now, and note them as asked.
     * \param now the time \param interval re-ask a chunk only this long after its last ask
     * \param all also chunks beyond the frontier (silence: the stream may have stopped; those
     *        are not noted as asked, as they may not be sent yet); chunks asked for before
     *        are asked again when due, wherever they are
     * \param maxRanges at most this many ranges
     * \param from no chunk below this (where the previous call of one ask stopped)
     * \return the ranges, ascending
     */
    std::vector<GradientHeader::ChunkRange> CollectDue(Time now,
                                                       Time interval,
                                                       bool all,
                                                       uint32_t maxRanges,
                                                       uint32_t from = 0);
    /** \return the earliest time an asked, still missing chunk becomes due again (or Max) */
    Time NextDue(Time interval) const;

  private:
    /**
     * \brief Bring m_wanted in step with a new due threshold: asked chunks asked at or before
     *        it are due, the others not.
     * \param dueBefore the threshold (now - interval)
     */
    void SetDueThreshold(Time dueBefore);
    /** \param chunk index \param all as CollectDue \return true if CollectDue asks for it */
    bool IsWanted(uint32_t chunk, bool all) const;
    /**
     * \param chunk index \param all as CollectDue
     * \return the first chunk at or above \p chunk that CollectDue asks for (or the chunk count)
     */
    uint32_t NextWanted(uint32_t chunk, bool all) const;
    /** \param chunk a chunk in m_wanted just asked for \param now the time */
    void NoteAsked(uint32_t chunk, Time now);
    /** \param chunk index \return the first chunk at or above it not received (or the count) */
    uint32_t NextMissing(uint32_t chunk) const;

    std::vector<uint64_t> m_bits;                 //!< received chunks
    uint32_t m_chunks;                            //!< chunks of the stream
    uint32_t m_missing;                           //!< chunks not received
    uint32_t m_frontier;                          //!< chunks below are known sent
    uint32_t m_scanFrom;                          //!< every chunk below is received
    std::unordered_map<uint32_t, Time> m_asked;   //!< missing chunks asked for, and when
    std::set<std::pair<Time, uint32_t>> m_byTime; //!< m_asked ordered by (when, chunk)
    /**
     * Missing chunks to ask for at the due threshold, ascending: those never asked for below
     * the frontier (gaps) or known lost, and asked ones asked at or before m_dueBefore.
     */
    std::set<uint32_t> m_wanted;
    Time m_dueBefore; //!< the due threshold m_wanted holds the asked chunks for
    bool m_askedAll;  //!< every missing chunk was asked for after silence
};

/**
 * \ingroup wan-training
 * \brief Resends set aside by an island behind an FPGA: a peer's chunk resent to the multicast
 *        group for another member, which reached this island before it knew the chunk missing.
 *
 * Behind an FPGA the island's own copy of that chunk most likely waits in an aggregate still on
 * its way (the FPGA's output queue holds aggregates, while resends pass it): taken now, the
 * resend would make that aggregate overlap, and a sum cannot be split, so the whole aggregate
 * would be dropped and each of its other contributors asked again. Set aside, the piece is
 * taken only if the chunk turns out missing (a partial aggregate lacks the peer, or a gap), and
 * forgotten once an aggregate brings the peer's chunk.
 */
class AsidePieces
{
  public:
    /** One piece set aside. */
    struct Piece
    {
        uint32_t first{0};           //!< its first element
        std::vector<int32_t> values; //!< its payload (real payloads), or empty
    };

    /**
     * \param slot the peer's position \param chunk the chunk \param piece the resend's payload
     * \brief Keep it (a later resend of the same chunk replaces it).
     */
    void Put(uint32_t slot, uint32_t chunk, Piece piece);
    /**
     * \param slot the peer's position \param chunk the chunk \param piece receives the piece
     * \return true if one was set aside (it is removed)
     */
    bool Take(uint32_t slot, uint32_t chunk, Piece& piece);
    /** \param slot the peer's position \param chunk a chunk now in \brief forget its piece */
    void Forget(uint32_t slot, uint32_t chunk);
    /**
     * \param slot the peer's position \param tracker its stream
     * \return the chunks set aside for it that the tracker now knows missing, ascending
     */
    std::vector<uint32_t> KnownMissing(uint32_t slot, const ChunkTracker& tracker) const;
    /** \return pieces set aside */
    size_t GetSize() const;

  private:
    std::map<std::pair<uint32_t, uint32_t>, Piece> m_pieces; //!< by (slot, chunk)
};

/**
 * \ingroup wan-training
 * \brief The send side of repair for one outgoing stream: chunks asked for again, in order,
 *        without duplicates.
 *
 * A chunk is queued once however many receivers ask for it while it waits, and not again
 * while its last resend may still be on its way to the asker (sent less than the asker's
 * round trip ago).
 */
class ResendQueue
{
  public:
    /**
     * \brief Ask for \p key (a chunk, or a ring step and chunk).
     * \param key the chunk \param asker the island asking \param now the time
     * \param minAge resend again only this long after the last resend
     * \param repeatCopies copies to queue if the chunk was resent before (that resend was
     *        lost); a first resend is one copy
     * \return true if queued now (false: already waiting, or resent too recently)
     */
    bool Request(uint64_t key, uint32_t asker, Time now, Time minAge, uint32_t repeatCopies);
    /**
     * \param key receives the oldest waiting chunk \param asker receives who asked first
     * \return false if none waits
     */
    bool Pop(uint64_t& key, uint32_t& asker);
    /** \param key a chunk just resent \param now the time */
    void Sent(uint64_t key, Time now);
    /** \return true if nothing waits */
    bool IsEmpty() const;
    /** \brief Forget everything. */
    void Clear();

  private:
    std::deque<std::pair<uint64_t, uint32_t>> m_queue; //!< waiting (chunk, asker), oldest first
    std::unordered_set<uint64_t> m_waiting;            //!< the same, for look-up
    std::unordered_map<uint64_t, Time> m_lastSent;     //!< when each chunk was last resent
};

/**
 * \ingroup wan-training
 * \brief The send side's held-back chunks of a pipelined stream: a ring step's chunk whose
 *        input (the same chunk of the previous step) is still being repaired when the first
 *        pass reaches it.
 *
 * The pass goes on without it, so one lost chunk delays only itself, not the stream. Once its
 * input arrives it is ready, and goes ahead of first-pass chunks; its send time is kept for
 * the NACKs it may draw (a receiver sees it as a gap, and is told "not yet" until it left).
 */
class DeferredChunks
{
  public:
    /** \param key a chunk (ring step and chunk) the pass skips */
    void Defer(uint64_t key);
    /** \param key a chunk \return true while it is held back or ready, not sent yet */
    bool IsDeferred(uint64_t key) const;
    /** \param key a chunk whose input arrived \return true if it was held back: it is ready */
    bool Release(uint64_t key);
    /** \param key receives the oldest ready chunk \return false if none is ready */
    bool PopReady(uint64_t& key);
    /** \param key a chunk popped and sent \param now the time */
    void Sent(uint64_t key, Time now);
    /**
     * \param key a chunk \param at receives when it was sent, if it was held back
     * \return true if it was held back and has been sent
     */
    bool SentAt(uint64_t key, Time& at) const;
    /** \return true if no chunk is held back or ready */
    bool IsEmpty() const;
    /** \brief Forget everything. */
    void Clear();

  private:
    std::unordered_set<uint64_t> m_held;       //!< held back or ready, not sent
    std::deque<uint64_t> m_ready;              //!< ready, in the order their inputs came
    std::unordered_map<uint64_t, Time> m_sent; //!< held-back chunks already sent, and when
};

/**
 * \ingroup wan-training
 * \brief When each chunk of a stream's first pass left, kept as checkpoints: between two
 *        checkpoints the pacer sends one full chunk per chunk slot, so a chunk's send time
 *        follows from the last checkpoint at or before it.
 *
 * A checkpoint is added only where the pace was broken (the first chunk, and a chunk sent
 * after resends took slots), so the memory grows with the resends, not with the chunks. A
 * NACK for a chunk sent less than the asker's round trip (plus its FPGA hold) ago cannot
 * come from the asker having missed it: the chunk may still be on its way.
 */
class FirstPassClock
{
  public:
    /** \param slot time between two full chunks at the stream's rate \brief start a pass */
    void Start(Time slot);
    /** \param chunk a first-pass chunk just sent \param now the time */
    void Note(uint32_t chunk, Time now);
    /** \param chunk a chunk already sent \return when it was sent (within a microsecond) */
    Time SentAt(uint32_t chunk) const;
    /**
     * \param handedOver when a chunk was handed to the access device (SentAt, or the time of a
     *        late send)
     * \return by when it had left the island: it may wait there behind the chunks the
     *         island's other streams handed over in phase, which their paced rates clear within
     *         one slot of this stream
     */
    Time LeftBy(Time handedOver) const;

  private:
    /** A chunk whose send time broke the pace. */
    struct Checkpoint
    {
        uint32_t chunk; //!< its index
        Time at;        //!< when it was sent
    };

    Time m_slot;                           //!< time per full chunk
    std::vector<Checkpoint> m_checkpoints; //!< ascending by chunk
};

} // namespace ns3

#endif /* CHUNK_REPAIR_H */
