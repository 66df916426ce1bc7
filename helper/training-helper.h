/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_HELPER_H
#define TRAINING_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/clique-schedule.h"
#include "ns3/fragment-plan.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/sync-cost-model.h"
#include "ns3/tcp-transport.h"
#include "ns3/training-application.h"
#include "ns3/training-planner.h"
#include "ns3/training-support.h"
#include "ns3/training-workload.h"
#include "ns3/wan-topology-helper.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class NetDevice;
class Node;

/**
 * \ingroup wan-training
 * \brief Installs TrainingApplications on an installed WAN, each with its plan of every round.
 *
 * Install() plans every round of the schedule's period: per DIRECT clique it allocates a
 * multicast group and installs each sender's tree (the sender multicasts only if the tree is
 * capable), asks SyncCostModel for the round's streams and their max-min fair rates (the one
 * source of pacing rates), and hands every island its clique, algorithm and streams. It can
 * put a seeded error model on every WAN link (WanFrameErrorModel, or RateErrorModel), and sizes the
 * FPGAs and transmit queues for the plan. Running the simulation, its statistics and the output
 * files belong to TrainingExperiment, built on the installed helper; the planning arithmetic that
 * needs no installation (algorithms, held starts, load per city, MPI partition) to TrainingPlanner.
 */
class TrainingHelper
{
  public:
    /** The error model of WAN loss (SetWanLossModel). */
    enum LossModel
    {
        RATE_LOSS,  //!< ns-3's RateErrorModel: draws in arrival order (default)
        FRAME_LOSS, //!< WanFrameErrorModel: a frame's fate from its bytes
    };

    /** First RNG stream of the WAN error models unless SetWanLossRate says otherwise. */
    static constexpr int64_t DEFAULT_LOSS_STREAM = 1000;

    /**
     * \param topology an installed WanTopologyHelper (kept by reference; must outlive this)
     * \param schedule the schedule (copied; its island count must match the topology)
     */
    TrainingHelper(WanTopologyHelper& topology, const CliqueSchedule& schedule);
    ~TrainingHelper();

