/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the transit FPGAs (TransitAggregatorNetDevice beside a router, WanRouterNetDevice's
 * transit port, WanTopologyHelper building them) by raw packet injection: islands send crafted
 * DATA|REDUCE chunks with real payloads by UDP to a root island, whose socket collects every
 * piece that arrives. The test adds the pieces up by their bitmaps and compares with its own
 * sum of the values it sent; the pieces expected (how many, which bitmaps) are worked out by
 * hand from each topology's routes.
 */

// ctest-suite: transit-aggregator

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/gradient-header.h"
#include "ns3/gradient-payload.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/transit-aggregator-net-device.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-router-net-device.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-wire.h"

#include <cstdint>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const uint16_t PORT = WanWire::DEFAULT_GRADIENT_PORT; //!< gradient traffic
const uint64_t LINK_BPS = 10000000000ULL;             //!< every link: 10 Gbps
const double WAN_DELAY = 0.001;                       //!< every WAN link: 1 ms
const double ACCESS_DELAY = 0.00001;                  //!< every access link: 10 us
const uint32_t ELEMENTS = 256;                        //!< int32 values per chunk
const uint32_t JOB = 3;                               //!< job id of every piece
const uint32_t ROUND = 9;                             //!< round of every piece
/** The flags of a transit FPGA's aggregate of real payloads. */
const uint16_t REDUCE_REAL = GradientHeader::FLAG_REDUCE | GradientHeader::FLAG_REAL_PAYLOAD;

/** \return a bitmap of the listed islands */
IslandBitmap
Bitmap(const std::vector<uint32_t>& islands)
{
    IslandBitmap bitmap;
    for (uint32_t island : islands)
    {
        bitmap.Set(island);
    }
    return bitmap;
}

/** A topology built in code: cities by code, links, islands. */
struct Net
{
    WanTopology topology;                    //!< the topology
    std::map<std::string, uint32_t> cities;  //!< city index by code
    std::map<std::string, uint32_t> islands; //!< island index by name

    /** \param code city code \param caps its capabilities (Parse names) */
    void City(const std::string& code, const std::string& caps = "none")
    {
        WanCity c;
        c.code = code;
        c.name = code;
        c.caps = WanCapabilities::Parse(caps, "test");
        cities[code] = topology.AddCity(c);
    }

    /** \param a one city's code \param b the other's */
    void Link(const std::string& a, const std::string& b)
    {
        topology.AddLink(WanLink{cities.at(a), cities.at(b), LINK_BPS, WAN_DELAY});
    }

    /** \param name island name \param city its city's code */
    void Island(const std::string& name, const std::string& city)
    {
        islands[name] =
            topology.AddIsland(WanIsland{name, cities.at(city), LINK_BPS, ACCESS_DELAY});
    }

    /** \param names island names \return their bitmap */
    IslandBitmap Of(const std::vector<std::string>& names) const
    {
        IslandBitmap bitmap;
        for (const std::string& name : names)
        {
            bitmap.Set(islands.at(name));
        }
        return bitmap;
    }
};

/** One piece that reached the root. */
struct Piece
{
    GradientHeader header;       //!< its gradient header
    std::vector<int32_t> values; //!< its payload
    Time at;                     //!< arrival time
};

/**
 * The harness: a WAN with transit FPGAs, a collecting socket on each root island, one sending
 * socket per island, and the values each island sent, summed here independently (int64, then
 * wrapped to int32).
 */
class TransitTestCase : public TestCase
{
  public:
    /** \param name the test's name */
    explicit TransitTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /** Key of one chunk of one clique. */
    typedef std::pair<uint32_t, uint32_t> ChunkKey;

    /**
     * \return R -- T -- L0, L1, L2 with a transit FPGA at T and one island in each of R (r),
     *         L0 (l0), L1 (l1) and L2 (l2): what comes up from the L cities meets at T
     */
    static Net BehindOneTransit()
    {
        Net net;
        net.City("R");
        net.City("T", "transit");
        net.Link("R", "T");
        for (const char* code : {"L0", "L1", "L2"})
        {
            net.City(code);
            net.Link("T", code);
        }
        net.Island("r", "R");
        net.Island("l0", "L0");
        net.Island("l1", "L1");
        net.Island("l2", "L2");
        return net;
    }

