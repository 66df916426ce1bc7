/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-table.h"

#include "ns3/wan-router-net-device.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

std::string
TrainingTable::DescribeTrouble(const TrainingSummary& s)
{
    std::ostringstream os;
    const auto part = [&os](const std::string& text) {
        os << (os.tellp() > 0 ? "; " : "") << text;
    };
    if (!s.stoppedBy.empty())
    {
        part("stopped by " + s.stoppedBy);
    }
    std::string lost;
    for (const auto& [island, count] : s.lostPeersByIsland)
    {
        lost += count == 0 ? "" : " " + island + " " + std::to_string(count);
    }
    if (!lost.empty())
    {
        part("lost peers:" + lost);
    }
    std::string drops;
    for (uint32_t r = 0; r < WanRouterNetDevice::DROP_REASON_COUNT; ++r)
    {
        const auto reason = static_cast<WanRouterNetDevice::DropReason>(r);
        drops += s.routers.drops[r] == 0
                     ? ""
                     : std::string(" ") + WanRouterNetDevice::DropReasonName(reason) + " " +
                           std::to_string(s.routers.drops[r]);
    }
    if (!drops.empty())
    {
        part("router drops:" + drops);
    }
    if (s.fpga.partial + s.fpga.wraps + s.fpga.overflows + s.fpga.mismatches > 0)
    {
        part("fpga: partial flushes " + std::to_string(s.fpga.partial) + " (early " +
             std::to_string(s.fpga.earlyFlushes) + "), wraps " + std::to_string(s.fpga.wraps) +
             ", slots exhausted " + std::to_string(s.fpga.overflows) + ", mismatches " +
             std::to_string(s.fpga.mismatches));
    }
    return os.str();
}

std::string
TrainingTable::DescribeCrossTraffic(const std::vector<CrossTrafficResult>& results)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3);
    const char* separator = " #";
    for (const CrossTrafficResult& r : results)
    {
        os << separator << r.flow << " " << r.from << ">" << r.to << " " << r.protocol << " ";
        separator = "; #";
        if (r.bulk)
        {
            os << "bulk";
        }
        else
        {
            os << "offered " << r.offeredBps / 1e9 << " Gbps";
        }
        os << ", goodput " << r.goodputBps / 1e9 << " Gbps";
    }
    return os.str();
}

void
TrainingTable::Print(std::ostream& os,
                     const std::vector<TrainingTableRow>& rows,
                     const std::string& assumptions)
{
    if (!assumptions.empty())
    {
        os << assumptions << "\n";
    }
    os << std::left << std::setw(13) << "capabilities" << std::setw(SCHEDULE_WIDTH) << "schedule"
       << std::right << std::setw(12) << "round_s" << std::setw(12) << "sync_s" << std::setw(12)
       << "est_sync_s" << std::setw(10) << "exch_s" << std::setw(10) << "bound_s" << std::setw(10)
       << "R_eps" << std::setw(12) << "T_eps_s" << std::setw(9) << "gap" << std::setw(9)
       << "resends" << std::setw(7) << "lost" << std::setw(8) << "qdrops" << std::setw(8)
       << "rdrops" << std::setw(10) << "fpga_part" << std::setw(10) << "fpga_full" << std::setw(7)
       << "unfin"
       << "\n";
    for (const TrainingTableRow& r : rows)
    {
        const TrainingSummary& s = r.summary;
        os << std::left << std::setw(13) << r.capabilities << std::setw(SCHEDULE_WIDTH)
           << r.schedule << std::right << std::fixed << std::setprecision(4) << std::setw(12)
           << s.meanRound << std::setw(12) << s.meanSync << std::setw(12) << s.estimatedSync;
        for (const std::optional<double>& figure : {s.meanExchange, s.exchangeBound})
        {
            os << std::setw(10);
            if (figure)
            {
                os << *figure;
            }
            else
            {
                os << "-";
            }
        }
        os << std::setw(10) << (s.roundsToEpsilon ? std::to_string(*s.roundsToEpsilon) : "never")
           << std::setw(12);
        if (s.timeToEpsilon)
        {
            os << *s.timeToEpsilon;
        }
        else
        {
            os << "-";
        }
        os << std::setw(9) << std::setprecision(2);
        if (s.gapToColocated)
        {
            os << *s.gapToColocated;
        }
        else
        {
            os << "-";
        }
        os << std::setw(9) << s.retransmissions << std::setw(7) << s.lostPeers << std::setw(8)
           << s.queueDrops << std::setw(8) << s.routers.GetTotal() << std::setw(10)
           << s.fpga.partial << std::setw(10) << s.fpga.overflows << std::setw(7)
           << s.unfinishedRounds << "\n";
        const std::string details = DescribeTrouble(s);
        if (!details.empty())
        {
            os << "  " << details << "\n";
        }
        if (!s.transportNote.empty())
        {
            os << "  note: " << s.transportNote << "\n";
        }
        if (s.firstRound)
        {
            os << "  warm-up: the first " << (s.warmupRounds == 1 ? "round" : "rounds")
               << " (connections open, slow start) took " << std::setprecision(4) << *s.firstRound
               << " s, left out of round_s, sync_s, exch_s and T_eps_s\n";
        }
        const std::string gains = DescribeGains(s);
        if (!gains.empty())
        {
            os << "  " << gains << "\n";
        }
        if (s.heldStarts > 0)
        {
            os << "  plan: " << s.heldStarts
               << " island-rounds hold their sending until their receivers are done "
                  "with other senders' previous round\n";
        }
        if (r.cross && !r.cross->empty())
        {
            os << "  cross:" << DescribeCrossTraffic(*r.cross) << "\n";
        }
    }
}

std::string
TrainingTable::DescribeGains(const TrainingSummary& s)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(2);
    for (const auto& [transport, gain] : s.gainOver)
    {
        const auto label = s.gainOverLabel.find(transport);
        os << (os.tellp() > 0 ? "; " : "") << "gain over "
           << (label == s.gainOverLabel.end() ? transport : label->second) << ": " << gain << "x";
    }
    if (os.tellp() > 0)
    {
        os << " (time to epsilon)";
    }
    return os.str();
}

} // namespace ns3
