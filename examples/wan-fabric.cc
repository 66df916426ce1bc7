/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * wan-fabric: the WAN fabric alone, checked against arithmetic.
 *
 * One island sends a burst of --bytes bytes to every other island, as UDP datagrams of at most
 * 8972 payload bytes (one 9000-byte IPv4 packet each). The program runs twice, in separate
 * simulations: once by multicast over the sender's shortest-path tree (every router made
 * multicast-capable for this run), once by unicast copies sent back to back to each receiver
 * in island-index order. For every receiver it prints the time the last byte arrived beside
 * its analytic value: the last byte's arrival through a chain of store-and-forward hops that
 * nothing else uses (the sender's access link, in-box, WAN, in-box, access),
 *
 *   t = busy + max over a of [ sum_{i<=a} R/b_i + sum_{i>=a} F/b_i
 *                               + (N - 2) x F / min_{i>=a} b_i ] + sum of propagation delays
 *
 * for N datagrams, the first (the burst's remainder) R wire bytes and the rest F, over hops of
 * rates b_0..b_H (in bits); busy is the time the sender's access link first spends on the
 * copies to receivers ahead of this one (unicast only). It is the longest path through the
 * grid of (hop, datagram) serialisations, the usual result for a FIFO tandem; with the access
 * link the slowest hop it reduces to all bytes ahead over the access rate plus one full
 * datagram's serialisation per later hop. Multicast trees and unicast copies whose later hops
 * are no slower than the access link meet no other traffic, so there the value is exact; a
 * unicast copy with a slower later hop may queue there behind copies to other receivers, so
 * its value is only a lower bound. Paths come from WanRouting (tree path for multicast,
 * next-link walk for unicast). The program also prints the bytes the sender's access link
 * carried in each mode, writes the table to <output>/wan-fabric.csv, and exits 1 if a
 * receiver misses bytes, an exact arrival is more than 0.1% off, or an arrival is more than
 * 0.1% before its lower bound.
 *
 *   wan-fabric --bytes=10000000 --sender=NYC-0 --output=results/fabric
 */

#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/text-table.h"
#include "ns3/training-csv.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Largest UDP payload of one datagram: 9000-byte MTU - IPv4 20 - UDP 8.
const uint32_t MAX_PAYLOAD = 8972;
/// Bytes a datagram adds on the wire: UDP 8 + IPv4 20 + PPP 2.
const uint32_t WIRE_OVERHEAD = 8 + 20 + 2;
/// UDP port of the burst.
const uint16_t BURST_PORT = 5000;
/// Largest relative error of an arrival time against its analytic value.
const double MAX_RELATIVE_ERROR = 1e-3;
/// Default burst size, bytes.
const uint64_t DEFAULT_BYTES = 10000000;
/** Largest --bytes: 1 TB (the packet count is checked against the island count as well). */
const uint64_t MAX_BYTES = 1000000000000ULL;
/**
 * Most datagrams the unicast run may queue at once (the burst's datagrams times the
 * receivers, all enqueued at time zero): about 5 GB of packets, and minutes of wall time.
 */
const uint64_t MAX_QUEUED_DATAGRAMS = 1ULL << 24;
/// Extra queue room beyond the burst's packets.
const uint32_t QUEUE_SLACK = 16;

/** The two ways of reaching every receiver. */
enum class Mode
{
    MULTICAST, //!< one stream down the sender's tree
    UNICAST    //!< one copy per receiver, back to back
};

/** \param mode a mode \return its name */
const char*
ModeName(Mode mode)
{
    return mode == Mode::MULTICAST ? "multicast" : "unicast";
}

/** What one run measured. */
struct RunResult
{
    std::vector<double> lastByte;        //!< per island: last arrival, seconds (-1 if none)
    std::vector<uint64_t> receivedBytes; //!< per island: payload bytes received
    uint64_t accessBytes{0};             //!< frames' bytes on the sender's access link
    uint64_t accessPackets{0};           //!< frames on the sender's access link
};

/**
 * One simulation run: builds the fabric, sends the burst at time zero and records arrivals.
 * Member functions serve as callbacks, so nothing scheduled is a lambda.
 */
class FabricRun
{
  public:
    /**
     * \param topology the topology \param sender sending island \param sizes datagram payloads
     * \param mode multicast or unicast copies
     * \param userQueue the topology's queues come from the file or --queue (else sized for
     *        the burst)
     */
    FabricRun(const WanTopology& topology,
              uint32_t sender,
              const std::vector<uint32_t>& sizes,
              Mode mode,
              bool userQueue)
        : m_sender(sender),
          m_sizes(sizes),
          m_mode(mode)
    {
        const uint32_t nIslands = topology.GetIslands().size();
        // Every datagram of every copy may sit in the sender's access queue at once: unless
        // the file or --queue chose queues, they hold them all (the analytic times assume no
        // drop).
        const uint32_t queuePackets = sizes.size() * nIslands + QUEUE_SLACK;
        if (!userQueue)
        {
            m_helper.SetQueueSize(QueueSize(QueueSizeUnit::PACKETS, queuePackets));
        }
        m_helper.Install(topology);
        m_result.lastByte.assign(nIslands, -1.0);
        m_result.receivedBytes.assign(nIslands, 0);

        std::vector<uint32_t> receivers;
        for (uint32_t i = 0; i < nIslands; ++i)
        {
            if (i == sender)
            {
                continue;
            }
            receivers.push_back(i);
            Ptr<Socket> s =
                Socket::CreateSocket(m_helper.GetIslandNode(i), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), BURST_PORT));
            s->SetRecvCallback(MakeCallback(&FabricRun::Receive, this));
            m_islandByNode[m_helper.GetIslandNode(i)->GetId()] = i;
            m_receiveSockets.push_back(s);
        }
        if (mode == Mode::MULTICAST)
        {
            m_group = m_helper.AllocateGroup();
            if (!m_helper.InstallMulticastTree(sender, m_group, receivers))
            {
                throw std::runtime_error("wan-fabric: the multicast tree is not capable although "
                                         "every router was made multicast-capable");
            }
            m_destinations.push_back(m_group);
        }
        else
        {
            for (uint32_t r : receivers)
            {
                m_destinations.push_back(m_helper.GetIslandAddress(r));
            }
        }
        m_helper.GetIslandDevice(sender)->TraceConnectWithoutContext(
            "PhyTxEnd",
            MakeCallback(&FabricRun::CountAccess, this));
        m_sendSocket =
            Socket::CreateSocket(m_helper.GetIslandNode(sender), UdpSocketFactory::GetTypeId());
        Simulator::ScheduleWithContext(m_helper.GetIslandNode(sender)->GetId(),
                                       Seconds(0),
                                       &FabricRun::SendBurst,
                                       this);
    }

    /** \brief Run the simulation to its end. \return what it measured */
    RunResult Run()
    {
        Simulator::Run();
        for (auto& s : m_receiveSockets)
        {
            s->Close();
        }
        m_sendSocket->Close();
        return m_result;
    }

    /** \return the helper (routes, devices) */
    const WanTopologyHelper& GetHelper() const
    {
        return m_helper;
    }

  private:
    /** \brief Enqueue the whole burst, for every destination in order, into the access queue. */
    void SendBurst()
    {
        for (const Ipv4Address& to : m_destinations)
        {
            for (uint32_t size : m_sizes)
            {
                m_sendSocket->SendTo(Create<Packet>(size), 0, InetSocketAddress(to, BURST_PORT));
            }
        }
    }

    /** \brief Read every datagram waiting on \p socket. */
    void Receive(Ptr<Socket> socket)
    {
        const uint32_t island = m_islandByNode[socket->GetNode()->GetId()];
        Ptr<Packet> p;
        while ((p = socket->Recv()))
        {
            m_result.receivedBytes[island] += p->GetSize();
            m_result.lastByte[island] = Simulator::Now().GetSeconds();
        }
    }

    /** \brief Count a frame leaving the sender's access device. */
    void CountAccess(Ptr<const Packet> p)
    {
        ++m_result.accessPackets;
        m_result.accessBytes += p->GetSize();
    }

    WanTopologyHelper m_helper;                  //!< the fabric
    uint32_t m_sender;                           //!< sending island
    std::vector<uint32_t> m_sizes;               //!< datagram payloads of one burst
    Mode m_mode;                                 //!< how the burst is sent
    Ipv4Address m_group;                         //!< the group (multicast mode)
    std::vector<Ipv4Address> m_destinations;     //!< group, or receivers in order
    Ptr<Socket> m_sendSocket;                    //!< the sender's socket
    std::vector<Ptr<Socket>> m_receiveSockets;   //!< one per receiver
    std::map<uint32_t, uint32_t> m_islandByNode; //!< node id to island
    RunResult m_result;                          //!< what was measured
};

