/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of TrainingApplication and TrainingHelper on small topologies built in code: exact
 * byte counts of a 3-island exchange under each capability set, the sync time of an
 * uncongested direct exchange against its analytic value, ring all-reduce volumes, real-mode
 * averages (global clique, 3x3 rotating cliques), exact results under random WAN loss, a cut
 * link ending in a recorded lost peer, a straggler delaying only its own clique, and
 * byte-identical CSV output for the same seed. Expected values are computed here from the
 * model size, chunk size and header sizes, never read back from the simulation.
 *
 * Fixed-point tolerance (real mode): every parameter travels as round(x * Scale), so one
 * averaging round is off the exact mean by at most 0.5 / Scale; R chained rounds by at most
 * R * 0.5 / Scale. The tests allow (R + 1) * 0.5 / Scale.
 */

// ctest-suite: training-application

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/ppp-header.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-application.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/training-output.h"
#include "ns3/training-planner.h"
#include "ns3/training-workload.h"
#include "ns3/uinteger.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <cmath>
#include <list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// One gigabit per second.
const uint64_t GBPS = 1000000000ULL;
/// Access link rate of every test island.
const uint64_t ACCESS_BPS = 10 * GBPS;
/// WAN link rate.
const uint64_t WAN_BPS = 100 * GBPS;
/// Access link delay, s.
const double ACCESS_DELAY = 50e-6;
/// WAN link delay, s.
const double WAN_DELAY = 1e-3;
/// Gradient header of a DATA/AGGREGATE/RING packet with up to 64 islands: 36 + 2 x 8.
const uint32_t HEADER = 52;
/// Chunk payload filling a 9000-byte MTU: 9000 - 20 (IPv4) - 8 (UDP) - 52, a multiple of 4.
const uint32_t CHUNK = 9000 - 20 - 8 - HEADER;
/// Wire bytes per packet besides the gradient header and payload: IPv4 + UDP + PPP.
const uint32_t WIRE_EXTRA = 20 + 8 + 2;
/// Fixed-point scale of the real-mode tests.
const double SCALE = 65536.0;

/**
 * \brief A topology of \p cities cities in a ring (or a line for 2), \p perCity islands each.
 * \param cities number of cities \param perCity islands per city \param caps capabilities
 * \param wanDelay delay of every WAN link, s
 * \param farDelay if positive, the delay of the last city's links instead, s
 * \return the topology
 */
WanTopology
MakeTopology(uint32_t cities,
             uint32_t perCity,
             const std::string& caps,
             double wanDelay,
             double farDelay = 0)
{
    WanTopology t;
    for (uint32_t c = 0; c < cities; ++c)
    {
        WanCity city;
        city.code = "C" + std::to_string(c);
        city.name = city.code;
        t.AddCity(city);
    }
    // With farDelay, both links of the last city have that delay: it is far from all others.
    const double lastDelay = farDelay > 0 ? farDelay : wanDelay;
    for (uint32_t c = 0; c + 1 < cities; ++c)
    {
        t.AddLink(WanLink{c, c + 1, WAN_BPS, c + 2 == cities ? lastDelay : wanDelay});
    }
    if (cities > 2)
    {
        t.AddLink(WanLink{cities - 1, 0, WAN_BPS, lastDelay});
    }
    for (uint32_t c = 0; c < cities; ++c)
    {
        for (uint32_t i = 0; i < perCity; ++i)
        {
            WanIsland island;
            island.name = "C" + std::to_string(c) + "-" + std::to_string(i);
            island.city = c;
            island.accessBps = ACCESS_BPS;
            island.accessDelay = ACCESS_DELAY;
            t.AddIsland(island);
        }
    }
    t.SetCapabilities(WanCapabilities::Parse(caps, "test"));
    return t;
}

/** \param bytes payload \return chunks of a stream of \p bytes */
uint64_t
Chunks(uint64_t bytes)
{
    return (bytes + CHUNK - 1) / CHUNK;
}

/** \param bytes payload \return gradient bytes (headers + payload) of a stream */
uint64_t
StreamBytes(uint64_t bytes)
{
    return bytes + Chunks(bytes) * HEADER;
}

/** Runs one training setup and keeps what the checks need. */
struct RunResult
{
    std::vector<TrainingRoundRecord> records; //!< round-major, then island
    std::vector<std::vector<double>> before;  //!< initial parameters (real)
    std::vector<std::vector<double>> after;   //!< final parameters (real)
    std::string csv;                          //!< rounds.csv rows
    uint64_t queueDrops{0};                   //!< queue drops
    uint64_t lossDrops{0};                    //!< error-model drops
    TrainingFpgaCounters fpga;                //!< the FPGAs' counters
    uint64_t heldStarts{0};                   //!< TrainingSummary::heldStarts
    double estimatedSync{0};                  //!< plan of period round 0
    uint64_t island0Packets{0};               //!< IPv4 packets island 0's device sent
    uint32_t island0Largest{0};               //!< the largest of them, bytes (IPv4)
    uint32_t linkHeaderBytes{0};              //!< link header in island 0's MacTx packets
    std::vector<double> cityLoad;             //!< TrainingHelper::EstimateLoad
    std::vector<double> linkPackets;          //!< TrainingHelper::EstimateLoad

    /** A gradient packet received by Setup::traceIsland's device. */
    struct Arrival
    {
        uint64_t uid;          //!< packet uid
        Time at;               //!< arrival
        GradientHeader header; //!< its gradient header
    };

