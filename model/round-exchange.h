/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROUND_EXCHANGE_H
#define ROUND_EXCHANGE_H

#include "chunk-layout.h"
#include "clique-schedule.h"
#include "gradient-header.h"
#include "round-config.h"

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

class AdaptiveTransport;
class DirectSum;
class Packet;
class RingSum;
class TcpTransport;

/**
 * \ingroup wan-training
 * \brief What an exchange knows of the island it runs on and of the run: identity, paths and
 *        the repair parameters (TrainingApplication fills them once per run; read only).
 */
struct ExchangeSettings
{
    uint32_t island{0};                 //!< this island
    uint32_t islandCount{1};            //!< N
    uint32_t jobId{0};                  //!< job id in headers
    std::vector<Ipv4Address> addresses; //!< every island's address
    std::vector<Time> rtt;              //!< per island, round trip to it
    std::vector<Time> hold;             //!< per island, its FPGA's longest hold
    ChunkLayout layout;                 //!< how the whole update is cut
    /** Per round of the period and fragment, [t x fragments + f]; empty: every exchange is
     *  the whole update in the run's format (layout) */
    std::vector<ChunkLayout> layouts;
    uint32_t fragments{1};          //!< fragments per round (FragmentPlan)
    uint32_t framingBytes{0};       //!< access device's framing per packet (LinkPort)
    bool real{false};               //!< int32 payloads, else sizes only
    Time checkInterval;             //!< silence check (RetransmissionTimeout)
    uint32_t maxRetries{5};         //!< unanswered silence NACKs before lost
    Time nackDelay;                 //!< gap seen to NACK sent (coalescing)
    Time repairTimeout;             //!< re-ask interval; 0: from the path
    double repairRoundTrips{1.15};  //!< re-ask interval from the path, in round trips
    uint32_t nackCopies{2};         //!< copies of each gap NACK packet
    uint32_t reaskCopies{3};        //!< copies of each re-ask NACK packet
    uint32_t repeatResendCopies{3}; //!< copies of a chunk asked for again after a resend
    Time peerPatience;              //!< longest wait for data from a live peer

    /**
     * \param sync an exchange's number (round x fragments + fragment; the round without
     *        fragments)
     * \return how its update is cut: its round's and fragment's layout (layouts), or the
     *         whole update's
     */
    const ChunkLayout& LayoutOf(uint32_t sync) const;
};

/**
 * \ingroup wan-training
 * \brief What an exchange tells the island: packets to send and what happened to the round
 *        (TrainingApplication binds them to its socket, records and trace sources).
 */
struct ExchangeCallbacks
{
    std::function<void(uint32_t, Ptr<Packet>, Ipv4Address, bool)>
        send;                                         //!< (round, packet, to, control)
    std::function<void(uint32_t, uint32_t)> written;  //!< (round, bytes): message to TCP
    std::function<void(uint32_t, uint32_t)> resent;   //!< (round, peer): one chunk resent
    std::function<void(uint32_t, uint32_t)> peerLost; //!< (round, peer) declared lost
    std::function<void(uint32_t)> complete;           //!< (round): the exchange ended
    std::function<void(uint32_t)> repairing;          //!< (round): the exchange asked for a resend
};

/**
 * \ingroup wan-training
 * \brief The island's counts of received packets no exchange could use, summed over its
 *        rounds (read through TrainingApplication's getters).
 */
struct ExchangeCounters
{
    uint64_t dropped{0};    //!< packets dropped on receipt
    uint64_t duplicates{0}; //!< duplicate contributions ignored
};

/**
 * \ingroup wan-training
 * \brief What an exchange needs from the island it runs on (one per island; outlives its
 *        exchanges): settings, callbacks, counters and the transport objects it sends through.
 */
struct ExchangeContext
{
    ExchangeSettings settings;            //!< identity, paths and parameters
    ExchangeCallbacks on;                 //!< what the exchange tells the island
    ExchangeCounters counters;            //!< packets the exchanges could not use
    TcpTransport* tcp{nullptr};           //!< the TCP connections (transport tcp), else null
    AdaptiveTransport* adaptive{nullptr}; //!< transport adaptive's rate controls, else null
};

/**
 * \ingroup wan-training
 * \brief One island's exchange in one round with its clique, as the round driver
 *        (TrainingApplication) sees it: started when the compute phase ends, fed the clique's
 *        chunks, finished when the island holds what it needs, then averaged.
 *
 * The state every exchange shares lives here: the clique, the own position in it, the lost
 * peers and the own parameters; so do the DATA and RING chunks every exchange builds. The
 * planned transport's exchanges (DirectExchange, RingExchange) add reliability over UDP
 * (UdpExchange); the tcp transport's (TcpDirectExchange, TcpRingExchange) send over
 * TcpTransport's connections.
 */
class RoundExchange
{
  public:
    /**
     * \param context the island's context (outlives the exchange)
     * \param round the training round \param config the island's part of the round
     */
    RoundExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    virtual ~RoundExchange();
    RoundExchange(const RoundExchange&) = delete;
    RoundExchange& operator=(const RoundExchange&) = delete;