/** One hop a datagram crosses: its rate and propagation delay. */
struct Hop
{
    double bps;   //!< rate, bit/s
    double delay; //!< propagation delay, seconds (rounded to ns as installed)
};

/** \param seconds a delay \return it rounded to ns, as the helper installs it */
double
Rounded(double seconds)
{
    return static_cast<double>(WanRouting::ToNanoSeconds(seconds)) * 1e-9;
}

/**
 * \brief The hops from the sender's host to a receiver's host.
 * \param topology the topology \param wan the WAN hops between their cities
 * \param inBoxBps in-box link rate \param inBoxDelay in-box link delay, s
 * \param from sending island \param to receiving island
 * \return the hops, the sender's access link first
 */
std::vector<Hop>
HostPath(const WanTopology& topology,
         const std::vector<WanHop>& wan,
         double inBoxBps,
         double inBoxDelay,
         uint32_t from,
         uint32_t to)
{
    const auto& islands = topology.GetIslands();
    const auto& cities = topology.GetCities();
    const WanIsland& s = islands[from];
    const WanIsland& r = islands[to];
    std::vector<Hop> hops;
    hops.push_back({static_cast<double>(s.accessBps), Rounded(s.accessDelay)});
    if (cities[s.city].caps.fpga)
    {
        hops.push_back({inBoxBps, Rounded(inBoxDelay)});
    }
    for (const WanHop& h : wan)
    {
        const WanLink& l = topology.GetLinks()[h.link];
        hops.push_back({static_cast<double>(l.bps), Rounded(l.delay)});
    }
    if (cities[r.city].caps.fpga)
    {
        hops.push_back({inBoxBps, Rounded(inBoxDelay)});
    }
    hops.push_back({static_cast<double>(r.accessBps), Rounded(r.accessDelay)});
    return hops;
}