    /** \param bytes M, the bytes of each island's update */
    void SetModelBytes(uint64_t bytes);
    /** \param rounds training rounds */
    void SetRounds(uint32_t rounds);
    /** \param time compute time of one inner step (a round's compute phase with one step) */
    void SetComputeTime(Time time);
    /**
     * \brief Inner steps of local compute per round (DiLoCo's H, default 1): a round computes
     *        for innerSteps x the compute time, then synchronises.
     * \param innerSteps H, at least 1
     */
    void SetInnerSteps(uint32_t innerSteps);
    /**
     * \brief Synchronise each round's update in F fragments (Streaming DiLoCo, FragmentPlan):
     *        fragment f is sent after floor(H (f + 1) / F) inner steps, while later ones
     *        compute. Rounds are planned for the largest fragment. Install() refuses F > H,
     *        and fragments with real payloads or the tcp transport (TrainingSupport).
     * \param fragments F, at least 1 (default 1: the whole update after the compute phase)
     */
    void SetFragments(uint32_t fragments);
    /**
     * \brief How every island's update travels (default int32): the applications' and the
     *        cost model's UpdateFormat. Install() refuses other formats with real payloads,
     *        the tcp transport, RING and TREE cliques (TrainingSupport).
     * \param format the format
     */
    void SetUpdateFormat(const UpdateFormat& format);
    /**
     * \brief Set an attribute of every TrainingApplication (e.g. "RetransmissionTimeout").
     * \param name attribute name \param value its value
     */
    void SetAppAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief How exchanges reach the wire (default planned). With tcp, Install() plans as if no
     *        router multicast and no FPGA aggregated (TCP uses neither; the FPGAs pass its
     *        packets through), holds no round's start, and gives every application a
     *        TcpTransport with the narrowest link rate of its path to every peer. With
     *        adaptive, Install() plans as for planned (routes, multicast groups, FPGAs; the
     *        plan's rates are only the streams' first guess, see AdaptiveTransport), holds no
     *        round's start, turns on ECN marking on every WanLinkNetDevice
     *        (TrainingLinkQueues::EnableEcn) and gives every application an AdaptiveTransport.
     * \param transport planned, tcp or adaptive
     */
    void SetTransport(TrainingApplication::Transport transport);
    /** \return the transport */
    TrainingApplication::Transport GetTransport() const;
    /** \return fragments per round (SetFragments) */
    uint32_t GetFragments() const;
    /** \return how every island's round is fragmented and when each fragment is sent (with
     *          SetStepPlans: island 0's) */
    FragmentPlan GetFragmentPlan() const;
    /**
     * \brief The one rule for a run's fragment plan (GetFragmentPlan; programs that score
     *        schedules before a helper exists use it too).
     * \param stepPlans per island, the steps read from execution traces (may be empty)
     * \param modelBytes M \param fragments F \param innerSteps H
     * \param computeTime one inner step
     * \return island 0's step plan if there are step plans, else M in F fragments sent as
     *         the H inner steps of computeTime each progress
     */
    static FragmentPlan SelectFragmentPlan(const std::vector<FragmentPlan>& stepPlans,
                                           uint64_t modelBytes,
                                           uint32_t fragments,
                                           uint32_t innerSteps,
                                           Time computeTime);
    /**
     * \brief Run each island's rounds as a step read from its execution trace (ChakraStep):
     *        its compute phase and its buckets, sent as they are ready. Replaces SetModelBytes
     *        (the buckets' bytes), SetComputeTime, SetInnerSteps and SetFragments; virtual
     *        payloads over the planned or adaptive transport.
     * \param plans per island (ChakraStep's plan of its rank's trace); every island's
     *        buckets must have the same bytes
     * \throws std::invalid_argument if they do not
     */
    void SetStepPlans(const std::vector<FragmentPlan>& plans);
    /**
     * \brief Set an attribute of every TcpTransport (e.g. "CongestionControl", or "Streams":
     *        TCP connections per peer).
     * \param name attribute name \param value its value
     */
    void SetTcpAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \return with the tcp transport and capabilities on in the topology: a note that TCP ran
     *         without them; else empty
     */
    std::string GetTransportNote() const;
    /**
     * \brief Set an attribute of every AdaptiveTransport (e.g. "InitialRate").
     * \param name attribute name \param value its value
     */
    void SetAdaptiveAttribute(const std::string& name, const AttributeValue& value);
    /** \param island an island \param multiplier its compute time factor (straggler) */
    void SetComputeMultiplier(uint32_t island, double multiplier);
    /**
     * \param choose if true, every clique of size >= 3 uses the algorithm
     *        SyncCostModel::ChooseAlgorithm picks; otherwise the schedule's algorithms stand
     */
    void SetChooseAlgorithms(bool choose);
    /** \param workload the numerics; a real workload switches the apps to real payloads */
    void SetWorkload(Ptr<TrainingWorkload> workload);
    /**
     * \param rate per-packet loss probability on every WAN link (both directions)
     * \param stream first RNG stream number the error models use, one per WAN link direction
     *        (for reproducibility); the ECN marking decisions of the adaptive transport's link
     *        devices take the streams after them, whether or not a loss rate is set
     */
    void SetWanLossRate(double rate, int64_t stream = DEFAULT_LOSS_STREAM);
    /**
     * \brief Which error model SetWanLossRate's loss uses on every WAN link direction.
     *
     * RATE (the default): ns-3's RateErrorModel (packet unit), one draw per frame in the order
     * the receiving device gets them; two frames that reach a router in the same nanosecond
     * may leave in another order when one of them comes from another MPI rank, and then later
     * draws hit other frames. FRAME: WanFrameErrorModel, each frame's fate a function of its
     * bytes, the seed and the link direction's stream, whatever the order.
     * \param model the model
     */
    void SetWanLossModel(LossModel model);
    /** \return the loss models' names, indexed by LossModel: "rate", "frame" */
    static const std::vector<std::string>& LossModelNames();
    /**
     * \param name one of LossModelNames() (flag --lossModel)
     * \return the model
     * \throws std::runtime_error naming \p name and the choices
     */
    static LossModel ParseLossModel(const std::string& name);
    /**
     * \brief Let Install() size each FPGA for the plan: Timeout at least the spread of the
     *        senders' delays and start times at its island plus \p margin, SlotCount at least
     *        twice the chunks that arrive in that time (default on, margin 20 ms). Without
     *        tuning, Install() throws std::runtime_error, naming the island, when an FPGA's
     *        Timeout or SlotCount falls short of what the plan needs.
     * \param tune whether to tune \param margin extra hold time
     */
    void SetTuneFpgas(bool tune, Time margin = MilliSeconds(20));
    /**
     * \brief Let Install() size every link device's transmit queue for the plan: at least
     *        twice the largest number of planned streams that share one link direction (paced
     *        streams in phase queue one packet each), when the queues hold fewer (default on).
     *        Without tuning, Install() throws std::runtime_error naming the busiest link
     *        direction when the queues are too short.
     * \param tune whether to tune
     */
    void SetTuneQueues(bool tune);
    /**
     * \brief Plan the rounds and install one application per island (starting at time 0).
     * \return the applications, by island index
     */
    ApplicationContainer Install();