    /**
     * \brief The compute phase is over: start sending (and the liveness checks).
     * \param own the island's parameters in fixed point (real payloads; empty otherwise)
     */
    void Start(std::vector<int32_t> own);
    /** \brief Stop every timer and every send (the application stops). */
    virtual void Shutdown() = 0;
    /**
     * \brief A DATA, AGGREGATE or RING packet of this round.
     * \param header its header (checked by Parse) \param values its real payload
     * \param congested it arrived marked CE (transport adaptive echoes the mark to its senders)
     */
    virtual void ReceiveChunk(const GradientHeader& header,
                              const std::vector<int32_t>& values,
                              bool congested) = 0;
    /**
     * \brief A NACK, ACK or END of this round from a member (over UDP; TCP repairs its own
     *        losses and sends none).
     * \param header its header (checked by Parse; a NACK asks this island)
     */
    virtual void ReceiveControl(const GradientHeader& header) = 0;
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
    /**
     * \brief Send a round-alignment notice of this round (RoundAlignment) to every other member.
     * \param type GradientHeader::LATE, or GradientHeader::START with \p at
     * \param at START: when this island's first pass of the round starts
     * \param copies copies of each packet (a lost notice costs the round its alignment)
     */
    void SendNotice(GradientHeader::Type type, Time at, uint32_t copies);

  protected:
    /** \brief Start() ran: arm the liveness checks (the default has none). */
    virtual void OnStart();
    /** \brief Send the first messages (called by Start()). */
    virtual void StartSending() = 0;
    /** \return true if every incoming stream is complete and every outgoing one sent */
    virtual bool IsDone() const = 0;
    /** \brief The exchange just ended: stop its timers (the default has none). */
    virtual void OnFinished();

    /** \brief End the round if IsDone(). */
    void CheckComplete();
    /** \return when Start() ran */
    Time GetStartTime() const;
    /** \param slot a member position \return the island */
    uint32_t IslandAt(uint32_t slot) const;
    /** \param island an island \return its member position, or NO_SLOT */
    uint32_t SlotOf(uint32_t island) const;
    /**
     * \brief A header for this round, filled with the common fields.
     * \param type packet type \param chunkCount chunk count field \param step ring step
     * \return the header
     */
    GradientHeader MakeHeader(GradientHeader::Type type, uint32_t chunkCount, uint16_t step) const;
    /**
     * \brief One chunk of the own update for a DIRECT exchange.
     * \param chunk chunk index \param flags extra flags \return the DATA packet
     */
    Ptr<Packet> BuildDataChunk(uint32_t chunk, uint16_t flags);
    /**
     * \brief One chunk of a DIRECT or TREE exchange.
     * \param type DATA or AGGREGATE \param chunk chunk index
     * \param contributors the members whose values it carries \param flags flags
     * \param sums if not null, the payload is the own values plus these sums (a TREE root's
     *        total); else the own values
     * \return the packet
     */
    Ptr<Packet> BuildDirectChunk(GradientHeader::Type type,
                                 uint32_t chunk,
                                 const IslandBitmap& contributors,
                                 uint16_t flags,
                                 const DirectSum* sums);
    /**
     * \brief One chunk of a ring step (ChunkLayout's segments).
     * \param step ring step \param chunk chunk of the step's segment \param flags extra flags
     * \param sums what the ring has reduced and gathered so far (real payloads)
     * \return the RING packet
     */
    Ptr<Packet> BuildRingChunk(uint16_t step, uint32_t chunk, uint16_t flags, const RingSum& sums);
    /**
     * \param header a received DATA or AGGREGATE chunk \param values its real payload
     * \param first receives its first element
     * \return true if it fits this DIRECT or TREE round's layout (chunk count, element count,
     *         top-k entries inside the chunk); otherwise it is counted as dropped
     */
    bool CheckDirectChunk(const GradientHeader& header,
                          const std::vector<int32_t>& values,
                          uint32_t& first) const;
    /**
     * \param header a DATA or AGGREGATE header of this round
     * \param elements the elements its chunk covers (ChunkLayout)
     * \return true if its element count and encoding are the update format's: a sender's
     *         chunk in the format's encoding, a sum in UpdateFormat::SumEncoding of its
     *         contributors
     */
    bool IsLaidOut(const GradientHeader& header, uint32_t elements) const;
    /**
     * \param header a received RING chunk \param first receives its first element
     * \return true if it is a chunk of a step this island receives from its ring predecessor
     *         (sender, step, chunk count, encoding, element count); otherwise it is counted as
     *         dropped
     */
    bool CheckRingChunk(const GradientHeader& header, uint32_t& first) const;
    /** \param step a ring step \return the chunks this island sends in it */
    uint32_t RingSendChunks(uint32_t step) const;
    /** \param step a ring step \return the chunks this island receives in it */
    uint32_t RingReceiveChunks(uint32_t step) const;

    /** Marker for "no member position". */
    static constexpr uint32_t NO_SLOT = 0xffffffff;

    ExchangeContext& m_context;         //!< the island
    const ChunkLayout m_layout;         //!< how this exchange's update is cut (LayoutOf)
    const TrainingRoundConfig m_config; //!< the island's part of the round (a copy)
    uint32_t m_round;                   //!< the training round
    uint32_t m_k;                       //!< clique size
    uint32_t m_position;                //!< own member position
    IslandBitmap m_members;             //!< the clique
    std::vector<bool> m_lost;           //!< per member position: declared lost
    bool m_abandoned;                   //!< a lost peer makes the result incomplete
    bool m_finished;                    //!< the exchange ended
    std::vector<int32_t> m_own;         //!< own parameters, fixed point (real payloads)

  private:
    std::vector<uint32_t> m_slotOf; //!< island -> member position
    std::vector<int32_t> m_scratch; //!< payload of the chunk being built
    Time m_startTime;               //!< when Start() ran
    bool m_started;                 //!< Start() ran
};

} // namespace ns3

#endif /* ROUND_EXCHANGE_H */