    std::vector<Arrival> arrivals; //!< at Setup::traceIsland, in order
};

/** \param run where to list \param packet an IPv4 packet the traced island's device received */
void
ListArrival(RunResult* run, Ptr<const Packet> packet)
{
    Ptr<Packet> copy = packet->Copy();
    copy->RemoveAtStart(20 + 8);
    RunResult::Arrival arrival;
    if (GradientHeader::Parse(copy, arrival.header))
    {
        arrival.uid = packet->GetUid();
        arrival.at = Simulator::Now();
        run->arrivals.push_back(arrival);
    }
}

/**
 * \param run where to count
 * \param packet a packet island 0's device sends: an IPv4 packet, after a PPP header if the
 *        device is ns-3's PointToPointNetDevice (run->linkHeaderBytes)
 */
void
CountIsland0(RunResult* run, Ptr<const Packet> packet)
{
    ++run->island0Packets;
    const uint32_t ipv4Bytes = packet->GetSize() - run->linkHeaderBytes;
    run->island0Largest = std::max(run->island0Largest, ipv4Bytes);
}

/** Knobs of one run. */
struct Setup
{
    std::string caps{"none"};              //!< capability set
    uint32_t cities{3};                    //!< cities
    uint32_t perCity{1};                   //!< islands per city
    uint64_t modelBytes{10 * CHUNK + 400}; //!< M
    uint32_t rounds{1};                    //!< rounds
    Time compute{MilliSeconds(10)};        //!< compute phase
    bool real{false};                      //!< real workload
    double loss{0};                        //!< WAN loss
    int cut{-1};                           //!< island whose access link is cut
    int straggler{-1};                     //!< island computing 10x longer
    std::vector<Partition> partitions;     //!< schedule (empty: global clique)
    bool ring{false};                      //!< RING for every clique
    uint32_t seed{1};                      //!< RNG seed
    double wanDelay{WAN_DELAY};            //!< delay of every WAN link, s
    double farDelay{0};                    //!< if positive, delay of the last city's links, s
    uint16_t mtu{9000};                    //!< MTU of every device
    bool stockLinks{false}; //!< ns-3's PointToPointNetDevice and PointToPointChannel on every link
    int fanOutCity{-1};     //!< city whose router gets MaxFanOut = fanOut
    uint32_t fanOut{0};     //!< that MaxFanOut
    int multicastOffCity{-1};     //!< city whose router gets MulticastEnabled = false
    bool tuneFpgas{true};         //!< TrainingHelper::SetTuneFpgas
    uint32_t fpgaSlots{0};        //!< if positive, every FPGA's SlotCount
    Time fpgaTimeout;             //!< if positive, every FPGA's Timeout
    uint32_t queuePackets{0};     //!< if positive, every device's transmit queue bound
    bool tuneQueues{true};        //!< TrainingHelper::SetTuneQueues
    int traceIsland{-1};          //!< island whose device's received gradient packets are listed
    int dropAtIsland{-1};         //!< island whose device drops the packets of dropUids
    std::list<uint64_t> dropUids; //!< packet uids a ListErrorModel drops there
};

