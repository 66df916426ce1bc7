/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario builder the training-application and loss-recovery suites share: small
 * topologies built in code (cities in a ring, islands with 10 Gbps access links, 100 Gbps WAN
 * links), one knob struct per run (Setup), one run (Simulate) and what the checks need from it
 * (RunResult), plus the link constants every expected value is computed from.
 */

#ifndef WAN_TRAINING_TEST_TRAINING_SCENARIO_H
#define WAN_TRAINING_TEST_TRAINING_SCENARIO_H

#include "ns3/clique-schedule.h"
#include "ns3/gradient-header.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/training-application.h"
#include "ns3/training-experiment.h"

#include <cstdint>
#include <functional>
#include <list>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \defgroup wan-training-tests WAN training tests
 * \ingroup wan-training
 * \brief The module's ns-3 test suites (run by wan-training-test-runner and ctest).
 */
class TrainingHelper;
class WanTopologyHelper;

namespace training_test
{

/// One gigabit per second.
constexpr uint64_t GBPS = 1000000000ULL;
/// Access link rate of every test island.
constexpr uint64_t ACCESS_BPS = 10 * GBPS;
/// WAN link rate.
constexpr uint64_t WAN_BPS = 100 * GBPS;
/// In-box link rate between an FPGA and its router (Setup sets it on WanTopologyHelper).
constexpr uint64_t IN_BOX_BPS = 400 * GBPS;
/// Access link delay, s.
constexpr double ACCESS_DELAY = 50e-6;
/// WAN link delay, s.
constexpr double WAN_DELAY = 1e-3;
/// In-box link delay, s.
constexpr double IN_BOX_DELAY = 0.5e-6;
/// Gradient header of a DATA/AGGREGATE/RING packet with up to 64 islands: 36 + 2 x 8.
constexpr uint32_t HEADER = 52;
/// Chunk payload filling a 9000-byte MTU: 9000 - 20 (IPv4) - 8 (UDP) - 52, a multiple of 4.
constexpr uint32_t CHUNK = 9000 - 20 - 8 - HEADER;
/// IPv4 + UDP header bytes of every gradient packet.
constexpr uint32_t IP_UDP = 20 + 8;
/// Framing bytes of every packet on every link (PPP header).
constexpr uint32_t FRAMING = 2;
/// Wire bytes per packet besides the gradient header and payload: IPv4 + UDP + PPP.
constexpr uint32_t WIRE_EXTRA = IP_UDP + FRAMING;
/// IPv4 bytes of a full chunk's DATA (or AGGREGATE, or resent DATA) packet.
constexpr uint32_t FULL_CHUNK_IP = CHUNK + HEADER + IP_UDP;
/// IPv4 bytes of a NACK asking for one range: the gradient header, one 8-byte range, UDP, IPv4.
constexpr uint32_t NACK_IP = HEADER + 8 + IP_UDP;
/// Fixed-point scale of the real-mode tests.
constexpr double SCALE = 65536.0;
/// RetransmissionTimeout of every run.
const Time RETRANSMISSION_TIMEOUT = MilliSeconds(20);
/// MaxRetries of every run.
constexpr uint32_t MAX_RETRIES = 4;

/** \param bytes payload \return chunks of a stream of \p bytes */
uint64_t Chunks(uint64_t bytes);

/** \param bytes payload \return gradient bytes (headers + payload) of a stream */
uint64_t StreamBytes(uint64_t bytes);

/**
 * \param bytes one island's update (a fragment, a bucket) in a 2-island DIRECT exchange
 * \return its exchange time on the test links, nothing else running: the stream serialised
 *         at the 10 Gbps access rate plus the path delay (access, WAN, access)
 */
double PairExchangeTime(uint64_t bytes);

/**
 * \param ipBytes an IPv4 packet's size \param bps a link's rate
 * \return the time the packet (plus framing) takes to serialise onto that link
 */
Time Serialisation(uint32_t ipBytes, uint64_t bps);

/**
 * \param ipBytes an IPv4 packet's size \param bps a link's rate \param delay its delay, s
 * \return the time from the packet's first bit leaving one end to its last bit arriving at the
 *         other: serialisation (with framing) plus propagation
 */
Time Hop(uint32_t ipBytes, uint64_t bps, double delay);

/**
 * \param ipBytes an IPv4 packet's size \param wanDelay the WAN link's delay, s
 * \return its time island -> access link -> router -> one WAN link -> router -> access link
 *         -> island, nothing queued (no FPGAs)
 */
Time PathTime(uint32_t ipBytes, double wanDelay = WAN_DELAY);

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
    double replayedExposed{0};                //!< TrainingHelper::GetEstimatedSync
    double replayedHidden{0};                 //!< TrainingHelper::GetEstimatedHiddenSync
    uint64_t island0Packets{0};               //!< IPv4 packets island 0's device sent
    uint32_t island0Largest{0};               //!< the largest of them, bytes (IPv4)
    uint32_t linkHeaderBytes{0};              //!< link header in island 0's MacTx packets
    std::set<uint16_t> island0Ports;          //!< UDP destination ports island 0 sent to
    std::vector<double> cityLoad;             //!< TrainingHelper::EstimateLoad
    std::vector<double> linkPackets;          //!< TrainingHelper::EstimateLoad
    Time end;                                 //!< when the simulation ran out of events
    std::vector<Time> hold; //!< per island: its FPGA's Timeout + PipelineLatency after Install
                            //!< (zero without an FPGA)
    uint64_t plannedWireBytes{0}; //!< the cost model's GetWireBytes(modelBytes)
    uint32_t tcpSegmentSize{0};   //!< transport tcp: island 0's segment size
    uint32_t tcpBufferBytes{0};   //!< transport tcp: island 0's buffer towards island 1
    uint64_t tcpHeartbeats{0};    //!< transport tcp: heartbeats written by every island
    /** Transport tcp: [island][peer], per connection, bytes of messages written to the peer
     *  (TcpTransport::GetStreamBytesSent; empty for a non-partner). */
    std::vector<std::vector<std::vector<uint64_t>>> tcpStreamSent;
    /** Transport tcp: [island][peer], per connection, bytes of messages read from the peer
     *  (TcpTransport::GetStreamBytesReceived). */
    std::vector<std::vector<std::vector<uint64_t>>> tcpStreamReceived;
    uint64_t dropped{0};       //!< every island's dropped packets (malformed, not matching)
    uint64_t duplicates{0};    //!< every island's duplicate contributions
    std::string transportNote; //!< TrainingSummary::transportNote

