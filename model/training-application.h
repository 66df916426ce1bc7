/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_APPLICATION_H
#define TRAINING_APPLICATION_H

#include "adaptive-transport.h"
#include "chunk-layout.h"
#include "clique-schedule.h"
#include "fragment-plan.h"
#include "gradient-header.h"
#include "island-numerics.h"
#include "island-udp-port.h"
#include "round-config.h"
#include "round-exchange.h"
#include "round-start-gate.h"
#include "training-workload.h"
#include "update-format.h"
#include "wan-wire.h"

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

/**
 * \defgroup wan-training WAN training
 * \brief Data-parallel training across the compute islands of a WAN, packet by packet:
 *        islands (TrainingApplication and its round exchanges), WAN routers that multicast
 *        (WanRouterNetDevice), in-line FPGAs that aggregate (FpgaAggregatorNetDevice,
 *        TransitAggregatorNetDevice), their links (WanLinkNetDevice, WanLinkChannel), the
 *        schedule optimiser and cost model (ScheduleSearch, SyncCostModel) and the helpers
 *        that build and run an experiment (WanTopologyHelper, TrainingHelper). See
 *        doc/wan-training.rst.
 */

class Packet;
class TcpTransport;

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
    Time hiddenSync;                //!< fragment exchange time during compute (Fragments)
    uint64_t bytesSent{0};          //!< gradient bytes (header + payload) of DATA/RING packets sent
    uint64_t bytesReceived{0};      //!< gradient bytes of DATA/AGGREGATE/RING packets received
    uint64_t packetsSent{0};        //!< DATA/RING packets sent for the round (resends too)
    uint64_t packetsReceived{0};    //!< DATA/AGGREGATE/RING packets received for the round
    uint64_t controlPacketsSent{0}; //!< NACKs and "not yet" answers sent for the round
    uint64_t controlPacketsReceived{0}; //!< NACKs and "not yet" answers received
    uint64_t retransmissions{0};        //!< chunks this island resent after NACKs
    std::vector<uint32_t> lostPeers;    //!< peers declared lost in the round
    bool finished{false};               //!< the round ended

    /** \param bytes a packet's gradient bytes \param control a control packet \brief count it */
    void CountSent(uint32_t bytes, bool control)
    {
        controlPacketsSent += control ? 1 : 0;
        packetsSent += control ? 0 : 1;
        bytesSent += control ? 0 : bytes;
    }

    /** \param bytes a packet's gradient bytes \param control a control packet \brief count it */
    void CountReceived(uint32_t bytes, bool control)
    {
        controlPacketsReceived += control ? 1 : 0;
        packetsReceived += control ? 0 : 1;
        bytesReceived += control ? 0 : bytes;
    }
};

/**
 * \ingroup wan-training
 * \brief One compute island of data-parallel training: the round driver.
 *
 * Round r: a compute phase of InnerSteps x ComputeTime x ComputeMultiplier (the workload's
 * inner steps run at its end), then the exchange of the clique of partition r mod T, run by a
 * DirectExchange or a RingExchange (the reliability of both is UdpExchange's), or with Transport
 * tcp by a TcpDirectExchange or TcpRingExchange over a TcpTransport, then the next round. The
 * application owns the UDP port (IslandUdpPort; or the TcpTransport), hands each received packet to
 * its round's exchange, answers NACKs of rounds it has not reached with "not yet" (a stopped
 * application answers nothing, so its peers declare it lost), counts every packet into the
 * round's record and averages the parameters when an exchange ends. With Fragments F > 1 the
 * round's update is exchanged in F fragments, each after its share of the inner steps and one
 * at a time (FragmentPlan); their exchanges are numbered round x F + fragment in the headers.
 * See doc/training.rst.
 */
class TrainingApplication : public Application
{
  public:
    /**
     * \return why the application stopped the run (a parameter beyond the fixed-point range),
     *         or empty
     */
    const std::string& GetError() const;