RunResult
Simulate(const Setup& setup)
{
    RngSeedManager::SetSeed(setup.seed);
    RngSeedManager::SetRun(1);
    const WanTopology topology =
        MakeTopology(setup.cities, setup.perCity, setup.caps, setup.wanDelay, setup.farDelay);
    const uint32_t n = topology.GetIslands().size();
    WanTopologyHelper wan;
    wan.SetMtu(setup.mtu);
    wan.SetStockLinks(setup.stockLinks);
    if (setup.queuePackets > 0)
    {
        wan.SetQueueSize(QueueSize(QueueSizeUnit::PACKETS, setup.queuePackets));
    }
    wan.Install(topology);
    CliqueSchedule schedule = setup.partitions.empty()
                                  ? CliqueSchedule::GlobalClique(n)
                                  : CliqueSchedule(n, setup.partitions, "test");
    if (setup.ring)
    {
        for (uint32_t t = 0; t < schedule.GetPeriod(); ++t)
        {
            schedule.SetAlgorithms(
                t,
                std::vector<SyncAlgorithm>(schedule.GetPartition(t).size(), SyncAlgorithm::RING));
        }
    }
    TrainingHelper helper(wan, schedule);
    helper.SetModelBytes(setup.modelBytes);
    helper.SetRounds(setup.rounds);
    helper.SetComputeTime(setup.compute);
    helper.SetAppAttribute("Scale", DoubleValue(SCALE));
    helper.SetAppAttribute("RetransmissionTimeout", TimeValue(MilliSeconds(20)));
    helper.SetAppAttribute("MaxRetries", UintegerValue(4));
    Ptr<QuadraticTrainingWorkload> workload;
    if (setup.real)
    {
        workload = CreateObject<QuadraticTrainingWorkload>();
        workload->SetAttribute("LocalSteps", UintegerValue(0));
        helper.SetWorkload(workload);
    }
    if (setup.loss > 0)
    {
        helper.SetWanLossRate(setup.loss);
    }
    if (setup.straggler >= 0)
    {
        helper.SetComputeMultiplier(setup.straggler, 10.0);
    }
    if (setup.fanOutCity >= 0)
    {
        wan.GetRouter(setup.fanOutCity)->SetAttribute("MaxFanOut", UintegerValue(setup.fanOut));
    }
    helper.SetTuneFpgas(setup.tuneFpgas);
    helper.SetTuneQueues(setup.tuneQueues);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (Ptr<FpgaAggregatorNetDevice> fpga = wan.GetFpga(i))
        {
            if (setup.fpgaSlots > 0)
            {
                fpga->SetAttribute("SlotCount", UintegerValue(setup.fpgaSlots));
            }
            if (setup.fpgaTimeout.IsStrictlyPositive())
            {
                fpga->SetAttribute("Timeout", TimeValue(setup.fpgaTimeout));
            }
        }
    }
    if (setup.multicastOffCity >= 0)
    {
        wan.GetRouter(setup.multicastOffCity)
            ->SetAttribute("MulticastEnabled", BooleanValue(false));
    }
    helper.Install();
    if (setup.cut >= 0)
    {
        // Both directions of the island's only link lose every packet.
        for (Ptr<NetDevice> device :
             {wan.GetIslandDevice(setup.cut), wan.GetAccessPeerDevice(setup.cut)})
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
            em->SetAttribute("ErrorRate", DoubleValue(1.0));
            device->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    if (setup.dropAtIsland >= 0)
    {
        Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
        // Packet uids are 32 bits wide in ns-3 3.37 and 64 in 3.48: take the list's type from
        // the model.
        using UidList = decltype(std::declval<ListErrorModel>().GetList());
        em->SetList(UidList(setup.dropUids.begin(), setup.dropUids.end()));
        wan.GetIslandDevice(setup.dropAtIsland)
            ->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    RunResult run;
    if (setup.traceIsland >= 0)
    {
        wan.GetIslandDevice(setup.traceIsland)
            ->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&ListArrival, &run));
    }
    run.linkHeaderBytes = setup.stockLinks ? PppHeader().GetSerializedSize() : 0;
    wan.GetIslandDevice(0)->TraceConnectWithoutContext("MacTx",
                                                       MakeBoundCallback(&CountIsland0, &run));
    if (workload)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            run.before.push_back(workload->GetParameters(i));
        }
    }
    TrainingExperiment experiment(helper);
    experiment.Run();
    run.records = experiment.GetRecords();
    std::ostringstream csv;
    TrainingOutput::WriteRounds(csv, experiment, setup.caps, "test");
    run.csv = csv.str();
    run.queueDrops = experiment.GetQueueDrops();
    run.lossDrops = experiment.GetLossDrops();
    run.fpga = experiment.GetFpgaCounters();
    run.heldStarts = experiment.Summarise(1e-3).heldStarts;
    TrainingPlanner::EstimateLoad(topology,
                                  wan.GetRouting(),
                                  helper.GetPlans(),
                                  setup.rounds,
                                  run.cityLoad,
                                  run.linkPackets);
    run.estimatedSync = helper.GetPlans().at(0).syncTime;
    if (workload)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            run.after.push_back(workload->GetParameters(i));
        }
    }
    Simulator::Destroy();
    return run;
}

/**
 * \param setup a run that must be refused
 * \return the message of the \p Error it throws ("" if it ran)
 */
template <typename Error>
std::string
Refusal(const Setup& setup)
{
    std::string message;
    try
    {
        Simulate(setup);
    }
    catch (const Error& e)
    {
        message = e.what();
    }
    Simulator::Destroy();
    return message;
}

/**
 * \return the runs two implementations must agree on byte for byte: 4 cities of 2 islands,
 *         2 rounds, none and both, direct and ring
 */
std::vector<Setup>
EquivalenceSetups()
{
    std::vector<Setup> setups;
    for (const char* caps : {"none", "both"})
    {
        for (bool ring : {false, true})
        {
            Setup setup;
            setup.caps = caps;
            setup.ring = ring;
            setup.cities = 4;
            setup.perCity = 2;
            setup.rounds = 2;
            setups.push_back(setup);
        }
    }
    return setups;
}

/** \param vectors parameter vectors \param members which \return their element-wise mean */
std::vector<double>
Mean(const std::vector<std::vector<double>>& vectors, const std::vector<uint32_t>& members)
{
    std::vector<double> mean(vectors.at(members.at(0)).size(), 0.0);
    for (uint32_t m : members)
    {
        for (size_t d = 0; d < mean.size(); ++d)
        {
            mean[d] += vectors[m][d];
        }
    }
    for (double& v : mean)
    {
        v /= members.size();
    }
    return mean;
}

