/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-table.h"

#include "ns3/text-table.h"
#include "ns3/wan-router-net-device.h"
#include "ns3/wan-units.h"

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
        if (r.active > 0)
        {
            os << ", goodput " << r.goodputBps / 1e9 << " Gbps";
        }
        else
        {
            // Not starved: the run ended before the flow's start (a limit, or the rounds).
            os << ", never ran (starts at " << WanUnits::FormatNumber(r.start)
               << " s, after the run ended)";
        }
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
    // The least widths are those of the table before it was sized to its content.
    TextTable table;
    table.AddColumn("capabilities", 13, TextTable::LEFT);
    table.AddColumn("schedule", SCHEDULE_WIDTH, TextTable::LEFT);
    table.AddColumn("round_s", 12, TextTable::RIGHT);
    table.AddColumn("sync_s", 12, TextTable::RIGHT);
    table.AddColumn("est_sync_s", 12, TextTable::RIGHT);
    table.AddColumn("exch_s", 10, TextTable::RIGHT);
    table.AddColumn("bound_s", 10, TextTable::RIGHT);
    table.AddColumn("R_eps", 10, TextTable::RIGHT);
    table.AddColumn("T_eps_s", 12, TextTable::RIGHT);
    table.AddColumn("gap", 9, TextTable::RIGHT);
    table.AddColumn("resends", 9, TextTable::RIGHT);
    table.AddColumn("lost", 7, TextTable::RIGHT);
    table.AddColumn("qdrops", 8, TextTable::RIGHT);
    table.AddColumn("rdrops", 8, TextTable::RIGHT);
    table.AddColumn("fpga_part", 10, TextTable::RIGHT);
    table.AddColumn("fpga_full", 10, TextTable::RIGHT);
    table.AddColumn("unfin", 7, TextTable::RIGHT);
    const auto figure = [](const std::optional<double>& value, int precision) {
        return value ? TextTable::Fixed(*value, precision) : std::string("-");
    };
    for (const TrainingTableRow& r : rows)
    {
        const TrainingSummary& s = r.summary;
        table.AddRow({r.capabilities,
                      r.schedule,
                      TextTable::Fixed(s.meanRound, 4),
                      TextTable::Fixed(s.meanSync, 4),
                      TextTable::Fixed(s.estimatedSync, 4),
                      figure(s.meanExchange, 4),
                      figure(s.exchangeBound, 4),
                      s.roundsToEpsilon ? std::to_string(*s.roundsToEpsilon) : "never",
                      figure(s.timeToEpsilon, 4),
                      figure(s.gapToColocated, 2),
                      std::to_string(s.retransmissions),
                      std::to_string(s.lostPeers),
                      std::to_string(s.queueDrops),
                      std::to_string(s.routers.GetTotal()),
                      std::to_string(s.fpga.partial),
                      std::to_string(s.fpga.overflows),
                      std::to_string(s.unfinishedRounds)});
    }
    os << table.FormatHeader() << "\n";
    for (uint32_t i = 0; i < rows.size(); ++i)
    {
        const TrainingSummary& s = rows[i].summary;
        os << table.FormatRow(i) << "\n";
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
               << " (connections open, slow start) took " << TextTable::Fixed(*s.firstRound, 4)
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
        if (rows[i].cross && !rows[i].cross->empty())
        {
            os << "  cross:" << DescribeCrossTraffic(*rows[i].cross) << "\n";
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