    /**
     * \brief The compute phase of a round without stragglers: the rule every planner and
     *        estimate uses.
     * \param stepTime the compute time of one inner step (ComputeTime)
     * \param innerSteps inner steps per round (InnerSteps)
     * \return innerSteps x stepTime
     */
    static Time ComputePhase(Time stepTime, uint32_t innerSteps);
    /**
     * \param stepSeconds the compute time of one inner step, s \param innerSteps inner steps
     * \return "" if the compute phase fits ns-3's Time, else what is wrong
     */
    static std::string ComputePhaseProblem(double stepSeconds, uint32_t innerSteps);
    /** The most inner steps a round takes (a bound of the flags, not of the model). */
    static constexpr uint32_t MAX_INNER_STEPS = 1000000;
    /** \return this island's compute phase: ComputePhase x ComputeMultiplier */
    Time GetComputePhase() const;

    /** How exchanges reach the wire. */
    enum Transport
    {
        PLANNED,  //!< UDP paced at the plan's rates; multicast and FPGAs as planned
        TCP,      //!< ns-3 TCP connections (TcpTransport): unicast, no FPGA aggregation
        ADAPTIVE, //!< UDP as planned, each stream's rate from ECN marks and loss
                  //!< (AdaptiveTransport)
    };

    /** How payloads are carried. */
    enum PayloadMode
    {
        VIRTUAL, //!< sizes only (zero bytes), bitmaps tracked exactly
        REAL,    //!< int32 fixed-point parameters, summed and averaged exactly
    };

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
    /**
     * \param transport the connections of the tcp transport, its attributes set (unset or
     *        null: one with default attributes is created when Transport is tcp)
     */
    void SetTcpTransport(Ptr<TcpTransport> transport);
    /** \return the tcp transport (null before the start of a tcp run) */
    Ptr<TcpTransport> GetTcpTransport() const;

    /**
     * \param transport the adaptive transport, its attributes set (unset: one with default
     *        attributes is created when Transport is adaptive)
     */
    void SetAdaptiveTransport(Ptr<AdaptiveTransport> transport)
    {
        m_adaptive = transport;
    }

    /** \return the adaptive transport (null before the start of an adaptive run) */
    Ptr<AdaptiveTransport> GetAdaptiveTransport() const
    {
        return m_adaptive;
    }

    /** \param workload the numerics (shared by all islands); null: virtual */
    void SetWorkload(Ptr<TrainingWorkload> workload);
    /**
     * \brief Run every round as this plan says (a step read from an execution trace,
     *        ChakraStep) instead of ComputeTime, InnerSteps and Fragments: its compute phase,
     *        and its buckets sent as they are ready. Virtual payloads over the planned or
     *        adaptive transport; ModelBytes must be the plan's.
     * \param plan the buckets and their launches
     */
    void SetFragmentPlan(const FragmentPlan& plan);
    /** \return one record per round (rounds not reached have finished == false) */
    const std::vector<TrainingRoundRecord>& GetRecords() const;
    /** \return true once every round has ended */
    bool IsFinished() const;

    /** \return packets dropped on receipt: malformed, wrong job or not matching the round */
    uint64_t GetDroppedPackets() const
    {
        return m_context.counters.dropped;
    }

    /** \return duplicate contributions ignored */
    uint64_t GetDuplicatePackets() const
    {
        return m_context.counters.duplicates;
    }

    /** \return bytes of payload carried per chunk */
    uint32_t GetChunkPayloadBytes() const;
    /**
     * \return the most control packets the island may send at once (round configs and
     *         aggregation hold set): a LATE or START, in NackCopies copies, to every other
     *         member of its largest clique that FPGAs fold (NeedsAlignment), or one NACK in
     *         ReaskCopies copies; a transmit queue that holds the
     *         paced streams needs this much more room
     */
    uint32_t GetControlBurst() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** \return framing bytes the island's access device adds to each packet (LinkPort) */
    uint32_t GetAccessFramingBytes() const;