/** \param a vector \param b vector \return max |a - b| */
double
MaxError(const std::vector<double>& a, const std::vector<double>& b)
{
    double error = 0;
    for (size_t d = 0; d < a.size(); ++d)
    {
        error = std::max(error, std::fabs(a[d] - b[d]));
    }
    return error;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief A 3-island global clique exchanges exactly the bytes the capability set implies.
 */
class TrainingExactBytesTestCase : public TestCase
{
  public:
    /** \param caps capability set */
    explicit TrainingExactBytesTestCase(const std::string& caps)
        : TestCase("3-island direct exchange, exact bytes, capabilities=" + caps),
          m_caps(caps)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.rounds = 2;
        const RunResult run = Simulate(setup);
        const bool multicast = m_caps == "multicast" || m_caps == "both";
        const bool fpga = m_caps == "fpga" || m_caps == "both";
        const uint64_t chunks = Chunks(setup.modelBytes);
        const uint64_t update = StreamBytes(setup.modelBytes);
        // Sender: one multicast stream or two unicast copies.
        const uint64_t sent = multicast ? update : 2 * update;
        const uint64_t packetsSent = multicast ? chunks : 2 * chunks;
        // Receiver: two peers' chunks, or one FPGA aggregate per chunk (same header size).
        const uint64_t received = fpga ? update : 2 * update;
        const uint64_t packetsReceived = fpga ? chunks : 2 * chunks;
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "2 rounds x 3 islands");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round finished");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent, sent, "bytes sent, island " << r.island);
            NS_TEST_ASSERT_MSG_EQ(r.packetsSent, packetsSent, "packets sent");
            NS_TEST_ASSERT_MSG_EQ(r.bytesReceived, received, "bytes received");
            NS_TEST_ASSERT_MSG_EQ(r.packetsReceived, packetsReceived, "packets received");
            NS_TEST_ASSERT_MSG_EQ(r.retransmissions, 0u, "no retransmissions");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "no lost peers");
        }
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops, 0u, "paced streams lose nothing in queues");
    }

    std::string m_caps; //!< capability set
};

/**
 * \ingroup wan-training-tests
 * \brief The module's links (WanLinkNetDevice, WanLinkChannel) against ns-3's own
 *        PointToPointNetDevice and PointToPointChannel (a second implementation of the same
 *        timing): every round of every island has the same times, bytes and packets, so
 *        rounds.csv is byte-identical, for direct and ring sync, with and without multicast
 *        and FPGAs, over 4 cities of 2 islands.
 */
class TrainingStockLinksTestCase : public TestCase
{
  public:
    TrainingStockLinksTestCase()
        : TestCase("module links and stock point-to-point links give identical rounds")
    {
    }

  private:
    void DoRun() override
    {
        for (Setup setup : EquivalenceSetups())
        {
            const RunResult wan = Simulate(setup);
            setup.stockLinks = true;
            const RunResult stock = Simulate(setup);
            NS_TEST_ASSERT_MSG_EQ(wan.records.size(), 16u, "8 islands x 2 rounds");
            NS_TEST_ASSERT_MSG_EQ(wan.csv,
                                  stock.csv,
                                  setup.caps << (setup.ring ? " ring" : " direct"));
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief With a 1500-byte MTU, chunks fill exactly that MTU: no packet is larger, none is
 *        fragmented (one IPv4 packet per chunk), and the bytes are exact.
 */
class TrainingMtuTestCase : public TestCase
{
  public:
    TrainingMtuTestCase()
        : TestCase("chunks fill a 1500-byte MTU, never more")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.mtu = 1500;
        const RunResult run = Simulate(setup);
        // 1500 - 20 (IPv4) - 8 (UDP) - 52 (gradient header) = 1420, a multiple of 4.
        const uint64_t chunk = 1420;
        const uint64_t chunks = (setup.modelBytes + chunk - 1) / chunk;
        NS_TEST_ASSERT_MSG_EQ(chunks, 64u, "89,600 bytes in 1420-byte chunks (by hand)");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round finished");
            NS_TEST_ASSERT_MSG_EQ(r.packetsSent, 2 * chunks, "two unicast copies per chunk");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent,
                                  2 * (setup.modelBytes + chunks * HEADER),
                                  "payload and gradient headers, twice");
        }
        // Plus one END control packet after each of the two unicast streams.
        NS_TEST_ASSERT_MSG_EQ(run.island0Packets,
                              2 * chunks + 2,
                              "one IPv4 packet per chunk copy, one END per stream");
        NS_TEST_ASSERT_MSG_EQ(run.island0Largest, 1500u, "full chunks fill the MTU exactly");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief An uncongested 2-island exchange takes path delay plus bottleneck serialisation.
 */
class TrainingSyncTimeTestCase : public TestCase
{
  public:
    TrainingSyncTimeTestCase()
        : TestCase("direct exchange sync time within 2% of the analytic value")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 2;
        setup.modelBytes = 10000000;
        const RunResult run = Simulate(setup);
        // Each island sends one stream at the full 10 Gbps of its access link (the bottleneck).
        const uint64_t chunks = Chunks(setup.modelBytes);
        const double wireBits = 8.0 * (setup.modelBytes + chunks * (HEADER + WIRE_EXTRA));
        const double analytic = wireBits / ACCESS_BPS + 2 * ACCESS_DELAY + WAN_DELAY;
        for (const TrainingRoundRecord& r : run.records)
        {
            const double sync = (r.syncEnd - r.syncStart).GetSeconds();
            NS_TEST_ASSERT_MSG_EQ_TOL(sync, analytic, 0.02 * analytic, "island " << r.island);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(run.estimatedSync, analytic, 0.02 * analytic, "cost model");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Ring all-reduce moves 2(k-1)/k x M bytes of payload per island in 2(k-1) steps.
 */
class TrainingRingTestCase : public TestCase
{
  public:
    TrainingRingTestCase()
        : TestCase("ring all-reduce volume and steps, FPGAs and multicast present")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t k = 4;
        const uint64_t segmentChunks = 3;
        Setup setup;
        setup.caps = "both";
        setup.cities = k;
        setup.modelBytes = uint64_t{k} * segmentChunks * CHUNK;
        setup.ring = true;
        const RunResult run = Simulate(setup);
        const uint64_t steps = 2 * (k - 1);
        const uint64_t payload = steps * setup.modelBytes / k;
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_ASSERT_MSG_EQ(r.packetsSent, steps * segmentChunks, "packets = steps x chunks");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent - r.packetsSent * HEADER, payload, "2(k-1)/k x M");
            NS_TEST_ASSERT_MSG_EQ(r.bytesReceived - r.packetsReceived * HEADER,
                                  payload,
                                  "received from the predecessor");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads: one global-clique round leaves every island at the mean.
 */
class TrainingRealMeanTestCase : public TestCase
{
  public:
    /** \param caps capability set */
    explicit TrainingRealMeanTestCase(const std::string& caps)
        : TestCase("real mode: global clique gives the mean, capabilities=" + caps),
          m_caps(caps)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.real = true;
        setup.modelBytes = 3 * CHUNK + 40;
        const RunResult run = Simulate(setup);
        const std::vector<double> mean = Mean(run.before, {0, 1, 2});
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(MaxError(run.after[i], mean),
                                        1.0 / SCALE,
                                        "island " << i << " holds the mean");
        }
    }

    std::string m_caps; //!< capability set
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads, 9 islands: rows then columns (3x3) give the global mean in 2 rounds,
 *        by direct exchange and by ring all-reduce.
 */
class TrainingGridTestCase : public TestCase
{
  public:
    /** \param ring use ring all-reduce in every clique */
    explicit TrainingGridTestCase(bool ring)
        : TestCase(std::string("real mode: 3x3 rotating cliques are exact after 2 rounds, ") +
                   (ring ? "ring" : "direct")),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.cities = 9;
        setup.real = true;
        setup.rounds = 2;
        setup.ring = m_ring;
        setup.modelBytes = 2 * CHUNK + 36;
        setup.partitions = {{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}, {{0, 3, 6}, {1, 4, 7}, {2, 5, 8}}};
        const RunResult run = Simulate(setup);
        const std::vector<double> mean = Mean(run.before, {0, 1, 2, 3, 4, 5, 6, 7, 8});
        for (uint32_t i = 0; i < 9; ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(MaxError(run.after[i], mean),
                                        1.5 / SCALE,
                                        "island " << i << " holds the global mean");
        }
    }

    bool m_ring; //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief Random loss on every WAN link: every round completes, results stay exact.
 */
class TrainingLossTestCase : public TestCase
{
  public:
    /** \param loss per-packet loss \param caps capability set \param ring ring all-reduce */
    TrainingLossTestCase(double loss, const std::string& caps, bool ring)
        : TestCase("real mode with " + std::to_string(loss) + " WAN loss, capabilities=" + caps +
                   (ring ? ", ring" : ", direct")),
          m_loss(loss),
          m_caps(caps),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.real = true;
        setup.loss = m_loss;
        setup.ring = m_ring;
        setup.cities = m_ring ? 4 : 3;
        setup.rounds = 2;
        setup.modelBytes = 40 * CHUNK;
        const RunResult run = Simulate(setup);
        uint64_t retransmissions = 0;
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round finished");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
            retransmissions += r.retransmissions;
        }
        NS_TEST_ASSERT_MSG_GT(run.lossDrops, 0u, "the error models dropped packets");
        NS_TEST_ASSERT_MSG_GT(retransmissions, 0u, "losses were repaired by resends");
        std::vector<uint32_t> all;
        for (uint32_t i = 0; i < setup.cities; ++i)
        {
            all.push_back(i);
        }
        const std::vector<double> mean = Mean(run.before, all);
        for (uint32_t i : all)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(MaxError(run.after[i], mean),
                                        1.5 / SCALE,
                                        "island " << i << " exact despite loss");
        }
    }

