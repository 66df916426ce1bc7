/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The island's UDP port (IslandUdpPort): its DIRECT path puts on every link the bytes ns-3's
 * UDP socket and IPv4 stack (its SOCKETS path) put there, at the same instants, and leaves the
 * island's other traffic to the stack.
 */

// ctest-suite: island-udp-port

#include "training-scenario.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/inet-socket-address.h"
#include "ns3/island-udp-port.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/training-helper.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-wire.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::training_test;

namespace
{

/** One frame a link device started to send. */
struct Frame
{
    Time at;           //!< when
    uint32_t device;   //!< index in TrainingHelper::GetLinkDevices()
    std::string bytes; //!< the packet's bytes as the device's trace shows them
};

/** What one run put on the links. */
struct WireLog
{
    std::vector<Frame> frames; //!< in the order they started
    std::string csv;           //!< the rounds.csv rows
    uint64_t ceMarked{0};      //!< IPv4 frames marked CE (ECN) that islands received
};

/**
 * \param log the run's log \param device the device's index \param packet a frame
 * \brief note a frame a device started to send
 */
void
NoteFrame(WireLog* log, uint32_t device, Ptr<const Packet> packet)
{
    std::string bytes(packet->GetSize(), '\0');
    packet->CopyData(reinterpret_cast<uint8_t*>(&bytes[0]), packet->GetSize());
    log->frames.push_back({Simulator::Now(), device, bytes});
}

/** \param log the run's log \param packet a frame an island received \brief count CE */
void
NoteArrival(WireLog* log, Ptr<const Packet> packet)
{
    uint8_t head[WanWire::IPV4_HEADER_BYTES];
    if (packet->CopyData(head, sizeof(head)) == sizeof(head) &&
        (head[WanWire::IPV4_TOS_OFFSET] & WanWire::IPV4_ECN_MASK) == WanWire::IPV4_ECN_CE)
    {
        ++log->ceMarked;
    }
}

/**
 * \param setup a scenario \param path the islands' UdpPath
 * \return every frame every link device started to send, and the rounds
 */
WireLog
Record(Setup setup, IslandUdpPort::Path path)
{
    WireLog log;
    setup.beforeRun = [&log, path](WanTopologyHelper& wan, TrainingHelper& helper) {
        const std::vector<Ptr<NetDevice>> devices = TrainingHelper::GetLinkDevices();
        for (uint32_t d = 0; d < devices.size(); ++d)
        {
            devices[d]->TraceConnectWithoutContext("PhyTxBegin",
                                                   MakeBoundCallback(&NoteFrame, &log, d));
        }
        for (uint32_t i = 0; i < helper.GetPlans().size(); ++i)
        {
            helper.GetApplication(i)->SetAttribute("UdpPath", EnumValue(path));
            wan.GetIslandDevice(i)->TraceConnectWithoutContext(
                "MacRx",
                MakeBoundCallback(&NoteArrival, &log));
        }
    };
    log.csv = Simulate(setup).csv;
    Simulator::Destroy();
    return log;
}

/**
 * \brief Runs a scenario with UdpPath direct and with sockets and requires the same frames,
 *        byte for byte and instant for instant, on every link, and the same rounds.
 */
class SameWireTestCase : public TestCase
{
  public:
    /**
     * \param name what the scenario exercises \param setup the scenario
     * \param minFrames fewest frames the run must show (traffic enough to mean something)
     * \param wantMarks the run must carry CE-marked datagrams to the islands
     */
    SameWireTestCase(const std::string& name, Setup setup, uint64_t minFrames, bool wantMarks)
        : TestCase("direct and sockets: the same frames at the same instants, " + name),
          m_setup(setup),
          m_minFrames(minFrames),
          m_wantMarks(wantMarks)
    {
    }

  private:
    void DoRun() override
    {
        const WireLog sockets = Record(m_setup, IslandUdpPort::SOCKETS);
        const WireLog direct = Record(m_setup, IslandUdpPort::DIRECT);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(sockets.frames.size(),
                                    m_minFrames,
                                    "too little traffic to compare");
        if (m_wantMarks)
        {
            NS_TEST_ASSERT_MSG_GT(sockets.ceMarked, 0, "no CE-marked datagram reached an island");
        }
        NS_TEST_EXPECT_MSG_EQ(direct.ceMarked, sockets.ceMarked, "CE-marked arrivals");
        NS_TEST_ASSERT_MSG_EQ(direct.frames.size(), sockets.frames.size(), "frames sent");
        for (size_t f = 0; f < sockets.frames.size(); ++f)
        {
            const Frame& a = sockets.frames[f];
            const Frame& b = direct.frames[f];
            std::ostringstream where;
            where << "frame " << f << " (sockets: device " << a.device << " at " << a.at << ", "
                  << a.bytes.size() << " bytes; direct: device " << b.device << " at " << b.at
                  << ", " << b.bytes.size() << " bytes)";
            NS_TEST_ASSERT_MSG_EQ(b.at, a.at, where.str());
            NS_TEST_ASSERT_MSG_EQ(b.device, a.device, where.str());
            NS_TEST_ASSERT_MSG_EQ((b.bytes == a.bytes), true, "bytes of " << where.str());
        }
        NS_TEST_EXPECT_MSG_EQ(direct.csv, sockets.csv, "rounds.csv rows");
    }