    /** \param round a round \return its exchange, created if needed; null if stale/invalid */
    RoundExchange* GetExchange(uint32_t round);
    /** \brief Start round m_round: compute phase. */
    void StartRound();
    /**
     * \param fragment a fragment of the round
     * \return when it is launched, from the start of compute (FragmentPlan::LaunchStep inner
     *         steps, times ComputeMultiplier); the last fragment's is the compute phase
     */
    Time GetLaunchOffset(uint32_t fragment) const;
    /**
     * \param sync an exchange after the current one
     * \return how long from now until it is launched (a new round's: its first fragment's
     *         offset)
     */
    Time GetLaunchDelay(uint32_t sync) const;
    /**
     * \brief The next fragment's inner steps are computed (the last: the compute phase is
     *        over, the workload's steps run): start its exchange if none runs, and schedule
     *        the next launch.
     */
    void LaunchFragment();
    /** \brief Start the exchange of the launched fragment that waits, if none runs. */
    void StartFragmentIfReady();
    /** \return exchanges of the run: Rounds x Fragments */
    uint32_t GetSyncCount() const;
    /**
     * \param sync an exchange's number: round x Fragments + fragment (the header's round
     *        field; the round itself with one fragment)
     * \return its round
     */
    uint32_t RoundOf(uint32_t sync) const;
    /** \return the number of the exchange running or next to run */
    uint32_t CurrentSync() const;
    /** \param sync an exchange \return its round's config */
    const TrainingRoundConfig& ConfigOf(uint32_t sync) const;
    /** \param sync an exchange \return its round's record */
    TrainingRoundRecord& RecordOf(uint32_t sync);
    /** \brief Cut the update (and its fragments) into chunks: the exchanges' layouts. */
    void LayOutFragments();
    /**
     * \param round a round
     * \return true while the island runs and \p round is its current exchange (the start
     *         gate's events ask before starting it)
     */
    bool IsAwaitingStart(uint32_t round) const;
    /** \param round an exchange \return true if its clique's first passes meet FPGAs (AlignStarts)
     */
    bool NeedsAlignment(uint32_t round) const;
    /** \param config a round's config \return true if its clique's first passes meet FPGAs */
    bool NeedsAlignment(const TrainingRoundConfig& config) const;
    /** \param round the round whose exchange asked for a resend \brief send LATE for the next */
    void AnnounceLate(uint32_t round);
    /** \param round the round just ended \brief if LATE was sent for the next, send its START */
    void AnnounceStart(uint32_t round);
    /** \param round a round whose notices changed \brief start it if held and no longer waiting */
    void ResumeIfHeld(uint32_t round);
    /** \param round the round \brief start its exchange with the own parameters */
    void StartExchange(uint32_t round);
    /**
     * \param sync an exchange that ended \brief average; the round's last: record it, go on
     *        to the next round; else start the next fragment if launched
     */
    void FinishSync(uint32_t sync);
    /** \brief Transport tcp: open the connections to every island of its cliques. */
    void StartTcp();
    /**
     * \param packet a received datagram's payload \param tos the TOS byte it arrived with
     */
    void Receive(Ptr<Packet> packet, uint8_t tos);
    /**
     * \brief A message from the TCP transport: Dispatch it (TCP carries no CE marks here).
     * \param header its header (parsed) \param values its real payload \param bytes its size
     */
    void ReceiveMessage(const GradientHeader& header,
                        const std::vector<int32_t>& values,
                        uint32_t bytes);
    /**
     * \brief Count a received message into its round and hand it to the round's exchange.
     * \param header its header (parsed) \param values its real payload \param bytes its size
     * \param congested it arrived marked CE (transport adaptive)
     */
    void Dispatch(const GradientHeader& header,
                  const std::vector<int32_t>& values,
                  uint32_t bytes,
                  bool congested);
    /**
     * \param header a packet's header
     * \return true if it is of this job and of one of its rounds
     */
    bool IsThisJob(const GradientHeader& header) const;
    /**
     * \param header a packet's header (job and round in range)
     * \return true if it belongs to its round's exchange: same clique and members, sent by
     *         another member
     */
    bool IsFromMember(const GradientHeader& header);
    /**
     * \param round the packet's round \param packet a packet to send \param to destination
     * \param control a NACK, END or "not yet", not data
     */
    void Send(uint32_t round, Ptr<Packet> packet, Ipv4Address to, bool control);

