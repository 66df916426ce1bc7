/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SYNC_COST_MODEL_H
#define SYNC_COST_MODEL_H

#include "chunk-layout.h"
#include "clique-schedule.h"
#include "max-min-fair-share.h"
#include "sync-path-table.h"
#include "sync-ring-plan.h"
#include "sync-tree-plan.h"
#include "update-format.h"
#include "wan-routing.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One stream of a round's synchronisation plan: what one sender sends to whom, at
 *        which rate.
 *
 * A DIRECT multicast stream has several receivers; a unicast stream (DIRECT without multicast,
 * or one RING step) has one. A TREE clique has one up stream per member other than the root
 * (reduce, receivers {root}) and the root's down stream(s), shaped like a DIRECT sender's.
 * Times are seconds from the start of the round's sync phase.
 */
struct SyncStream
{
    /** Marker of ringStep for DIRECT streams. */
    static constexpr uint32_t NO_RING_STEP = 0xffffffff;

    uint32_t clique{0};                             //!< clique index within the round's partition
    uint32_t sender{0};                             //!< sending island
    std::vector<uint32_t> receivers;                //!< receiving islands, ascending
    SyncAlgorithm algorithm{SyncAlgorithm::DIRECT}; //!< the clique's algorithm
    bool multicast{false};                          //!< one multicast stream down the sender's tree
    bool aggregated{false}; //!< an FPGA folds this stream (DIRECT: at a receiver; TREE: on the way)
    bool reduce{false};     //!< a TREE up stream: member to root, added up by transit FPGAs
    uint32_t ringStep{NO_RING_STEP}; //!< RING step 0 .. 2(k-1)-1, else NO_RING_STEP
    uint64_t payloadBytes{0};        //!< gradient bytes carried (M, or the step's segment for RING)
    uint64_t chunks{0};              //!< packets: ceil(payloadBytes / chunk payload)
    uint64_t wireBytes{0};           //!< payload + chunks x per-packet header bytes
    double rateBps{0};               //!< max-min fair rate, bit/s (of wire bytes)
    /**
     * Pacing slots one resend of this stream takes (>= 1). A resend passes the receivers'
     * FPGAs unsummed, so on an access link where an FPGA folds the stream (weight 1/(k-1)) it
     * costs a whole packet: max(1, load / (weight x capacity)) over those links keeps the
     * link within its capacity when the stream's senders resend. TREE streams: 1 (a resend
     * of a missing contributor is rare and passes the transit FPGAs as one packet; the
     * model does not reserve room for it).
     */
    double resendWeight{1};
    double delay{0};      //!< propagation (+ FPGA latency), to the farthest receiver
    double startTime{0};  //!< when the stream starts (TREE down: once the root can), s
    double finishTime{0}; //!< when its last packet arrives (DIRECT: at the farthest receiver)
    /**
     * (WanRouting resource, weight) used; a transit FPGA's service (TransitProcessingRate) is
     * a resource of the estimate only and is not listed.
     */
    std::vector<MaxMinFairShare::Usage> resources;
};

/**
 * \ingroup wan-training
 * \brief The estimate of one round's synchronisation: every stream, per-clique and round time.
 */
struct SyncRoundEstimate
{
    /** Marker of cliqueRoot for cliques that are not TREE. */
    static constexpr uint32_t NO_ROOT = 0xffffffff;

    std::vector<SyncStream> streams; //!< the plan, by clique then sender (then ring step)
    /** TREE: each clique's root island (SyncCostModel::ChooseRoot()), else NO_ROOT. */
    std::vector<uint32_t> cliqueRoot;
    /**
     * Sync time of each clique, s (0 for a singleton): its per-round sync time in steady
     * state. DIRECT: its slowest stream (every member waits for it from the second round on).
     * RING: the mean of its members' completions (see SyncCostModel). TREE: the last
     * member's arrival of the root's last down chunk (see SyncTreePlan).
     */
    std::vector<double> cliqueTime;
    /** Each island's completion when every island starts the round together, s. */
    std::vector<double> islandTime;
    double meanIslandTime{0}; //!< mean of islandTime (a first round's mean sync time), s
    double syncTime{0};       //!< max over cliques, s
};

