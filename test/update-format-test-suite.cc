/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Update formats on the wire: a 1,000,000-byte model (250,000 elements) among three islands,
 * in every format, without and with FPGAs. The expected chunks and bytes are worked out by
 * hand from the format table (doc/training.rst, "Update formats"), not read from the module:
 *
 * | format | elements per chunk | chunks | DATA payload | FPGA sum of 2 (payload) |
 * |---|---|---|---|---|
 * | int32 | 8920 / 4 = 2230 | 113 (last 240) | 112 x 8920 + 960 = 1,000,000 | int32: 1,000,000 |
 * | bf16 | 4460 | 57 (last 240) | 56 x 8920 + 480 = 500,000 | passed through |
 * | int8 | 4460 (a sum of 3 needs int16) | 57 | 56 x 4460 + 240 = 250,000 | int16: 500,000 |
 * | int4 | 8920 (a sum of 3 fits int8) | 29 (last 240) | 28 x 4460 + 120 = 125,000 | int8: 250,000
 * | | topk:0.01 | 111,500 | 3 (last 27,000) | (1115 + 1115 + 270) x 8 = 20,000 | passed through |
 *
 * Ring all-reduce among the three: segments of 83,334, 83,334 and 83,332 elements. Island 0
 * (position 0) receives segment 2 in step 0 (its predecessor's own values), segment 1 in step
 * 1 (a sum of two), segment 0 in step 2 and segment 2 in step 3 (sums of three). int8: step 0
 * in int8, the sums in int16 (254 and 381 exceed 127), 19 chunks of up to 4460 elements per
 * segment: 83,332 + 2 x 83,334 + 2 x 83,334 + 2 x 83,332 = 583,332 payload bytes in 76
 * packets. int4: step 0 in int4 (two per byte), the sums in int8 (14 and 21 exceed 7), 10
 * chunks of up to 8920 elements: 41,666 + 83,334 + 83,334 + 83,332 = 291,666 in 40 packets.
 * int32: 38 chunks of up to 2230 elements, 4 bytes each: 4 x 333,332 = 1,333,328 in 152.
 */

// ctest-suite: update-format

#include "exchange-unit-harness.h"
#include "training-scenario.h"

#include "ns3/direct-exchange.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ns3
{

using namespace training_test;

namespace
{

/** Model bytes of every case: 250,000 elements. */
constexpr uint64_t MODEL_BYTES = 1000000;

/** One format's expected figures (the table above). */
struct FormatCase
{
    std::string format;           //!< UpdateFormat name
    uint32_t chunks;              //!< chunks of one update
    uint64_t payload;             //!< DATA payload bytes of one update
    bool summed;                  //!< FPGAs sum it
    GradientHeader::Encoding sum; //!< encoding of a sum of 2
    uint64_t sumPayload;          //!< payload bytes of the sums of one update
};

/** The formats. */
const FormatCase CASES[] = {
    {"int32", 113, 1000000, true, GradientHeader::ENCODING_INT32, 1000000},
    {"bf16", 57, 500000, false, GradientHeader::ENCODING_BF16, 0},
    {"int8", 57, 250000, true, GradientHeader::ENCODING_INT16, 500000},
    {"int4", 29, 125000, true, GradientHeader::ENCODING_INT8, 250000},
    {"topk:0.01", 3, 20000, false, GradientHeader::ENCODING_TOPK, 0},
};

/** Island 0's RING arrivals in one format (the ring table above). */
struct RingCase
{
    std::string format;                             //!< UpdateFormat name
    std::vector<GradientHeader::Encoding> encoding; //!< by step
    uint64_t payload;                               //!< payload bytes over the four steps
    uint64_t packets;                               //!< packets over the four steps
};

/** The summable formats in a ring. */
const RingCase RING_CASES[] = {
    {"int32",
     std::vector<GradientHeader::Encoding>(4, GradientHeader::ENCODING_INT32),
     1333328,
     152},
    {"int8",
     {GradientHeader::ENCODING_INT8,
      GradientHeader::ENCODING_INT16,
      GradientHeader::ENCODING_INT16,
      GradientHeader::ENCODING_INT16},
     583332,
     76},
    {"int4",
     {GradientHeader::ENCODING_INT4,
      GradientHeader::ENCODING_INT8,
      GradientHeader::ENCODING_INT8,
      GradientHeader::ENCODING_INT8},
     291666,
     40},
};

/** What island 0 received of one packet type. */
struct Received
{
    uint64_t packets{0}; //!< how many
    uint64_t bytes{0};   //!< their IPv4 bytes
};

/**
 * \param run a run that listed island 0's arrivals \param type a packet type
 * \param encoding the encoding they must all have
 * \return the count and bytes of that type (every one with another encoding counts as 1 extra
 *         byte, so a wrong encoding shows)
 */
Received
CountReceived(const RunResult& run, GradientHeader::Type type, GradientHeader::Encoding encoding)
{
    Received r;
    for (const RunResult::Arrival& a : run.arrivals)
    {
        if (a.header.GetType() == type)
        {
            ++r.packets;
            r.bytes += a.size + (a.header.GetEncoding() == encoding ? 0 : 1);
        }
    }
    return r;
}

/** \param format a format \param caps capabilities \return its three-island run */
RunResult
RunFormat(const std::string& format, const std::string& caps)
{
    Setup setup;
    setup.caps = caps;
    setup.format = format;
    setup.modelBytes = MODEL_BYTES;
    setup.traceIsland = 0;
    return Simulate(setup);
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief One format, without FPGAs (island 0 receives each peer's chunks with the format's
 *        bytes, and the cost model plans the same bytes) or behind them (island 0 receives
 *        one sum per chunk in the wider encoding, int8 -> int16 and int4 -> int8, or, for bf16
 *        and top-k, every peer's chunk passed through).
 */
class UpdateFormatTestCase : public TestCase
{
  public:
    /** \param c the format's expected figures \param fpga islands behind FPGAs */
    UpdateFormatTestCase(const FormatCase& c, bool fpga)
        : TestCase(std::string(fpga ? "an FPGA sums the format wider or passes it through: "
                                    : "the bytes of every chunk follow the format: ") +
                   c.format),
          m_case(c),
          m_fpga(fpga)
    {
    }

  private:
    void DoRun() override
    {
        const RunResult run = RunFormat(m_case.format, m_fpga ? "fpga" : "none");
        const auto encoding = UpdateFormat::FromString(m_case.format).GetDataEncoding();
        const Received data = CountReceived(run, GradientHeader::DATA, encoding);
        const Received sums = CountReceived(run, GradientHeader::AGGREGATE, m_case.sum);
        const uint64_t everyChunk =
            2 * (m_case.chunks * uint64_t{HEADER + IP_UDP} + m_case.payload);
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        NS_TEST_ASSERT_MSG_EQ(run.plannedWireBytes,
                              m_case.payload + m_case.chunks * uint64_t{HEADER + WIRE_EXTRA},
                              "the cost model counts the same bytes");
        const uint64_t notSummable =
            run.fpga.passThroughs[FpgaAggregatorNetDevice::PASS_NOT_SUMMABLE];
        if (m_fpga && m_case.summed)
        {
            NS_TEST_ASSERT_MSG_EQ(sums.packets, m_case.chunks, "one sum per chunk");
            NS_TEST_ASSERT_MSG_EQ(sums.bytes,
                                  m_case.chunks * uint64_t{HEADER + IP_UDP} + m_case.sumPayload,
                                  "sums in the wider encoding");
            NS_TEST_ASSERT_MSG_EQ(data.packets, 0u, "no chunk passed through");
            NS_TEST_ASSERT_MSG_EQ(notSummable, 0u, "nothing refused");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(sums.packets, 0u, "no sums");
        NS_TEST_ASSERT_MSG_EQ(data.packets, 2u * m_case.chunks, "every chunk of both peers");
        NS_TEST_ASSERT_MSG_EQ(data.bytes, everyChunk, "headers and the format's payload");
        // Behind FPGAs, each of the three passes its two peers' chunks.
        const uint64_t passed = m_fpga ? 6u * m_case.chunks : 0u;
        NS_TEST_ASSERT_MSG_EQ(notSummable, passed, "passed as not summable");
    }

    FormatCase m_case; //!< the format
    bool m_fpga;       //!< behind FPGAs
};

/**
 * \ingroup wan-training-tests
 * \brief Ring all-reduce in a summable format: each step's packets carry the sums of its
 *        contributors in the narrowest encoding that holds them, so island 0 receives the
 *        bytes of the ring table above; the cost model's plan of the ring matches the run.
 */
class UpdateFormatRingTestCase : public TestCase
{
  public:
    /** \param c the format's expected ring figures */
    explicit UpdateFormatRingTestCase(const RingCase& c)
        : TestCase("ring steps widen their sums: " + c.format),
          m_case(c)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.format = m_case.format;
        setup.modelBytes = MODEL_BYTES;
        setup.ring = true;
        setup.traceIsland = 0;
        const RunResult run = Simulate(setup);
        uint64_t packets = 0;
        uint64_t payload = 0;
        uint64_t wrongEncoding = 0;
        for (const RunResult::Arrival& a : run.arrivals)
        {
            if (a.header.GetType() != GradientHeader::RING)
            {
                continue;
            }
            ++packets;
            payload += a.size - HEADER - IP_UDP;
            wrongEncoding +=
                a.header.GetEncoding() == m_case.encoding.at(a.header.GetRingStep()) ? 0 : 1;
        }
        NS_TEST_ASSERT_MSG_EQ(packets, m_case.packets, "packets of the four steps");
        NS_TEST_ASSERT_MSG_EQ(payload, m_case.payload, "payload of the four steps");
        NS_TEST_ASSERT_MSG_EQ(wrongEncoding, 0u, "each step in its encoding");
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        const TrainingRoundRecord& r = RecordOf(run, 0, 0);
        const double sync = (r.syncEnd - r.syncStart).GetSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(run.estimatedSync, sync, 0.02 * sync, "the cost model's ring");
    }

    RingCase m_case; //!< the format
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads in int8 and int4: every island ends with the exact mean of the
 *        quantised values, round(x Scale) summed over the three islands, over 3 Scale; behind
 *        FPGAs whose sums of two peers (up to 2 x 127 = 254, or 2 x 7 = 14) overflow the
 *        chunks' own encoding. And that mean is within 0.5 / Scale of the mean of the
 *        parameters themselves. The same in a ring (partial sums in int16 or int8 from step
 *        1 on) and over the tcp transport (direct and ring).
 */
class UpdateFormatRealTestCase : public TestCase
{
  public:
    /**
     * \param format int8 or int4 \param scale the shared Scale (the largest value, so that
     *        parameters in [-1, 1] fit) \param caps capabilities
     * \param ring RING cliques \param tcp the tcp transport
     */
    UpdateFormatRealTestCase(const std::string& format,
                             double scale,
                             const std::string& caps,
                             bool ring = false,
                             bool tcp = false)
        : TestCase("real " + format + " payloads average exactly, capabilities=" + caps +
                   (ring ? ", ring" : "") + (tcp ? ", tcp" : "")),
          m_format(format),
          m_scale(scale),
          m_caps(caps),
          m_ring(ring),
          m_tcp(tcp)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.format = m_format;
        setup.real = true;
        setup.scale = m_scale;
        setup.modelBytes = 3 * CHUNK + 40;
        setup.ring = m_ring;
        setup.tcp = m_tcp;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.after.size(), 3u, "three islands");
        if (m_caps == "fpga")
        {
            NS_TEST_ASSERT_MSG_GT(run.fpga.complete, 0u, "the FPGAs summed");
            NS_TEST_ASSERT_MSG_EQ(run.fpga.partial, 0u, "every sum complete");
        }
        const std::vector<double> mean = Mean(run.before, {0, 1, 2});
        for (size_t e = 0; e < run.before[0].size(); ++e)
        {
            int64_t sum = 0;
            for (const std::vector<double>& x : run.before)
            {
                sum += static_cast<int64_t>(std::round(x[e] * m_scale));
            }
            const double exact = double(sum) / (m_scale * 3);
            for (uint32_t i = 0; i < 3; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(run.after[i][e],
                                          exact,
                                          1e-12,
                                          "island " << i << " element " << e);
            }
            NS_TEST_ASSERT_MSG_LT_OR_EQ(std::fabs(run.after[0][e] - mean[e]),
                                        0.5 / m_scale + 1e-12,
                                        "element " << e << ": the quantisation bound");
        }
    }

    std::string m_format; //!< int8 or int4
    double m_scale;       //!< shared Scale
    std::string m_caps;   //!< capabilities
    bool m_ring;          //!< RING cliques
    bool m_tcp;           //!< the tcp transport
};

/**
 * \ingroup wan-training-tests
 * \brief A schedule whose rounds name their format: rounds alternate int32 and int8 (three
 *        islands, two partitions of the global clique), behind FPGAs and with multicast, so
 *        each island sends one stream and receives one sum per chunk, each round in its own
 *        format (the table above): round 0 1,000,000 bytes sent and summed in int32, round 1
 *        250,000 sent in int8 and 500,000 received as int16 sums; the cost model plans each
 *        round in its format.
 */
class UpdateFormatPerRoundTestCase : public TestCase
{
  public:
    UpdateFormatPerRoundTestCase()
        : TestCase("rounds in their schedule's formats: int32, then int8")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.modelBytes = MODEL_BYTES;
        setup.rounds = 2;
        setup.partitions = {{{0, 1, 2}}, {{0, 1, 2}}};
        setup.roundFormats = {"int32", "int8"};
        const RunResult run = Simulate(setup);
        const FormatCase& int32 = CASES[0];
        const FormatCase& int8 = CASES[2];
        const uint64_t headers32 = int32.chunks * uint64_t{HEADER};
        const uint64_t headers8 = int8.chunks * uint64_t{HEADER};
        for (uint32_t i = 0; i < 3; ++i)
        {
            const TrainingRoundRecord& r0 = RecordOf(run, i, 0);
            const TrainingRoundRecord& r1 = RecordOf(run, i, 1);
            NS_TEST_EXPECT_MSG_EQ(r0.bytesSent, int32.payload + headers32, "round 0 in int32");
            NS_TEST_EXPECT_MSG_EQ(r0.bytesReceived, int32.sumPayload + headers32, "its sums");
            NS_TEST_EXPECT_MSG_EQ(r1.bytesSent, int8.payload + headers8, "round 1 in int8");
            NS_TEST_EXPECT_MSG_EQ(r1.bytesReceived,
                                  int8.sumPayload + headers8,
                                  "its sums in int16, island " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(run.fpga.partial, 0u, "every sum complete");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
    }
};

/**
 * \param x a real
 * \return its bf16 worked out another way than UpdateFormat::ToBf16: the float's significand
 *         rounded to 8 bits (ties to even) by frexp and ldexp
 */
double
Bf16ByHand(double x)
{
    int exponent = 0;
    const double significand = std::frexp(double(static_cast<float>(x)), &exponent);
    return std::ldexp(std::nearbyint(significand * 256.0), exponent - 8);
}

/**
 * \ingroup wan-training-tests
 * \brief Real bf16 payloads: FPGAs pass them through (they are not integers), and every island
 *        adds its peers' bf16 values itself: it ends with the mean of the three islands' bf16
 *        values exactly, within 2^-8 of the largest parameter of the parameters' mean (bf16
 *        keeps 8 significant bits).
 */
class UpdateFormatBf16RealTestCase : public TestCase
{
  public:
    /** \param caps capabilities */
    explicit UpdateFormatBf16RealTestCase(const std::string& caps)
        : TestCase("real bf16 payloads pass FPGAs and average at the islands, capabilities=" +
                   caps),
          m_caps(caps)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.format = "bf16";
        setup.real = true;
        setup.modelBytes = 3 * CHUNK + 40;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.after.size(), 3u, "three islands");
        const uint64_t passed = run.fpga.passThroughs[FpgaAggregatorNetDevice::PASS_NOT_SUMMABLE];
        // 3 + 40 / 8920 of a bf16 chunk of 4460 elements: 2 chunks per update, two peers' to
        // each of three islands.
        const uint64_t expectedPassed = m_caps == "fpga" ? 12 : 0;
        NS_TEST_ASSERT_MSG_EQ(passed, expectedPassed, "every chunk passed through");
        const std::vector<double> mean = Mean(run.before, {0, 1, 2});
        for (size_t e = 0; e < run.before[0].size(); ++e)
        {
            double sum = 0;
            double largest = 0;
            for (const std::vector<double>& x : run.before)
            {
                sum += Bf16ByHand(x[e]);
                largest = std::max(largest, std::fabs(x[e]));
            }
            for (uint32_t i = 0; i < 3; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(run.after[i][e],
                                          sum / 3,
                                          1e-15,
                                          "island " << i << " element " << e);
            }
            NS_TEST_ASSERT_MSG_LT_OR_EQ(std::fabs(run.after[0][e] - mean[e]),
                                        largest / 256 + 1e-12,
                                        "element " << e << ": bf16's rounding bound");
        }
    }

    std::string m_caps; //!< capabilities
};

/**
 * \ingroup wan-training-tests
 * \brief Real top-k: three islands start from one model, take local steps, and send each
 *        chunk's largest changes with error feedback (SparseChange); FPGAs pass the entries
 *        through. Checked against a second computation: the same workload stepped outside the
 *        simulator and a plain sort per chunk, over two rounds (the second sends what the first
 *        left behind). 100,000 model bytes in topk:0.1 are chunks of 11,150, 11,150 and 2700
 *        elements, 1115, 1115 and 270 entries of 8 bytes.
 */
class UpdateFormatTopkRealTestCase : public TestCase
{
  public:
    /** \param caps capabilities \param tcp the tcp transport */
    UpdateFormatTopkRealTestCase(const std::string& caps, bool tcp)
        : TestCase("real top-k changes pass FPGAs and average at the islands, capabilities=" +
                   caps + (tcp ? ", tcp" : "")),
          m_caps(caps),
          m_tcp(tcp)
    {
    }

  private:
    /** Chunk elements and entries kept (the comment above). */
    static constexpr uint32_t CHUNK_ELEMENTS = 11150;
    static constexpr uint32_t KEPT = 1115;

    /**
     * \param d a change (residual included) \param sent receives what travels: per chunk the
     *        KEPT (last chunk: a tenth, rounded up) largest |d|, lower index first among
     *        equals, as floats
     */
    static void Sparsify(const std::vector<double>& d, std::vector<double>& sent)
    {
        sent.assign(d.size(), 0.0);
        for (size_t first = 0; first < d.size(); first += CHUNK_ELEMENTS)
        {
            const size_t count = std::min<size_t>(CHUNK_ELEMENTS, d.size() - first);
            const size_t kept = (count + 9) / 10;
            std::vector<std::pair<double, size_t>> order;
            for (size_t e = first; e < first + count; ++e)
            {
                order.emplace_back(-std::fabs(d[e]), e);
            }
            std::sort(order.begin(), order.end());
            for (size_t j = 0; j < kept; ++j)
            {
                sent[order[j].second] = static_cast<float>(d[order[j].second]);
            }
        }
    }

    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.tcp = m_tcp;
        setup.format = "topk:0.1";
        setup.real = true;
        setup.sharedStart = true;
        setup.localSteps = 1;
        setup.rounds = 2;
        setup.modelBytes = 100000;
        setup.traceIsland = 0;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.after.size(), 3u, "three islands");
        const bool shared = run.before[1] == run.before[0] && run.before[2] == run.before[0];
        NS_TEST_ASSERT_MSG_EQ(shared, true, "one starting model");
        // Two rounds of two peers' entries, (1115 + 1115 + 270) x 8 bytes per update (the tcp
        // transport's segments are not listed).
        const Received data =
            CountReceived(run, GradientHeader::DATA, GradientHeader::ENCODING_TOPK);
        const uint64_t packets = m_tcp ? 0 : 2 * 2 * 3;
        const uint64_t entryBytes = m_tcp ? 0 : 2 * 2 * 20000;
        NS_TEST_ASSERT_MSG_EQ(data.packets, packets, "three chunks per peer and round");
        NS_TEST_ASSERT_MSG_EQ(data.bytes,
                              packets * (HEADER + IP_UDP) + entryBytes,
                              "the entries' bytes");
        const uint64_t passed = run.fpga.passThroughs[FpgaAggregatorNetDevice::PASS_NOT_SUMMABLE];
        const uint64_t expectedPassed = m_caps == "fpga" ? 2 * 18 : 0;
        NS_TEST_ASSERT_MSG_EQ(passed, expectedPassed, "every chunk passed through");

        // The second computation: step a copy of the workload, sparsify, average.
        Ptr<QuadraticTrainingWorkload> copy = CreateObject<QuadraticTrainingWorkload>();
        copy->SetAttribute("LocalSteps", UintegerValue(1));
        copy->SetAttribute("SharedStart", BooleanValue(true));
        const auto n = static_cast<uint32_t>(run.before[0].size());
        copy->Initialise(3, n);
        std::vector<double> x = run.before[0];
        std::vector<std::vector<double>> residual(3, std::vector<double>(n, 0.0));
        for (uint32_t round = 0; round < 2; ++round)
        {
            std::vector<double> mean(n, 0.0);
            for (uint32_t i = 0; i < 3; ++i)
            {
                copy->SetParameters(i, x);
                copy->LocalUpdate(i, round, 1);
                std::vector<double> d(n);
                for (uint32_t e = 0; e < n; ++e)
                {
                    d[e] = copy->GetParameters(i)[e] - x[e] + residual[i][e];
                }
                std::vector<double> sent;
                Sparsify(d, sent);
                for (uint32_t e = 0; e < n; ++e)
                {
                    residual[i][e] = d[e] - sent[e];
                    mean[e] += sent[e];
                }
            }
            for (uint32_t e = 0; e < n; ++e)
            {
                x[e] += mean[e] / 3;
            }
        }
        uint32_t moved = 0;
        for (uint32_t e = 0; e < n; ++e)
        {
            moved += x[e] != run.before[0][e];
            for (uint32_t i = 0; i < 3; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(run.after[i][e],
                                          x[e],
                                          1e-12,
                                          "island " << i << " element " << e);
            }
        }
        // Each round moves at most the kept share of each island's entries.
        NS_TEST_ASSERT_MSG_GT(moved, 2500u, "more than one island's entries moved");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(moved, 2u * 3 * 2500, "no more than were sent");
    }

    std::string m_caps; //!< capabilities
    bool m_tcp;         //!< the tcp transport
};

/**
 * \ingroup wan-training-tests
 * \brief A top-k chunk whose entry lies outside the chunk is dropped before anything is added
 *        (its index would write past the sums); a good one after it is taken. Ten elements in
 *        chunks of 4, 4 and 2 (topk:0.5: 2, 2 and 1 entries); island 1 of four.
 */
class TopkEntriesOutsideTestCase : public ExchangeUnitTestCase
{
  public:
    TopkEntriesOutsideTestCase()
        : ExchangeUnitTestCase("a top-k entry outside its chunk is dropped")
    {
    }

  private:
    void DoRun() override
    {
        MakeContext(1);
        m_context.settings.layout = ChunkLayout(40, 16, UpdateFormat::FromString("topk:0.5"), 4);
        TrainingRoundConfig config;
        config.members = {0, 1, 2, 3};
        TrainingStreamConfig out;
        out.receivers = {0, 2, 3};
        out.destination = Ipv4Address("239.0.0.9");
        out.multicast = true;
        out.rateBps = 1e9;
        config.streams = {out};
        DirectExchange exchange(m_context, 0, config);
        const int32_t one = UpdateFormat::ToFloatBits(1.0);
        const std::vector<int32_t> own = {0, one, 1, one, 0, one, 1, one, 0, one};
        Simulator::Schedule(MilliSeconds(1), [&exchange, &own]() { exchange.Start(own); });
        GradientHeader outside =
            Header(GradientHeader::DATA, 0, 0, {0}, GradientHeader::FLAG_REAL_PAYLOAD);
        outside.SetEncoding(GradientHeader::ENCODING_TOPK);
        Deliver(&exchange, MilliSeconds(2), outside, {0, one, 100000000, one});
        Deliver(&exchange, MilliSeconds(3), outside, {0, one, 3, one});
        Deliver(&exchange, MilliSeconds(4), outside, {0, one, 3, one});
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_context.counters.dropped, 1u, "the entry at 100,000,000");
        NS_TEST_ASSERT_MSG_EQ(m_context.counters.duplicates, 1u, "the good chunk taken once");
        Simulator::Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Update formats on the wire.
 */
class UpdateFormatTestSuite : public TestSuite
{
  public:
    UpdateFormatTestSuite()
        : TestSuite("update-format")
    {
        for (const FormatCase& c : CASES)
        {
            AddTestCase(new UpdateFormatTestCase(c, false));
            AddTestCase(new UpdateFormatTestCase(c, true));
        }
        for (const std::string caps : {"none", "fpga"})
        {
            AddTestCase(new UpdateFormatRealTestCase("int8", 127, caps));
            AddTestCase(new UpdateFormatRealTestCase("int4", 7, caps));
        }
        for (const RingCase& c : RING_CASES)
        {
            AddTestCase(new UpdateFormatRingTestCase(c));
        }
        for (const bool tcp : {false, true})
        {
            AddTestCase(new UpdateFormatRealTestCase("int8", 127, "none", true, tcp));
            AddTestCase(new UpdateFormatRealTestCase("int4", 7, "none", true, tcp));
        }
        AddTestCase(new UpdateFormatRealTestCase("int8", 127, "none", false, true));
        AddTestCase(new UpdateFormatPerRoundTestCase());
        AddTestCase(new UpdateFormatBf16RealTestCase("none"));
        AddTestCase(new UpdateFormatBf16RealTestCase("fpga"));
        AddTestCase(new UpdateFormatTopkRealTestCase("none", false));
        AddTestCase(new UpdateFormatTopkRealTestCase("fpga", false));
        AddTestCase(new UpdateFormatTopkRealTestCase("none", true));
        AddTestCase(new TopkEntriesOutsideTestCase());
    }
};

/// The suite's instance.
static UpdateFormatTestSuite g_updateFormatTestSuite;

} // namespace ns3