    double m_loss;      //!< loss rate
    std::string m_caps; //!< capability set
    bool m_ring;        //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief One known lost chunk costs the time to see the gap, one NACK and one resend, all
 *        computed here from the links, and exactly one resend.
 *
 * Two cities, one island each; island 0's 11-chunk update to island 1. A lossless run lists
 * the packets island 1 receives; a second run drops island 0's chunk 3 there (ListErrorModel
 * on island 1's access link, by packet uid). Island 1 sees the gap when chunk 4 arrives and
 * NACKs at once; the 11 chunks take 80 us at 10 Gbit/s, so island 0's first pass is long over
 * when the NACK arrives (2 ms round trip): it resends at once. Island 1's round ends when the
 * resend arrives: chunk 4's arrival + the NACK's path + a full chunk's path, each path the sum
 * of its three links' serialisation (10, 100, 10 Gbit/s, 2 framing bytes) and delays.
 */
class TrainingSingleDropTestCase : public TestCase
{
  public:
    TrainingSingleDropTestCase()
        : TestCase("one lost chunk: gap seen, one NACK, one resend, exact extra time")
    {
    }

  private:
    /** \param ipBytes an IPv4 packet's size \return its time over access, WAN, access */
    static Time PathTime(uint32_t ipBytes)
    {
        const double bits = (ipBytes + 2) * 8.0;
        return Seconds(bits / ACCESS_BPS + ACCESS_DELAY + bits / WAN_BPS + WAN_DELAY +
                       bits / ACCESS_BPS + ACCESS_DELAY);
    }

