/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * loss-bench: what random WAN packet loss costs a round, per capability set and exchange.
 *
 *   loss-bench [--topology=PATH] [--modelBytes=10000000] [--mtu=9000] [--rounds=2]
 *              [--computeTime=100ms] [--accessBandwidth=RATE]
 *              [--losses=0,0.0001,0.001,0.01,0.05] [--sets=none,multicast,fpga,both]
 *              [--schedules=global,ring] [--runs=1] [--alignStarts=true] [--wall=false]
 *
 * For each schedule (the global clique: DIRECT; ring all-reduce; a reduction tree, TREE; or the
 * optimiser's schedule for the set, cliques over several rounds) and capability set, every
 * loss rate runs the same rounds with that loss on every WAN link direction (ns-3's RateErrorModel,
 * per packet), --runs times with different random patterns. Printed per row: the round's exchange
 * time (its slowest clique's, from the last member's start to the last member's end, averaged over
 * rounds and runs; the slowest run's too, and how many runs met the bound), its ratio to the
 * lossless run of the same row, the packets the WAN dropped, the resends they owe (owed: one per
 * contribution a dropped chunk carried, OwedResends), chunks resent, resends per owed resend
 * (over all runs, and the largest of one run: max_res), queue drops (any is caused by
 * recovery: the lossless runs have none), the FPGAs' partial aggregates (early flushes among them)
 * and partial aggregates per lost packet beside the FPGAs a lost packet should have reached on
 * average (reach, from the routes: ExpectedFpgaReach), and the acceptance bound: at 0.1%
 * loss at most 1.25 x lossless + 2 worst-path RTTs, at 1% at most 2 x + 2 RTTs, at most 1.2
 * resends per owed resend in every run and at most 2 partial aggregates per lost packet, or one
 * per FPGA reached where the multicast trees make that more than 2 ("ok" when all hold).
 * --alignStarts=false turns the round alignment off (doc/training.rst, "Loss with FPGAs: rounds
 * start together"), to compare. --wall adds the row's wall-clock and CPU seconds (all its runs):
 * what simulating the repair costs, e.g. under heavy loss (CPU seconds stay comparable on a loaded
 * machine).
 */

#include "bench-lists.h"

#include "ns3/boolean.h"
#include "ns3/clique-schedule-helper.h"
#include "ns3/clique-schedule.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/gradient-header.h"
#include "ns3/link-port.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/text-table.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/uinteger.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-units.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** One run's figures. */
struct LossResult
{
    double roundSync{0};    //!< mean over rounds of the clique's exchange time, s
    uint64_t lost{0};       //!< packets dropped by the WAN error models
    uint64_t owed{0};       //!< resends they owe (OwedResends)
    uint64_t resends{0};    //!< chunks resent
    uint64_t queueDrops{0}; //!< packets dropped by device queues
    uint64_t lostPeers{0};  //!< peers declared lost
    uint64_t partials{0};   //!< partial aggregates the FPGAs emitted (early flushes included)
    uint64_t early{0};      //!< of which early flushes
    double worstRtt{0};     //!< the largest island-to-island round trip, s
    std::string plan;       //!< the schedule's name (the optimiser's pick for "optimal")
    double reach{-1};       //!< FPGAs a lost data packet should have reached, on average (-1:
                            //!< not computed, a schedule with RING or TREE cliques)
};

/**
 * \brief The FPGAs a WAN-lost data packet should have reached, on average over the packets the
 *        WAN carries: what the FPGAs' partial aggregates per lost packet come to when each loss
 *        costs one partial aggregate at every FPGA downstream of it, and no more.
 *
 * Computed from the routes alone, a second method beside the FPGAs' own counters. Each member
 * of a DIRECT clique sends the same chunks to every other member: one copy along each WAN hop
 * of its multicast tree (when the tree's routers replicate), or one unicast copy per receiver
 * along its path. A hop carries the packet towards the receivers behind it; those with an
 * ingress FPGA (their city's fpga capability) would each flush one partial aggregate if it
 * were lost there. Random loss strikes every hop a packet crosses alike, so the mean over hop
 * crossings is the expectation per lost packet (at low loss, where losses do not share slots).
 * \param routing the routes \param plan the schedule \param rounds the rounds run
 * \return the mean, or -1 if a round has a RING or TREE clique (their traffic is not one
 *         update per receiver)
 */
double
ExpectedFpgaReach(const WanRouting& routing, const CliqueSchedule& plan, uint32_t rounds)
{
    const WanTopology& topology = routing.GetTopology();
    const auto cityOf = [&topology](uint32_t island) { return topology.GetIslands()[island].city; };
    double crossings = 0; // WAN hop crossings of one chunk, over all senders
    double reached = 0;   // FPGAs behind each crossing, summed
    for (uint32_t round = 0; round < rounds; ++round)
    {
        const Partition& partition = plan.GetPartition(round);
        for (uint32_t c = 0; c < partition.size(); ++c)
        {
            if (plan.GetAlgorithms(round)[c] != SyncAlgorithm::DIRECT)
            {
                return -1;
            }
            for (uint32_t sender : partition[c])
            {
                std::vector<uint32_t> cities;
                double pathHops = 0; // hops of every receiver's path: its unicast copy's
                for (uint32_t receiver : partition[c])
                {
                    if (receiver == sender)
                    {
                        continue;
                    }
                    cities.push_back(cityOf(receiver));
                    // Every hop of the receiver's path carries its copy (unicast) or the tree's
                    // one copy (multicast): behind that hop sits this receiver's FPGA, if any.
                    const double hops = routing.GetPath(cityOf(sender), cityOf(receiver)).size();
                    pathHops += hops;
                    reached += topology.GetCities()[cityOf(receiver)].caps.fpga ? hops : 0;
                }
                const WanTree tree = routing.GetTree(cityOf(sender), cities);
                crossings += routing.IsMulticastCapable(tree) ? tree.hops.size() : pathHops;
            }
        }
    }
    return crossings > 0 ? reached / crossings : 0;
}

/**
 * \brief What the packets the WAN error models drop owe the repair: one resend per chunk its
 *        sender can resend (DATA, RING, a tree root's total coming down), and one per
 *        contributor of an AGGREGATE going up a reduction tree (FLAG_REDUCE: a transit FPGA
 *        summed it and keeps nothing, so each member resends its own chunk). Lost control
 *        packets (NACKs, answers, ENDs, notices) owe none.
 *
 * A second count beside the error models' drops, read from the dropped packets themselves
 * (IPv4, UDP, the gradient header), so resends per owed resend is 1 when every lost
 * contribution is resent once.
 */
class OwedResends
{
  public:
    /** \brief Listen to the drops of every link device of the simulation (before the run). */
    void Connect()
    {
        for (const Ptr<NetDevice>& device : TrainingHelper::GetLinkDevices())
        {
            // Framing the device keeps in its packets (ns-3's PPP header) comes before IPv4.
            const uint32_t framing =
                LinkPort::GetFramingBytes(device) - LinkPort::GetUntracedFramingBytes(device);
            device->TraceConnectWithoutContext(
                "PhyRxDrop",
                Callback<void, Ptr<const Packet>>(
                    [this, framing](Ptr<const Packet> packet) { Count(packet, framing); }));
        }
    }

    /** \return resends owed so far */
    uint64_t Get() const
    {
        return m_owed;
    }

  private:
    /** \param packet a dropped packet \param framing bytes before its IPv4 header */
    void Count(Ptr<const Packet> packet, uint32_t framing)
    {
        // The module's IPv4 headers carry no options (WanWire): the gradient header follows.
        const uint32_t at = framing + WanWire::IPV4_UDP_HEADER_BYTES;
        std::vector<uint8_t> bytes(
            std::min<uint32_t>(packet->GetSize(), at + GradientHeader::MAX_SERIALIZED_SIZE));
        packet->CopyData(bytes.data(), bytes.size());
        if (bytes.size() <= at ||
            bytes[framing + WanWire::IPV4_PROTOCOL_OFFSET] != WanWire::UDP_PROTOCOL)
        {
            return; // TCP (no chunk resends) or not a gradient packet
        }
        GradientHeader header;
        if (!GradientHeader::ParseBytes(bytes.data() + at,
                                        bytes.size() - at,
                                        packet->GetSize() - at,
                                        header))
        {
            return;
        }
        const GradientHeader::Type type = header.GetType();
        if (type == GradientHeader::AGGREGATE && header.HasFlag(GradientHeader::FLAG_REDUCE))
        {
            m_owed += header.GetContributors().Count(); // summed on the way: each resends
        }
        else if (type == GradientHeader::DATA || type == GradientHeader::RING ||
                 type == GradientHeader::AGGREGATE)
        {
            m_owed += 1; // its sender resends it (a root its total)
        }
    }

    uint64_t m_owed{0}; //!< resends owed
};

/**
 * \brief The optimiser's schedule for a WAN, as nine-city-training --schedule=optimal picks it
 *        (epsilon 1e-3, period up to 4, seed 1).
 * \param topology the WAN with its capabilities \param modelBytes M \param compute the
 *        compute phase \param mtu MTU
 * \return the best schedule, with the algorithm of every clique
 */
CliqueSchedule
OptimalSchedule(const WanTopology& topology, uint64_t modelBytes, Time compute, uint32_t mtu)
{
    CliqueScheduleHelper optimiser;
    optimiser.SetModelBytes(modelBytes);
    optimiser.SetComputeTime(compute);
    optimiser.SetCostModelAttribute("Mtu", UintegerValue(mtu));
    return optimiser.Optimise(WanRouting(topology)).best.schedule;
}

/**
 * \param topologyFile topology \param set capability set \param schedule global, ring or tree
 * \param modelBytes M \param compute compute phase \param mtu MTU \param accessBps rate of every
 * access link (0: the file's) \param rounds rounds \param loss WAN loss rate \param run ns-3 RNG
 * run number (a different random loss pattern per run) \return the figures
 */
LossResult
RunOnce(const std::string& topologyFile,
        const std::string& set,
        const std::string& schedule,
        uint64_t modelBytes,
        Time compute,
        uint32_t mtu,
        uint64_t accessBps,
        uint32_t rounds,
        double loss,
        uint32_t run)
{
    RngSeedManager::SetRun(run);
    WanTopology topology = WanTopologyJson::LoadFile(topologyFile).WithRates(0, accessBps);
    topology.SetCapabilities(WanCapabilities::Parse(set, "--sets"));
    const uint32_t n = topology.GetIslands().size();
    CliqueSchedule plan = CliqueSchedule::GlobalClique(n);
    if (schedule == "optimal")
    {
        plan = OptimalSchedule(topology, modelBytes, compute, mtu);
    }
    else if (schedule != "global")
    {
        plan.SetAlgorithms(0, {schedule == "ring" ? SyncAlgorithm::RING : SyncAlgorithm::TREE});
    }
    WanTopologyHelper wan;
    wan.SetMtu(mtu);
    wan.Install(topology);
    TrainingHelper helper(wan, plan);
    helper.SetModelBytes(modelBytes);
    helper.SetComputeTime(compute);
    helper.SetRounds(rounds);
    helper.SetWanLossRate(loss);
    helper.Install();
    TrainingExperiment experiment(helper);
    OwedResends owed;
    owed.Connect();
    experiment.Run();
    LossResult result;
    // A clique's exchange runs from its last member's start to its last member's end: it
    // cannot start before every member is ready, and a member's wait for a peer still
    // repairing the previous round is that round's cost, counted there. A round's exchange
    // time is its slowest clique's.
    std::map<std::pair<uint32_t, uint32_t>, std::pair<Time, Time>> cliques; // (round, clique)
    for (const TrainingRoundRecord& r : experiment.GetRecords())
    {
        auto& [lastStart, lastEnd] = cliques[{r.round, r.clique}];
        lastStart = std::max(lastStart, r.syncStart);
        lastEnd = std::max(lastEnd, r.syncEnd);
        result.resends += r.retransmissions;
        result.lostPeers += r.lostPeers.size();
    }
    std::vector<double> roundSync(rounds, 0.0);
    for (const auto& [key, span] : cliques)
    {
        roundSync[key.first] =
            std::max(roundSync[key.first], (span.second - span.first).GetSeconds());
    }
    for (double sync : roundSync)
    {
        result.roundSync += sync / rounds;
    }
    result.lost = experiment.GetLossDrops();
    result.owed = owed.Get();
    result.queueDrops = experiment.GetQueueDrops();
    result.partials = experiment.GetFpgaCounters().partial;
    result.early = experiment.GetFpgaCounters().earlyFlushes;
    result.reach = ExpectedFpgaReach(wan.GetRouting(), plan, rounds);
    result.plan = plan.GetName();
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            result.worstRtt = std::max(result.worstRtt, 2 * wan.GetRouting().GetIslandDelay(i, j));
        }
    }
    Simulator::Destroy();
    return result;
}

/**
 * At most this many resends per resend the lost packets owe (OwedResends), in every run: the
 * 10 MB acceptance of the loss work (1.2 per lost packet), counted per lost contribution so
 * that a lost aggregate owes one resend per member it held and a lost NACK none.
 */
constexpr double MAX_RESENDS_PER_OWED = 1.2;
/**
 * The acceptance: at most this many FPGA partial aggregates per lost packet, on average,
 * or the FPGAs a lost packet should have reached (one partial aggregate each, the aim)
 * where that is more: a copy lost before its multicast tree branches is missing at every FPGA
 * behind it (2.19 on average for `both` on doublezero-9).
 */
constexpr double MAX_PARTIALS_PER_LOST = 2;

/**
 * \brief Check the flags before any run, so a typo fails at once with its name.
 * \param topology topology file \param sets capability sets \param losses loss rates
 * \param schedules schedules \param mtu MTU
 * \throws std::exception naming the culprit (the topology file's own errors included)
 */
void
CheckFlags(const std::string& topology,
           const std::string& sets,
           const std::string& losses,
           const std::string& schedules,
           uint32_t mtu)
{
    WanTopologyJson::LoadFile(topology);
    WanTopologyHelper::CheckMtu(mtu);
    for (const std::string& set : SplitBenchList(sets))
    {
        WanCapabilities::Parse(set, "--sets");
    }
    for (const std::string& schedule : SplitBenchList(schedules))
    {
        if (schedule != "global" && schedule != "ring" && schedule != "tree" &&
            schedule != "optimal")
        {
            throw std::invalid_argument("--schedules: unknown '" + schedule +
                                        "' (global, ring, tree or optimal)");
        }
    }
    for (const std::string& text : SplitBenchList(losses))
    {
        std::size_t used = 0;
        double loss = -1;
        try
        {
            loss = std::stod(text, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used != text.size() || !(loss >= 0 && loss < 1))
        {
            throw std::invalid_argument("--losses: '" + text + "' is not a rate in [0, 1)");
        }
    }
}

} // namespace

int
main(int argc, char** argv)
{
    std::string topology = "data/topologies/doublezero-9.json";
    uint64_t modelBytes = 10000000;
    uint32_t rounds = 2;
    Time compute = MilliSeconds(100);
    std::string losses = "0,0.0001,0.001,0.01,0.05";
    std::string sets = "none,multicast,fpga,both";
    std::string schedules = "global,ring";
    uint32_t runs = 1;
    bool wall = false;
    uint32_t mtu = WanWire::DEFAULT_MTU;
    bool alignStarts = true;
    std::string access;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Topology JSON", topology);
    cmd.AddValue("modelBytes", "Bytes of one update", modelBytes);
    cmd.AddValue("rounds", "Rounds per run", rounds);
    cmd.AddValue("computeTime", "Compute phase of every round", compute);
    cmd.AddValue("losses", "Comma-separated WAN loss rates (the first is the reference)", losses);
    cmd.AddValue("sets", "Comma-separated capability sets", sets);
    cmd.AddValue("schedules",
                 "global (DIRECT), ring, tree (TREE: a reduction tree to one root; with "
                 "+transit in --sets its transit FPGAs sum on the way) and/or optimal (the "
                 "optimiser's schedule for the set: cliques of several rounds)",
                 schedules);
    cmd.AddValue("mtu", "MTU of every device (64000 makes 1 GB runs affordable)", mtu);
    cmd.AddValue("accessBandwidth",
                 "Rate of every access link, e.g. 100Gbps (empty: the file's; the tree with "
                 "+transit needs more than the WAN's rate to gain)",
                 access);
    cmd.AddValue("alignStarts",
                 "TrainingApplication AlignStarts: members repairing a round announce it so "
                 "the next round's first passes meet the FPGAs together",
                 alignStarts);
    cmd.AddValue("runs",
                 "Random loss patterns per lossy row (RNG runs 1..runs): sync_s is their mean, "
                 "max_s the slowest, met how many were within the bound",
                 runs);
    cmd.AddValue("wall", "Also print each row's wall-clock and CPU seconds (wall_s, cpu_s)", wall);
    cmd.Parse(argc, argv);
    uint64_t accessBps = 0;
    try
    {
        CheckFlags(topology, sets, losses, schedules, mtu);
        accessBps = access.empty() ? 0 : WanUnits::ParseRate(access, "--accessBandwidth");
    }
    catch (const std::exception& e)
    {
        std::cerr << "loss-bench: error: " << e.what() << std::endl;
        return 1;
    }
    Config::SetDefault("ns3::TrainingApplication::AlignStarts", BooleanValue(alignStarts));

    std::cout << "loss-bench: " << topology << ", model " << modelBytes << " bytes, " << rounds
              << " round(s), MTU " << mtu << (access.empty() ? "" : ", access " + access) << "\n";
    std::cout << std::left << std::setw(9) << "exchange" << std::setw(11) << "set" << std::right
              << std::setw(8) << "loss" << std::setw(11) << "sync_s" << std::setw(8) << "ratio"
              << std::setw(9) << "lost" << std::setw(9) << "owed" << std::setw(9) << "resends"
              << std::setw(10) << "res/owed" << std::setw(9) << "max_res" << std::setw(8)
              << "qdrops" << std::setw(7) << "peers" << std::setw(9) << "partial" << std::setw(8)
              << "early" << std::setw(10) << "part/lost" << std::setw(7) << "reach" << std::setw(11)
              << "bound_s" << std::setw(9) << "max_s" << std::setw(6) << "met" << std::setw(7)
              << "ok";
    if (wall)
    {
        std::cout << std::setw(9) << "wall_s" << std::setw(8) << "cpu_s";
    }
    std::cout << std::endl;
    bool allOk = true;
    for (const std::string& schedule : SplitBenchList(schedules))
    {
        for (const std::string& set : SplitBenchList(sets))
        {
            double lossless = 0;
            std::string plan;
            for (const std::string& text : SplitBenchList(losses))
            {
                const double loss = std::stod(text);
                // The lossless run is deterministic: one run is enough.
                const uint32_t patterns = loss > 0 ? std::max(runs, 1U) : 1;
                LossResult r;
                std::vector<double> syncs;
                double worstResends = 0; // the largest resends per owed resend of one run
                const auto wallStart = std::chrono::steady_clock::now();
                const std::clock_t cpuStart = std::clock();
                for (uint32_t run = 1; run <= patterns; ++run)
                {
                    const LossResult one = RunOnce(topology,
                                                   set,
                                                   schedule,
                                                   modelBytes,
                                                   compute,
                                                   mtu,
                                                   accessBps,
                                                   rounds,
                                                   loss,
                                                   run);
                    syncs.push_back(one.roundSync);
                    if (one.owed > 0)
                    {
                        worstResends = std::max(worstResends, double(one.resends) / one.owed);
                    }
                    r.roundSync += one.roundSync / patterns;
                    r.lost += one.lost;
                    r.owed += one.owed;
                    r.resends += one.resends;
                    r.queueDrops += one.queueDrops;
                    r.lostPeers += one.lostPeers;
                    r.partials += one.partials;
                    r.early += one.early;
                    r.worstRtt = one.worstRtt;
                    r.reach = one.reach;
                    r.plan = one.plan;
                }
                if (loss == 0)
                {
                    lossless = r.roundSync;
                }
                double bound = 0;
                if (loss > 0 && loss <= 0.001)
                {
                    bound = 1.25 * lossless + 2 * r.worstRtt;
                }
                else if (loss > 0.001 && loss <= 0.01)
                {
                    bound = 2 * lossless + 2 * r.worstRtt;
                }
                const uint32_t met = static_cast<uint32_t>(
                    std::count_if(syncs.begin(), syncs.end(), [bound](double s) {
                        return bound == 0 || s <= bound;
                    }));
                const bool ok = met == syncs.size() && r.queueDrops == 0 &&
                                worstResends <= MAX_RESENDS_PER_OWED &&
                                r.partials <= std::max(MAX_PARTIALS_PER_LOST, r.reach) * r.lost;
                allOk = allOk && (loss > 0.01 || ok);
                std::cout << std::left << std::setw(9) << schedule << std::setw(11) << set
                          << std::right << std::setw(8) << loss << std::fixed
                          << std::setprecision(4) << std::setw(11) << r.roundSync
                          << std::setprecision(2) << std::setw(8)
                          << (lossless > 0 ? r.roundSync / lossless : 0) << std::setw(9) << r.lost
                          << std::setw(9) << r.owed << std::setw(9) << r.resends << std::setw(10)
                          << (r.owed > 0 ? double(r.resends) / r.owed : 0.0) << std::setw(9)
                          << worstResends << std::setw(8) << r.queueDrops << std::setw(7)
                          << r.lostPeers << std::setw(9) << r.partials << std::setw(8) << r.early
                          << std::setw(10) << (r.lost > 0 ? double(r.partials) / r.lost : 0.0)
                          << std::setw(7)
                          << (r.reach < 0 ? std::string("-") : TextTable::Fixed(r.reach, 2))
                          << std::setprecision(4) << std::setw(11) << bound << std::setw(9)
                          << *std::max_element(syncs.begin(), syncs.end()) << std::setw(4) << met
                          << "/" << syncs.size() << std::setw(7) << (ok ? "ok" : "MISS");
                if (wall)
                {
                    const std::chrono::duration<double> took =
                        std::chrono::steady_clock::now() - wallStart;
                    std::cout << std::setprecision(1) << std::setw(9) << took.count()
                              << std::setw(8) << double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
                }
                std::cout << std::defaultfloat << std::endl;
                plan = r.plan;
            }
            if (schedule == "optimal")
            {
                std::cout << "  (optimal for " << set << ": " << plan << ")" << std::endl;
            }
        }
    }
    std::cout << (allOk ? "loss-bench: every row up to 1% loss within the acceptance bounds"
                        : "loss-bench: some row up to 1% loss MISSES the acceptance bounds")
              << std::endl;
    return allOk ? 0 : 1;
}
