/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_EXPERIMENT_H
#define TRAINING_EXPERIMENT_H

#include "ns3/nstime.h"
#include "ns3/progress-throttle.h"
#include "ns3/ptr.h"
#include "ns3/training-application.h"
#include "ns3/training-counters.h"
#include "ns3/training-run-limits.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class NetDevice;
class Packet;
class TrainingHelper;
class WanTopology;

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
    uint64_t packetsBetweenRanks{0}; //!< packets (bundles) the WAN links handed to other ranks
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
    uint32_t period{0};            //!< T
    uint32_t rounds{0};            //!< rounds run
    double meanRound{0};           //!< mean round time, s
    double p50Round{0};            //!< median round time, s
    double p99Round{0};            //!< 99th percentile round time, s
    double meanSync{0};            //!< mean per-island sync time, s
    double estimatedSync{0};       //!< cost model's mean per-island sync time (rounds replayed), s
    double meanHiddenSync{0};      //!< mean per-island sync hidden behind compute (fragments), s
    double estimatedHiddenSync{0}; //!< cost model's hidden sync (rounds replayed), s
    double meanCompute{0};         //!< mean per-island compute time, s
    double totalTime{0};           //!< end of the last round, s
    std::optional<uint64_t> roundsToEpsilon; //!< from the schedule's mixing (none: never)
    std::optional<double> timeToEpsilon;     //!< roundsToEpsilon x meanRound, s
    uint32_t warmupRounds{0};                //!< first rounds left out of the means
    std::optional<double> firstRound;        //!< how long the warm-up rounds took, s
    uint64_t queueDrops{0};                  //!< packets dropped by device queues
    uint64_t lossDrops{0};                   //!< packets dropped by the WAN error models
    uint64_t retransmissions{0};             //!< chunks resent
    uint64_t lostPeers{0};                   //!< (island, round, peer) losses declared
    /** Per island (name, in topology order): peers it declared lost, over every round. */
    std::vector<std::pair<std::string, uint64_t>> lostPeersByIsland;
    uint32_t unfinishedRounds{0};   //!< rounds some island did not finish (guard, lost peer)
    std::string stoppedBy;          //!< "" (ran to its end), "maxSimTime" or "maxWallTime"
    TrainingFpgaCounters fpga;      //!< the FPGAs' counters
    TrainingRouterCounters routers; //!< the routers' drops
    uint64_t heldStarts{0};         //!< (island, round) exchanges held until the clique's receivers
                                    //!< were done with their previous round (ReplayRounds)
    std::string transport{"planned"}; //!< how exchanges reached the wire
    std::string transportNote;        //!< what the transport left out (capabilities TCP cannot use)
    std::optional<double> colocatedTimeToEpsilon; //!< the simulated colocated reference's, s
    std::optional<double> gapToColocated;         //!< timeToEpsilon / colocatedTimeToEpsilon
    /** Mean exchange time of the clique-rounds every member finished (first sync start to
     *  last sync end), s; none: not compared (ExchangeBound::Compare) */
    std::optional<double> meanExchange;
    /** ExchangeBound's mean lower bound over the same clique-rounds, s */
    std::optional<double> exchangeBound;
    /** Per other transport run beside this one on the same capability set (its name): its
     *  time to epsilon over this one's (> 1: this one is faster) */
    std::map<std::string, double> gainOver;
    /** Per entry of gainOver: the label of the run it is over, e.g. "tcp-ring (TcpBbr x8)" */
    std::map<std::string, std::string> gainOverLabel;

    /** \return true if every round ended with every peer: no lost peer, no unfinished round */
    bool IsComplete() const;
};

/**
 * \ingroup wan-training
 * \brief Runs what a TrainingHelper installed, collects its results and writes them.
 *
 * Built after TrainingHelper::Install(), it connects to the applications' SyncFinished traces
 * (consensus of real payloads, progress) and to every link device's drop and transmit traces
 * (queue and loss drops, bytes per WAN link direction). Run() runs the simulation to its end
 * (every wait in the application has a timeout), printing progress on stderr; in a
 * distributed run it gathers every rank's records and counters on rank 0. Summarise() gives
 * the run's figures; TrainingOutput writes the results as the output contract of
 * nine-city-training (rounds.csv, consensus.csv, links.csv, the entries of summary.json).
 *
 * It keeps references to the helper and connects callbacks to itself: it must outlive the
 * simulation's run, and it is neither copied nor moved.
 */