/** \return the WAN hops of \p tree from its root to \p city */
std::vector<WanHop>
TreePath(const WanTree& tree, uint32_t city)
{
    std::vector<WanHop> path;
    while (city != tree.root)
    {
        const auto it = std::find_if(tree.hops.begin(), tree.hops.end(), [city](const WanHop& h) {
            return h.to == city;
        });
        if (it == tree.hops.end())
        {
            throw std::runtime_error("wan-fabric: city not on the tree");
        }
        path.insert(path.begin(), *it);
        city = it->from;
    }
    return path;
}

/** The burst one island sends: its datagrams and what they put on the wire. */
struct Burst
{
    uint64_t bytes{0};           //!< payload bytes
    uint64_t packets{0};         //!< datagrams
    std::vector<uint32_t> sizes; //!< datagram payloads, the remainder first
    uint64_t wireBytes{0};       //!< frame bytes of the whole burst
    uint32_t firstFrame{0};      //!< bytes of the first frame (the remainder's)
    uint32_t lastFrame{0};       //!< bytes of the last frame (every frame after the first)
};

/**
 * \brief Analytic arrival of the last byte through a chain of FIFO store-and-forward hops:
 *        the longest path through the grid of (hop, datagram) serialisations.
 * \param hops the host-to-host path \param busyBytes frame bytes the sender's access link
 *        sends before this receiver's first datagram \param burst the burst
 * \return seconds after the burst starts
 */
double
Analytic(const std::vector<Hop>& hops, uint64_t busyBytes, const Burst& burst)
{
    const double first = burst.firstFrame * 8.0;
    const double full = burst.lastFrame * 8.0;
    double propagation = 0;
    for (const Hop& hop : hops)
    {
        propagation += hop.delay;
    }
    double longest = 0;
    for (std::size_t a = 0; a < hops.size(); ++a)
    {
        // The first datagram to hop a, every datagram through hop a's slowest successor...
        double path = 0;
        double slowest = hops[a].bps;
        for (std::size_t i = 0; i < hops.size(); ++i)
        {
            path += i <= a ? first / hops[i].bps : 0;
            path += i >= a && burst.packets > 1 ? full / hops[i].bps : 0;
            slowest = i >= a ? std::min(slowest, hops[i].bps) : slowest;
        }
        // ...where the other N - 2 wait: a path turns there for all of them.
        if (burst.packets > 2)
        {
            path += static_cast<double>(burst.packets - 2) * full / slowest;
        }
        longest = std::max(longest, path);
    }
    return busyBytes * 8.0 / hops[0].bps + longest + propagation;
}

