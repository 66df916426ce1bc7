/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_HELPER_H
#define TRAINING_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/clique-schedule.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/sync-cost-model.h"
#include "ns3/training-application.h"
#include "ns3/training-workload.h"
#include "ns3/wan-topology-helper.h"

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief How a distributed run (ns-3's MPI engine, WanMpi) was split.
 */
struct TrainingParallelInfo
{
    uint32_t ranks{1};               //!< processes (MPI ranks)
    std::string simulator;           //!< WanMpi::GetSimulator()
    std::vector<uint32_t> cityRanks; //!< rank of each city (empty with one rank)
    double lookahead{0};             //!< smallest delay of a link between ranks, s
    uint64_t packetsBetweenRanks{0}; //!< packets the WAN links handed to other ranks, all ranks
};

/**
 * \ingroup wan-training
 * \brief Bytes carried by one direction of one WAN link during a run.
 */
struct TrainingLinkUsage
{
    std::string link;  //!< "A-B" with the link's ends as in the topology
    std::string from;  //!< city code the direction leaves
    std::string to;    //!< city code the direction enters
    uint64_t bytes{0}; //!< bytes transmitted: IP packets plus 2 bytes of PPP framing each
    double rateBps{0}; //!< the link's rate
};

/**
 * \ingroup wan-training
 * \brief What the FPGAs did during a run, summed over every island's FPGA.
 *
 * In a lossless run whose plan the network can honour, partial, overflows and mismatches are
 * zero: each of them means a slot was flushed early or a chunk reached its island unfolded.
 */
struct TrainingFpgaCounters
{
    uint64_t aggregated{0}; //!< DATA contributions added into slots
    uint64_t duplicates{0}; //!< DATA copies of a sender already in the slot (absorbed)
    uint64_t complete{0};   //!< complete aggregates emitted
    uint64_t partial{0};    //!< partial aggregates flushed after the FPGA's Timeout
    uint64_t overflows{0};  //!< DATA passed through for want of a free slot
    uint64_t mismatches{0}; //!< DATA passed through: members or sizes differ from the slot's
    uint64_t wraps{0};      //!< int32 element sums that wrapped around (real payloads)
};

/**
 * \ingroup wan-training
 * \brief Consensus figures after one round (real payload mode).
 */
struct TrainingConsensusPoint
{
    uint32_t round{0};           //!< the round
    double time{0};              //!< when the last island finished the round, s
    double consensusDistance{0}; //!< RMS distance of the islands' parameters from their mean
    double loss{0};              //!< mean of the islands' objectives at the mean parameters
};

/**
 * \ingroup wan-training
 * \brief Summary figures of one run (the "results" entries of summary.json).
 */
struct TrainingSummary
{
    uint32_t period{0};      //!< T
    uint32_t rounds{0};      //!< rounds run
    double meanRound{0};     //!< mean round time, s
    double p50Round{0};      //!< median round time, s
    double p99Round{0};      //!< 99th percentile round time, s
    double meanSync{0};      //!< mean per-island sync time, s
    double estimatedSync{0}; //!< cost model's mean per-island sync time (rounds replayed), s
    double meanCompute{0};   //!< mean per-island compute time, s
    double totalTime{0};     //!< end of the last round, s
    std::optional<uint64_t> roundsToEpsilon; //!< from the schedule's mixing (none: never)
    std::optional<double> timeToEpsilon;     //!< roundsToEpsilon x meanRound, s
    uint64_t queueDrops{0};                  //!< packets dropped by device queues
    uint64_t lossDrops{0};                   //!< packets dropped by the WAN error models
    uint64_t retransmissions{0};             //!< chunks resent
    uint64_t lostPeers{0};                   //!< (island, round, peer) losses declared
    TrainingFpgaCounters fpga;               //!< the FPGAs' counters
    uint64_t heldStarts{0}; //!< (island, round) exchanges held until the clique's receivers
                            //!< were done with their previous round (ReplayRounds)
    std::optional<double> colocatedTimeToEpsilon; //!< the simulated colocated reference's, s
    std::optional<double> gapToColocated;         //!< timeToEpsilon / colocatedTimeToEpsilon
};

/**
 * \ingroup wan-training
 * \brief Installs TrainingApplications on an installed WAN, runs them and collects results.
 *
 * Install() plans every round of the schedule's period: per DIRECT clique it allocates a
 * multicast group and installs each sender's tree (the sender multicasts only if the tree is
 * capable), asks SyncCostModel for the round's streams and their max-min fair rates (the one
 * source of pacing rates), and hands every island its clique, algorithm and streams. It can
 * put a seeded RateErrorModel on every WAN link and counts queue drops on every device. Run()
 * runs the simulation to its end (every wait in the application has a timeout) and prints
 * progress on stderr.
 */
class TrainingHelper
{
  public:
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
    /** \param time compute phase per round */
    void SetComputeTime(Time time);
    /**
     * \brief Set an attribute of every TrainingApplication (e.g. "RetransmissionTimeout").
     * \param name attribute name \param value its value
     */
    void SetAppAttribute(const std::string& name, const AttributeValue& value);
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
     * \param stream first RNG stream number the error models use (for reproducibility)
     */
    void SetWanLossRate(double rate, int64_t stream = 1000);
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
     * \param type the event scheduler Run() installs (default "ns3::PriorityQueueScheduler", fast
     *        with many packets in flight); "" keeps the simulator's
     */
    void SetSchedulerType(const std::string& type);
    /**
     * Period of the null-message simulator's termination check (CheckTermination): the run
     * ends at the first multiple of it after the network went quiet. One MPI_Allreduce each.
     */
    static constexpr double TERMINATION_CHECK_SECONDS = 1e-3;
    /** \param label prefix of progress lines, e.g. "capabilities=both" \param seconds period */
    void SetProgress(const std::string& label, double seconds);
    /** \return how the last Run() was split (one rank: only ranks is set) */
    const TrainingParallelInfo& GetParallelInfo() const;
    /**
     * \brief The work of a plan, by city and by link: what a distributed run balances.
     * \param topology the WAN \param routing its routes \param plans per period round
     * \param rounds rounds of the run (round r uses plan r mod plans.size())
     * \param cityLoad per city: packets its router, FPGAs and islands handle, weighted in
     *        handlings of one packet by a device: 1 per end of a WAN hop, 1 + 4 per packet an
     *        island sends or receives (its IPv4/UDP stack), 2 more per packet through an FPGA
     * \param linkPackets per WAN link: packets it carries, both directions
     */
    static void EstimateLoad(const WanTopology& topology,
                             const WanRouting& routing,
                             const std::vector<SyncRoundEstimate>& plans,
                             uint32_t rounds,
                             std::vector<double>& cityLoad,
                             std::vector<double>& linkPackets);
    /**
     * \brief Assign the cities to the ranks of a distributed run before the network is built
     *        (WanTopologyHelper::SetCitySystemIds): the plan's estimated work (EstimateLoad)
     *        balanced by WanPartition::Balance.
     * \param topology the WAN \param schedule the schedule \param modelBytes M
     * \param rounds rounds \param mtu the links' MTU (WanTopologyHelper::SetMtu)
     * \param chooseAlgorithms as SetChooseAlgorithms \param ranks number of ranks
     * \return the rank of every city
     */
    static std::vector<uint32_t> PartitionCities(const WanTopology& topology,
                                                 const CliqueSchedule& schedule,
                                                 uint64_t modelBytes,
                                                 uint32_t rounds,
                                                 uint16_t mtu,
                                                 bool chooseAlgorithms,
                                                 uint32_t ranks);
    /**
     * \brief Before WanTopologyHelper::Install of a distributed run (WanMpi::IsSimulating()
     *        with several ranks): assign the cities to the ranks and give the topology helper
     *        their system ids. Nothing in one process.
     * \param wan the topology helper, not installed yet (its MTU is used)
     * \param topology the WAN it will install \param schedule the schedule
     * \param modelBytes M \param rounds rounds
     * \param partition an explicit list (WanPartition::Parse), or "" to balance the plan's
     *        estimated load (PartitionCities); a one-city topology runs on rank 0
     * \return the rank of every city (empty in one process)
     */
    static std::vector<uint32_t> DistributeCities(WanTopologyHelper& wan,
                                                  const WanTopology& topology,
                                                  const CliqueSchedule& schedule,
                                                  uint64_t modelBytes,
                                                  uint32_t rounds,
                                                  const std::string& partition);

    /**
     * \brief Plan the rounds and install one application per island (starting at time 0).
     * \return the applications, by island index
     */
    ApplicationContainer Install();
    /** \brief Run the simulation to its end and collect the results (Simulator not destroyed) */
    void Run();

    /** \return the schedule with the algorithms actually used */
    const CliqueSchedule& GetSchedule() const;
    /** \return the cost model (routing set) */
    Ptr<SyncCostModel> GetCostModel() const;
    /** \param island an island \return its application */
    Ptr<TrainingApplication> GetApplication(uint32_t island) const;
    /** \return the cost model's plan of each round of the period */
    const std::vector<SyncRoundEstimate>& GetPlans() const;

    /** \return every record, round-major then island */
    const std::vector<TrainingRoundRecord>& GetRecords() const;
    /** \return consensus points per round (real workloads only) */
    const std::vector<TrainingConsensusPoint>& GetConsensus() const;
    /** \return WAN link usage per direction */
    const std::vector<TrainingLinkUsage>& GetLinkUsage() const;
    /** \return packets dropped by device queues */
    uint64_t GetQueueDrops() const;
    /** \return packets dropped by the WAN error models */
    uint64_t GetLossDrops() const;
    /** \return the FPGAs' counters of the last Run(), summed over all islands (and ranks) */
    const TrainingFpgaCounters& GetFpgaCounters() const;
    /** \return the end of the last round, s */
    double GetSimulatedTime() const;
    /**
     * \param epsilon consensus target for rounds to epsilon \return the run's summary
     */
    TrainingSummary Summarise(double epsilon) const;

    /// \name CSV output (output contract of nine-city-training)
    /// @{
    /** \param os stream \brief rounds.csv header */
    static void WriteRoundsHeader(std::ostream& os);
    /** \param os stream \param capabilities label \param schedule label \brief rows */
    void WriteRounds(std::ostream& os,
                     const std::string& capabilities,
                     const std::string& schedule) const;
    /** \param os stream \brief consensus.csv header */
    static void WriteConsensusHeader(std::ostream& os);
    /** \param os stream \param capabilities label \param schedule label \brief rows */
    void WriteConsensus(std::ostream& os,
                        const std::string& capabilities,
                        const std::string& schedule) const;
    /** \param os stream \brief links.csv header */
    static void WriteLinksHeader(std::ostream& os);
    /** \param os stream \param capabilities label \param schedule label \brief rows */
    void WriteLinks(std::ostream& os,
                    const std::string& capabilities,
                    const std::string& schedule) const;
    /// @}

  private:
    /** \param island island \param round round \param duration sync time \brief trace sink */
    void OnSyncFinished(uint32_t island, uint32_t round, Time duration);
    /** \param packet dropped packet \brief queue drop sink */
    void OnQueueDrop(Ptr<const Packet> packet);
    /** \param packet dropped packet \brief error-model drop sink */
    void OnLossDrop(Ptr<const Packet> packet);
    /** \param index link direction \param packet transmitted packet \brief WAN byte sink */
    void OnWanTx(uint32_t index, Ptr<const Packet> packet);
    /**
     * \brief Bound-callback trampoline of OnWanTx.
     * \param helper the helper \param index link direction \param packet the packet
     */
    static void OnWanTxStatic(TrainingHelper* helper, uint32_t index, Ptr<const Packet> packet);
    /**
     * \brief Add the counters of the islands' FPGAs to m_fpga.
     * \param islands the islands (of this process) whose FPGAs to read
     */
    void AddFpgaCounters(const std::vector<uint32_t>& islands);
    /** \brief Connect drop and byte counters to every device. */
    void ConnectCounters();
    /**
     * \brief Size every FPGA's Timeout and SlotCount for the plans, or check them when
     *        tuning is off (see SetTuneFpgas).
     */
    void SizeFpgas();
    /** \brief Size every link device's transmit queue for the plans (see SetTuneQueues). */
    void SizeQueues();
    /** \return every point-to-point device of the simulation (module's or stock) */
    static std::vector<Ptr<NetDevice>> LinkDevices();
    /**
     * \return true if this rank's part of the run is over: its islands finished their last
     *         round, its FPGAs hold no slot, its link devices are idle with nothing on the wire
     */
    bool IsLocallyQuiet() const;
    /**
     * \brief Under ns-3's null-message simulator, whose event queue never empties (each rank
     *        keeps null-message events scheduled): every TERMINATION_CHECK, all ranks agree
     *        (WanMpi::AllTrue) whether every rank IsLocallyQuiet(), and then stop together.
     */
    void CheckTermination();
    /**
     * \brief Replay the rounds run with the cost model's plans: the estimate of the mean
     *        per-island sync time, like for like with the simulated one.
     * \param notBefore if not null, receives per round and island the time the island may
     *        start sending (0: when its compute ends): when its first packet to each receiver
     *        arrives after the receiver's previous round from other senders
     * \return the mean per-island sync time, s
     */
    double ReplayRounds(std::vector<std::vector<double>>* notBefore) const;
    /** \brief Install the WAN error models. */
    void InstallLoss();
    /** \param force print even if the period has not elapsed \brief progress line */
    void PrintProgress(bool force);
    /**
     * \brief Resolve the schedule's algorithms by the cost model's choice per clique.
     * \param costModel the model \param schedule changed in place \param modelBytes M
     */
    static void ChooseAlgorithms(const SyncCostModel& costModel,
                                 CliqueSchedule& schedule,
                                 uint64_t modelBytes);
    /**
     * \brief At rank 0 of a distributed run, gather every rank's records and counters.
     * \param localIslands this rank's islands
     * \param islandRecords per island, its records (the other ranks' islands are filled)
     */
    void GatherRanks(const std::vector<uint32_t>& localIslands,
                     std::vector<std::vector<TrainingRoundRecord>>& islandRecords);
    /** \param islands the islands of this rank \param packetsSent packets it sent to other
     *  ranks \return this rank's counters and its islands' records, as text */
    std::string EncodeRankResults(const std::vector<uint32_t>& islands, uint64_t packetsSent) const;
    /** \brief Add another rank's counters and records. \param text its EncodeRankResults()
     *  \param islandRecords per island, its records */
    void DecodeRankResults(const std::string& text,
                           std::vector<std::vector<TrainingRoundRecord>>& islandRecords);

    WanTopologyHelper& m_topology;     //!< the WAN
    CliqueSchedule m_schedule;         //!< schedule (algorithms resolved)
    Ptr<SyncCostModel> m_costModel;    //!< rates and estimates
    ObjectFactory m_appFactory;        //!< creates the applications
    uint64_t m_modelBytes;             //!< M
    uint32_t m_rounds;                 //!< rounds
    Time m_computeTime;                //!< compute phase
    std::vector<double> m_multipliers; //!< per island
    bool m_chooseAlgorithms;           //!< ask the cost model per clique
    Ptr<TrainingWorkload> m_workload;  //!< numerics
    double m_lossRate;                 //!< WAN loss probability
    int64_t m_lossStream;              //!< first RNG stream of the error models
    std::string m_progressLabel;       //!< progress prefix
    double m_progressSeconds;          //!< progress period (wall), 0: off
    bool m_tuneFpgas;                  //!< size FPGAs for the plan
    bool m_tuneQueues;                 //!< size transmit queues for the plan
    Time m_fpgaTimeoutMargin;          //!< extra FPGA hold time
    std::string m_schedulerType;       //!< scheduler Run() installs
    TrainingParallelInfo m_parallel;   //!< how the last Run() was split
    uint32_t m_localIslands;           //!< islands this process simulates
    bool m_installed;                  //!< Install() ran

    std::vector<Ptr<TrainingApplication>> m_apps;              //!< by island
    std::vector<SyncRoundEstimate> m_plans;                    //!< per period round
    std::vector<uint32_t> m_finishedPerRound;                  //!< islands done, per round
    std::vector<std::vector<std::vector<double>>> m_snapshots; //!< [round][island] params
    std::vector<double> m_roundDoneTime;                       //!< last island's end of each round
    uint32_t m_roundsDone;                                     //!< rounds every island finished
    std::vector<TrainingConsensusPoint> m_consensus;           //!< real mode
    std::vector<TrainingRoundRecord> m_records;                //!< collected after Run()
    std::vector<TrainingLinkUsage> m_links;                    //!< per WAN link direction
    std::vector<uint32_t> m_linkFraming; //!< per direction: framing bytes not in its packets
    uint64_t m_queueDrops;               //!< device queue drops
    uint64_t m_lossDrops;                //!< error model drops
    TrainingFpgaCounters m_fpga;         //!< FPGA counters of the last Run()
    uint64_t m_heldStarts;               //!< (island, round) exchanges held by the plan
    double m_simulatedTime;              //!< end of the last round
    std::chrono::steady_clock::time_point m_wallStart;    //!< Run() start
    std::chrono::steady_clock::time_point m_lastProgress; //!< last progress line
};

} // namespace ns3

#endif /* TRAINING_HELPER_H */