    /** A gradient packet received by Setup::traceIsland's device. */
    struct Arrival
    {
        uint64_t uid;          //!< packet uid
        Time at;               //!< arrival
        GradientHeader header; //!< its gradient header
        uint32_t size;         //!< its IPv4 bytes
    };

    std::vector<Arrival> arrivals; //!< at Setup::traceIsland, in order

    /**
     * \param type packet type \param sender the header's sender \param chunk chunk index
     * \param retransmission the FLAG_RETRANSMISSION wanted
     * \return the first listed arrival that matches, or nullptr
     */
    const Arrival* Find(GradientHeader::Type type,
                        uint32_t sender,
                        uint32_t chunk,
                        bool retransmission = false) const;
};

/** Knobs of one run. */
struct Setup
{
    std::string caps{"none"};              //!< capability set
    uint32_t cities{3};                    //!< cities
    uint32_t perCity{1};                   //!< islands per city
    uint64_t modelBytes{10 * CHUNK + 400}; //!< M
    uint32_t rounds{1};                    //!< rounds
    Time compute{MilliSeconds(10)};        //!< compute time of one inner step
    uint32_t innerSteps{1};                //!< inner steps per round (TrainingHelper)
    uint32_t fragments{1};                 //!< fragments per round (TrainingHelper)
    std::vector<FragmentPlan> stepPlans;   //!< per island, TrainingHelper::SetStepPlans
    bool real{false};                      //!< real workload
    uint32_t localSteps{0};                //!< real: the workload's LocalSteps (0: averaging only)
    double initialSpread{1};               //!< real: the workload's InitialSpread
    bool sharedStart{false};               //!< real: the workload's SharedStart
    std::string format{"int32"};           //!< TrainingHelper::SetUpdateFormat
    std::vector<std::string> roundFormats; //!< per period round, the schedule's format ("": none)
    double scale{SCALE};                   //!< the applications' fixed-point Scale
    double loss{0};                        //!< WAN loss
    int cut{-1};                           //!< island whose access link is cut
    int straggler{-1};                     //!< island computing 10x longer
    std::vector<Partition> partitions;     //!< schedule (empty: global clique)
    bool ring{false};                      //!< RING for every clique
    bool tree{false};                      //!< TREE for every clique (planned by the helper)
    uint32_t seed{1};                      //!< RNG seed
    uint64_t run{1};                       //!< RNG run (RngSeedManager::SetRun)
    double wanDelay{WAN_DELAY};            //!< delay of every WAN link, s
    uint64_t wanBps{WAN_BPS};              //!< rate of every WAN link, bit/s
    double farDelay{0};                    //!< if positive, delay of the last city's links, s
    uint16_t mtu{9000};                    //!< MTU of every device
    uint32_t framing{FRAMING};             //!< every WanLinkNetDevice's FramingBytes
    bool stockLinks{false}; //!< ns-3's PointToPointNetDevice and PointToPointChannel on every link
    int fanOutCity{-1};     //!< city whose router gets MaxFanOut = fanOut
    uint32_t fanOut{0};     //!< that MaxFanOut
    int multicastOffCity{-1};           //!< city whose router gets MulticastEnabled = false
    bool tuneFpgas{true};               //!< TrainingHelper::SetTuneFpgas
    uint32_t fpgaSlots{0};              //!< if positive, every FPGA's SlotCount
    Time fpgaTimeout;                   //!< if positive, every FPGA's Timeout
    Time fpgaLatency{NanoSeconds(500)}; //!< every FPGA's PipelineLatency
    uint64_t fpgaRateBps{0};            //!< every FPGA's ProcessingRate (0: line rate)
    uint32_t queuePackets{0};           //!< if positive, every device's transmit queue bound
    uint32_t queueBytes{0};             //!< if positive, that bound in bytes (not queuePackets)
    bool tuneQueues{true};              //!< TrainingHelper::SetTuneQueues
    bool alignStarts{true};             //!< TrainingApplication AlignStarts
    int traceIsland{-1};  //!< island whose device's received gradient packets are listed
    int dropAtIsland{-1}; //!< island whose device drops the packets of dropUids
    /** Trace and drop at the router port of the island's FPGA instead of the island's own
     *  device: packets towards the island before its FPGA saw them. */
    bool atFpga{false};
    std::list<uint64_t> dropUids; //!< packet uids a ListErrorModel drops there
    bool tcp{false};              //!< transport tcp instead of planned
    std::string congestion;       //!< TcpTransport CongestionControl ("": its default)
    Time tcpPeerTimeout;          //!< if positive, TcpTransport PeerTimeout
    uint32_t tcpStreams{1};       //!< TcpTransport Streams
    uint32_t tcpBuffer{0};        //!< TcpTransport BufferBytes (0: from the path)
    int stopIsland{-1};           //!< island whose application stops at stopAt
    Time stopAt;                  //!< when it stops
    bool adaptive{false};         //!< transport adaptive instead of planned
    std::string initialRate;      //!< AdaptiveTransport InitialRate ("": its default)
    /** Called after TrainingHelper::Install, before the run (traces, samplers); or empty. */
    std::function<void(WanTopologyHelper&, TrainingHelper&)> beforeRun;
};