class TrainingExperiment
{
  public:
    /**
     * Period of the null-message simulator's termination check (CheckTermination): the run
     * ends at the first multiple of it after the network went quiet. One MPI_Allreduce each.
     */
    static constexpr double TERMINATION_CHECK_SECONDS = 1e-3;
    /**
     * Default of SetLongRoundWarning, s: one hour of simulated time for one round's sync is
     * beyond any WAN training step this module models (a 1 GB update takes a second on the
     * default WAN; even a 1 TB update over 10 Gbit/s access links syncs in under an hour with
     * FPGAs or multicast), so a plan that long almost always comes from a rate mistyped in a
     * topology file, and its run would spend wall time on simulated days.
     */
    static constexpr double LONG_ROUND_SECONDS = 3600;

    /**
     * \param training a TrainingHelper after Install() (kept by reference; must outlive this)
     * \throws std::logic_error if it is not installed
     */
    explicit TrainingExperiment(TrainingHelper& training);
    ~TrainingExperiment();
    TrainingExperiment(const TrainingExperiment&) = delete;
    TrainingExperiment& operator=(const TrainingExperiment&) = delete;

    /**
     * \param type the event scheduler Run() installs (default "ns3::PriorityQueueScheduler", fast
     *        with many packets in flight); "" keeps the simulator's
     */
    void SetSchedulerType(const std::string& type);
    /** \param label prefix of progress lines, e.g. "capabilities=both" \param seconds period */
    void SetProgress(const std::string& label, double seconds);
    /**
     * \param limit simulated time at which Run() stops a run whose rounds are not all done
     *        (zero, the default: no limit); with SetOtherTraffic, a run whose rounds are done
     *        too
     */
    void SetMaxSimTime(Time limit);
    /**
     * \brief Say whether applications other than the training's share the network (cross
     *        traffic), which may keep the simulation going after the last round.
     *
     * Without them (the default) the maxSimTime limit is removed once every round is done, so
     * that the run ends when its last frames arrive rather than at the limit. With them it
     * stays: a flow that outlasts the training is cut at the limit, not run to its own stop.
     * \param present true if other traffic runs beside the training
     */
    void SetOtherTraffic(bool present);
    /** \return true if every round of every local island is done (after Run()) */
    bool AreRoundsDone() const;
    /**
     * \param deadline wall-clock time at which Run() stops a run whose rounds are not all done
     *        (default: none). Checked by a watchdog thread that schedules Simulator::Stop, in
     *        one process only: the ranks of a distributed run must stop at one simulated time,
     *        so there only SetMaxSimTime applies.
     */
    void SetWallDeadline(std::chrono::steady_clock::time_point deadline);
    /**
     * \brief Leave the first rounds out of Summarise's round and sync figures (and so out of
     *        time to epsilon), reporting their time apart: a TCP run's first round opens its
     *        connections and leaves slow start, which training's connections, open for
     *        thousands of rounds, do once.
     * \param rounds warm-up rounds (default 0); a run of no more rounds keeps them all
     */
    void SetWarmupRounds(uint32_t rounds);
    /** \return the warm-up rounds that Summarise leaves out of the run's rounds */
    uint32_t GetWarmupRounds() const;
    /**
     * \brief Before its simulation, Run() warns once (stderr and NS_LOG_WARN, rank 0) when a
     *        planned round's sync time exceeds \p threshold: GetLongRoundWarning().
     * \param threshold the longest planned sync time taken without a word (default
     *        LONG_ROUND_SECONDS; zero or negative: never warn)
     */
    void SetLongRoundWarning(Time threshold);
    /**
     * \return the warning Run() prints before the simulation: the planned round's sync time,
     *         the resource that limits it and that --maxSimTime stops the run
     *         (TrainingPlanner::DescribeLongRound); "" if the plan's rounds are not too long
     */
    std::string GetLongRoundWarning() const;

    /**
     * \brief Run the simulation to its end, or to a limit, and collect the results
     *        (Simulator not destroyed). Rounds a limit cut short are recorded unfinished.
     */
    void Run();
    /** \return why the last Run() stopped early: "", "maxSimTime" or "maxWallTime" */
    const std::string& GetStoppedBy() const;

    /** \return how the last Run() was split (one rank: only ranks is set) */
    const TrainingParallelInfo& GetParallelInfo() const;
    /** \return every record, round-major then island (empty before Run and off rank 0) */
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
    /** \return the routers' drops of the last Run(), summed over all cities (and ranks) */
    const TrainingRouterCounters& GetRouterCounters() const;
    /** \return the end of the last round, s */
    double GetSimulatedTime() const;
    /**
     * \return the time GetLinkUsage()'s bytes were counted over, s: the end of the last round
     *         or of the last WAN frame, whichever is later (cross traffic, and rounds a limit
     *         cut, send after the last finished round)
     */
    double GetLinkCountingTime() const;
    /**
     * \param epsilon consensus target for rounds to epsilon
     * \return the run's summary; without records (before Run(), or off rank 0 of a
     *         distributed run) one of zero rounds, with only the period set
     */
    TrainingSummary Summarise(double epsilon) const;