/** \return the island named or numbered \p text (empty: island 0) \throws runtime_error */
uint32_t
ResolveSender(const WanTopology& topology, const std::string& text)
{
    const auto& islands = topology.GetIslands();
    if (text.empty())
    {
        return 0;
    }
    for (uint32_t i = 0; i < islands.size(); ++i)
    {
        if (islands[i].name == text)
        {
            return i;
        }
    }
    if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        text.size() < 10 && std::stoul(text) < islands.size())
    {
        return std::stoul(text);
    }
    throw std::runtime_error("--sender: " + WanInputError::Quote(text) +
                             ": not an island name or index (0.." +
                             std::to_string(islands.size() - 1) + ")");
}

/**
 * \brief Make every router multicast-capable; FPGAs stay where the capabilities put them.
 * \param topology the topology to change
 */
void
MakeEveryRouterMulticast(WanTopology& topology)
{
    std::string overrides;
    for (const WanCity& c : topology.GetCities())
    {
        overrides +=
            (overrides.empty() ? "" : ",") + c.code + ":" + (c.caps.fpga ? "both" : "multicast");
    }
    topology.ApplyCityCapabilities(overrides);
}

/**
 * \brief Cut a burst into datagrams: the remainder goes first, so its tail is all full
 *        datagrams.
 * \param bytes burst size (--bytes) \param nIslands islands of the topology
 * \return the burst \throws std::runtime_error if the datagrams of all copies are too many
 */
Burst
MakeBurst(uint64_t bytes, std::size_t nIslands)
{
    const uint64_t packets = (bytes + MAX_PAYLOAD - 1) / MAX_PAYLOAD;
    const uint64_t queued = packets * (nIslands - 1);
    if (queued > MAX_QUEUED_DATAGRAMS)
    {
        throw WanInputError(WanFlags::Rejection(
            "bytes",
            std::to_string(bytes),
            "the unicast run would queue " + std::to_string(queued) + " datagrams at once (" +
                std::to_string(packets) + " to each of " + std::to_string(nIslands - 1) +
                " receivers; at most " + std::to_string(MAX_QUEUED_DATAGRAMS) + ")"));
    }
    Burst burst;
    burst.bytes = bytes;
    burst.packets = packets;
    burst.sizes.assign(packets, MAX_PAYLOAD);
    burst.sizes[0] = static_cast<uint32_t>(bytes - (packets - 1) * MAX_PAYLOAD);
    burst.wireBytes = bytes + packets * WIRE_OVERHEAD;
    burst.firstFrame = burst.sizes.front() + WIRE_OVERHEAD;
    burst.lastFrame = burst.sizes.back() + WIRE_OVERHEAD;
    return burst;
}

/** A receiver's analytic arrival. */
struct Expected
{
    double seconds{-1}; //!< after the burst starts (-1: the sender)
    bool exact{true};   //!< exact; else a lower bound (a unicast copy with a slower later hop)
};

/**
 * \param hops the host-to-host path
 * \return true if a hop after the sender's access link is slower than it: unicast copies to
 *         other receivers may queue there ahead of this one's
 */
bool
HasSlowerLaterHop(const std::vector<Hop>& hops)
{
    return std::any_of(hops.begin() + 1, hops.end(), [&hops](const Hop& h) {
        return h.bps < hops[0].bps;
    });
}

/**
 * \brief The analytic arrival of the burst's last byte at every receiver.
 * \param topology the topology \param routing the fabric's routes
 * \param sender sending island \param mode multicast or unicast copies \param burst the burst
 * \return per island (the sender's entry unused)
 */
std::vector<Expected>
ExpectedArrivals(const WanTopology& topology,
                 const WanRouting& routing,
                 uint32_t sender,
                 Mode mode,
                 const Burst& burst)
{
    const auto& islands = topology.GetIslands();
    const double inBoxBps =
        static_cast<double>(WanTopologyHelper::DEFAULT_IN_BOX_RATE.GetBitRate());
    const double inBoxDelay = WanTopologyHelper::DEFAULT_IN_BOX_DELAY.GetSeconds();
    std::vector<uint32_t> cities;
    for (const WanIsland& isl : islands)
    {
        cities.push_back(isl.city);
    }
    const WanTree tree = routing.GetTree(islands[sender].city, cities);
    std::vector<Expected> expected(islands.size());
    uint32_t order = 0;
    for (uint32_t r = 0; r < islands.size(); ++r)
    {
        if (r == sender)
        {
            continue;
        }
        const bool multicast = mode == Mode::MULTICAST;
        const auto wan = multicast ? TreePath(tree, islands[r].city)
                                   : routing.GetPath(islands[sender].city, islands[r].city);
        const auto hops = HostPath(topology, wan, inBoxBps, inBoxDelay, sender, r);
        const uint64_t busy = multicast ? 0 : burst.wireBytes * order;
        expected[r].seconds = Analytic(hops, busy, burst);
        expected[r].exact = multicast || !HasSlowerLaterHop(hops);
        ++order;
    }
    return expected;
}

