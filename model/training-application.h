/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_APPLICATION_H
#define TRAINING_APPLICATION_H

#include "clique-schedule.h"
#include "gradient-header.h"
#include "training-workload.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace ns3
{

class Packet;
class Socket;

/**
 * \ingroup wan-training
 * \brief One stream an island sends in a DIRECT exchange: to a multicast group or one peer.
 */
struct TrainingStreamConfig
{
    std::vector<uint32_t> receivers; //!< peers the stream reaches, ascending
    Ipv4Address destination;         //!< the group (multicast) or the peer's address
    bool multicast{false};           //!< one multicast stream down the sender's tree
    double rateBps{0};               //!< pacing rate of wire bytes, bit/s (from the cost model)
};

/**
 * \ingroup wan-training
 * \brief What one island does in one round of the schedule's period (set by TrainingHelper).
 */
struct TrainingRoundConfig
{
    uint32_t clique{0};                             //!< clique index within the round's partition
    std::vector<uint32_t> members;                  //!< the clique's islands, ascending (self too)
    SyncAlgorithm algorithm{SyncAlgorithm::DIRECT}; //!< how the clique exchanges
    std::vector<TrainingStreamConfig> streams;      //!< DIRECT: one multicast or k-1 unicast
    std::vector<double> ringRateBps;                //!< RING: pacing rate per step, bit/s
    double estimatedSyncTime{0};                    //!< the cost model's sync time of the round, s
};

/**
 * \ingroup wan-training
 * \brief What happened on one island in one round (read by TrainingHelper after the run).
 */
struct TrainingRoundRecord
{
    uint32_t island{0};             //!< the island
    uint32_t round{0};              //!< the training round
    uint32_t clique{0};             //!< clique index within the round's partition
    std::vector<uint32_t> members;  //!< the clique's islands (self included)
    Time computeStart;              //!< start of the compute phase
    Time syncStart;                 //!< end of compute, start of the exchange
    Time syncEnd;                   //!< round complete (received all, sent all)
    uint64_t bytesSent{0};          //!< gradient bytes (header + payload) of DATA/RING packets sent
    uint64_t bytesReceived{0};      //!< gradient bytes of DATA/AGGREGATE/RING packets received
    uint64_t packetsSent{0};        //!< DATA/RING packets sent for the round (resends too)
    uint64_t packetsReceived{0};    //!< DATA/AGGREGATE/RING packets received for the round
    uint64_t controlPacketsSent{0}; //!< NACKs and "not yet" answers sent for the round
    uint64_t controlPacketsReceived{0}; //!< NACKs and "not yet" answers received
    uint64_t retransmissions{0};        //!< chunks this island resent after NACKs
    std::vector<uint32_t> lostPeers;    //!< peers declared lost in the round
    bool finished{false};               //!< the round ended
};

/**
 * \ingroup wan-training
 * \brief One compute island of data-parallel training: compute, then synchronise with the
 *        island's clique of the round, packet by packet, with loss recovery.
 *
 * Round r: a compute phase of ComputeTime x ComputeMultiplier (the workload's local steps run
 * at its end), then the exchange of the clique of partition r mod T. DIRECT: the update
 * (ModelBytes cut into chunks of ChunkPayloadBytes) goes out as one multicast stream or as
 * unicast copies, each stream paced at the rate the cost model's plan gives it. RING:
 * reduce-scatter then all-gather over the members in ascending order, 2(k-1) steps of
 * ceil(M/k) bytes to the successor. Receivers track, per chunk, which senders they hold (an
 * FPGA aggregate covers several); missing senders are asked again by NACK after
 * RetransmissionTimeout without progress; a sender that has not yet produced the data answers
 * "not yet" (an ACK with an empty contributor bitmap) so it is not declared lost for being
 * slow; a NACKed sender resends only chunks first sent at least the round trip to the
 * requester plus RetransmissionTimeout ago (younger ones may still be on the way, and "not
 * yet" answers if none is left); MaxRetries unanswered NACK rounds declare a peer lost. See
 * doc/training.rst.
 */
class TrainingApplication : public Application
{
  public:
    /** How payloads are carried. */
    enum PayloadMode
    {
        VIRTUAL, //!< sizes only (zero bytes), bitmaps tracked exactly
        REAL,    //!< int32 fixed-point parameters, summed and averaged exactly
    };

    /** Marker for "no island" in member position tables. */
    static constexpr uint32_t NO_SLOT = 0xffffffff;
    /** IPv4 header bytes per packet (no options), for pacing. */
    static constexpr uint32_t IPV4_HEADER_BYTES = 20;
    /** UDP header bytes per packet, for pacing. */
    static constexpr uint32_t UDP_HEADER_BYTES = 8;
    /** PPP header bytes per packet on each link, for pacing. */
    static constexpr uint32_t PPP_HEADER_BYTES = 2;
    /** MTU the default chunk size fills. */
    static constexpr uint32_t DEFAULT_MTU = 9000;

    /**
     * TracedCallback signature of RoundStarted, ComputeFinished.
     * \param island the island \param round the round
     */
    typedef void (*RoundTracedCallback)(uint32_t island, uint32_t round);
    /**
     * TracedCallback signature of SyncFinished.
     * \param island the island \param round the round \param duration sync duration
     */
    typedef void (*SyncTracedCallback)(uint32_t island, uint32_t round, Time duration);
    /**
     * TracedCallback signature of Retransmission and PeerLost.
     * \param island this island \param round the round \param peer the other island
     * \param chunks chunks resent (Retransmission) or 0 (PeerLost)
     */
    typedef void (*PeerTracedCallback)(uint32_t island,
                                       uint32_t round,
                                       uint32_t peer,
                                       uint32_t chunks);

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    TrainingApplication();
    ~TrainingApplication() override;

    /**
     * \brief Identify the island.
     * \param island its index \param islandCount N
     */
    void SetIsland(uint32_t island, uint32_t islandCount);
    /** \return the island index */
    uint32_t GetIsland() const;
    /** \param addresses every island's IPv4 address, by island index */
    void SetIslandAddresses(const std::vector<Ipv4Address>& addresses);
    /**
     * \param rtt per island, the round-trip propagation delay to it; a peer is NACKed only
     *        RetransmissionTimeout plus this after the exchange started or after its last NACK,
     *        and only when silent for a whole check interval (RetransmissionTimeout)
     */
    void SetPeerRtt(const std::vector<Time>& rtt);
    /**
     * \param hold per island, the longest its in-line FPGA may hold a peer's DATA chunk before
     *        the island receives it (the FPGA's Timeout plus PipelineLatency; zero without an
     *        FPGA). Behind an FPGA every peer's chunk waits for the clique's slowest
     *        contributor, so in DIRECT rounds a silent peer is NACKed only this much later,
     *        and a NACKed sender keeps this much longer before it counts a chunk as lost.
     */
    void SetAggregationHold(const std::vector<Time>& hold);
    /**
     * \param notBefore per training round, the earliest time the island may start sending
     *        (empty or shorter: no constraint). The WAN controller's plan gives a round's
     *        streams rates that assume the receivers' ingress is free; a receiver still
     *        receiving its previous round would carry both rounds at once. An island whose
     *        compute ends earlier waits (the wait counts as sync time).
     */
    void SetSyncNotBefore(const std::vector<Time>& notBefore);
    /** \param configs this island's part of each round of the schedule's period */
    void SetRoundConfigs(const std::vector<TrainingRoundConfig>& configs);
    /** \param workload the numerics (shared by all islands); null: virtual */
    void SetWorkload(Ptr<TrainingWorkload> workload);
    /** \return one record per round (rounds not reached have finished == false) */
    const std::vector<TrainingRoundRecord>& GetRecords() const;
    /** \return true once every round has ended */
    bool IsFinished() const;
    /** \return packets dropped on receipt: malformed, wrong job or not matching the round */
    uint64_t GetDroppedPackets() const;
    /** \return duplicate contributions ignored */
    uint64_t GetDuplicatePackets() const;
    /** \return bytes of payload carried per chunk */
    uint32_t GetChunkPayloadBytes() const;
    /**
     * \brief The chunk payload that fills an MTU after IPv4, UDP and the gradient header.
     * \param mtu IP MTU \param islandCount N (sets the header's bitmap words)
     * \return the largest multiple of 4 bytes that fits
     */
    static uint32_t DefaultChunkPayload(uint32_t mtu, uint32_t islandCount);
    /** \param islandCount N \return GradientHeader bytes of a DATA packet */
    static uint32_t DataHeaderBytes(uint32_t islandCount);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /** A stream being sent (DIRECT stream, ring step or resend job). */
    struct StreamState
    {
        Ipv4Address destination; //!< where packets go
        double rateBps{0};       //!< pacing rate
        uint32_t nextChunk{0};   //!< next chunk to send
        uint32_t chunkCount{0};  //!< chunks of the stream
        uint16_t ringStep{0};    //!< RING step (RING streams)
        Time start;              //!< when the stream started
        double wireBits{0};      //!< wire bits sent so far (pacing clock)
        EventId timer;           //!< next send
        bool done{false};        //!< all chunks sent
    };

    /** A NACK being served: chunks to resend to one peer. */
    struct ResendJob
    {
        uint32_t round{0};                              //!< the round
        uint32_t peer{0};                               //!< the requester
        uint16_t ringStep{0};                           //!< RING step, or 0
        bool ring{false};                               //!< a RING step resend
        std::vector<GradientHeader::ChunkRange> ranges; //!< what to resend
        uint32_t rangeIndex{0};                         //!< current range
        uint32_t offset{0};                             //!< next chunk within the range
        double rateBps{0};                              //!< pacing rate
        Time start;                                     //!< pacing clock origin
        double wireBits{0};                             //!< wire bits sent
        EventId timer;                                  //!< next send
    };

    /** Everything about one round on this island (created on first need, kept a while). */
    struct RoundState
    {
        uint32_t round{0};                          //!< the training round
        const TrainingRoundConfig* config{nullptr}; //!< the period round's config
        IslandBitmap members;                       //!< the clique
        std::vector<uint32_t> slotOf;               //!< island -> member position, or NO_SLOT
        uint32_t k{1};                              //!< clique size
        uint32_t position{0};                       //!< own position in members
        uint32_t chunks{0};                         //!< DIRECT chunks of an update
        // Receive side, per member position
        std::vector<std::vector<uint64_t>> rxBits; //!< DIRECT: chunk bits per peer
        std::vector<uint64_t> rxMissing;           //!< DIRECT: chunks missing per peer
        std::vector<uint64_t> progress;            //!< contributions counted per peer
        std::vector<uint64_t> progressAtCheck;     //!< progress at the last check
        std::vector<uint32_t> retries;             //!< unanswered NACK rounds per peer
        std::vector<bool> nacked;                  //!< a NACK went out since the last answer
        std::vector<bool> answered;                //!< a "not yet" arrived since the last check
        std::vector<bool> lost;                    //!< declared lost
        std::vector<Time> waitUntil;               //!< no NACK to the peer before this time
        uint32_t peersIncomplete{0};               //!< DIRECT: peers neither complete nor lost
        // RING
        std::vector<std::vector<uint64_t>> stepBits; //!< per step: chunk bits from predecessor
        std::vector<uint32_t> stepChunks;            //!< per step: chunks
        std::vector<uint32_t> stepMissing;           //!< per step: chunks missing
        uint32_t ringSent{0};                        //!< steps completely sent
        std::vector<Time> ringStepStart;             //!< per step: when its first pass began
        std::vector<double> ringStepRate;            //!< per step: its pacing rate, bit/s
        // Real payloads
        std::vector<int32_t> own;    //!< own parameters, fixed point
        std::vector<int32_t> sum;    //!< DIRECT: peers' sum; RING: reduce-scatter
        std::vector<int32_t> full;   //!< RING: all-gather result
        std::vector<uint16_t> count; //!< DIRECT: contributions per chunk
        // Phase
        bool syncing{false};              //!< compute done, exchange running
        bool sendDone{false};             //!< first pass of every stream sent
        bool abandoned{false};            //!< RING broken by a lost predecessor
        bool finished{false};             //!< round ended
        std::vector<StreamState> streams; //!< DIRECT streams or the current RING step
        EventId check;                    //!< NACK check timer
    };

    /** \param round a round \return its state, created if needed; null if stale/invalid */
    RoundState* GetState(uint32_t round);
    /** \param state a state to fill for its round */
    void InitState(RoundState& state);

    /** \brief Start round m_round: compute phase. */
    void StartRound();
    /** \brief Compute finished: run the workload's steps and start the exchange. */
    void FinishCompute();
    /** \param round the round whose exchange was held \brief start it (SetSyncNotBefore) */
    void StartHeldSync(uint32_t round);
    /** \brief Start sending DIRECT streams or the first RING step. */
    void StartSync(RoundState& state);
    /** \param round the round \param index stream index \brief send the stream's next chunk */
    void SendNextChunk(uint32_t round, uint32_t index);
    /** \param state the round \brief start the next ring step if its input is complete */
    void MaybeAdvanceRing(RoundState& state);
    /** \param state the round \brief end the round if everything is in */
    void CheckRoundComplete(RoundState& state);
    /** \param state the round \brief record the end, average, go on */
    void FinishRound(RoundState& state);
    /** \param round the round \brief NACK check timer */
    void CheckProgress(uint32_t round);
    /** \param state the round \param slot peer position \brief record a lost peer */
    void DeclareLost(RoundState& state, uint32_t slot);

    /** \param socket the socket \brief read every waiting packet */
    void HandleRead(Ptr<Socket> socket);
    /** \param packet a received packet (after UDP) */
    void Receive(Ptr<Packet> packet);
    /** \param state the round \param header the header \param values real payload */
    void ReceiveData(RoundState& state,
                     const GradientHeader& header,
                     const std::vector<int32_t>& values);
    /** \param state the round \param header the header \param values real payload */
    void ReceiveRing(RoundState& state,
                     const GradientHeader& header,
                     const std::vector<int32_t>& values);
    /** \param header the NACK */
    void ReceiveNack(const GradientHeader& header);

    /**
     * \brief Send the NACKs of one peer's missing chunks.
     * \param state the round \param slot the peer's position
     */
    void SendNack(RoundState& state, uint32_t slot);
    /**
     * \brief Drop from a NACK's ranges the chunks whose first transmission may still be on
     *        the way to the requester.
     *
     * The requester's view is at least one round trip old when its NACK arrives, and it asks
     * only after a silent check interval, so a chunk first sent less than RTT +
     * RetransmissionTimeout ago is not known to be lost: resending it would only duplicate it.
     * \param state the round \param peer the requester \param step ring step
     * \param ring a RING step \param ranges the asked ranges, trimmed in place
     */
    void TrimRecentChunks(const RoundState& state,
                          uint32_t peer,
                          uint16_t step,
                          bool ring,
                          std::vector<GradientHeader::ChunkRange>& ranges) const;
    /** \param state the round \param peer requester \brief tell a peer "not yet" */
    void SendNotYet(uint32_t round, uint32_t clique, const IslandBitmap& members, uint32_t peer);
    /** \param round the round \param peer the requester \param step ring step \brief pace */
    void SendResend(uint32_t round, uint32_t peer, uint16_t step);

    /**
     * \brief Build one data packet.
     * \param state the round \param type DATA or RING \param ringStep step (RING)
     * \param chunk chunk index \param chunkCount chunks of the stream \param flags extra flags
     * \return the packet
     */
    Ptr<Packet> BuildChunk(RoundState& state,
                           GradientHeader::Type type,
                           uint16_t ringStep,
                           uint32_t chunk,
                           uint32_t chunkCount,
                           uint16_t flags);
    /**
     * \param state the round \param packet the packet \param to destination
     * \param control a NACK, not data
     */
    void SendPacket(RoundState& state, Ptr<Packet> packet, Ipv4Address to, bool control = false);
    /**
     * \param round the packet's round \param packet a sent packet
     * \param control a NACK or a "not yet" answer, not data
     */
    void CountSent(uint32_t round, Ptr<const Packet> packet, bool control);

    /** \param chunk chunk index \param first receives first element \return element count */
    uint32_t ChunkElements(uint32_t chunk, uint32_t& first) const;
    /** \param state round \param step ring step \return the segment the step carries */
    uint32_t RingSendSegment(const RoundState& state, uint32_t step) const;
    /** \param state round \param segment index \param first first element \return length */
    uint32_t SegmentElements(const RoundState& state, uint32_t segment, uint32_t& first) const;
    /** \param state round \param step ring step \return the segment the step receives */
    uint32_t RingReceiveSegment(const RoundState& state, uint32_t step) const;
    /** \param state round \param peer island \return pacing rate to that peer */
    double RateTo(const RoundState& state, uint32_t peer, uint16_t ringStep, bool ring) const;
    /** \param peer an island \return the round-trip propagation delay to it */
    Time PeerRtt(uint32_t peer) const;
    /**
     * \param state a round \param island an island of its clique
     * \return how long the island's FPGA may hold a DATA chunk of the round (zero in RING
     *         rounds, whose packets it never holds)
     */
    Time AggregationHold(const RoundState& state, uint32_t island) const;
    /** \param wireBits bits so far \param rate rate \param start origin \return send time */
    static Time PacedDelay(Time start, double wireBits, double rateBps);
    /** \param packet gradient packet \return bits on the wire (IPv4, UDP and PPP added) */
    static double WireBits(Ptr<const Packet> packet);

    // Attributes
    uint64_t m_modelBytes;        //!< M
    uint32_t m_rounds;            //!< rounds to run
    Time m_computeTime;           //!< compute phase
    double m_computeMultiplier;   //!< straggler factor
    uint32_t m_chunkPayload;      //!< bytes per chunk (0: fill the MTU)
    uint16_t m_port;              //!< UDP port
    Time m_retransmissionTimeout; //!< silence before a NACK
    uint32_t m_maxRetries;        //!< unanswered NACK rounds before a peer is lost
    PayloadMode m_payloadMode;    //!< virtual or real
    double m_scale;               //!< fixed-point scale
    uint32_t m_jobId;             //!< job id in headers
    uint32_t m_retainedRounds;    //!< finished rounds kept to answer NACKs

    // Configuration
    uint32_t m_island;                          //!< this island
    uint32_t m_islandCount;                     //!< N
    std::vector<Ipv4Address> m_addresses;       //!< island addresses
    std::vector<Time> m_rtt;                    //!< per island RTT
    std::vector<Time> m_hold;                   //!< per island, its FPGA's longest hold
    std::vector<TrainingRoundConfig> m_configs; //!< per period round
    Ptr<TrainingWorkload> m_workload;           //!< numerics (may be null)
    uint32_t m_elements;                        //!< int32 elements of the model

    // State
    Ptr<Socket> m_socket;                                     //!< the UDP socket
    uint32_t m_round;                                         //!< current round
    bool m_running;                                           //!< between start and stop
    bool m_computing;                                         //!< in the compute phase of m_round
    EventId m_computeEvent;                                   //!< end of compute
    EventId m_heldSyncEvent;                                  //!< a held exchange's start
    std::vector<Time> m_syncNotBefore;                        //!< per round, earliest send
    std::map<uint32_t, std::unique_ptr<RoundState>> m_states; //!< by round
    RoundState* m_current;                                    //!< state of m_round (fast path)
    std::map<std::tuple<uint32_t, uint32_t, uint16_t>, ResendJob> m_resends; //!< NACKs served
    std::vector<TrainingRoundRecord> m_records;                              //!< per round
    std::vector<int32_t> m_values;                                           //!< receive scratch
    std::vector<int32_t> m_sendValues;                                       //!< send scratch
    uint64_t m_dropped;    //!< packets dropped on receipt
    uint64_t m_duplicates; //!< duplicate contributions

    // Traces
    TracedCallback<uint32_t, uint32_t> m_roundStartedTrace;       //!< RoundStarted
    TracedCallback<uint32_t, uint32_t> m_computeFinishedTrace;    //!< ComputeFinished
    TracedCallback<uint32_t, uint32_t, Time> m_syncFinishedTrace; //!< SyncFinished
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t>
        m_retransmissionTrace;                                              //!< Retransmission
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t> m_peerLostTrace; //!< PeerLost
};

} // namespace ns3

#endif /* TRAINING_APPLICATION_H */