/**
 * \ingroup wan-training
 * \brief Flow-level estimate of a round's sync time on a WAN: streams, max-min fair rates
 *        (progressive filling), fluid completion times plus propagation delay.
 *
 * It follows the routing and multicast rules of the packet model (WanRouting): a DIRECT sender
 * multicasts when its whole tree is multicast-capable, and otherwise sends unicast copies; an
 * FPGA in front of a receiver folds the k-1 incoming streams into one, so each of them uses
 * 1/(k-1) of the receiver's ingress. RING cliques run 2(k-1) steps of one segment (ceil(M/k)
 * bytes, cut by int32 elements) to the ring successor (ring order: ascending island index);
 * FPGAs and multicast do not apply to ring traffic. The steps are not synchronous: as in
 * TrainingApplication, a member starts step s once it has handed its own step s-1 to the socket
 * and has received its predecessor's step s-1, so the critical path runs around the ring and
 * adds the delays of consecutive ring edges. A member's completion is the chain of 2(k-1) edges
 * ending at it, which starts at the member 2(k-1) positions back. From the second round on the
 * members start at their own previous completion, so each member's sync time is its chain plus
 * the difference of two members' previous completions; summed over the ring those differences
 * cancel. A RING clique's time is therefore the mean of its members' chains: the mean sync
 * time of every round, and (odd k) the steady-state round time. TREE cliques send every
 * member's update up the unicast routes to a root, merged at transit FPGAs on the way, and the
 * root sends the sum down as a DIRECT sender would, never FPGA-folded (SyncTreePlan has the
 * weights and the times). The root is the member whose tree, estimated alone on the WAN, ends
 * first (ties: the lowest island index). All cliques of a round share the
 * WAN, so the rates of all their streams are computed together (RING cliques contribute the streams
 * of one step).
 *
 * This is the one place where a round's streams and rates are built: the training helper
 * paces packets by GetRoundPlan().
 */
class SyncCostModel : public Object
{
  public:
    /**
     * TracedCallback signature of RoundEstimated.
     * \param syncTime the round's sync time, s
     * \param streams the number of streams in the plan
     */
    typedef void (*RoundEstimatedCallback)(double syncTime, uint32_t streams);

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    SyncCostModel();
    ~SyncCostModel() override;

    /**
     * \brief Set the routes (copied) and precompute per-island-pair paths.
     * \param routing the WAN controller's routes
     */
    void SetRouting(const WanRouting& routing);
    /** \return the routes (SetRouting() must have been called) */
    const WanRouting& GetRouting() const;

    /**
     * \brief Estimate one round.
     * \param partition a valid partition of the routing's islands
     * \param algorithms one per clique (same order as \p partition)
     * \param modelBytes M, the bytes of one island's update
     * \return the plan and the times
     */
    SyncRoundEstimate EstimateRound(const Partition& partition,
                                    const std::vector<SyncAlgorithm>& algorithms,
                                    uint64_t modelBytes) const;
    /**
     * \brief The plan of training round \p round of \p schedule (partition round mod T, with
     *        the schedule's algorithms).
     * \param schedule the schedule \param round the training round \param modelBytes M
     * \return the plan and the times
     */
    SyncRoundEstimate GetRoundPlan(const CliqueSchedule& schedule,
                                   uint64_t round,
                                   uint64_t modelBytes) const;
    /**
     * \brief Same as EstimateRound(...).syncTime without building the plan (fast path for the
     *        optimiser).
     * \param partition the partition \param algorithms one per clique \param modelBytes M
     * \return the round's sync time, s
     */
    double EstimateSyncTime(const Partition& partition,
                            const std::vector<SyncAlgorithm>& algorithms,
                            uint64_t modelBytes) const;
    /**
     * \brief The fastest algorithm for one clique estimated alone on the WAN: DIRECT on ties
     *        and for k <= 2, RING if strictly faster than DIRECT, TREE (with its best root) only
     *        if strictly faster than both and some city has a transit FPGA.
     * \param clique the members \param modelBytes M \return DIRECT, RING or TREE
     */
    SyncAlgorithm ChooseAlgorithm(const Clique& clique, uint64_t modelBytes) const;
    /**
     * \brief The root of a TREE clique: the member whose tree, estimated with the clique alone
     *        on the WAN, has the lowest time; ties to the lowest island index.
     * \param clique the members (k >= 2) \param modelBytes M \return the root island
     */
    uint32_t ChooseRoot(const Clique& clique, uint64_t modelBytes) const;
    /**
     * \brief The time of a TREE clique with a given root, alone on the WAN.
     * \param clique the members \param root a member \param modelBytes M \return s
     */
    double EstimateTreeTime(const Clique& clique, uint32_t root, uint64_t modelBytes) const;

    /** \return the routes' paths and trees (SetRouting() must have been called) */
    const SyncPathTable& GetPathTable() const;

