/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest units for queue sizes: WanQueueSpec's text forms and their resolution for one
 * link, the topology file's "queue" keys, and WanRouting::GetLongestRoundTrips on a hand-made
 * line of three cities. Expected values are worked out by hand in the comments.
 */

#include "ns3/wan-input-error.h"
#include "ns3/wan-queue-spec.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

/** \param text a spec's text \return the message Parse throws for it ("" if none) */
std::string
ParseError(const std::string& text)
{
    try
    {
        WanQueueSpec::Parse(text, "--queue");
    }
    catch (const WanInputError& e)
    {
        return e.what();
    }
    return "";
}

/** A line NYC -- LON -- FRA (20 ms and 2 ms one way) with AMS beside LON (1 ms), one island
 *  per city. */
const char LINE[] = R"({
  "name": "line",
  "defaults": {"accessDelay": "1ms", "queue": "10ms"},
  "cities": [
    {"code": "NYC", "latitude": 40.7, "longitude": -74.0},
    {"code": "LON", "latitude": 51.5, "longitude": -0.1},
    {"code": "FRA", "latitude": 50.1, "longitude": 8.7},
    {"code": "AMS", "latitude": 52.4, "longitude": 4.9}
  ],
  "islands": [
    {"name": "NYC-0", "city": "NYC"},
    {"name": "LON-0", "city": "LON", "queue": "bdp"},
    {"name": "FRA-0", "city": "FRA", "accessDelay": "3ms"},
    {"name": "AMS-0", "city": "AMS"}
  ],
  "links": [
    {"a": "NYC", "b": "LON", "delay": "20ms", "queue": "2000p"},
    {"a": "LON", "b": "FRA", "delay": "2ms"},
    {"a": "LON", "b": "AMS", "delay": "1ms"}
  ]
})";

} // namespace

TEST(WanQueueSpec, TextForms)
{
    const WanQueueSpec packets = WanQueueSpec::Parse("100p", "--queue");
    EXPECT_EQ(packets.GetKind(), WanQueueSpec::PACKETS);
    EXPECT_EQ(packets.GetValue(), 100);
    EXPECT_EQ(WanQueueSpec::Parse("7packets", "--queue").GetValue(), 7);

    const WanQueueSpec bytes = WanQueueSpec::Parse("125MB", "--queue");
    EXPECT_EQ(bytes.GetKind(), WanQueueSpec::BYTES);
    EXPECT_EQ(bytes.GetValue(), 125e6);
    EXPECT_EQ(WanQueueSpec::Parse("64KiB", "--queue").GetValue(), 65536);

    const WanQueueSpec time = WanQueueSpec::Parse("50ms", "--queue");
    EXPECT_EQ(time.GetKind(), WanQueueSpec::TIME);
    EXPECT_DOUBLE_EQ(time.GetValue(), 0.05);
    EXPECT_EQ(time.ToString(), "50ms");
    EXPECT_EQ(time.Describe(), "50ms at the link's rate");

    EXPECT_EQ(WanQueueSpec::Parse("bdp", "--queue").GetKind(), WanQueueSpec::BDP);
    // The default is 50 ms at line rate.
    EXPECT_EQ(WanQueueSpec(), time);
    EXPECT_EQ(WanQueueSpec().ToString(), "50ms");
    EXPECT_EQ(WanQueueSpec::Packets(100), packets);
    EXPECT_NE(WanQueueSpec::Bytes(100), packets);
}

TEST(WanQueueSpec, BadTextIsRejectedByName)
{
    EXPECT_EQ(ParseError("lots"),
              "--queue: \"lots\": expected packets (100p), bytes (125MB), a time at the link's "
              "rate (50ms) or bdp (one bandwidth-delay product)");
    EXPECT_EQ(ParseError(""),
              "--queue: \"\": expected packets (100p), bytes (125MB), a time at the link's "
              "rate (50ms) or bdp (one bandwidth-delay product)");
    EXPECT_EQ(ParseError("0p"), "--queue: \"0p\": must be at least 1");
    EXPECT_EQ(ParseError("1.5p"), "--queue: \"1.5p\": must be a whole number");
    EXPECT_EQ(ParseError("5GB"), "--queue: \"5GB\": too large (at most 4294967295)");
    EXPECT_EQ(ParseError("0ms"), "--queue: \"0ms\": a queue of no time holds nothing");
    EXPECT_EQ(ParseError("-5ms"), "--queue: \"-5ms\": must not be negative");
    EXPECT_EQ(ParseError("2bdp"),
              "--queue: \"2bdp\": expected packets (100p), bytes (125MB), a time at the link's "
              "rate (50ms) or bdp (one bandwidth-delay product)");
    EXPECT_NE(ParseError("10 furlongs"), "");
}