    /** \return the schedule with the algorithms actually used */
    const CliqueSchedule& GetSchedule() const;
    /** \return the cost model (routing set) */
    Ptr<SyncCostModel> GetCostModel() const;
    /** \param island an island \return its application */
    Ptr<TrainingApplication> GetApplication(uint32_t island) const;
    /** \return the cost model's plan of each round of the period */
    const std::vector<SyncRoundEstimate>& GetPlans() const;

    /** \return the topology helper the applications are installed on */
    WanTopologyHelper& GetTopologyHelper() const;
    /** \return rounds every application runs */
    uint32_t GetRounds() const;
    /** \return the numerics (null: none) */
    Ptr<TrainingWorkload> GetWorkload() const;
    /** \return whether Install() ran */
    bool IsInstalled() const;
    /** \return (island, round) exchanges Install() held until the clique's receivers were
     *  done with their previous round (TrainingPlanner::ReplayRounds) */
    uint64_t GetHeldStarts() const;
    /**
     * \return the cost model's mean per-island sync time over the rounds replayed, s (with
     *         fragments: the exposed sync, after the compute phase)
     */
    double GetEstimatedSync() const;
    /**
     * \return the cost model's mean per-island sync hidden behind compute (fragment exchanges
     *         while later inner steps compute), s; 0 without fragments
     */
    double GetEstimatedHiddenSync() const;
    /** \return true if an FPGA (edge or transit) on this rank holds an open slot */
    bool HasLocalSlotsInUse() const;
    /** \return every point-to-point device of the simulation (module's or stock) */
    static std::vector<Ptr<NetDevice>> GetLinkDevices();
    /** \return the largest control burst of the applications (GetControlBurst), packets */
    uint32_t ControlBurst() const;
    /**
     * \param node a node \return true if this process simulates it: always, except in a
     *         distributed run, where only its own system id's nodes
     */
    static bool IsLocal(Ptr<Node> node);

  private:
    /** Every island's address and round trips, as the applications get them. */
    struct IslandPaths
    {
        std::vector<Ipv4Address> addresses; //!< per island
        std::vector<std::vector<Time>> rtt; //!< per island, the round trip to each other one
    };