    // Attributes
    uint64_t m_modelBytes;         //!< M
    uint32_t m_rounds;             //!< rounds to run
    Time m_computeTime;            //!< compute time of one inner step
    uint32_t m_innerSteps;         //!< inner steps per round (H)
    uint32_t m_fragments;          //!< fragments per round (F)
    double m_computeMultiplier;    //!< straggler factor
    uint32_t m_chunkPayload;       //!< bytes per chunk (0: fill the MTU)
    uint16_t m_port;               //!< UDP port (WanWire::GetGradientPort())
    Time m_retransmissionTimeout;  //!< silence check interval
    uint32_t m_maxRetries;         //!< unanswered silence NACKs before a peer is lost
    Time m_nackDelay;              //!< gap seen to NACK
    Time m_repairTimeout;          //!< re-ask interval (0: from the path)
    double m_repairRoundTrips;     //!< re-ask interval from the path, in round trips
    uint32_t m_nackCopies;         //!< copies of each gap NACK packet
    uint32_t m_noticeCopies;       //!< copies of each LATE and START notice
    uint32_t m_reaskCopies;        //!< copies of each re-ask NACK packet
    uint32_t m_repeatResendCopies; //!< copies of a chunk resent again
    Time m_peerPatience;           //!< longest "not yet" wait without data
    Transport m_transport;         //!< planned or tcp
    IslandUdpPort::Path m_udpPath; //!< how UDP datagrams reach the wire (UdpPath)
    PayloadMode m_payloadMode;     //!< virtual or real
    UpdateFormat m_updateFormat;   //!< how the update travels
    double m_scale;                //!< fixed-point scale
    double m_residualDecay;        //!< real top-k: SparseChange's decay
    std::string m_error;           //!< why this application stopped the run, or empty
    uint32_t m_jobId;              //!< job id in headers
    uint32_t m_retainedRounds;     //!< finished rounds kept to answer NACKs
    bool m_alignStarts;            //!< send and honour LATE/START (RoundAlignment)
    Time m_alignmentLimit;         //!< longest wait for an announced START
    Time m_alignmentMargin;        //!< added to the farthest member's delay in a START's time

    // Configuration
    std::vector<TrainingRoundConfig> m_configs; //!< per period round
    Ptr<TrainingWorkload> m_workload;           //!< numerics (may be null)

    // State
    ExchangeContext m_context;                                      //!< what exchanges share
    Ptr<IslandUdpPort> m_udp;                                       //!< the UDP port
    Ptr<TcpTransport> m_tcp;                                        //!< transport tcp
    Ptr<AdaptiveTransport> m_adaptive;                              //!< transport adaptive
    uint32_t m_round;                                               //!< current round
    bool m_running;                                                 //!< between start and stop
    FragmentPlan m_fragmentPlan;                                    //!< fragments' bytes, launches
    bool m_planGiven;                                               //!< SetFragmentPlan called
    FragmentProgress m_progress;                                    //!< m_round's fragments
    EventId m_computeEvent;                                         //!< next fragment launch
    RoundStartGate m_startGate;                                     //!< when exchanges start
    std::map<uint32_t, std::unique_ptr<RoundExchange>> m_exchanges; //!< by round
    std::vector<TrainingRoundRecord> m_records;                     //!< per round
    std::vector<int32_t> m_values;                                  //!< receive scratch
    IslandNumerics m_numerics;                                      //!< inner steps, payloads

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
