/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-output.h"

#include "training-csv.h"

#include "ns3/wan-topology.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace ns3
{

namespace
{

/** Digits after the point of times in CSV (nanosecond resolution). */
constexpr int TIME_DIGITS = 9;

/** \param t a time \return seconds with nanosecond digits */
std::string
FormatSeconds(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(TIME_DIGITS) << t.GetSeconds();
    return os.str();
}

/** \param v a double \return it with enough digits to read back */
std::string
FormatDouble(double v)
{
    std::ostringstream os;
    os << std::setprecision(12) << v;
    return os.str();
}

/** \param value an optional \return it as JSON, or null */
template <typename T>
nlohmann::json
OrNull(const std::optional<T>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

/**
 * \param counts counters indexed by a reason \param name the reason's name
 * \return them as a JSON object keyed by reason name
 */
template <size_t N, typename Reason>
nlohmann::json
ByReason(const std::array<uint64_t, N>& counts, const char* (*name)(Reason))
{
    nlohmann::json j = nlohmann::json::object();
    for (size_t r = 0; r < N; ++r)
    {
        j[name(static_cast<Reason>(r))] = counts[r];
    }
    return j;
}

/**
 * \param j what ByReason wrote \param counts receives the counters
 * \param name the reasons' names
 * \throws nlohmann::json::exception if a reason is missing
 */
template <size_t N, typename Reason>
void
FromByReason(const nlohmann::json& j, std::array<uint64_t, N>& counts, const char* (*name)(Reason))
{
    for (size_t r = 0; r < N; ++r)
    {
        counts[r] = j.at(name(static_cast<Reason>(r))).template get<uint64_t>();
    }
}

/** \param j a JSON value or null \return it as an optional */
template <typename T>
std::optional<T>
FromNullable(const nlohmann::json& j)
{
    return j.is_null() ? std::nullopt : std::optional<T>(j.get<T>());
}

} // namespace

void
TrainingOutput::WriteRoundsHeader(std::ostream& os, bool fragments)
{
    os << "capabilities,schedule,island,round,clique,members,compute_start_s,sync_start_s,"
          "sync_end_s,"
       << (fragments ? "hidden_sync_s," : "")
       << "bytes_sent,bytes_received,packets_sent,packets_received,retransmissions,"
          "lost_peers,control_packets_sent,control_packets_received,complete\n";
}

void
TrainingOutput::WriteRounds(std::ostream& os,
                            const TrainingExperiment& experiment,
                            const std::string& capabilities,
                            const std::string& schedule)
{
    const auto& islands = experiment.GetTopology().GetIslands();
    const bool fragments = experiment.GetFragments() > 1;
    const auto names = [&islands](const std::vector<uint32_t>& list) {
        std::string text;
        for (uint32_t m : list)
        {
            text += (text.empty() ? "" : " ") + islands[m].name;
        }
        return TrainingCsv::Field(text);
    };
    for (const TrainingRoundRecord& record : experiment.GetRecords())
    {
        os << TrainingCsv::Field(capabilities) << "," << TrainingCsv::Field(schedule) << ","
           << TrainingCsv::Field(islands[record.island].name) << "," << record.round << ","
           << record.clique << "," << names(record.members) << ",";
        if (record.finished)
        {
            os << FormatSeconds(record.computeStart) << "," << FormatSeconds(record.syncStart)
               << "," << FormatSeconds(record.syncEnd);
            os << (fragments ? "," + FormatSeconds(record.hiddenSync) : "");
        }
        else
        {
            os << (fragments ? ",,," : ",,");
        }
        os << "," << record.bytesSent << "," << record.bytesReceived << "," << record.packetsSent
           << "," << record.packetsReceived << "," << record.retransmissions << ","
           << names(record.lostPeers) << "," << record.controlPacketsSent << ","
           << record.controlPacketsReceived << "," << (record.finished ? 1 : 0) << "\n";
    }
}

void
TrainingOutput::WriteConsensusHeader(std::ostream& os)
{
    os << "capabilities,schedule,round,time_s,consensus_distance,loss\n";
}

void
TrainingOutput::WriteConsensus(std::ostream& os,
                               const TrainingExperiment& experiment,
                               const std::string& capabilities,
                               const std::string& schedule)
{
    for (const TrainingConsensusPoint& p : experiment.GetConsensus())
    {
        os << TrainingCsv::Field(capabilities) << "," << TrainingCsv::Field(schedule) << ","
           << p.round << "," << FormatSeconds(Seconds(p.time)) << ","
           << FormatDouble(p.consensusDistance) << "," << FormatDouble(p.loss) << "\n";
    }
}

void
TrainingOutput::WriteLinksHeader(std::ostream& os)
{
    os << "capabilities,schedule,link,from,to,bytes,utilisation\n";
}

void
TrainingOutput::WriteLinks(std::ostream& os,
                           const TrainingExperiment& experiment,
                           const std::string& capabilities,
                           const std::string& schedule)
{
    const double time = experiment.GetLinkCountingTime();
    for (const TrainingLinkUsage& link : experiment.GetLinkUsage())
    {
        const double utilisation =
            time > 0 && link.rateBps > 0 ? link.bytes * 8.0 / (link.rateBps * time) : 0.0;
        os << TrainingCsv::Field(capabilities) << "," << TrainingCsv::Field(schedule) << ","
           << TrainingCsv::Field(link.link) << "," << TrainingCsv::Field(link.from) << ","
           << TrainingCsv::Field(link.to) << "," << link.bytes << "," << FormatDouble(utilisation)
           << "\n";
    }
}

nlohmann::json
TrainingOutput::SummaryToJson(const TrainingSummary& s)
{
    // An array keeps the islands in topology order (an object's keys would be sorted).
    nlohmann::json lostByIsland = nlohmann::json::array();
    for (const auto& [island, lost] : s.lostPeersByIsland)
    {
        lostByIsland.push_back({{"island", island}, {"lost_peers", lost}});
    }
    return {
        {"period", s.period},
        {"rounds", s.rounds},
        {"mean_round_s", s.meanRound},
        {"p50_round_s", s.p50Round},
        {"p99_round_s", s.p99Round},
        {"mean_sync_s", s.meanSync},
        {"estimated_sync_s", s.estimatedSync},
        {"mean_hidden_sync_s", s.meanHiddenSync},
        {"estimated_hidden_sync_s", s.estimatedHiddenSync},
        {"mean_compute_s", s.meanCompute},
        {"total_time_s", s.totalTime},
        {"rounds_to_epsilon", OrNull(s.roundsToEpsilon)},
        {"time_to_epsilon_s", OrNull(s.timeToEpsilon)},
        {"warmup_rounds", s.warmupRounds},
        {"first_round_s", OrNull(s.firstRound)},
        {"queue_drops", s.queueDrops},
        {"loss_drops", s.lossDrops},
        {"retransmissions", s.retransmissions},
        {"lost_peers", s.lostPeers},
        {"lost_peers_by_island", lostByIsland},
        {"complete", s.IsComplete()},
        {"unfinished_rounds", s.unfinishedRounds},
        {"stopped_by", s.stoppedBy.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.stoppedBy)},
        {"fpga_partial_flushes", s.fpga.partial},
        {"fpga_early_flushes", s.fpga.earlyFlushes},
        {"fpga_overflows", s.fpga.overflows},
        {"fpga_wraps", s.fpga.wraps},
        {"fpga_pass_throughs",
         ByReason(s.fpga.passThroughs, &FpgaAggregatorNetDevice::PassReasonName)},
        {"transit_pass_throughs",
         ByReason(s.fpga.transitPassThroughs, &TransitAggregatorNetDevice::PassReasonName)},
        {"router_drops", ByReason(s.routers.drops, &WanRouterNetDevice::DropReasonName)},
        {"held_starts", s.heldStarts},
        {"transport", s.transport},
        {"transport_note",
         s.transportNote.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.transportNote)},
        {"colocated_time_to_epsilon_s", OrNull(s.colocatedTimeToEpsilon)},
        {"gap_to_colocated", OrNull(s.gapToColocated)},
        {"sim_vs_estimate",
         s.estimatedSync > 0 && s.meanSync > 0 ? nlohmann::json(s.meanSync / s.estimatedSync - 1)
                                               : nullptr},
        {"mean_exchange_s", OrNull(s.meanExchange)},
        {"exchange_bound_s", OrNull(s.exchangeBound)},
        {"exchange_vs_bound",
         s.meanExchange && s.exchangeBound && *s.exchangeBound > 0
             ? nlohmann::json(*s.meanExchange / *s.exchangeBound)
             : nullptr},
        {"gain_over", s.gainOver},
        {"gain_over_label", s.gainOverLabel}};
}

