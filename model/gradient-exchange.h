/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRADIENT_EXCHANGE_H
#define GRADIENT_EXCHANGE_H

#include "chunk-layout.h"
#include "chunk-repair.h"
#include "clique-schedule.h"
#include "gradient-header.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

class Packet;
struct TrainingRoundConfig;

/**
 * \ingroup wan-training
 * \brief What an exchange needs from the island it runs on: identity, paths, parameters and
 *        the socket (TrainingApplication fills it once per run).
 */
struct ExchangeContext
{
    uint32_t island{0};                 //!< this island
    uint32_t islandCount{1};            //!< N
    uint32_t jobId{0};                  //!< job id in headers
    std::vector<Ipv4Address> addresses; //!< every island's address
    std::vector<Time> rtt;              //!< per island, round trip to it
    std::vector<Time> hold;             //!< per island, its FPGA's longest hold
    ChunkLayout layout;                 //!< how updates are cut
    bool real{false};                   //!< int32 payloads, else sizes only
    Time checkInterval;                 //!< silence check (RetransmissionTimeout)
    uint32_t maxRetries{5};             //!< unanswered silence NACKs before lost
    Time nackDelay;                     //!< gap seen to NACK sent (coalescing)
    Time repairTimeout;                 //!< re-ask interval; 0: from the path
    uint32_t nackCopies{2};             //!< copies of each gap NACK packet
    uint32_t reaskCopies{3};            //!< copies of each re-ask NACK packet
    uint32_t repeatResendCopies{3};     //!< copies of a chunk asked for again after a resend
    Time peerPatience;                  //!< longest "not yet" wait without data
    std::function<void(uint32_t, Ptr<Packet>, Ipv4Address, bool)>
        send;                                         //!< (round, packet, to, control)
    std::function<void(uint32_t, uint32_t)> resent;   //!< (round, peer): one chunk resent
    std::function<void(uint32_t, uint32_t)> peerLost; //!< (round, peer) declared lost
    std::function<void(uint32_t)> complete;           //!< (round): the exchange ended
    uint64_t dropped{0};                              //!< packets dropped on receipt
    uint64_t duplicates{0};                           //!< duplicate contributions ignored
};

/**
 * \ingroup wan-training
 * \brief One island's exchange in one round with its clique: the common part of the DIRECT
 *        and RING exchanges, which is the reliability of the incoming streams.
 *
 * Incoming streams are tracked per (peer, step) by ChunkTracker. A gap is NACKed NackDelay
 * after it becomes visible (a later chunk or the sender's END arrived, or an FPGA's partial
 * aggregate lacks the peer), and a chunk asked for is asked again every repair interval
 * (RepairTimeout, or by default 1.5 round trips to the peer, at least 1 ms) while it is missing.
 * Independently, a peer whose stream is incomplete and that has been silent for a whole check
 * interval (RetransmissionTimeout) is asked for everything missing; MaxRetries such checks without
 * an answer declare it lost, and so does answering only "not yet" for longer than PeerPatience. So
 * a peer that stops is declared lost at most start + hold + RTT + (MaxRetries + 1) x
 * (RetransmissionTimeout + RTT + hold) after its last packet, or after PeerPatience of "not yet".
 */
class GradientExchange
{
  public:
    /**
     * \param context the island's context (outlives the exchange)
     * \param round the training round \param config the island's part of the round
     */
    GradientExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    virtual ~GradientExchange();

    /**
     * \brief The compute phase is over: start sending and the liveness checks.
     * \param own the island's parameters in fixed point (real payloads; empty otherwise)
     */
    void Start(std::vector<int32_t> own);
    /** \brief Stop every timer and every send (the application stops). */
    virtual void Shutdown();
    /**
     * \brief A DATA, AGGREGATE or RING packet of this round.
     * \param header its header (checked by Parse) \param values its real payload
     */
    virtual void ReceiveChunk(const GradientHeader& header, const std::vector<int32_t>& values) = 0;
    /** \param header an END of this round from a member */
    virtual void ReceiveEnd(const GradientHeader& header) = 0;
    /** \param header a NACK of this round from a member asking this island */
    void ReceiveNack(const GradientHeader& header);
    /** \param header a "not yet" answer (ACK with empty contributors) from a member */
    void ReceiveNotYet(const GradientHeader& header);
    /** \param x the island's parameters \param scale fixed-point scale \brief average them */
    virtual void Average(std::vector<double>& x, double scale) const = 0;
    /** \return true once the exchange is over (all in, all sent, or given up) */
    bool IsFinished() const;
    /** \return true if started (compute over and any hold passed) */
    bool IsStarted() const;
    /** \return the round */
    uint32_t GetRound() const;
    /** \return the clique's member bitmap */
    const IslandBitmap& GetMembers() const;
    /** \return the clique index */
    uint32_t GetClique() const;
    /** \return true if a peer was lost and the result covers fewer members */
    bool IsAbandoned() const;

  protected:
    /** \brief Send the first passes (called by Start()). */
    virtual void StartSending() = 0;
    /** \return true if every incoming stream is complete and every outgoing one sent */
    virtual bool IsDone() const = 0;
    /**
     * \brief Serve a NACK: queue resends of chunks already sent.
     * \param nack the NACK (its sender asks; its ring step, or 0; its ranges)
     * \param notYet set if some are not sent yet, or may still be on their way
     * \return chunks queued for resending (0: answer "not yet")
     */
    virtual uint32_t QueueResends(const GradientHeader& nack, bool& notYet) = 0;
    /** \param slot a member position \return the incoming stream to check for it, or null */
    virtual ChunkTracker* SilentStream(uint32_t slot, uint16_t& step) = 0;
    /** \param slot a peer's position \brief it is lost: give up on it */
    virtual void OnPeerLost(uint32_t slot) = 0;