    void DoRun() override
    {
        Setup setup;
        setup.cities = 2;
        setup.traceIsland = 1;
        // Packet uids count on across runs: take them relative to a probe made just before.
        const uint64_t cleanBase = Create<Packet>()->GetUid();
        const RunResult clean = Simulate(setup);
        const RunResult::Arrival* lost = nullptr;
        const RunResult::Arrival* next = nullptr;
        for (const RunResult::Arrival& a : clean.arrivals)
        {
            if (a.header.GetType() == GradientHeader::DATA && a.header.GetSender() == 0)
            {
                lost = a.header.GetChunkIndex() == 3 ? &a : lost;
                next = a.header.GetChunkIndex() == 4 ? &a : next;
            }
        }
        NS_TEST_ASSERT_MSG_EQ((lost != nullptr && next != nullptr), true, "chunks 3 and 4 seen");
        setup.dropAtIsland = 1;
        const uint64_t base = Create<Packet>()->GetUid();
        setup.dropUids = {base + (lost->uid - cleanBase)};
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.lossDrops, 1u, "exactly chunk 3 dropped");
        // NACK: header + one range + UDP + IPv4; resend: a full chunk.
        const Time nack = PathTime(HEADER + 8 + 8 + 20);
        const Time resend = PathTime(CHUNK + HEADER + 8 + 20);
        const Time expected = next->at + nack + resend;
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, (r.island == 0 ? 1u : 0u), "one resend");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
        }
        const TrainingRoundRecord& receiver = run.records[1];
        NS_TEST_ASSERT_MSG_EQ(receiver.island, 1u, "island 1's record");
        NS_TEST_EXPECT_MSG_EQ_TOL(receiver.syncEnd,
                                  expected,
                                  NanoSeconds(3),
                                  "gap at chunk 4 + NACK path + resend path");
        NS_TEST_EXPECT_MSG_EQ(run.records[0].syncEnd,
                              clean.records[0].syncEnd,
                              "the sender's round is unchanged");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A cut access link ends in recorded lost peers, never a hang.
 */
class TrainingCutLinkTestCase : public TestCase
{
  public:
    /** \param ring use ring all-reduce */
    TrainingCutLinkTestCase(bool ring)
        : TestCase(std::string("cut link: lost peer recorded, simulation ends, ") +
                   (ring ? "ring" : "direct")),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.cities = 3;
        setup.rounds = 2;
        setup.cut = 2;
        setup.ring = m_ring;
        const RunResult run = Simulate(setup); // returning at all proves there is no hang
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "3 islands x 2 rounds");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round ended, island " << r.island);
            if (r.island != 2)
            {
                // Direct: island 2 is lost. Ring: whoever waits on a broken link is.
                NS_TEST_ASSERT_MSG_GT(r.lostPeers.size() + (m_ring ? 1 : 0),
                                      0u,
                                      "a lost peer is recorded");
                if (!m_ring)
                {
                    NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 1u, "one lost peer");
                    NS_TEST_ASSERT_MSG_EQ(r.lostPeers[0], 2u, "island 2 is the lost one");
                }
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(r.lostPeers.size(), 0u, "the cut island loses its peers");
            }
        }
    }

    bool m_ring; //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief The work TrainingHelper balances across ranks, by hand: three cities in a triangle,
 *        one island each, global clique, 11 chunks per stream. Units: 1 per end of a WAN hop,
 *        5 per packet an island sends or receives (4 for its host stack, 1 for the router's
 *        end of the access link), 2 more per packet through an FPGA.
 */
class TrainingEstimateLoadTestCase : public TestCase
{
  public:
    TrainingEstimateLoadTestCase()
        : TestCase("EstimateLoad by hand for the four capability sets")
    {
    }

