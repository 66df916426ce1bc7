/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef UDP_EXCHANGE_H
#define UDP_EXCHANGE_H

#include "adaptive-rate-control.h"
#include "chunk-repair.h"
#include "gradient-pacer.h"
#include "round-exchange.h"

#include "ns3/event-id.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

class GradientPacer;

/**
 * \ingroup wan-training
 * \brief One island's exchange in one round with its clique over UDP: the common part of the
 *        DIRECT, RING and TREE exchanges, which is the reliability of the incoming streams
 *        (TcpExchange is its counterpart over TCP, which needs none).
 *
 * Incoming streams are tracked per (peer, step) by ChunkTracker. A gap is NACKed NackDelay
 * after it becomes visible (a later chunk or the sender's END arrived, or an FPGA's partial
 * aggregate lacks the peer), and a chunk asked for is asked again every repair interval
 * (RepairTimeout, or by default RepairRoundTrips round trips to the peer, at least 1 ms) while it
 * is missing. Independently, a peer whose stream is incomplete and that has been silent for a whole
 * check interval (RetransmissionTimeout) is asked for everything missing; MaxRetries such checks
 * without an answer declare it lost, and so does answering only "not yet" for longer than
 * PeerPatience. So a peer that stops is declared lost at most start + hold + RTT + (MaxRetries + 1)
 * x (RetransmissionTimeout + RTT + hold) after its last packet, or after PeerPatience of "not yet".
 */
class UdpExchange : public RoundExchange
{
  public:
    /**
     * \param context the island's context (outlives the exchange)
     * \param round the training round \param config the island's part of the round
     */
    UdpExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    ~UdpExchange() override;

    void Shutdown() override;
    void ReceiveControl(const GradientHeader& header) override;

  protected:
    /** \param header an END of this round from a member */
    virtual void ReceiveEnd(const GradientHeader& header) = 0;
    /** \param header a NACK of this round from a member asking this island */
    void ReceiveNack(const GradientHeader& header);
    /**
     * \param header an ACK of this round from a member: a "not yet" answer (empty
     *        contributors) or, with FLAG_CONGESTION, a congestion notification to this island
     */
    void ReceiveAck(const GradientHeader& header);