/** What the two runs measured and what arithmetic expects, per mode (multicast first). */
struct FabricRuns
{
    std::vector<RunResult> results;              //!< measured, per mode
    std::vector<std::vector<Expected>> analytic; //!< expected arrivals, per mode
};

/**
 * \brief Run the burst once per mode, each in its own simulation.
 * \param topology the topology \param sender sending island \param burst the burst
 * \param userQueue the topology's queues come from the file or --queue (else sized for the
 *        burst)
 * \return what each run measured and expected
 */
FabricRuns
RunBothModes(const WanTopology& topology, uint32_t sender, const Burst& burst, bool userQueue)
{
    FabricRuns runs;
    for (Mode mode : {Mode::MULTICAST, Mode::UNICAST})
    {
        FabricRun run(topology, sender, burst.sizes, mode, userQueue);
        std::vector<Expected> expected =
            ExpectedArrivals(topology, run.GetHelper().GetRouting(), sender, mode, burst);
        runs.results.push_back(run.Run());
        runs.analytic.push_back(expected);
        Simulator::Destroy();
    }
    return runs;
}

/** \param value a number \return it in scientific notation with 2 decimals */
std::string
Scientific(double value)
{
    std::ostringstream os;
    os << std::scientific << std::setprecision(2) << value;
    return os.str();
}

/** \return the table of arrivals: island, then measured, analytic and error per mode */
TextTable
MakeArrivalTable()
{
    TextTable table;
    table.AddColumn("island", 10, TextTable::LEFT);
    for (const char* mode : {"multicast_s", "unicast_s"})
    {
        table.AddColumn(mode, 16, TextTable::RIGHT);
        table.AddColumn("analytic_s", 16, TextTable::RIGHT);
        table.AddColumn("error", 11, TextTable::RIGHT);
    }
    return table;
}

/** How the arrivals compare with arithmetic. */
struct Comparison
{
    double worst{0};     //!< largest relative error of an arrival (below a bound: how far)
    bool complete{true}; //!< every receiver got the whole burst in every mode
    uint32_t bounds{0};  //!< arrivals whose analytic value is only a lower bound
};

/**
 * \brief Compare every receiver's arrivals with their analytic values: one table row per
 *        receiver, one CSV line per receiver and mode.
 * \param topology the topology \param sender sending island \param burst the burst
 * \param runs what the runs measured and expected
 * \param csv receives the CSV lines \param table receives the rows
 * \return the worst error and whether every receiver got every byte
 */
Comparison
CompareArrivals(const WanTopology& topology,
                uint32_t sender,
                const Burst& burst,
                const FabricRuns& runs,
                std::ostream& csv,
                TextTable& table)
{
    const auto& islands = topology.GetIslands();
    Comparison comparison;
    for (uint32_t r = 0; r < islands.size(); ++r)
    {
        if (r == sender)
        {
            continue;
        }
        std::vector<std::string> cells{islands[r].name};
        for (std::size_t m = 0; m < runs.results.size(); ++m)
        {
            const double got = runs.results[m].lastByte[r];
            const Expected& expected = runs.analytic[m][r];
            const double want = expected.seconds;
            // A lower bound is missed only by arriving before it.
            const double error =
                expected.exact ? std::abs(got - want) / want : std::max(0.0, (want - got) / want);
            comparison.bounds += expected.exact ? 0 : 1;
            comparison.worst = std::max(comparison.worst, error);
            if (runs.results[m].receivedBytes[r] != burst.bytes)
            {
                comparison.complete = false;
            }
            cells.push_back(TextTable::Fixed(got, 9));
            cells.push_back(TextTable::Fixed(want, 9));
            cells.push_back(Scientific(error));
            csv << TrainingCsv::Field(ModeName(m == 0 ? Mode::MULTICAST : Mode::UNICAST)) << ","
                << TrainingCsv::Field(islands[r].name) << ","
                << TrainingCsv::Field(topology.GetCities()[islands[r].city].code) << ","
                << runs.results[m].receivedBytes[r] << "," << std::setprecision(12) << got << ","
                << want << "," << error << "\n";
        }
        table.AddRow(cells);
    }
    return comparison;
}