    /** \return payload bytes per chunk (attribute, or derived from the MTU) */
    uint32_t GetChunkPayloadBytes() const;
    /** \return header bytes per packet on the wire: IPv4 + UDP + gradient header + PPP */
    uint32_t GetPacketOverheadBytes() const;
    /** \return the update format the estimates assume (attribute UpdateFormat) */
    const UpdateFormat& GetUpdateFormat() const;
    /**
     * \param payloadBytes bytes of gradient, counted as int32 (ModelBytes: 4 per element)
     * \return packets needed: its elements over the format's chunk (ChunkLayout)
     */
    uint64_t GetChunkCount(uint64_t payloadBytes) const;
    /**
     * \param payloadBytes bytes of gradient, counted as int32
     * \return bytes on the wire in the update format, headers included
     */
    uint64_t GetWireBytes(uint64_t payloadBytes) const;
    /**
     * \param k clique size (>= 2)
     * \return the wire bytes of an FPGA's sum of k-1 full chunks over those of one chunk:
     *         1 for int32, about 2 for int8 (its sums are int16)
     */
    double GetFoldedSumRatio(uint32_t k) const;
    /**
     * \param contributors n >= 1
     * \return the wire bytes of a full chunk's sum of n members over one member's chunk (1 in
     *         int32; int8's sums of 2 to 258 travel as int16)
     */
    double GetSumWireRatio(uint32_t contributors) const;
    /**
     * \param modelBytes M \param contributors 1: a member's update; more: a sum of that many
     * \return its wire bits as one stream sends it (SyncTreePlan::Complete)
     */
    SyncTreePlan::StreamBits GetStreamBits(uint64_t modelBytes, uint32_t contributors) const;
    /**
     * \param k clique size (>= 2)
     * \return the share of an island's ingress one of k-1 streams takes behind an FPGA that
     *         folds them: GetFoldedSumRatio(k) / (k-1)
     */
    double GetFoldedShare(uint32_t k) const;
    /** \return true if FPGAs fold streams of the update format (UpdateFormat::IsSummable) */
    bool FpgasFold() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \param payloadBytes bytes of gradient, counted as int32 (> 0)
     * \return how they are cut into chunks in the update format
     */
    ChunkLayout LayoutOf(uint64_t payloadBytes) const;

    /** A stream under construction, before rates are known. */
    struct Draft
    {
        uint32_t clique;         //!< clique index
        uint32_t sender;         //!< sending island
        uint32_t firstReceiver;  //!< index into the receiver pool
        uint32_t receiverCount;  //!< receivers
        bool multicast;          //!< multicast stream
        bool aggregated;         //!< folded by an FPGA somewhere
        SyncAlgorithm algorithm; //!< the clique's algorithm
        bool reduce;             //!< a TREE up stream
        uint64_t payloadBytes;   //!< gradient bytes
        double delay;            //!< propagation + FPGA latency
    };

    /** A round's solved drafts: BuildAndSolve()'s results, as EstimateRound() keeps them. */
    struct RoundSolution
    {
        std::vector<Draft> drafts;                               //!< the streams
        std::vector<uint32_t> receivers;                         //!< the receiver pool
        std::vector<std::vector<MaxMinFairShare::Usage>> usages; //!< by draft: its usages
        std::vector<double> rates;                               //!< by draft: its rate, bit/s
    };

    /** Where BuildAndSolve() and its steps add a round's streams. */
    struct RoundStreams
    {
        uint64_t modelBytes;                                      //!< M
        MaxMinFairShare& mm;                                      //!< the fair-share problem
        std::vector<Draft>& drafts;                               //!< the streams
        std::vector<uint32_t>& receivers;                         //!< the receiver pool
        std::vector<std::vector<MaxMinFairShare::Usage>>* usages; //!< by draft, if wanted

        /**
         * \brief Add a stream's usages as a flow of the fair-share problem (and keep them).
         * \param usage the usages
         */
        void AddFlow(const std::vector<MaxMinFairShare::Usage>& usage)
        {
            mm.AddFlow(usage);
            if (usages)
            {
                usages->push_back(usage);
            }
        }
    };

    /** Intermediate times of EstimateRound(), by clique or by draft. */
    struct RoundTiming
    {
        /** By clique: its first draft if RING or TREE, else the draft count. */
        std::vector<size_t> first;
        /** By clique: one past its last draft if RING or TREE, else the draft count. */
        std::vector<size_t> end;
        /** By RING clique: each ring position's step times (SyncRingPlan::Complete()). */
        std::vector<std::vector<std::vector<SyncRingPlan::StepTime>>> ringTimes;
        /** By TREE clique: A, when the root's down streams start, s. */
        std::vector<double> downStart;
        /** By draft (DIRECT streams and TREE down streams): its last packet leaves, s. */
        std::vector<double> sent;
    };