/** \param setup the run's knobs \return what the checks need */
RunResult Simulate(const Setup& setup);

/** \param setup a scenario \return the records its run yields: one per island and round */
uint32_t RecordCount(const Setup& setup);

/** \param run a run \param island an island \param round a round \return its record */
const TrainingRoundRecord& RecordOf(const RunResult& run, uint32_t island, uint32_t round);

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

/** \param vectors parameter vectors \param members which \return their element-wise mean */
std::vector<double> Mean(const std::vector<std::vector<double>>& vectors,
                         const std::vector<uint32_t>& members);

/**
 * \param before every island's parameters before a DIRECT round of all of them
 * \param e an element
 * \return what every island must hold after it: the int32 fixed-point values (round(x x
 *         SCALE)) summed with wrap-around, over SCALE x the number of islands
 */
double FixedPointMean(const std::vector<std::vector<double>>& before, size_t e);

/** \param a vector \param b vector \return max |a - b| */
double MaxError(const std::vector<double>& a, const std::vector<double>& b);

/** \param n a count \return the islands 0 .. n-1 */
std::vector<uint32_t> AllIslands(uint32_t n);

/**
 * \return six islands (three cities of two) on the adaptive transport, every stream starting
 *         at its access rate (InitialRate line), a 200-chunk model: queues build and the
 *         devices mark between their thresholds, so random draws decide the marks
 */
Setup CongestedAdaptive();

} // namespace training_test
} // namespace ns3

#endif /* WAN_TRAINING_TEST_TRAINING_SCENARIO_H */