    // The steps of Install(), in order.
    /**
     * \brief Refuse a run TrainingSupport does not support, then set the cost model's routes
     *        and resolve the schedule's algorithms (SetChooseAlgorithms).
     */
    void PlanAlgorithms();
    /** \brief Refuse the run if the resolved schedule needs what the transport lacks. */
    void CheckSupported() const;
    /**
     * \param withAlgorithms whether the schedule's algorithms are chosen yet (then a TREE in
     *        it asks for reduction trees)
     * \return what the run asks for (TrainingSupport)
     */
    TrainingRunRequest GetRunRequest(bool withAlgorithms) const;
    /** \return the bytes rounds are planned for: the largest fragment's (FragmentPlan) */
    uint64_t GetSyncBytes() const;
    /**
     * \param periodRound a round of the period
     * \return its update format: the schedule's for the round, else SetUpdateFormat's
     */
    UpdateFormat FormatOf(uint32_t periodRound) const;
    /**
     * \brief Visit every round of the period with the cost model planning in the round's
     *        format (FormatOf), then plan in SetUpdateFormat's format again.
     * \param visit called with each period round in turn
     */
    void ForEachRoundInItsFormat(const std::function<void(uint32_t)>& visit);
    /**
     * \param periodRound a round of the period \param largest its plan for the largest
     *        fragment
     * \return the plans the replay times its fragments with: one for all (equal fragments),
     *         or one per bucket of SetStepPlans, each of its bytes
     */
    std::vector<SyncRoundEstimate> PlanFragments(uint32_t periodRound,
                                                 const SyncRoundEstimate& largest) const;
    /** \return every island's address and round trips */
    IslandPaths GetIslandPaths() const;
    /**
     * \brief Per period round: the cost model's plan (kept in m_plans), the multicast groups
     *        and trees (InstallGroups), and each island's config (TrainingPlanner::PlanRound).
     * \param addresses every island's address \return per island, per period round
     */
    std::vector<std::vector<TrainingRoundConfig>> PlanRounds(
        const std::vector<Ipv4Address>& addresses);
    /**
     * \brief Allocate a group per DIRECT or TREE clique of period round \p t and install its
     *        senders' trees (none with TCP).
     * \param t the period round \param plan its plan (TREE roots) \return the groups
     */
    TrainingRoundGroups InstallGroups(uint32_t t, const SyncRoundEstimate& plan);
    /** \brief Give the workload the islands and the model's elements. */
    void InitialiseWorkload();
    /**
     * \brief One application per island, configured; started where this rank simulates it.
     * \param configs per island, per period round \param paths addresses and round trips
     * \return the applications this rank runs
     */
    ApplicationContainer CreateApplications(
        const std::vector<std::vector<TrainingRoundConfig>>& configs,
        const IslandPaths& paths);
    /** \brief Size (or check) the FPGAs for the plans (TrainingFpgas::Size). */
    void SizeFpgas();
    /** \brief Tell every application how long FPGAs may hold a chunk to each island. */
    void SetHolds();
    /** \brief Hold each island's sending until its clique's receivers are done (ReplayRounds). */
    void HoldStarts();
    /** \brief Install the WAN error models. */
    void InstallLoss();
    /**
     * \brief Give every link device's ECN marking decisions its own RNG stream, after the error
     *        models' (SetWanLossRate): the same marks whatever ran before in the process.
     */
    void AssignEcnStreams();

    WanTopologyHelper& m_topology;              //!< the WAN
    CliqueSchedule m_schedule;                  //!< schedule (algorithms resolved)
    Ptr<SyncCostModel> m_costModel;             //!< rates and estimates
    ObjectFactory m_appFactory;                 //!< creates the applications
    ObjectFactory m_tcpFactory;                 //!< creates the tcp transports
    ObjectFactory m_adaptiveFactory;            //!< creates the adaptive transports
    uint64_t m_modelBytes;                      //!< M
    uint32_t m_rounds;                          //!< rounds
    Time m_computeTime;                         //!< compute time of one inner step
    uint32_t m_innerSteps;                      //!< inner steps per round (H)
    uint32_t m_fragments;                       //!< fragments per round (F)
    UpdateFormat m_format;                      //!< SetUpdateFormat's (rounds without their own)
    std::vector<double> m_multipliers;          //!< per island
    TrainingApplication::Transport m_transport; //!< planned, tcp or adaptive
    bool m_chooseAlgorithms;                    //!< ask the cost model per clique
    Ptr<TrainingWorkload> m_workload;           //!< numerics
    double m_lossRate;                          //!< WAN loss probability
    LossModel m_lossModel;                      //!< WAN loss's error model
    int64_t m_lossStream;                       //!< first RNG stream of the error models
    bool m_tuneFpgas;                           //!< size FPGAs for the plan
    bool m_tuneQueues;                          //!< size transmit queues for the plan
    Time m_fpgaTimeoutMargin;                   //!< extra FPGA hold time
    bool m_installed;                           //!< Install() ran

    std::vector<Ptr<TrainingApplication>> m_apps;                //!< by island
    std::vector<SyncRoundEstimate> m_plans;                      //!< per period round
    std::vector<std::vector<SyncRoundEstimate>> m_fragmentPlans; //!< per period round, fragment
    std::vector<FragmentPlan> m_stepPlans;         //!< per island (SetStepPlans), or none
    uint64_t m_heldStarts;                         //!< (island, round) exchanges held by the plan
    TrainingPlanner::ReplayedSync m_estimatedSync; //!< ReplayRounds' mean sync times
};

} // namespace ns3

#endif /* TRAINING_HELPER_H */