TEST(WanQueueSpec, ResolvesForOneLink)
{
    const double bps = 10e9; // 10 Gbit/s
    const double rtt = 0.1;  // 100 ms
    const uint32_t mtu = 9000;
    // 50 ms at 10 Gbit/s: 0.05 x 1.25e9 B/s = 62,500,000 bytes.
    EXPECT_EQ(WanQueueSpec::Parse("50ms", "q").Resolve(bps, rtt, mtu), 62500000u);
    // One BDP: 10 Gbit/s x 100 ms / 8 = 125,000,000 bytes.
    EXPECT_EQ(WanQueueSpec::Parse("bdp", "q").Resolve(bps, rtt, mtu), 125000000u);
    // Packets and bytes are what they say, whatever the link.
    EXPECT_EQ(WanQueueSpec::Parse("100p", "q").Resolve(bps, rtt, mtu), 100u);
    EXPECT_EQ(WanQueueSpec::Parse("20000B", "q").Resolve(bps, rtt, mtu), 20000u);
    // Never below one whole packet: 1 us at 10 Gbit/s is 1250 bytes, under a 9000-byte MTU.
    EXPECT_EQ(WanQueueSpec::Parse("1us", "q").Resolve(bps, rtt, mtu), 9000u);
    EXPECT_EQ(WanQueueSpec::Parse("bdp", "q").Resolve(bps, 0, mtu), 9000u);
    // Rounded up: 1 ms at 1 bit/s over 8 is 0.000125 bytes, so the floor of one MTU.
    EXPECT_EQ(WanQueueSpec::Parse("3ms", "q").Resolve(1e6 + 1, 0, 1), 376u); // 375.000375
    // At most what QueueSize holds: 1 s at 400 Gbit/s is 5e10 bytes.
    EXPECT_EQ(WanQueueSpec::Parse("1s", "q").Resolve(400e9, 0, mtu), 4294967295u);
}

TEST(WanQueueSpec, TopologyFileKeys)
{
    const WanTopology t = WanTopologyJson::Parse(LINE, "line.json");
    EXPECT_EQ(t.GetDefaultQueue().ToString(), "10ms");
    EXPECT_EQ(t.GetIslandQueue(0).ToString(), "10ms"); // the file's default
    EXPECT_EQ(t.GetIslandQueue(1).ToString(), "bdp");
    EXPECT_EQ(t.GetIslandQueue(2).ToString(), "10ms");
    EXPECT_EQ(t.GetLinkQueue(0).ToString(), "2000p");
    EXPECT_EQ(t.GetLinkQueue(1).ToString(), "10ms");
    // Written out and read back: the same queues.
    const WanTopology again = WanTopologyJson::Parse(WanTopologyJson::ToJson(t), "again.json");
    EXPECT_EQ(again.GetDefaultQueue(), t.GetDefaultQueue());
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(again.GetIslandQueue(i), t.GetIslandQueue(i));
    }
    for (uint32_t l = 0; l < 3; ++l)
    {
        EXPECT_EQ(again.GetLinkQueue(l), t.GetLinkQueue(l));
    }
    // SetQueue (--queue) replaces every one.
    WanTopology all = t;
    all.SetQueue(WanQueueSpec::Parse("1ms", "--queue"));
    EXPECT_EQ(all.GetIslandQueue(1).ToString(), "1ms");
    EXPECT_EQ(all.GetLinkQueue(0).ToString(), "1ms");
    EXPECT_EQ(all.GetDefaultQueue().ToString(), "1ms");
    // Without any key: the built-in default on every link and island.
    std::string bare = LINE;
    for (const char* key : {R"(, "queue": "10ms")", R"(, "queue": "bdp")", R"(, "queue": "2000p")"})
    {
        bare.erase(bare.find(key), std::string(key).size());
    }
    const WanTopology plain = WanTopologyJson::Parse(bare, "bare.json");
    EXPECT_EQ(plain.GetIslandQueue(1), WanQueueSpec());
    EXPECT_EQ(plain.GetLinkQueue(0), WanQueueSpec());
}

TEST(WanQueueSpec, TopologyFileErrorsNameTheField)
{
    std::string bad = LINE;
    bad.replace(bad.find("\"2000p\""), 7, "\"2000 parsecs\"");
    try
    {
        WanTopologyJson::Parse(bad, "line.json");
        FAIL() << "accepted a queue of parsecs";
    }
    catch (const WanInputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("line.json: links[0].queue: \"2000 parsecs\""),
                  std::string::npos)
            << e.what();
    }
    bad = LINE;
    bad.replace(bad.find("\"bdp\""), 5, "12");
    try
    {
        WanTopologyJson::Parse(bad, "line.json");
        FAIL() << "accepted a bare number as a queue";
    }
    catch (const WanInputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("islands[1].queue"), std::string::npos) << e.what();
    }
}

TEST(WanRoutingRoundTrips, LongestRoundTripThroughEachLink)
{
    const WanTopology t = WanTopologyJson::Parse(LINE, "line.json");
    const WanRouting routing(t);
    std::vector<double> links;
    std::vector<double> access;
    routing.GetLongestRoundTrips(links, access);
    // One way: NYC-0 to LON-0 1 + 20 + 1 = 22 ms; LON-0 to FRA-0 1 + 2 + 3 = 6 ms; NYC-0 to
    // FRA-0 1 + 20 + 2 + 3 = 26 ms; AMS-0 to NYC-0 1 + 1 + 20 + 1 = 23 ms, to LON-0 3 ms, to
    // FRA-0 1 + 1 + 2 + 3 = 7 ms. Round trips are twice that.
    ASSERT_EQ(links.size(), 3u);
    ASSERT_EQ(access.size(), 4u);
    EXPECT_NEAR(links[0], 0.052, 1e-12);  // NYC-LON: longest NYC-0 <-> FRA-0, 52 ms
    EXPECT_NEAR(links[1], 0.052, 1e-12);  // LON-FRA: NYC-0 <-> FRA-0 too
    EXPECT_NEAR(links[2], 0.046, 1e-12);  // LON-AMS: AMS-0 <-> NYC-0, 46 ms
    EXPECT_NEAR(access[0], 0.052, 1e-12); // NYC-0's farthest: FRA-0
    EXPECT_NEAR(access[1], 0.044, 1e-12); // LON-0's farthest: NYC-0, 2 x 22 ms
    EXPECT_NEAR(access[2], 0.052, 1e-12); // FRA-0's farthest: NYC-0
    EXPECT_NEAR(access[3], 0.046, 1e-12); // AMS-0's farthest: NYC-0
}