  private:
    void DoRun() override
    {
        const double chunks = double(Chunks(10 * CHUNK + 400));
        NS_TEST_ASSERT_MSG_EQ(chunks, 11.0, "10 full chunks and 400 bytes");
        // Per city, per chunk:
        // none: 2 copies up (2 x 5), 2 hops out, 2 hops in, 2 copies down (2 x 5) = 24;
        // multicast: 1 stream up (5), 2 tree edges out, 2 in, 2 streams down (10) = 19;
        // fpga: copies up through the FPGA (2 x 7), 2 + 2 hops, 2 packets into the FPGA
        //   (2 x 2), one aggregate down (2 x 1/2 x 5) = 27;
        // both: 1 x 7 up, 2 + 2 hops, 2 x 2 into the FPGA, 2 x 1/2 x 5 down = 20.
        const std::vector<std::pair<std::string, double>> expected = {{"none", 24},
                                                                      {"multicast", 19},
                                                                      {"fpga", 27},
                                                                      {"both", 20}};
        for (const auto& [caps, perChunk] : expected)
        {
            Setup setup;
            setup.caps = caps;
            const RunResult run = Simulate(setup);
            NS_TEST_ASSERT_MSG_EQ(run.cityLoad.size(), 3u, caps);
            for (double load : run.cityLoad)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(load, perChunk * chunks, 1e-9, caps);
            }
            // Every link carries one chunk stream each way.
            NS_TEST_ASSERT_MSG_EQ(run.linkPackets.size(), 3u, caps);
            for (double packets : run.linkPackets)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(packets, 2 * chunks, 1e-9, caps);
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A multicast tree the routers would refuse is an error before the run, naming the
 *        router and why; the plan's multicast rates are never silently replaced by unicast
 *        copies (which would overload the sender's access link).
 */
class TrainingRefusedTreeTestCase : public TestCase
{
  public:
    TrainingRefusedTreeTestCase()
        : TestCase("a multicast tree the routers refuse is an error before the run")
    {
    }

  private:
    void DoRun() override
    {
        // Three cities in a triangle: island C0-0's tree leaves C0 on two WAN ports.
        Setup setup;
        setup.caps = "multicast";
        setup.fanOutCity = 0;
        setup.fanOut = 1;
        const std::string fanOut = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(fanOut.find("island C0-0's update, but the routers refuse its "
                                          "tree: the router of C0 would replicate to 2 ports, "
                                          "over its MaxFanOut 1"),
                              std::string::npos,
                              "fan-out over the limit: " << fanOut);
        setup.fanOutCity = -1;
        setup.multicastOffCity = 2;
        const std::string off = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(off.find("the router of C2 has MulticastEnabled false"),
                              std::string::npos,
                              "multicast switched off: " << off);
        // A fan-out within the limit runs, and so does a router without multicast when the
        // plan sends unicast copies anyway.
        setup.multicastOffCity = -1;
        setup.fanOutCity = 0;
        setup.fanOut = 2;
        NS_TEST_EXPECT_MSG_EQ(Refusal<std::runtime_error>(setup),
                              "",
                              "fan-out 2 within MaxFanOut 2");
        setup.caps = "none";
        setup.fanOutCity = -1;
        setup.multicastOffCity = 2;
        NS_TEST_EXPECT_MSG_EQ(Refusal<std::runtime_error>(setup),
                              "",
                              "unicast plan, multicast switched off");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Behind an FPGA, a near peer's chunks wait in their slots for a far peer's: the
 *        receiver must not NACK the near peer for them (regression: it did after
 *        RetransmissionTimeout plus the near peer's round trip, and the resent copies passed
 *        the FPGA unfolded and overloaded the island's ingress).
 *
 * Three cities in a triangle: C0 and C1 1 ms apart, C2 60 ms from both, one island each, an
 * FPGA at every island, RetransmissionTimeout 20 ms. Island C0-0 hears from C1-1 after 1 ms
 * but gets every aggregate only after C2-0's chunk arrived, 60 ms in: without the FPGA's hold
 * it would NACK C1-0 at about 22 ms. Each FPGA folds exactly one aggregate per chunk per
 * round, all complete.
 */
class TrainingFpgaHoldTestCase : public TestCase
{
  public:
    TrainingFpgaHoldTestCase()
        : TestCase("behind an FPGA, a near peer is not NACKed while a far peer's chunk is due")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "fpga";
        setup.farDelay = 60e-3;
        setup.rounds = 2;
        const RunResult run = Simulate(setup);
        const uint64_t chunks = Chunks(setup.modelBytes);
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
            NS_TEST_EXPECT_MSG_EQ(r.packetsReceived, chunks, "one aggregate per chunk");
        }
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        // 3 islands x 2 rounds x chunks slots, each folding its 2 peers' chunks.
        NS_TEST_EXPECT_MSG_EQ(run.fpga.complete, 3 * 2 * chunks, "complete aggregates");
        NS_TEST_EXPECT_MSG_EQ(run.fpga.aggregated, 2 * 3 * 2 * chunks, "contributions");
        NS_TEST_EXPECT_MSG_EQ(run.fpga.partial, 0u, "no partial flushes");

        // Untuned, the FPGAs' defaults (Timeout 50 ms) fall short of the 60 ms spread: an
        // error before the run. With a long enough Timeout but a single slot, the same.
        setup.tuneFpgas = false;
        std::string message = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(message.find("the FPGA of island C0-0 has Timeout +50ms, but the "
                                           "plan holds its slots up to"),
                              std::string::npos,
                              "untuned timeout: " << message);
        setup.fpgaTimeout = Seconds(1);
        setup.fpgaSlots = 1;
        message = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(message.find("the FPGA of island C0-0 has SlotCount 1, but the "
                                           "plan may keep up to 22 slots"),
                              std::string::npos,
                              "untuned slots: " << message);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Transmit queues hold one packet per planned stream that shares a link direction:
 *        paced streams in phase reach that bound.
 *
 * Three cities in a ring, two islands each, global clique, no multicast: each island sends 5
 * unicast copies, all starting together at equal rates, so every chunk leaves as a burst of 5
 * packets into the island's own 4-packet queue. Tuned, the helper raises every queue to twice
 * the busiest direction's streams, and nothing is lost; untuned, Install() names the problem.
 * The busiest directions are the WAN links: the 2 islands of a city each send to the 2 of the
 * next city along it, and with a ring of 3 every pair is one hop: 4 streams; an island's
 * egress carries its 5 copies, so 5 is the most, and queues get 10.
 */
class TrainingQueueSizeTestCase : public TestCase
{
  public:
    TrainingQueueSizeTestCase()
        : TestCase("transmit queues hold a packet per planned stream in phase")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 3;
        setup.perCity = 2;
        setup.rounds = 2;
        setup.queuePackets = 4;
        const RunResult run = Simulate(setup);
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "sized queues drop nothing");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
        }
        setup.tuneQueues = false;
        const std::string message = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(message.find("a transmit queue holds 4p, but up to 5 planned "
                                           "streams share one link direction (egress of C0-0)"),
                              std::string::npos,
                              "untuned: " << message);
        NS_TEST_EXPECT_MSG_NE(message.find("at least 10 packets"),
                              std::string::npos,
                              "untuned: " << message);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A round that meets a receiver still in its previous round is held.
 *
 * Four cities in a ring, one island each; C0-C1 and C1-C2 1 ms, the links of C3 30 ms. Round
 * 0 pairs {0,1} and {2,3}, round 1 pairs {0,2} and {1,3}; 20 MB updates take 16 ms at 10 Gbps.
 * Island 0 ends round 0 at about 17 ms and computes until 27 ms, but island 2 receives island
 * 3's update until about 46 ms: sending at once, island 0's stream (2 ms away) would share
 * island 2's ingress with it for some 15 ms, about 18 MB more than its queue holds. Island 0
 * alone must wait (island 1's first packet reaches island 3 only 31 ms after it leaves, after
 * island 3's round 0 has ended); nothing is lost or resent.
 */
class TrainingOverlapTestCase : public TestCase
{
  public:
    TrainingOverlapTestCase()
        : TestCase("a round that meets a receiver still in its previous round is held")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 4;
        setup.farDelay = 30e-3;
        setup.modelBytes = 20000000;
        setup.rounds = 2;
        setup.partitions = {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}};
        const RunResult run = Simulate(setup);
        NS_TEST_EXPECT_MSG_EQ(run.heldStarts, 1u, "island 0 in round 1 only");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A 10x straggler delays its own clique only, and is not declared lost.
 */
class TrainingStragglerTestCase : public TestCase
{
  public:
    TrainingStragglerTestCase()
        : TestCase("10x straggler delays only its clique")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 4;
        setup.compute = MilliSeconds(100);
        setup.straggler = 0;
        setup.partitions = {{{0, 1}, {2, 3}}};
        const RunResult run = Simulate(setup);
        const double slow = 10 * 0.1;
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "a slow peer is not lost");
            const double end = r.syncEnd.GetSeconds();
            if (r.island <= 1)
            {
                NS_TEST_ASSERT_MSG_GT(end, slow, "the straggler's clique waits for it");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT(end, slow / 2, "the other clique does not wait");
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Without loss nothing is resent, even when peers are silent for many check intervals
 *        (a 10x straggler): a NACK that races data still on the way is answered "not yet".
 */
class TrainingNoNeedlessResendTestCase : public TestCase
{
  public:
    /** \param ring ring all-reduce (else direct exchange) */
    explicit TrainingNoNeedlessResendTestCase(bool ring)
        : TestCase(std::string("no loss, straggler: zero retransmissions, ") +
                   (ring ? "ring" : "direct")),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 4;
        setup.rounds = 3;
        setup.compute = MilliSeconds(50);
        setup.straggler = 1;
        setup.ring = m_ring;
        setup.modelBytes = 40 * CHUNK;
        // WAN round trips (>= 120 ms) longer than a step's send time and than the 20 ms check
        // interval: a NACK sent in a silence arrives after the whole step has left.
        setup.wanDelay = 0.03;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), setup.rounds * setup.cities, "all records");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "a slow peer is not lost");
            NS_TEST_ASSERT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
        }
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops + run.lossDrops, 0u, "a clean network");
    }

    bool m_ring; //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief The same seed gives byte-identical rounds.csv rows, under random loss.
 */
class TrainingDeterminismTestCase : public TestCase
{
  public:
    TrainingDeterminismTestCase()
        : TestCase("same seed, byte-identical CSV")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.loss = 0.02;
        setup.rounds = 2;
        setup.modelBytes = 20 * CHUNK;
        const RunResult first = Simulate(setup);
        const RunResult second = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(first.csv, second.csv, "identical CSV");
        NS_TEST_ASSERT_MSG_GT(first.lossDrops, 0u, "the runs had random loss to repeat");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The training application's test suite.
 */
class TrainingApplicationTestSuite : public TestSuite
{
  public:
    TrainingApplicationTestSuite()
        : TestSuite("training-application")
    {
        for (const char* caps : {"none", "multicast", "fpga", "both"})
        {
            AddTestCase(new TrainingExactBytesTestCase(caps));
        }
        AddTestCase(new TrainingSyncTimeTestCase());
        AddTestCase(new TrainingMtuTestCase());
        AddTestCase(new TrainingStockLinksTestCase());
        AddTestCase(new TrainingRingTestCase());
        AddTestCase(new TrainingRealMeanTestCase("none"));
        AddTestCase(new TrainingRealMeanTestCase("both"));
        AddTestCase(new TrainingGridTestCase(false));
        AddTestCase(new TrainingGridTestCase(true));
        AddTestCase(new TrainingLossTestCase(0.01, "none", false));
        AddTestCase(new TrainingLossTestCase(0.05, "both", false));
        AddTestCase(new TrainingLossTestCase(0.05, "both", true));
        AddTestCase(new TrainingSingleDropTestCase);
        AddTestCase(new TrainingCutLinkTestCase(false));
        AddTestCase(new TrainingCutLinkTestCase(true));
        AddTestCase(new TrainingRefusedTreeTestCase());
        AddTestCase(new TrainingFpgaHoldTestCase());
        AddTestCase(new TrainingQueueSizeTestCase());
        AddTestCase(new TrainingOverlapTestCase());
        AddTestCase(new TrainingEstimateLoadTestCase());
        AddTestCase(new TrainingStragglerTestCase());
        AddTestCase(new TrainingNoNeedlessResendTestCase(false));
        AddTestCase(new TrainingNoNeedlessResendTestCase(true));
        AddTestCase(new TrainingDeterminismTestCase());
    }
};

/// The suite's static instance.
static TrainingApplicationTestSuite g_trainingApplicationTestSuite;