    /** \return the topology the experiment runs on (island names, links) */
    const WanTopology& GetTopology() const;
    /** \return fragments per round of the training (TrainingHelper::SetFragments) */
    uint32_t GetFragments() const;

  private:
    /** \param island island \param round round \param duration sync time \brief trace sink */
    void OnSyncFinished(uint32_t island, uint32_t round, Time duration);
    /** \param round a round every local island finished \brief its consensus point */
    void AddConsensusPoint(uint32_t round);
    /** \param packet dropped packet \brief queue drop sink */
    void OnQueueDrop(Ptr<const Packet> packet);
    /** \param packet dropped packet \brief error-model drop sink */
    void OnLossDrop(Ptr<const Packet> packet);
    /** \param index link direction \param packet transmitted packet \brief WAN byte sink */
    void OnWanTx(uint32_t index, Ptr<const Packet> packet);
    /**
     * \brief Bound-callback trampoline of OnWanTx.
     * \param experiment the experiment \param index link direction \param packet the packet
     */
    static void OnWanTxStatic(TrainingExperiment* experiment,
                              uint32_t index,
                              Ptr<const Packet> packet);
    /** \brief Connect drop and byte counters to every device. */
    void ConnectCounters();
    /**
     * \brief Add the counters of the islands' FPGAs to m_fpga, and of this process's routers
     *        to m_routers.
     * \param islands the islands (of this process) whose FPGAs to read
     */
    void AddDeviceCounters(const std::vector<uint32_t>& islands);
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
    /** \param force print even if the period has not elapsed \brief progress line */
    void PrintProgress(bool force);
    /**
     * \brief At rank 0 of a distributed run, gather every rank's records and counters.
     * \param localIslands this rank's islands
     * \param islandRecords per island, its records (the other ranks' islands are filled)
     */
    void GatherRanks(const std::vector<uint32_t>& localIslands,
                     std::vector<std::vector<TrainingRoundRecord>>& islandRecords);
    // The steps of Run() besides the simulation itself.
    /**
     * \brief Before the simulation: the scheduler, what the distributed run is (ranks,
     *        partition, lookahead), null-message's termination check, the long-round warning.
     */
    void PrepareRun();
    /** \brief Throw the error an application stopped with (std::range_error), if any. */
    void CheckApplications() const;
    /**
     * \param islandRecords receives per island its records (this rank's islands only)
     * \return this rank's islands
     */
    std::vector<uint32_t> CollectLocalRecords(
        std::vector<std::vector<TrainingRoundRecord>>& islandRecords) const;
    /**
     * \brief The records round by round, island by island (an island without a record of a
     *        round gets an unfinished one), and the simulated time of the last finished round.
     * \param islandRecords per island, its records
     */
    void FlattenRecords(const std::vector<std::vector<TrainingRoundRecord>>& islandRecords);
    /**
     * \brief Summarise's figures of the rounds: round times (mean, p50, p99; the warm-up
     *        rounds' apart), sync and compute means, resends, lost peers, unfinished rounds.
     * \param s the summary, its rounds and lostPeersByIsland set \param n islands
     */
    void AddRoundFigures(TrainingSummary& s, uint32_t n) const;

    TrainingHelper& m_training;      //!< what is run
    uint32_t m_rounds;               //!< rounds of every island
    std::string m_progressLabel;     //!< progress prefix
    ProgressThrottle m_progress;     //!< when the next progress line is due
    std::string m_schedulerType;     //!< scheduler Run() installs
    TrainingParallelInfo m_parallel; //!< how the last Run() was split
    uint32_t m_localIslands;         //!< islands this process simulates

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
    TrainingRouterCounters m_routers;    //!< router counters of the last Run()
    TrainingRunLimits m_limits;          //!< maxSimTime and maxWallTime
    bool m_otherTraffic{false};          //!< other applications share the network
    double m_simulatedTime;              //!< end of the last round
    Time m_lastWanFrame;                 //!< end of the last frame a WAN link sent
    uint32_t m_warmupRounds{0};          //!< SetWarmupRounds
    Time m_longRound{Seconds(LONG_ROUND_SECONDS)}; //!< SetLongRoundWarning
};

} // namespace ns3

#endif /* TRAINING_EXPERIMENT_H */