    /**
     * \brief A gap in (slot, step)'s stream: NACK it NackDelay from now (coalesced).
     * \param slot the peer's position \param step the stream's step
     */
    void ScheduleNack(uint32_t slot, uint16_t step);
    /** \param slot a peer's position \brief data from it arrived */
    void NoteProgress(uint32_t slot);
    /** \brief End the round if IsDone(). */
    void CheckComplete();
    /** \param slot a member position \return the island */
    uint32_t IslandAt(uint32_t slot) const;
    /** \param island an island \return its member position, or NO_SLOT */
    uint32_t SlotOf(uint32_t island) const;
    /** \param island an island \return the round trip to it */
    Time RttTo(uint32_t island) const;
    /** \param island an island \return how long its FPGA may hold this round's DATA chunks */
    virtual Time HoldAt(uint32_t island) const;
    /** \return bytes on a link of a full chunk */
    uint32_t FullChunkWireBytes() const;
    /** \param rateBps a pacing rate \return the time a full chunk takes at it */
    Time FullChunkSlot(double rateBps) const;
    /**
     * \param sentAt when a chunk's first pass left \param nack the NACK asking for it
     * \return true if the asker may not have seen it yet (sent less than its round trip ago,
     *         plus its FPGA's hold when the NACK only reports silence): answer "not yet"
     *         instead of resending
     */
    bool MayBeOnItsWay(Time sentAt, const GradientHeader& nack) const;
    /** \param island the asker \return how long after a resend another may follow */
    Time ResendSpacing(uint32_t island) const;
    /**
     * \brief A header for this round, filled with the common fields.
     * \param type packet type \param chunkCount chunk count field \param step ring step
     * \return the header
     */
    GradientHeader MakeHeader(GradientHeader::Type type, uint32_t chunkCount, uint16_t step) const;
    /**
     * \param to destination \param chunkCount chunks of the stream \param step ring step
     * \return the END's bytes on a link (for pacing)
     */
    uint32_t SendEnd(Ipv4Address to, uint32_t chunkCount, uint16_t step);
    /** \param slot tracker owner \param step step \param tracker the stream \brief gap NACK */
    virtual ChunkTracker* StreamOf(uint32_t slot, uint16_t step) = 0;

    /**
     * \param a int32 \param b int32
     * \return a + b with two's-complement wrap-around (how fixed-point sums add everywhere)
     */
    static int32_t WrapAdd(int32_t a, int32_t b)
    {
        return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    }

    /** \brief Stop the receive side's timers (the exchange ended; resends go on). */
    void StopTimers();

    /** Marker for "no member position". */
    static constexpr uint32_t NO_SLOT = 0xffffffff;

    ExchangeContext& m_context;          //!< the island
    const TrainingRoundConfig& m_config; //!< the island's part of the round
    uint32_t m_round;                    //!< the training round
    uint32_t m_k;                        //!< clique size
    uint32_t m_position;                 //!< own member position
    IslandBitmap m_members;              //!< the clique
    std::vector<bool> m_lost;            //!< per member position: declared lost
    bool m_abandoned;                    //!< a lost peer makes the result incomplete
    bool m_finished;                     //!< the exchange ended
    std::vector<int32_t> m_own;          //!< own parameters, fixed point (real payloads)

  private:
    /** Liveness of one peer. */
    struct PeerState
    {
        uint64_t progress{0};           //!< contributions received
        uint64_t progressAtCheck{0};    //!< progress at the last check
        uint32_t retries{0};            //!< silence NACKs without an answer
        bool nacked{false};             //!< a silence NACK went out since the last answer
        bool answered{false};           //!< "not yet" arrived since the last check
        Time waitUntil;                 //!< no silence NACK before this
        Time lastData;                  //!< last time data (not "not yet") came from it
        EventId nack;                   //!< pending gap NACK
        EventId reask;                  //!< pending re-ask of asked chunks
        std::vector<uint16_t> gapSteps; //!< steps with a gap waiting for the NACK
    };

    /** \brief Periodic silence check. */
    void CheckProgress();
    /** \param slot the peer \brief send the gap NACKs waiting for it */
    void FlushNacks(uint32_t slot);
    /** \param slot the peer \brief re-ask chunks still missing after a repair interval */
    void Reask(uint32_t slot);
    /**
     * \param slot the peer \param step the stream \param tracker its tracker
     * \param all ask beyond the frontier too
     * \param copies send each NACK packet this many times (a re-ask: the first ask or its
     *        answer was lost)
     * \return NACK packets sent
     */
    uint32_t SendNack(uint32_t slot,
                      uint16_t step,
                      ChunkTracker& tracker,
                      bool all,
                      uint32_t copies = 1);
    /** \param slot the peer \return the interval after which a chunk is asked again */
    Time RepairInterval(uint32_t slot) const;
    /** \param slot the peer \brief arm the re-ask timer at its tracker's next due time */
    void ArmReask(uint32_t slot, ChunkTracker& tracker);
    /** \param peer requester \brief tell a peer "not yet" */
    void SendNotYet(uint32_t peer);
    /** \param slot peer position \brief record a lost peer */
    void DeclareLost(uint32_t slot);

    std::vector<PeerState> m_peers; //!< per member position
    std::vector<uint32_t> m_slotOf; //!< island -> member position
    EventId m_check;                //!< silence check timer
    Time m_startTime;               //!< when sending began
    bool m_started;                 //!< Start() ran
};

} // namespace ns3

#endif /* GRADIENT_EXCHANGE_H */