    /**
     * \brief Install the WAN.
     * \param net the topology \param transit attributes of the transit FPGAs
     */
    void Build(const Net& net, const std::map<std::string, Ptr<AttributeValue>>& transit = {})
    {
        m_net = net;
        m_helper = std::make_unique<WanTopologyHelper>();
        for (const auto& attribute : transit)
        {
            m_helper->SetTransitAttribute(attribute.first, *attribute.second);
        }
        m_helper->Install(m_net.topology);
        for (uint32_t i = 0; i < m_net.topology.GetIslands().size(); ++i)
        {
            Ptr<Socket> s =
                Socket::CreateSocket(m_helper->GetIslandNode(i), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), PORT));
            s->SetRecvCallback(MakeCallback(&TransitTestCase::Receive, this));
            m_sockets.push_back(s);
        }
    }

    /**
     * \brief Run (at most 10 s: nothing may hang), then check that no slot was left open; the
     *        tests check that every chunk completed.
     */
    void Run()
    {
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        for (uint32_t c = 0; c < m_net.topology.GetCities().size(); ++c)
        {
            if (m_helper->GetTransit(c))
            {
                NS_TEST_EXPECT_MSG_EQ(m_helper->GetTransit(c)->GetSlotsInUse(),
                                      0,
                                      "no slot left open at " << c);
            }
        }
    }

    /** \brief Tear down. */
    void Destroy()
    {
        m_sockets.clear();
        Simulator::Destroy();
        m_helper.reset();
        m_received.clear();
        m_sent.clear();
    }

    /**
     * \param island sender \param clique clique id \param chunk chunk index
     * \return the values the island sends for that chunk: spread over the whole int32 range,
     *         so sums wrap around
     */
    static std::vector<int32_t> Values(uint32_t island, uint32_t clique, uint32_t chunk)
    {
        std::vector<int32_t> values(ELEMENTS);
        uint32_t x = 2654435761u * (island + 1) ^ (40503u * (chunk + 1)) ^ (clique << 20);
        for (uint32_t e = 0; e < ELEMENTS; ++e)
        {
            x = x * 1664525u + 1013904223u; // a plain LCG: any values will do
            values[e] = static_cast<int32_t>(x);
        }
        return values;
    }

    /**
     * \brief Schedule a DATA|REDUCE chunk from an island to a root.
     * \param at when \param island sender \param root root island \param members the clique
     * \param clique clique id \param chunk chunk index \param chunks chunk count
     * \param resend set FLAG_RETRANSMISSION
     */
    void SendAt(Time at,
                uint32_t island,
                uint32_t root,
                const IslandBitmap& members,
                uint32_t clique,
                uint32_t chunk,
                uint32_t chunks,
                bool resend = false)
    {
        Simulator::ScheduleWithContext(
            m_sockets[island]->GetNode()->GetId(),
            at,
            &TransitTestCase::Send,
            this,
            Chunk{island, root, members, clique, chunk, chunks, resend, IslandBitmap(), false});
    }

    /** One piece to send (SendAt's arguments, or a crafted piece's). */
    struct Chunk
    {
        uint32_t island;      //!< sender
        uint32_t root;        //!< root island
        IslandBitmap members; //!< the clique
        uint32_t clique;      //!< clique id
        uint32_t chunk;       //!< chunk index
        uint32_t chunks;      //!< chunk count
        bool resend;          //!< FLAG_RETRANSMISSION
        /** Empty: a DATA of the sender's; else an AGGREGATE of these (not counted in m_sent) */
        IslandBitmap aggregateOf;
        bool plain{false}; //!< without FLAG_REDUCE (DIRECT traffic)
        /** The payload's encoding; not int32: the values are given (\p given) */
        GradientHeader::Encoding encoding{GradientHeader::ENCODING_INT32};
        std::vector<int32_t> given{}; //!< values of a piece in another encoding than int32
    };

    /** \brief Schedule a crafted piece. \param at when \param c the piece */
    void SendPieceAt(Time at, const Chunk& c)
    {
        Simulator::ScheduleWithContext(m_sockets[c.island]->GetNode()->GetId(),
                                       at,
                                       &TransitTestCase::Send,
                                       this,
                                       c);
    }

    /** \brief Send now (see SendAt). \param c the chunk */
    void Send(Chunk c)
    {
        GradientHeader header;
        const bool crafted = !c.aggregateOf.IsEmpty();
        header.SetType(crafted ? GradientHeader::AGGREGATE : GradientHeader::DATA);
        header.SetFlags((c.plain ? 0 : GradientHeader::FLAG_REDUCE) |
                        (c.resend ? GradientHeader::FLAG_RETRANSMISSION : 0));
        header.SetJobId(JOB);
        header.SetRound(ROUND);
        header.SetCliqueId(c.clique);
        header.SetSender(c.island);
        header.SetChunkIndex(c.chunk);
        header.SetChunkCount(c.chunks);
        header.SetMembers(c.members);
        header.SetContributors(crafted ? c.aggregateOf : Bitmap({c.island}));
        header.SetEncoding(c.encoding);
        const std::vector<int32_t> values = c.encoding == GradientHeader::ENCODING_INT32
                                                ? Values(c.island, c.clique, c.chunk)
                                                : c.given;
        m_sockets[c.island]->SendTo(GradientPayload::CreateReal(header, values),
                                    0,
                                    InetSocketAddress(m_helper->GetIslandAddress(c.root), PORT));
        if (!c.resend && !crafted)
        {
            m_sent[ChunkKey{c.clique, c.chunk}].push_back(values);
        }
    }

    /**
     * \brief Every member but the root sends every chunk at \p at.
     * \param root root island \param members the clique \param clique its id
     * \param chunks chunk count
     */
    void SendAll(Time at,
                 uint32_t root,
                 const IslandBitmap& members,
                 uint32_t clique,
                 uint32_t chunks)
    {
        for (uint32_t chunk = 0; chunk < chunks; ++chunk)
        {
            members.ForEach([&](uint32_t island) {
                if (island != root)
                {
                    SendAt(at, island, root, members, clique, chunk, chunks);
                }
            });
        }
    }

    /** \brief Socket callback: keep every valid gradient packet the root receives. */
    void Receive(Ptr<Socket> socket)
    {
        Ptr<Packet> packet;
        while ((packet = socket->Recv()))
        {
            Piece piece;
            piece.at = Simulator::Now();
            const bool valid = GradientPayload::Parse(packet, piece.header, &piece.values);
            NS_TEST_EXPECT_MSG_EQ(valid, true, "a valid gradient packet");
            if (valid)
            {
                OnPiece(piece);
                m_received[ChunkKey{piece.header.GetCliqueId(), piece.header.GetChunkIndex()}]
                    .push_back(piece);
            }
        }
    }

    /** \brief Hook: a piece reached its root. \param piece the piece */
    virtual void OnPiece(const Piece& piece)
    {
    }

    /**
     * \brief Check one chunk at its root: disjoint pieces covering members minus the root
     *        whose sum is the sum of what the members sent.
     * \param clique clique id \param chunk chunk index \param expected members minus the root
     * \return the pieces
     */
    std::vector<Piece> CheckChunk(uint32_t clique, uint32_t chunk, const IslandBitmap& expected)
    {
        const std::vector<Piece>& pieces = m_received[ChunkKey{clique, chunk}];
        IslandBitmap covered;
        std::vector<int64_t> sum(ELEMENTS, 0);
        for (const Piece& piece : pieces)
        {
            const IslandBitmap& c = piece.header.GetContributors();
            NS_TEST_EXPECT_MSG_EQ(c.Intersects(covered),
                                  false,
                                  "clique " << clique << " chunk " << chunk << ": piece " << c
                                            << " overlaps " << covered);
            covered = covered.Union(c);
            NS_TEST_EXPECT_MSG_EQ(piece.values.size(), ELEMENTS, "a real payload");
            for (uint32_t e = 0; e < ELEMENTS && e < piece.values.size(); ++e)
            {
                sum[e] += piece.values[e];
            }
        }
        NS_TEST_EXPECT_MSG_EQ(covered,
                              expected,
                              "clique " << clique << " chunk " << chunk << ": every contributor");
        std::vector<int64_t> reference(ELEMENTS, 0);
        for (const std::vector<int32_t>& values : m_sent[ChunkKey{clique, chunk}])
        {
            for (uint32_t e = 0; e < ELEMENTS; ++e)
            {
                reference[e] += values[e];
            }
        }
        uint32_t wrong = 0;
        for (uint32_t e = 0; e < ELEMENTS; ++e)
        {
            wrong += Wrap(sum[e]) != Wrap(reference[e]);
        }
        NS_TEST_EXPECT_MSG_EQ(wrong, 0, "clique " << clique << " chunk " << chunk << ": exact sum");
        return pieces;
    }

    /** \param x a sum \return it modulo 2^32, as int32 (two's complement) */
    static int32_t Wrap(int64_t x)
    {
        const int64_t m = int64_t{1} << 32;
        int64_t r = x % m;
        r = r < 0 ? r + m : r;
        return static_cast<int32_t>(r >= (m >> 1) ? r - m : r);
    }

    Net m_net;                                                  //!< the topology
    std::unique_ptr<WanTopologyHelper> m_helper;                //!< the WAN
    std::vector<Ptr<Socket>> m_sockets;                         //!< per island
    std::map<ChunkKey, std::vector<Piece>> m_received;          //!< pieces at the root, per chunk
    std::map<ChunkKey, std::list<std::vector<int32_t>>> m_sent; //!< first-pass values sent
};