TrainingSummary
TrainingOutput::SummaryFromJson(const nlohmann::json& entry)
{
    TrainingSummary s;
    s.period = entry.at("period").get<uint32_t>();
    s.rounds = entry.at("rounds").get<uint32_t>();
    s.meanRound = entry.at("mean_round_s").get<double>();
    s.p50Round = entry.at("p50_round_s").get<double>();
    s.p99Round = entry.at("p99_round_s").get<double>();
    s.meanSync = entry.at("mean_sync_s").get<double>();
    s.estimatedSync = entry.at("estimated_sync_s").get<double>();
    s.meanHiddenSync = entry.at("mean_hidden_sync_s").get<double>();
    s.estimatedHiddenSync = entry.at("estimated_hidden_sync_s").get<double>();
    s.meanCompute = entry.at("mean_compute_s").get<double>();
    s.totalTime = entry.at("total_time_s").get<double>();
    s.roundsToEpsilon = FromNullable<uint64_t>(entry.at("rounds_to_epsilon"));
    s.timeToEpsilon = FromNullable<double>(entry.at("time_to_epsilon_s"));
    s.warmupRounds = entry.at("warmup_rounds").get<uint32_t>();
    s.firstRound = FromNullable<double>(entry.at("first_round_s"));
    s.queueDrops = entry.at("queue_drops").get<uint64_t>();
    s.lossDrops = entry.at("loss_drops").get<uint64_t>();
    s.retransmissions = entry.at("retransmissions").get<uint64_t>();
    s.lostPeers = entry.at("lost_peers").get<uint64_t>();
    for (const nlohmann::json& island : entry.at("lost_peers_by_island"))
    {
        s.lostPeersByIsland.emplace_back(island.at("island").get<std::string>(),
                                         island.at("lost_peers").get<uint64_t>());
    }
    s.unfinishedRounds = entry.at("unfinished_rounds").get<uint32_t>();
    s.stoppedBy = FromNullable<std::string>(entry.at("stopped_by")).value_or("");
    s.fpga.partial = entry.at("fpga_partial_flushes").get<uint64_t>();
    s.fpga.earlyFlushes = entry.at("fpga_early_flushes").get<uint64_t>();
    s.fpga.overflows = entry.at("fpga_overflows").get<uint64_t>();
    s.fpga.wraps = entry.at("fpga_wraps").get<uint64_t>();
    FromByReason(entry.at("fpga_pass_throughs"),
                 s.fpga.passThroughs,
                 &FpgaAggregatorNetDevice::PassReasonName);
    FromByReason(entry.at("transit_pass_throughs"),
                 s.fpga.transitPassThroughs,
                 &TransitAggregatorNetDevice::PassReasonName);
    s.fpga.mismatches = s.fpga.passThroughs[FpgaAggregatorNetDevice::PASS_MISMATCH] +
                        s.fpga.transitPassThroughs[TransitAggregatorNetDevice::PASS_MISMATCH];
    FromByReason(entry.at("router_drops"), s.routers.drops, &WanRouterNetDevice::DropReasonName);
    s.heldStarts = entry.at("held_starts").get<uint64_t>();
    s.transport = entry.at("transport").get<std::string>();
    s.transportNote = FromNullable<std::string>(entry.at("transport_note")).value_or("");
    s.colocatedTimeToEpsilon = FromNullable<double>(entry.at("colocated_time_to_epsilon_s"));
    s.gapToColocated = FromNullable<double>(entry.at("gap_to_colocated"));
    s.meanExchange = FromNullable<double>(entry.at("mean_exchange_s"));
    s.exchangeBound = FromNullable<double>(entry.at("exchange_bound_s"));
    s.gainOver = entry.at("gain_over").get<std::map<std::string, double>>();
    s.gainOverLabel = entry.at("gain_over_label").get<std::map<std::string, std::string>>();
    return s;
}