/**
 * \brief Print the table, the bytes on the sender's access link and the worst error.
 * \param table the filled table \param receivers its rows \param runs what the runs measured
 * \param worst the worst relative error
 */
void
PrintSummary(const TextTable& table, std::size_t receivers, const FabricRuns& runs, double worst)
{
    std::cout << table.FormatHeader() << "\n";
    for (uint32_t row = 0; row < receivers; ++row)
    {
        std::cout << table.FormatRow(row) << "\n";
    }
    for (std::size_t m = 0; m < runs.results.size(); ++m)
    {
        std::cout << "sender access link, " << ModeName(m == 0 ? Mode::MULTICAST : Mode::UNICAST)
                  << ": " << runs.results[m].accessBytes << " bytes in "
                  << runs.results[m].accessPackets << " frames\n";
    }
    std::cout << "worst relative error: " << std::scientific << std::setprecision(3) << worst
              << " (limit " << MAX_RELATIVE_ERROR << ")" << std::endl;
}

/**
 * \brief Write <output>/wan-fabric.csv and print the comparison.
 * \param topology the topology \param sender sending island \param burst the burst
 * \param runs what the runs measured and expected \param output the output folder
 * \return the exit code: 1 if a receiver missed bytes or an arrival is off, else 0
 */
int
Report(const WanTopology& topology,
       uint32_t sender,
       const Burst& burst,
       const FabricRuns& runs,
       const std::string& output)
{
    const auto& islands = topology.GetIslands();
    std::ofstream csv(output + "/wan-fabric.csv");
    csv << "mode,island,city,received_bytes,last_byte_s,analytic_s,relative_error\n";
    std::cout << "wan-fabric: topology " << topology.GetName() << ", sender "
              << islands[sender].name << ", burst " << burst.bytes << " bytes in " << burst.packets
              << " datagrams\n";
    TextTable table = MakeArrivalTable();
    const Comparison comparison = CompareArrivals(topology, sender, burst, runs, csv, table);
    PrintSummary(table, islands.size() - 1, runs, comparison.worst);
    if (comparison.bounds > 0)
    {
        std::cout << "note: " << comparison.bounds
                  << " unicast arrivals cross a hop slower than the sender's access link, where "
                     "copies to other receivers may queue: their analytic value is a lower "
                     "bound, and their error counts only an arrival before it\n";
    }
    if (!comparison.complete)
    {
        std::cerr << "error: a receiver did not get the whole burst" << std::endl;
        return 1;
    }
    if (!(comparison.worst <= MAX_RELATIVE_ERROR))
    {
        std::cerr << "error: an arrival is more than 0.1% off its analytic value (or before "
                     "its lower bound)"
                  << std::endl;
        return 1;
    }
    return 0;
}

/** The example's body (see the file comment). */
int
Body(int argc, char** argv)
{
    WanCommandLine cmd("wan-fabric",
                       "Send a burst from one island to all others by multicast and by unicast "
                       "copies, and compare every arrival with its analytic time.");
    uint64_t bytes = DEFAULT_BYTES;
    std::string senderText;
    cmd.Flags().AddUnsigned("bytes", "burst size in bytes", bytes, 1, MAX_BYTES);
    WanFlags::AddText(cmd.Get(),
                      "sender",
                      "sending island, by name or index (default: the first)",
                      senderText);
    cmd.Parse(argc, argv);
    if (cmd.IsGiven("seed"))
    {
        throw std::runtime_error(
            WanFlags::ChangesNothing("seed", "nothing in wan-fabric's runs is random"));
    }
    WanTopology topology = cmd.LoadTopology();
    const uint32_t sender = ResolveSender(topology, senderText);
    if (topology.GetIslands().size() < 2)
    {
        throw std::runtime_error("--topology: " + cmd.GetTopologyPath() +
                                 ": needs at least two islands");
    }
    const Burst burst = MakeBurst(bytes, topology.GetIslands().size());
    // Every input checked: only now the output folder.
    const std::string output = cmd.PrepareOutput();
    // Multicast needs every router capable.
    MakeEveryRouterMulticast(topology);
    // Queues the user chose (the file's queue keys, --queue) stay; a full one drops, and the
    // receiver's missing bytes fail the run.
    const FabricRuns runs = RunBothModes(topology,
                                         sender,
                                         burst,
                                         !cmd.GetQueue().empty() || topology.HasChosenQueues());
    return Report(topology, sender, burst, runs, output);
}

} // namespace

int
main(int argc, char** argv)
{
    return WanCommandLine::RunMain(Body, argc, argv);
}