/**
 * \ingroup wan-training-tests
 * k contributors in k leaf cities meet at one transit city on the way to the root's city
 * (R -- T -- L0..Lk-1): exactly one complete AGGREGATE|REDUCE per chunk reaches the root, with
 * the full bitmap and the exact sum; the transit FPGA added every piece, passed none.
 */
class TransitMeetTestCase : public TransitTestCase
{
  public:
    /** \param k contributors */
    explicit TransitMeetTestCase(uint32_t k)
        : TransitTestCase(std::to_string(k) + " contributors meet at one transit FPGA"),
          m_k(k)
    {
    }

  private:
    void DoRun() override
    {
        Net net;
        net.City("R");
        net.City("T", "transit");
        net.Link("R", "T");
        std::vector<std::string> leaves;
        for (uint32_t i = 0; i < m_k; ++i)
        {
            const std::string code = "L" + std::to_string(i);
            net.City(code);
            net.Link("T", code);
            // The root in the middle of the island indices.
            if (i == m_k / 2)
            {
                net.Island("r", "R");
            }
            net.Island("l" + std::to_string(i), code);
            leaves.push_back("l" + std::to_string(i));
        }
        Build(net);
        const uint32_t root = net.islands.at("r");
        const IslandBitmap contributors = net.Of(leaves);
        const IslandBitmap members = contributors.Union(Bitmap({root}));
        const uint32_t chunks = 3;
        SendAll(MilliSeconds(1), root, members, 0, chunks);
        Run();

        for (uint32_t chunk = 0; chunk < chunks; ++chunk)
        {
            const std::vector<Piece> pieces = CheckChunk(0, chunk, contributors);
            NS_TEST_EXPECT_MSG_EQ(pieces.size(), 1, "one piece for chunk " << chunk);
            if (pieces.size() != 1)
            {
                continue;
            }
            const GradientHeader& h = pieces[0].header;
            NS_TEST_EXPECT_MSG_EQ(+h.GetType(), +GradientHeader::AGGREGATE, "an aggregate");
            NS_TEST_EXPECT_MSG_EQ(h.GetFlags(), REDUCE_REAL, "REDUCE and real, nothing else");
            NS_TEST_EXPECT_MSG_EQ(h.GetContributors(), contributors, "the full bitmap");
        }
        const Ptr<TransitAggregatorNetDevice> t = m_helper->GetTransit(net.cities.at("T"));
        NS_TEST_ASSERT_MSG_NE(t, nullptr, "T has a transit FPGA");
        NS_TEST_EXPECT_MSG_EQ(m_helper->GetTransit(net.cities.at("R")), nullptr, "R has none");
        NS_TEST_EXPECT_MSG_EQ(t->GetCompleteCount(), chunks, "one complete aggregate per chunk");
        NS_TEST_EXPECT_MSG_EQ(t->GetPartialCount(), 0, "no partial aggregate");
        NS_TEST_EXPECT_MSG_EQ(t->GetAggregatedCount(), m_k * chunks, "every piece added");
        NS_TEST_EXPECT_MSG_EQ(m_helper->GetRouter(net.cities.at("T"))->GetDivertCount(),
                              m_k * chunks,
                              "every piece diverted once at T");
        for (uint32_t r = 0; r < TransitAggregatorNetDevice::PASS_REASON_COUNT; ++r)
        {
            const auto reason = static_cast<TransitAggregatorNetDevice::PassReason>(r);
            NS_TEST_EXPECT_MSG_EQ(t->GetPassThroughCount(reason),
                                  0,
                                  TransitAggregatorNetDevice::PassReasonName(reason));
        }
        Destroy();
    }

    uint32_t m_k; //!< contributors
};

/**
 * \ingroup wan-training-tests
 * A line A -- B -- C -- D, transit at A and C only, root d at D behind an edge FPGA (capability
 * fpga), islands a1, a2 at A, b1 at B, c1 at C, d and d2 at D. Worked out by hand:
 *  - clique 0 (everyone): A adds a1 + a2 (its below-set for d is {a1, a2}); B forwards b1; C
 *    adds {a1, a2} + b1 + c1; D has no transit: the root gets {a1, a2, b1, c1} and d2's DATA;
 *  - clique 1 ({a1, c1, d, d2}): at A only a1 is expected, and a1 alone covers it (passes);
 *    C adds a1 + c1: the root gets {a1, c1} and d2's DATA.
 * The edge FPGA in front of d passes every REDUCE piece through.
 */
class TransitLineTestCase : public TransitTestCase
{
  public:
    TransitLineTestCase()
        : TransitTestCase("a line mixing transit and plain routers")
    {
    }