    Setup m_setup;        //!< the scenario
    uint64_t m_minFrames; //!< fewest frames
    bool m_wantMarks;     //!< CE marks required
};

/**
 * \brief With ns-3's ChecksumEnabled on, both paths write the same IPv4 and UDP checksums
 *        (and the receivers accept them: the rounds complete alike).
 */
class ChecksumsTestCase : public SameWireTestCase
{
  public:
    /** \param setup the scenario \param minFrames fewest frames */
    ChecksumsTestCase(Setup setup, uint64_t minFrames)
        : SameWireTestCase("with ChecksumEnabled", setup, minFrames, false)
    {
    }

  private:
    void DoSetup() override
    {
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
    }

    void DoTeardown() override
    {
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    }
};

/** A datagram one island's ns-3 socket sends to another port of another island. */
struct Probe
{
    uint32_t received{0}; //!< datagrams the target's ns-3 socket read
    uint32_t bytes{0};    //!< their bytes
};

/** \param probe the tally \param socket the target's socket \brief read what arrived */
void
ReadProbe(Probe* probe, Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        ++probe->received;
        probe->bytes += packet->GetSize();
    }
}

/**
 * \brief DIRECT takes only the port's datagrams off the access device: a datagram to another
 *        UDP port of the island still reaches an ns-3 socket through the IPv4 stack, during a
 *        round the port's own traffic completes.
 */
class OtherTrafficTestCase : public TestCase
{
  public:
    OtherTrafficTestCase()
        : TestCase("direct: datagrams to another port of the island reach its ns-3 socket")
    {
    }

  private:
    void DoRun() override
    {
        static constexpr uint16_t OTHER_PORT = 9;
        static constexpr uint32_t PROBES = 5;
        static constexpr uint32_t PROBE_BYTES = 700;
        Probe probe;
        Setup setup;
        setup.caps = "both";
        setup.beforeRun = [&probe](WanTopologyHelper& wan, TrainingHelper&) {
            Ptr<Socket> sink =
                Socket::CreateSocket(wan.GetIslandNode(0), UdpSocketFactory::GetTypeId());
            sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), OTHER_PORT));
            sink->SetRecvCallback(MakeBoundCallback(&ReadProbe, &probe));
            Ptr<Socket> source =
                Socket::CreateSocket(wan.GetIslandNode(2), UdpSocketFactory::GetTypeId());
            const InetSocketAddress to(wan.GetIslandAddress(0), OTHER_PORT);
            for (uint32_t k = 0; k < PROBES; ++k)
            {
                // During the exchange (the compute phase is 10 ms).
                Simulator::Schedule(MilliSeconds(10) + MicroSeconds(100 * k), [source, to]() {
                    source->SendTo(Create<Packet>(PROBE_BYTES), 0, to);
                });
            }
        };
        const RunResult run = Simulate(setup);
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(probe.received, PROBES, "datagrams to the other port");
        NS_TEST_EXPECT_MSG_EQ(probe.bytes, PROBES * PROBE_BYTES, "their bytes");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " round " << r.round);
        }
    }
};

/** The scenarios. */
class IslandUdpPortTestSuite : public TestSuite
{
  public:
    IslandUdpPortTestSuite()
        : TestSuite("island-udp-port")
    {
        // Lossy rounds: first passes, NACKs, resends, LATE and START notices, two rounds.
        Setup lossy;
        lossy.cities = 3;
        lossy.perCity = 2;
        lossy.rounds = 2;
        lossy.loss = 0.02;
        AddTestCase(new SameWireTestCase("none, 2% loss", lossy, 500, false));
        Setup fpga = lossy;
        fpga.caps = "both";
        AddTestCase(new SameWireTestCase("multicast and FPGAs, 2% loss", fpga, 300, false));
        Setup stock = lossy;
        stock.stockLinks = true;
        AddTestCase(new SameWireTestCase("ns-3's point-to-point links", stock, 500, false));
        AddTestCase(
            new SameWireTestCase("adaptive transport, ECN", CongestedAdaptive(), 2000, true));
        Setup stopped = lossy;
        stopped.stopIsland = 1;
        stopped.stopAt = MilliSeconds(11);
        AddTestCase(new SameWireTestCase("an island stopped mid-round", stopped, 500, false));
        AddTestCase(new ChecksumsTestCase(fpga, 300));
        AddTestCase(new OtherTrafficTestCase());
    }
};

/** The suite's instance. */
IslandUdpPortTestSuite g_islandUdpPortTestSuite;

} // namespace