    /** \brief Arm the silence checks (called by Start()). */
    void OnStart() override;
    /** \brief Stop the receive side's timers. */
    void OnFinished() override;
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
     * \param island a peer
     * \return the pacer of the outgoing stream whose path a control packet to \p island
     *         shares (the island's access link), charged with NACKs and answers so that they
     *         take the place of data, or null if the exchange sends nothing
     */
    virtual GradientPacer* PacerToward(uint32_t island) = 0;

    /**
     * \brief A gap in (slot, step)'s stream: NACK it NackDelay from now (coalesced).
     * \param slot the peer's position \param step the stream's step
     */
    void ScheduleNack(uint32_t slot, uint16_t step);
    /** \param slot a peer's position \brief data from it arrived */
    void NoteProgress(uint32_t slot);
    /** \param island an island \return the round trip to it */
    Time RttTo(uint32_t island) const;
    /** \param island an island \return how long its FPGA may hold this round's DATA chunks */
    virtual Time HoldAt(uint32_t island) const;
    /** \return bytes on a link of a full chunk */
    uint32_t FullChunkWireBytes() const;
    /**
     * \param packet a UDP payload this island sends
     * \return its bytes on the access link: IPv4 and UDP headers and the access device's
     *         framing (ExchangeSettings::framingBytes) added
     */
    uint32_t WireBytes(Ptr<const Packet> packet) const;
    /** \param rateBps a pacing rate \return the time a full chunk takes at it */
    Time FullChunkSlot(double rateBps) const;
    /**
     * \param leftBy by when a chunk's first pass had left the island (FirstPassClock::LeftBy:
     *        its send time plus the wait behind the island's other streams)
     * \param nack the NACK asking for it
     * \return true if the asker may not have seen it yet (left less than its round trip ago,
     *         plus its FPGA's hold when the NACK only reports silence): answer "not yet"
     *         instead of resending
     */
    bool MayBeOnItsWay(Time leftBy, const GradientHeader& nack) const;
    /** \param island the asker \return how long after a resend another may follow */
    Time ResendSpacing(uint32_t island) const;
    /**
     * \param to destination \param chunkCount chunks of the stream \param step ring step
     * \param flags its flags (FLAG_REDUCE: behind pieces going up a reduction tree)
     * \return the END's bytes on a link (for pacing)
     */
    uint32_t SendEnd(Ipv4Address to, uint32_t chunkCount, uint16_t step, uint16_t flags = 0);
    /** \param slot tracker owner \param step step \param tracker the stream \brief gap NACK */
    virtual ChunkTracker* StreamOf(uint32_t slot, uint16_t step) = 0;

    /** \brief Stop the receive side's timers (the exchange ended; resends go on). */
    void StopTimers();

    /**
     * \brief Transport adaptive: give a stream a rate controller and let its pacer follow it
     *        (and count its packets).
     * \param pacer the stream's pacer \param destination its group or peer
     * \param plannedBps the plan's rate for it \param fairBps the fair guess (FairGuess)
     * \return the controller (null unless adaptive)
     */
    Ptr<AdaptiveRateControl> StartControl(GradientPacer& pacer,
                                          Ipv4Address destination,
                                          double plannedBps,
                                          double fairBps);
    /**
     * \brief Transport adaptive: what an end host can guess of a stream's fair rate without
     *        the plan: the own access rate over the own streams, and each receiver's access
     *        rate over the streams entering it (one if its FPGA sums them into one aggregate);
     *        the smaller. Every island's access rate is taken to be the own (as everywhere in
     *        this module's topologies).
     * \param ownStreams the island's streams in the round \param receivers the stream's
     * \param senders streams entering each receiver without aggregation
     * \return the guess, bit/s
     */
    double FairGuess(uint32_t ownStreams,
                     const std::vector<uint32_t>& receivers,
                     uint32_t senders) const;
    /**
     * \param peer an island this exchange sends to
     * \return the rate controller of the stream that reaches it (null unless adaptive)
     */
    virtual AdaptiveRateControl* ControlFor(uint32_t peer) = 0;
    /**
     * \brief Transport adaptive: a chunk that arrived marked CE counts a mark for each of its
     *        contributors and notifies them (AdaptiveTransport::CountMark spaces the
     *        notifications).
     * \param contributors the chunk's contributors \param congested it arrived marked CE
     */
    void EchoCongestion(const IslandBitmap& contributors, bool congested);

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

    /**
     * \brief Silence check, on the grid of RetransmissionTimeout from the exchange's start.
     *        A check that would find every peer complete, lost, or quiet before its waitUntil
     *        does nothing, so ArmCheck() skips such grid points (see ArmCheck).
     */
    void CheckProgress();
    /**
     * \brief Schedule the next silence check at the first grid point after now at which it can
     *        act: at or after the earliest waitUntil of the peers still missing data, or never
     *        if there is none. NoteProgress() brings it back to the next grid point (a check
     *        after progress restarts the peer's wait). The checks that run are those of a
     *        check every grid point that act, at the same times, so no outcome changes; a
     *        stream that trickles over a slow link no longer costs a check every interval.
     */
    void ArmCheck();
    /** \return the first point of the check grid after now */
    Time NextCheckPoint() const;
    /**
     * \brief Schedule the silence check at a grid point.
     * \param at the grid point (after now)
     */
    void ScheduleCheck(Time at);
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
    /**
     * \param packet a control packet \param peer its destination
     * \brief send it, charged to the pacer toward \p peer
     */
    void SendControl(Ptr<Packet> packet, uint32_t peer);
    /** \param peer requester \brief tell a peer "not yet" */
    void SendNotYet(uint32_t peer);
    /** \param slot peer position \brief record a lost peer */
    void DeclareLost(uint32_t slot);

    std::vector<PeerState> m_peers; //!< per member position
    EventId m_check;                //!< silence check timer
    Time m_checkAt;                 //!< when m_check fires
    Time m_checkOrigin;             //!< the check grid's origin (OnStart)
    bool m_checking{false};         //!< silence checks armed (OnStart to StopTimers)
};

} // namespace ns3

#endif /* UDP_EXCHANGE_H */