  private:
    void DoRun() override
    {
        Net net;
        net.City("A", "transit");
        net.City("B");
        net.City("C", "transit");
        net.City("D", "fpga");
        net.Link("A", "B");
        net.Link("B", "C");
        net.Link("C", "D");
        net.Island("a1", "A");
        net.Island("d", "D");
        net.Island("a2", "A");
        net.Island("b1", "B");
        net.Island("c1", "C");
        net.Island("d2", "D");
        Build(net);
        const uint32_t root = net.islands.at("d");
        const IslandBitmap all = net.Of({"a1", "a2", "b1", "c1", "d", "d2"});
        const IslandBitmap some = net.Of({"a1", "c1", "d", "d2"});
        const uint32_t chunks = 2;
        SendAll(MilliSeconds(1), root, all, 0, chunks);
        SendAll(MilliSeconds(1), root, some, 1, chunks);
        Run();

        const Ptr<TransitAggregatorNetDevice> a = m_helper->GetTransit(net.cities.at("A"));
        const Ptr<TransitAggregatorNetDevice> c = m_helper->GetTransit(net.cities.at("C"));
        NS_TEST_ASSERT_MSG_NE(a, nullptr, "A has a transit FPGA");
        NS_TEST_ASSERT_MSG_NE(c, nullptr, "C has a transit FPGA");
        NS_TEST_EXPECT_MSG_EQ(a->GetBelow(m_helper->GetIslandAddress(root)),
                              net.Of({"a1", "a2"}),
                              "below-set of d at A");
        NS_TEST_EXPECT_MSG_EQ(c->GetBelow(m_helper->GetIslandAddress(root)),
                              net.Of({"a1", "a2", "b1", "c1"}),
                              "below-set of d at C");
        NS_TEST_EXPECT_MSG_EQ(c->GetBelow(m_helper->GetIslandAddress(net.islands.at("a1"))),
                              net.Of({"c1", "d", "d2"}),
                              "below-set of a1 at C: C's and D's islands (a2's path to a1 "
                              "stays in A)");

        const std::vector<std::pair<IslandBitmap, IslandBitmap>> expected = {
            {net.Of({"a1", "a2", "b1", "c1"}), net.Of({"d2"})},
            {net.Of({"a1", "c1"}), net.Of({"d2"})}};
        for (uint32_t clique = 0; clique < 2; ++clique)
        {
            for (uint32_t chunk = 0; chunk < chunks; ++chunk)
            {
                const IslandBitmap members = clique == 0 ? all : some;
                const std::vector<Piece> pieces =
                    CheckChunk(clique, chunk, members.Minus(Bitmap({root})));
                NS_TEST_ASSERT_MSG_EQ(pieces.size(), 2, "two pieces");
                uint32_t matched = 0;
                for (const Piece& p : pieces)
                {
                    const IslandBitmap& bits = p.header.GetContributors();
                    if (bits == expected[clique].first)
                    {
                        ++matched;
                        NS_TEST_EXPECT_MSG_EQ(+p.header.GetType(),
                                              +GradientHeader::AGGREGATE,
                                              "C's aggregate");
                    }
                    else if (bits == expected[clique].second)
                    {
                        ++matched;
                        NS_TEST_EXPECT_MSG_EQ(+p.header.GetType(),
                                              +GradientHeader::DATA,
                                              "d2's own DATA");
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(matched, 2, "the bitmaps worked out by hand");
            }
        }
        // A: clique 0 adds two pieces per chunk into one aggregate; clique 1's a1 covers it.
        NS_TEST_EXPECT_MSG_EQ(a->GetAggregatedCount(), 2 * chunks, "A added a1 and a2");
        NS_TEST_EXPECT_MSG_EQ(a->GetCompleteCount(), chunks, "A: one aggregate per chunk");
        NS_TEST_EXPECT_MSG_EQ(a->GetPassThroughCount(TransitAggregatorNetDevice::PASS_COVERED),
                              chunks,
                              "A: clique 1's a1 passes");
        // C: {a1, a2}, b1, c1 for clique 0; a1, c1 for clique 1.
        NS_TEST_EXPECT_MSG_EQ(c->GetAggregatedCount(), 5 * chunks, "C added five pieces a chunk");
        NS_TEST_EXPECT_MSG_EQ(c->GetCompleteCount(), 2 * chunks, "C: one aggregate per chunk");
        NS_TEST_EXPECT_MSG_EQ(c->GetPartialCount(), 0, "C: none partial");
        const Ptr<FpgaAggregatorNetDevice> edge = m_helper->GetFpga(root);
        NS_TEST_ASSERT_MSG_NE(edge, nullptr, "d has an edge FPGA");
        NS_TEST_EXPECT_MSG_EQ(edge->GetPassThroughCount(FpgaAggregatorNetDevice::PASS_REDUCE),
                              4 * chunks,
                              "the edge FPGA passed every piece");
        NS_TEST_EXPECT_MSG_EQ(edge->GetAggregatedCount(), 0, "and summed none");
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * A star: hub H (plain) joins the root's city R and leaves L1 (transit, l1a and l1b), L2
 * (plain, l2a and l2b) and L3 (transit, l3 alone). Per chunk the root gets four pieces:
 * {l1a, l1b} from L1, l2a's and l2b's DATA, and l3's DATA, which alone covers what L3 expects.
 */
class TransitStarTestCase : public TransitTestCase
{
  public:
    TransitStarTestCase()
        : TransitTestCase("a star where only some leaves have transit")
    {
    }

  private:
    void DoRun() override
    {
        Net net;
        net.City("H");
        net.City("R");
        net.City("L1", "transit");
        net.City("L2");
        net.City("L3", "multicast+transit");
        for (const char* leaf : {"R", "L1", "L2", "L3"})
        {
            net.Link("H", leaf);
        }
        net.Island("l1a", "L1");
        net.Island("l2a", "L2");
        net.Island("r", "R");
        net.Island("l1b", "L1");
        net.Island("l2b", "L2");
        net.Island("l3", "L3");
        Build(net);
        const uint32_t root = net.islands.at("r");
        const IslandBitmap members = net.Of({"l1a", "l1b", "l2a", "l2b", "l3", "r"});
        const uint32_t chunks = 4;
        SendAll(MilliSeconds(1), root, members, 0, chunks);
        Run();
        const std::vector<IslandBitmap> expected = {net.Of({"l1a", "l1b"}),
                                                    net.Of({"l2a"}),
                                                    net.Of({"l2b"}),
                                                    net.Of({"l3"})};
        for (uint32_t chunk = 0; chunk < chunks; ++chunk)
        {
            const std::vector<Piece> pieces = CheckChunk(0, chunk, members.Minus(Bitmap({root})));
            NS_TEST_ASSERT_MSG_EQ(pieces.size(), 4, "four pieces");
            for (const IslandBitmap& bits : expected)
            {
                uint32_t found = 0;
                for (const Piece& p : pieces)
                {
                    found += p.header.GetContributors() == bits;
                }
                NS_TEST_EXPECT_MSG_EQ(found, 1, "one piece " << bits);
            }
        }
        const Ptr<TransitAggregatorNetDevice> l3 = m_helper->GetTransit(net.cities.at("L3"));
        NS_TEST_EXPECT_MSG_EQ(l3->GetPassThroughCount(TransitAggregatorNetDevice::PASS_COVERED),
                              chunks,
                              "l3 covers L3's expected set");
        NS_TEST_EXPECT_MSG_EQ(m_helper->GetTransit(net.cities.at("L1"))->GetCompleteCount(),
                              chunks,
                              "L1 adds l1a and l1b");
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * What the loss cases share: islands r (the root), l0, l1 and l2 in cities R, L0, L1 and L2,
 * transit FPGAs with Timeout 5 ms, one chunk of l0 dropped where its city's link enters the
 * transit city above it, and the root's NACK in short: when a partial aggregate of that chunk
 * without l0 arrives, l0 resends it.
 */
class TransitLossBase : public TransitTestCase
{
  protected:
    static constexpr uint32_t CHUNKS = 3; //!< chunks per contributor

    /** \param name the case's name \param lostChunk the chunk of l0 lost */
    TransitLossBase(const std::string& name, uint32_t lostChunk)
        : TransitTestCase(name),
          m_lostChunk(lostChunk)
    {
    }

    /**
     * \brief Add the islands, build, and drop l0's chunk on the link into \p above.
     * \param net cities R, L0, L1, L2 and the transit cities, linked \param above the city
     *        L0's link enters \param link that link's index (links in the order added)
     */
    void BuildWithLoss(Net& net, const std::string& above, uint32_t link)
    {
        net.Island("r", "R");
        net.Island("l0", "L0");
        net.Island("l1", "L1");
        net.Island("l2", "L2");
        Build(net, {{"Timeout", Create<TimeValue>(TIMEOUT)}});
        m_root = net.islands.at("r");
        m_lost = net.islands.at("l0");
        m_members = net.Of({"r", "l0", "l1", "l2"});
        // The packets the city above receives from L0 are l0's chunks, in order.
        Ptr<ReceiveListErrorModel> loss = CreateObject<ReceiveListErrorModel>();
        loss->SetList({m_lostChunk});
        const WanHop into{link, net.cities.at(above), net.cities.at("L0")};
        m_helper->GetWanDevice(into)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
    }

    /** \param chunk a chunk \return its pieces at the root (checked disjoint and exact) */
    std::vector<Piece> AtRoot(uint32_t chunk)
    {
        return CheckChunk(0, chunk, m_members.Minus(Bitmap({m_root})));
    }

    /** \brief Every chunk but the lost one reached the root as one complete aggregate. */
    void CheckOthersComplete()
    {
        for (uint32_t chunk = 0; chunk < CHUNKS; ++chunk)
        {
            if (chunk != m_lostChunk)
            {
                NS_TEST_EXPECT_MSG_EQ(AtRoot(chunk).size(),
                                      1,
                                      "chunk " << chunk << ": one complete aggregate");
            }
        }
    }

    static inline const Time TIMEOUT = MilliSeconds(5); //!< every transit FPGA's Timeout
    uint32_t m_lostChunk;                               //!< the chunk of l0 lost
    uint32_t m_root{0};                                 //!< root island
    uint32_t m_lost{0};                                 //!< l0
    IslandBitmap m_members;                             //!< the clique
    IslandBitmap m_partial; //!< the root's partial aggregate's contributors
    Time m_partialAt;       //!< when it arrived

  private:
    void OnPiece(const Piece& piece) override
    {
        const GradientHeader& h = piece.header;
        if (h.GetType() == GradientHeader::AGGREGATE && h.GetChunkIndex() == m_lostChunk &&
            !h.GetContributors().Test(m_lost))
        {
            m_partial = h.GetContributors();
            m_partialAt = piece.at;
            SendAt(MicroSeconds(10), m_lost, m_root, m_members, 0, m_lostChunk, CHUNKS, true);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * Loss at a transit hop: R -- T -- L0, L1, L2 (transit at T, Timeout 5 ms), one chunk of l0
 * dropped on the L0 -- T link (ReceiveListErrorModel at T's end). T's slot for that chunk leaves
 * partial with exactly {l1, l2}: at once (an early flush) when l0's next chunk shows that l0
 * went past it, or after Timeout when it was l0's last chunk (nothing shows it lost, l0 may
 * only be late). The root then has l0 resend the chunk with FLAG_RETRANSMISSION, which passes
 * T untouched (not diverted, not added); every chunk's total at the root is exact.
 */
class TransitLossTestCase : public TransitLossBase
{
  public:
    /** \param lostChunk the chunk of l0 lost (CHUNKS - 1: its last) */
    explicit TransitLossTestCase(uint32_t lostChunk)
        : TransitLossBase("loss at a transit hop, chunk " + std::to_string(lostChunk) + " of " +
                              std::to_string(CHUNKS) + ": " +
                              (lostChunk + 1 < CHUNKS ? "early flush" : "partial after Timeout") +
                              ", resend passes, exact sum",
                          lostChunk)
    {
    }

    /** \return chunks per contributor */
    static uint32_t Chunks()
    {
        return CHUNKS;
    }

  private:
    void DoRun() override
    {
        Net net;
        net.City("R");
        net.City("T", "transit");
        net.Link("R", "T");
        for (const char* code : {"L0", "L1", "L2"})
        {
            net.City(code);
            net.Link("T", code);
        }
        BuildWithLoss(net, "T", 1); // links: R-T, T-L0, ...
        const Time start = MilliSeconds(1);
        SendAll(start, m_root, m_members, 0, CHUNKS);
        Run();

        const Ptr<TransitAggregatorNetDevice> t = m_helper->GetTransit(net.cities.at("T"));
        const bool early = m_lostChunk + 1 < CHUNKS;
        NS_TEST_EXPECT_MSG_EQ(t->GetPartialCount(), 1, "one partial aggregate");
        NS_TEST_EXPECT_MSG_EQ(t->GetEarlyFlushCount(), (early ? 1 : 0), "flushed early or not");
        NS_TEST_EXPECT_MSG_EQ(t->GetCompleteCount(), CHUNKS - 1, "the other chunks complete");
        NS_TEST_EXPECT_MSG_EQ(t->GetAggregatedCount(),
                              3 * CHUNKS - 1,
                              "every piece that arrived was added, the resend not");
        NS_TEST_EXPECT_MSG_EQ(m_helper->GetRouter(net.cities.at("T"))->GetDivertCount(),
                              3 * CHUNKS - 1,
                              "the resend was not diverted");
        const std::vector<Piece> pieces = AtRoot(m_lostChunk);
        NS_TEST_EXPECT_MSG_EQ(pieces.size(), 2, "the partial aggregate and the resend");
        if (pieces.size() != 2)
        {
            Destroy();
            return;
        }
        const Piece& partial = pieces[0];
        NS_TEST_EXPECT_MSG_EQ(+partial.header.GetType(), +GradientHeader::AGGREGATE, "partial");
        NS_TEST_EXPECT_MSG_EQ(partial.header.GetContributors(),
                              net.Of({"l1", "l2"}),
                              "exactly the survivors");
        NS_TEST_EXPECT_MSG_EQ(partial.header.GetFlags(), REDUCE_REAL, "REDUCE, real, not settled");
        // The slot opened when l1's or l2's chunk reached T: after 2 ms of WAN and the access
        // links. Flushed early, it left when l0's next chunk came (microseconds later) and
        // reached the root 1 ms on; otherwise it left Timeout later.
        if (early)
        {
            NS_TEST_EXPECT_MSG_LT(partial.at, start + MilliSeconds(4), "well before Timeout");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(partial.at, start + MilliSeconds(2) + TIMEOUT, "after Timeout");
        }
        const Piece& resend = pieces[1];
        NS_TEST_EXPECT_MSG_EQ(+resend.header.GetType(), +GradientHeader::DATA, "the resend");
        NS_TEST_EXPECT_MSG_EQ(resend.header.HasFlag(GradientHeader::FLAG_RETRANSMISSION),
                              true,
                              "marked as a resend");
        NS_TEST_EXPECT_MSG_EQ(resend.header.GetContributors(), Bitmap({m_lost}), "from l0");
        CheckOthersComplete();
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * Loss below two transit FPGAs: R -- T1 -- T2 -- L0, L1 and T1 -- L2 (transit at T1 and T2,
 * Timeout 5 ms), chunk 0 of l0 dropped on the L0 -- T2 link. At T2, l0's own chunk 1 shows
 * that l0 went past chunk 0: T2 flushes {l1} early. At T1, l0's chunk 1 comes only inside T2's
 * aggregate {l0, l1}: T1's slot for chunk 0, holding l2 and T2's {l1}, must settle on that
 * aggregate's contributors (a frontier per contributor, not per packet sender) and leave as
 * {l1, l2} at once, not after Timeout. Worked out by hand: one early flush at each FPGA, the
 * root has chunk 0 as {l1, l2} about 3.1 ms after the start (three 1 ms hops after l0's
 * chunk 1 left, 100 us late) and l0's resend.
 */
class TransitLossBelowTestCase : public TransitLossBase
{
  public:
    TransitLossBelowTestCase()
        : TransitLossBase("loss below two transit FPGAs: both flush early, per contributor", 0)
    {
    }

  private:
    void DoRun() override
    {
        Net net;
        net.City("R");
        net.City("T1", "transit");
        net.City("T2", "transit");
        net.City("L0");
        net.City("L1");
        net.City("L2");
        net.Link("R", "T1");
        net.Link("T1", "T2");
        net.Link("T2", "L0");
        net.Link("T2", "L1");
        net.Link("T1", "L2");
        BuildWithLoss(net, "T2", 2); // links: R-T1, T1-T2, T2-L0, ...
        // l0 starts 100 us after the others, so l1's piece opens each of T2's slots and T2's
        // aggregates go out under l1's name: T1 must read l0 from their contributors.
        const Time start = MilliSeconds(1);
        for (uint32_t chunk = 0; chunk < CHUNKS; ++chunk)
        {
            for (const char* name : {"l1", "l2"})
            {
                SendAt(start, net.islands.at(name), m_root, m_members, 0, chunk, CHUNKS);
            }
            SendAt(start + MicroSeconds(100), m_lost, m_root, m_members, 0, chunk, CHUNKS);
        }
        Run();

        const Ptr<TransitAggregatorNetDevice> t1 = m_helper->GetTransit(net.cities.at("T1"));
        const Ptr<TransitAggregatorNetDevice> t2 = m_helper->GetTransit(net.cities.at("T2"));
        NS_TEST_EXPECT_MSG_EQ(t2->GetEarlyFlushCount(), 1, "T2 flushes {l1} early");
        NS_TEST_EXPECT_MSG_EQ(t1->GetEarlyFlushCount(), 1, "T1 flushes {l1, l2} early");
        NS_TEST_EXPECT_MSG_EQ(t1->GetPartialCount() + t2->GetPartialCount(), 2, "no other");
        NS_TEST_EXPECT_MSG_EQ(m_partial, net.Of({"l1", "l2"}), "the root's partial");
        NS_TEST_EXPECT_MSG_LT(m_partialAt, start + MilliSeconds(4), "about 3 ms: no Timeout");
        NS_TEST_EXPECT_MSG_EQ(AtRoot(0).size(),
                              2,
                              "chunk 0: the partial aggregate and the resend, summing exactly");
        CheckOthersComplete();
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * Slot exhaustion: R -- T -- L0, L1, L2 with SlotCount 1, l1 sending its chunks in reverse
 * order, so most pieces find T's one slot taken and pass through. Every chunk's total at the
 * root is still exact, and every piece is accounted for: each slot leaves as one aggregate and
 * each overflow as itself.
 */
class TransitSlotExhaustionTestCase : public TransitTestCase
{
  public:
    TransitSlotExhaustionTestCase()
        : TransitTestCase("slot exhaustion (SlotCount 1): exact sums")
    {
    }

  private:
    void DoRun() override
    {
        const Net net = BehindOneTransit();
        Build(net, {{"SlotCount", Create<UintegerValue>(1)}});
        const uint32_t root = net.islands.at("r");
        const IslandBitmap members = net.Of({"r", "l0", "l1", "l2"});
        const uint32_t chunks = 8;
        for (uint32_t chunk = 0; chunk < chunks; ++chunk)
        {
            // Spaced so the order holds: one chunk every 10 us.
            const Time at = MilliSeconds(1) + MicroSeconds(10 * chunk);
            SendAt(at, net.islands.at("l0"), root, members, 0, chunk, chunks);
            SendAt(at, net.islands.at("l1"), root, members, 0, chunks - 1 - chunk, chunks);
            SendAt(at, net.islands.at("l2"), root, members, 0, chunk, chunks);
        }
        Run();
        const Ptr<TransitAggregatorNetDevice> t = m_helper->GetTransit(net.cities.at("T"));
        uint64_t pieces = 0;
        for (uint32_t chunk = 0; chunk < chunks; ++chunk)
        {
            pieces += CheckChunk(0, chunk, members.Minus(Bitmap({root}))).size();
        }
        const uint64_t overflows =
            t->GetPassThroughCount(TransitAggregatorNetDevice::PASS_OVERFLOW);
        NS_TEST_EXPECT_MSG_GT(overflows, 0, "the slot was taken");
        NS_TEST_EXPECT_MSG_EQ(t->GetAggregatedCount() + overflows,
                              3 * chunks,
                              "every piece added or passed");
        NS_TEST_EXPECT_MSG_EQ(pieces,
                              t->GetCompleteCount() + t->GetPartialCount() + overflows,
                              "one piece per slot and per overflow at the root");
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * Pieces that overlap a slot: R -- T -- L0, L1, L2 (transit at T), crafted pieces of chunk 0
 * in this order: l0's DATA (opens the slot), an AGGREGATE {l0, l1} from l1 (overlaps: passes
 * untouched), l0's DATA again (wholly inside: absorbed, a duplicate), an AGGREGATE {l1, l2}
 * from l2 (disjoint: added, the slot completes). The root gets the overlapping piece as sent
 * and one aggregate {l0, l1, l2} = l0's values + the {l1, l2} piece's.
 */
class TransitOverlapTestCase : public TransitTestCase
{
  public:
    TransitOverlapTestCase()
        : TransitTestCase("overlapping pieces pass untouched, duplicates are absorbed")
    {
    }

  private:
    void DoRun() override
    {
        const Net net = BehindOneTransit();
        Build(net);
        const uint32_t r = net.islands.at("r");
        const uint32_t l0 = net.islands.at("l0");
        const uint32_t l1 = net.islands.at("l1");
        const uint32_t l2 = net.islands.at("l2");
        const IslandBitmap members = net.Of({"r", "l0", "l1", "l2"});
        const Chunk data{l0, r, members, 0, 0, 1, false, IslandBitmap()};
        Chunk overlapping = data;
        overlapping.island = l1;
        overlapping.aggregateOf = Bitmap({l0, l1});
        Chunk disjoint = data;
        disjoint.island = l2;
        disjoint.aggregateOf = Bitmap({l1, l2});
        // Same path lengths: 10 us apart, they reach T in this order.
        SendPieceAt(MicroSeconds(1000), data);
        SendPieceAt(MicroSeconds(1010), overlapping);
        SendPieceAt(MicroSeconds(1020), data);
        SendPieceAt(MicroSeconds(1030), disjoint);
        Run();

        const Ptr<TransitAggregatorNetDevice> t = m_helper->GetTransit(net.cities.at("T"));
        NS_TEST_EXPECT_MSG_EQ(t->GetPassThroughCount(TransitAggregatorNetDevice::PASS_OVERLAP),
                              1,
                              "the overlapping piece passed");
        NS_TEST_EXPECT_MSG_EQ(t->GetDuplicateCount(), 1, "the second copy was absorbed");
        NS_TEST_EXPECT_MSG_EQ(t->GetAggregatedCount(), 2, "l0 and {l1, l2} added");
        NS_TEST_EXPECT_MSG_EQ(t->GetCompleteCount(), 1, "one complete aggregate");
        const std::vector<Piece>& pieces = m_received[ChunkKey{0, 0}];
        NS_TEST_EXPECT_MSG_EQ(pieces.size(), 2, "two pieces at the root");
        if (pieces.size() != 2)
        {
            Destroy();
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(pieces[0].header.GetContributors(), Bitmap({l0, l1}), "untouched");
        NS_TEST_EXPECT_MSG_EQ((pieces[0].values == Values(l1, 0, 0)), true, "as sent");
        NS_TEST_EXPECT_MSG_EQ(pieces[1].header.GetContributors(), Bitmap({l0, l1, l2}), "full");
        const std::vector<int32_t> a = Values(l0, 0, 0);
        const std::vector<int32_t> b = Values(l2, 0, 0);
        uint32_t wrong = 0;
        for (uint32_t e = 0; e < ELEMENTS; ++e)
        {
            wrong += pieces[1].values[e] != Wrap(int64_t{a[e]} + b[e]);
        }
        NS_TEST_EXPECT_MSG_EQ(wrong, 0, "l0 + {l1, l2}, exactly");
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * int4 sums widen on the way: R -- T -- L0, L1, L2 (transit at T). A lower FPGA's sum of l1
 * and l2 (int8: up to 14) reaches T first and opens the chunk's slot; l0's own int4 values
 * come next and are added to it (they can be the values a sum of int4 is made of), and the
 * sum of three leaves in int8 (up to 21; UpdateFormat::SumEncoding of int4, not of the int8
 * that opened the slot), exactly l0 + l1 + l2.
 */
class TransitWideningTestCase : public TransitTestCase
{
  public:
    TransitWideningTestCase()
        : TransitTestCase("int4 values and an int8 sum of int4 add up to an int8 sum")
    {
    }

  private:
    void DoRun() override
    {
        const Net net = BehindOneTransit();
        Build(net);
        const uint32_t r = net.islands.at("r");
        const uint32_t l0 = net.islands.at("l0");
        const uint32_t l1 = net.islands.at("l1");
        const uint32_t l2 = net.islands.at("l2");
        // Values in int4's range, -7 to 7, different per island.
        const auto small = [](uint32_t island) {
            std::vector<int32_t> v(ELEMENTS);
            for (uint32_t e = 0; e < ELEMENTS; ++e)
            {
                v[e] = static_cast<int32_t>((e * (island + 3) + 5 * island) % 15) - 7;
            }
            return v;
        };
        std::vector<int32_t> sum12(ELEMENTS);
        std::vector<int32_t> total(ELEMENTS);
        for (uint32_t e = 0; e < ELEMENTS; ++e)
        {
            sum12[e] = small(l1)[e] + small(l2)[e];
            total[e] = sum12[e] + small(l0)[e];
        }
        const IslandBitmap members = net.Of({"r", "l0", "l1", "l2"});
        Chunk lower{l1, r, members, 0, 0, 1, false, Bitmap({l1, l2})};
        lower.encoding = GradientHeader::ENCODING_INT8;
        lower.given = sum12;
        Chunk own{l0, r, members, 0, 0, 1, false, IslandBitmap()};
        own.encoding = GradientHeader::ENCODING_INT4;
        own.given = small(l0);
        SendPieceAt(MicroSeconds(1000), lower);
        SendPieceAt(MicroSeconds(1010), own);
        Run();

        const Ptr<TransitAggregatorNetDevice> t = m_helper->GetTransit(net.cities.at("T"));
        NS_TEST_EXPECT_MSG_EQ(t->GetPassThroughCount(TransitAggregatorNetDevice::PASS_MISMATCH),
                              0,
                              "the int4 values fit the slot of an int8 sum of int4");
        const std::vector<Piece>& pieces = m_received[ChunkKey{0, 0}];
        NS_TEST_ASSERT_MSG_EQ(pieces.size(), 1, "one piece at the root");
        NS_TEST_EXPECT_MSG_EQ(pieces[0].header.GetContributors(), Bitmap({l0, l1, l2}), "all");
        NS_TEST_EXPECT_MSG_EQ(pieces[0].header.GetEncoding(),
                              GradientHeader::ENCODING_INT8,
                              "a sum of three int4 values is int8");
        NS_TEST_EXPECT_MSG_EQ((pieces[0].values == total), true, "l0 + l1 + l2, exactly");
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * Only reduction-tree pieces are diverted: R -- T -- L0, L1 (transit at T). DATA without
 * FLAG_REDUCE (a DIRECT exchange's) from l0 and l1 crosses T's router without reaching the
 * FPGA and arrives as sent; the same chunk with FLAG_REDUCE is diverted and added.
 */
class TransitDivertTestCase : public TransitTestCase
{
  public:
    TransitDivertTestCase()
        : TransitTestCase("only reduction-tree pieces are diverted")
    {
    }

  private:
    void DoRun() override
    {
        Net net;
        net.City("R");
        net.City("T", "transit");
        net.Link("R", "T");
        for (const char* code : {"L0", "L1"})
        {
            net.City(code);
            net.Link("T", code);
        }
        net.Island("r", "R");
        net.Island("l0", "L0");
        net.Island("l1", "L1");
        Build(net);
        const uint32_t r = net.islands.at("r");
        const IslandBitmap members = net.Of({"r", "l0", "l1"});
        for (const char* name : {"l0", "l1"})
        {
            Chunk plain{net.islands.at(name), r, members, 0, 0, 1, false, IslandBitmap()};
            plain.plain = true;
            SendPieceAt(MilliSeconds(1), plain);
            SendAt(MilliSeconds(2), net.islands.at(name), r, members, 1, 0, 1);
        }
        Run();
        const Ptr<WanRouterNetDevice> router = m_helper->GetRouter(net.cities.at("T"));
        const Ptr<TransitAggregatorNetDevice> t = m_helper->GetTransit(net.cities.at("T"));
        NS_TEST_EXPECT_MSG_EQ(router->GetDivertCount(), 2, "the two REDUCE pieces only");
        NS_TEST_EXPECT_MSG_EQ(t->GetAggregatedCount(), 2, "both added");
        NS_TEST_EXPECT_MSG_EQ(t->GetCompleteCount(), 1, "into one aggregate");
        const std::vector<Piece>& direct = m_received[(ChunkKey{0, 0})];
        NS_TEST_EXPECT_MSG_EQ(direct.size(), 2, "both plain DATA arrived");
        for (const Piece& p : direct)
        {
            NS_TEST_EXPECT_MSG_EQ(+p.header.GetType(), +GradientHeader::DATA, "as DATA");
            NS_TEST_EXPECT_MSG_EQ(p.header.GetFlags(),
                                  GradientHeader::FLAG_REAL_PAYLOAD,
                                  "as sent");
            NS_TEST_EXPECT_MSG_EQ((p.values == Values(p.header.GetSender(), 0, 0)), true, "intact");
        }
        CheckChunk(1, 0, members.Minus(Bitmap({r})));
        NS_TEST_EXPECT_MSG_EQ(m_received[(ChunkKey{1, 0})].size(), 1, "one aggregate");
        Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * The transit FPGAs' suite.
 */
class TransitTestSuite : public TestSuite
{
  public:
    TransitTestSuite()
        : TestSuite("transit-aggregator")
    {
        AddTestCase(new TransitMeetTestCase(2));
        AddTestCase(new TransitMeetTestCase(3));
        AddTestCase(new TransitMeetTestCase(8));
        AddTestCase(new TransitLineTestCase);
        AddTestCase(new TransitStarTestCase);
        AddTestCase(new TransitLossTestCase(0));
        AddTestCase(new TransitLossTestCase(TransitLossTestCase::Chunks() - 1));
        AddTestCase(new TransitLossBelowTestCase);
        AddTestCase(new TransitSlotExhaustionTestCase);
        AddTestCase(new TransitOverlapTestCase);
        AddTestCase(new TransitWideningTestCase);
        AddTestCase(new TransitDivertTestCase);
    }
};

/** The suite's instance. */
TransitTestSuite g_transitTestSuite;

} // namespace