void
TrainingOutput::WriteCrossTrafficHeader(std::ostream& os)
{
    os << "capabilities,schedule,flow,from,to,protocol,mode,offered_bps,start_s,stop_s,active_s,"
          "bytes,goodput_bps\n";
}

void
TrainingOutput::WriteCrossTraffic(std::ostream& os,
                                  const std::vector<CrossTrafficResult>& results,
                                  const std::string& capabilities,
                                  const std::string& schedule)
{
    for (const CrossTrafficResult& r : results)
    {
        os << TrainingCsv::Field(capabilities) << "," << TrainingCsv::Field(schedule) << ","
           << r.flow << "," << TrainingCsv::Field(r.from) << "," << TrainingCsv::Field(r.to) << ","
           << r.protocol << "," << (r.bulk ? "bulk" : "rate") << ",";
        if (!r.bulk)
        {
            os << r.offeredBps;
        }
        os << "," << FormatSeconds(Seconds(r.start)) << "," << FormatSeconds(Seconds(r.stop)) << ","
           << FormatSeconds(Seconds(r.active)) << "," << r.bytes << ","
           << FormatDouble(r.goodputBps) << "\n";
    }
}

nlohmann::json
TrainingOutput::CrossTrafficToJson(const std::vector<CrossTrafficResult>& results)
{
    nlohmann::json array = nlohmann::json::array();
    for (const CrossTrafficResult& r : results)
    {
        array.push_back(
            {{"flow", r.flow},
             {"from", r.from},
             {"to", r.to},
             {"protocol", r.protocol},
             {"mode", r.bulk ? "bulk" : "rate"},
             {"offered_bps", r.bulk ? nlohmann::json(nullptr) : nlohmann::json(r.offeredBps)},
             {"start_s", r.start},
             {"stop_s", r.stop},
             {"active_s", r.active},
             {"bytes", r.bytes},
             {"goodput_bps", r.goodputBps}});
    }
    return array;
}

std::vector<CrossTrafficResult>
TrainingOutput::CrossTrafficFromJson(const nlohmann::json& array)
{
    std::vector<CrossTrafficResult> results;
    for (const nlohmann::json& j : array)
    {
        CrossTrafficResult r;
        r.flow = j.at("flow").get<uint32_t>();
        r.from = j.at("from").get<std::string>();
        r.to = j.at("to").get<std::string>();
        r.protocol = j.at("protocol").get<std::string>();
        r.bulk = j.at("mode").get<std::string>() == "bulk";
        r.offeredBps = FromNullable<uint64_t>(j.at("offered_bps")).value_or(0);
        r.start = j.at("start_s").get<double>();
        r.stop = j.at("stop_s").get<double>();
        r.active = j.at("active_s").get<double>();
        r.bytes = j.at("bytes").get<uint64_t>();
        r.goodputBps = j.at("goodput_bps").get<double>();
        results.push_back(r);
    }
    return results;
}

} // namespace ns3