    /**
     * \brief Build the drafts and the fair-share problem of a round, and solve it.
     * \param partition the partition \param algorithms per clique \param modelBytes M
     * \param roots per clique: the root of a TREE clique (others ignore it)
     * \param drafts receives the streams (RING: step 0 only; TREE: ups, then the root's)
     * \param receivers receives the receiver pool
     * \param usages receives each draft's usages (if not null)
     * \param rates receives each draft's rate
     */
    void BuildAndSolve(const Partition& partition,
                       const std::vector<SyncAlgorithm>& algorithms,
                       uint64_t modelBytes,
                       const std::vector<uint32_t>& roots,
                       std::vector<Draft>& drafts,
                       std::vector<uint32_t>& receivers,
                       std::vector<std::vector<MaxMinFairShare::Usage>>* usages,
                       std::vector<double>& rates) const;
    /**
     * \brief Add the WAN's resources to a round's fair-share problem, then (if the transit
     *        FPGAs' service rate is finite and some clique is TREE) one per city for them.
     * \param algorithms per clique \param mm the fair-share problem
     * \return the first transit resource, else SyncTreePlan::NO_RESOURCE
     */
    uint32_t AddRoundResources(const std::vector<SyncAlgorithm>& algorithms,
                               MaxMinFairShare& mm) const;
    /**
     * \brief Add a RING clique's streams: one step's k streams, each member to its ring
     *        successor (ring order: ascending island index), stand for every step.
     * \param c the clique index \param clique the members
     * \param streams where the streams go
     */
    void AddRingStreams(uint32_t c, const Clique& clique, RoundStreams& streams) const;
    /**
     * \brief Add a TREE clique's streams: every other member's up stream to the root, then
     *        the root's down streams.
     * \param c the clique index \param clique the members \param root the clique's root
     * \param transitBase the first transit resource (AddRoundResources())
     * \param streams where the streams go
     */
    void AddTreeStreams(uint32_t c,
                        const Clique& clique,
                        uint32_t root,
                        uint32_t transitBase,
                        RoundStreams& streams) const;
    /**
     * \brief Add a DIRECT clique's streams: every member sends its whole update to the rest
     *        (AddSenderStreams()).
     * \param c the clique index \param clique the members
     * \param streams where the streams go
     */
    void AddDirectStreams(uint32_t c, const Clique& clique, RoundStreams& streams) const;
    /**
     * \brief Add the streams of one sender that sends its whole update to the rest of its
     *        clique: one multicast stream if its tree is multicast-capable, else one unicast
     *        stream per peer (the DIRECT senders and a TREE root's down streams).
     * \param c the clique index \param s the sender \param clique the members
     * \param algorithm DIRECT (FPGAs in front of receivers fold the stream) or TREE (no fold)
     * \param streams where the streams go
     */
    void AddSenderStreams(uint32_t c,
                          uint32_t s,
                          const Clique& clique,
                          SyncAlgorithm algorithm,
                          RoundStreams& streams) const;
    /**
     * \param draft a solved draft \param rate its rate \return seconds to finish it
     */
    double StreamDuration(const Draft& draft, double rate) const;
    /**
     * \brief Start a round's timing: find the drafts of its RING and TREE cliques and size
     *        the per-clique and per-draft times.
     * \param cliques the number of cliques \param drafts the round's drafts
     * \return the timing, no times set yet
     */
    RoundTiming LocateCliqueDrafts(size_t cliques, const std::vector<Draft>& drafts) const;
    /**
     * \brief Time the DIRECT streams: each DIRECT clique's time is its slowest stream's, and
     *        each stream's sent time is its duration less its delay.
     * \param sol the solved round \param est receives the clique times
     * \param timing receives the sent times
     */
    void TimeDirectStreams(const RoundSolution& sol,
                           SyncRoundEstimate& est,
                           RoundTiming& timing) const;
    /**
     * \brief Time a TREE clique: its time, when its down streams start and when they are
     *        sent.
     * \param c the clique index \param cliqueSize its member count \param modelBytes M
     * \param sol the solved round \param est receives the clique's time
     * \param timing receives its down start and its down streams' sent times
     */
    void TimeTreeClique(uint32_t c,
                        size_t cliqueSize,
                        uint64_t modelBytes,
                        const RoundSolution& sol,
                        SyncRoundEstimate& est,
                        RoundTiming& timing) const;
    /**
     * \brief Time a RING clique: its time, its members' completions and its step times.
     * \param c the clique index \param clique the members \param modelBytes M
     * \param sol the solved round \param est receives the clique's and its members' times
     * \param timing receives the step times
     */
    void TimeRingClique(uint32_t c,
                        const Clique& clique,
                        uint64_t modelBytes,
                        const RoundSolution& sol,
                        SyncRoundEstimate& est,
                        RoundTiming& timing) const;
    /**
     * \brief Complete the islands of DIRECT and TREE cliques: a sender (or a TREE root) when
     *        its streams are sent, a receiver when the last of them has arrived.
     * \param sol the solved round \param timing the sent times
     * \param est receives the island times
     */
    void TimeSendersAndReceivers(const RoundSolution& sol,
                                 const RoundTiming& timing,
                                 SyncRoundEstimate& est) const;
    /**
     * \param sol the solved round
     * \return the planned load of each WanRouting resource (weight x rate summed), bit/s
     */
    std::vector<double> PlannedLoad(const RoundSolution& sol) const;
    /**
     * \brief The stream of one draft with the fields every algorithm shares: its WanRouting
     *        resources, resend weight (from the planned load), receivers, flags, rate, delay.
     * \param sol the solved round \param f the draft's index \param load PlannedLoad()
     * \return the stream, without payload, sizes or times
     */
    SyncStream DraftStream(const RoundSolution& sol,
                           size_t f,
                           const std::vector<double>& load) const;
    /**
     * \brief Add the plan's streams of every draft: one per DIRECT or TREE draft, one per
     *        ring step for a RING draft.
     * \param partition the partition \param modelBytes M \param sol the solved round
     * \param timing the round's times \param est receives the streams
     */
    void AddPlanStreams(const Partition& partition,
                        uint64_t modelBytes,
                        const RoundSolution& sol,
                        const RoundTiming& timing,
                        SyncRoundEstimate& est) const;
    /**
     * \brief Add a RING draft's streams, one per ring step, with the step's segment and times.
     * \param stream the draft's stream (DraftStream()) \param k the clique's member count
     * \param position the sender's ring position \param times the clique's step times
     * \param modelBytes M \param streams receives the streams
     */
    void AddRingStepStreams(SyncStream& stream,
                            uint32_t k,
                            uint32_t position,
                            const std::vector<std::vector<SyncRingPlan::StepTime>>& times,
                            uint64_t modelBytes,
                            std::vector<SyncStream>& streams) const;
    /**
     * \brief A TREE clique's time from its solved drafts (SyncTreePlan::Complete()).
     * \param drafts the drafts \param rates their rates \param first its first draft
     * \param end one past its last draft \param modelBytes M
     * \param times if not null, receives the tree's times
     * \return the clique's time, s
     */
    double TreeCompletion(const std::vector<Draft>& drafts,
                          const std::vector<double>& rates,
                          size_t first,
                          size_t end,
                          uint64_t modelBytes,
                          SyncTreePlan::Times* times) const;

    /** \return gradient header bytes per packet (attribute, or the DATA header size) */
    uint32_t GetGradientHeaderBytes() const;

    std::unique_ptr<WanRouting> m_routing; //!< the routes (copy)
    SyncPathTable m_paths;                 //!< the routes' paths and trees, precomputed
    SyncTreePlan m_tree;                   //!< the routes' city paths and transit cities

    uint32_t m_mtu;                 //!< IP MTU, bytes (for the default chunk size)
    uint32_t m_chunkPayloadBytes;   //!< 0: largest multiple of 4 that fits the MTU
    UpdateFormat m_format;          //!< how updates travel
    uint32_t m_ipv4HeaderBytes;     //!< IPv4 header bytes
    uint32_t m_udpHeaderBytes;      //!< UDP header bytes
    uint32_t m_gradientHeaderBytes; //!< 0: GradientHeader size for the island count
    uint32_t m_framingBytes;        //!< link framing bytes per packet
    Time m_fpgaLatency;             //!< FPGA pipeline latency added to aggregated streams
    DataRate m_transitRate;         //!< a transit FPGA's service rate (0: unlimited)
    Time m_transitLatency;          //!< added per transit city on a TREE up stream's path

    /** Fired by EstimateRound(): sync time (s) and number of streams in the plan. */
    TracedCallback<double, uint32_t> m_roundEstimated;
};

} // namespace ns3

#endif /* SYNC_COST_MODEL_H */
