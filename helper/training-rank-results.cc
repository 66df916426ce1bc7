/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-rank-results.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/** \return the FPGA and router counters in the order they travel */
std::vector<uint64_t*>
CounterFields(TrainingFpgaCounters& fpga, TrainingRouterCounters& routers)
{
    std::vector<uint64_t*> fields = {&fpga.aggregated,
                                     &fpga.duplicates,
                                     &fpga.complete,
                                     &fpga.partial,
                                     &fpga.earlyFlushes,
                                     &fpga.overflows,
                                     &fpga.mismatches,
                                     &fpga.wraps};
    for (uint64_t& count : fpga.passThroughs)
    {
        fields.push_back(&count);
    }
    for (uint64_t& count : fpga.transitPassThroughs)
    {
        fields.push_back(&count);
    }
    for (uint64_t& count : routers.drops)
    {
        fields.push_back(&count);
    }
    return fields;
}

} // namespace

std::string
TrainingRankResults::Encode() const
{
    std::ostringstream os;
    os << packetsSent << " " << queueDrops << " " << lossDrops;
    TrainingFpgaCounters fpgaCounters = fpga;
    TrainingRouterCounters routerCounters = routers;
    for (const uint64_t* counter : CounterFields(fpgaCounters, routerCounters))
    {
        os << " " << *counter;
    }
    os << " " << linkBytes.size();
    for (uint64_t bytes : linkBytes)
    {
        os << " " << bytes;
    }
    os << " " << lastLinkFrame.GetTimeStep();
    const auto writeList = [&os](const std::vector<uint32_t>& list) {
        os << " " << list.size();
        for (uint32_t value : list)
        {
            os << " " << value;
        }
    };
    os << " " << islands.size();
    for (const auto& [island, records] : islands)
    {
        os << " " << island << " " << records.size();
        for (const TrainingRoundRecord& r : records)
        {
            os << " " << r.island << " " << r.round << " " << r.clique;
            writeList(r.members);
            os << " " << r.computeStart.GetTimeStep() << " " << r.syncStart.GetTimeStep() << " "
               << r.syncEnd.GetTimeStep() << " " << r.hiddenSync.GetTimeStep() << " " << r.bytesSent
               << " " << r.bytesReceived << " " << r.packetsSent << " " << r.packetsReceived << " "
               << r.retransmissions << " " << r.controlPacketsSent << " "
               << r.controlPacketsReceived;
            writeList(r.lostPeers);
            os << " " << (r.finished ? 1 : 0);
        }
    }
    return os.str();
}

TrainingRankResults
TrainingRankResults::Decode(const std::string& text)
{
    std::istringstream is(text);
    const auto next = [&is]() {
        uint64_t value = 0;
        if (!(is >> value))
        {
            throw std::runtime_error("parallel run: malformed results from another rank");
        }
        return value;
    };
    const auto nextTime = [&is]() {
        int64_t step = 0;
        if (!(is >> step))
        {
            throw std::runtime_error("parallel run: malformed results from another rank");
        }
        return TimeStep(step);
    };
    const auto nextList = [&next](std::vector<uint32_t>& list) {
        list.resize(next());
        for (uint32_t& value : list)
        {
            value = static_cast<uint32_t>(next());
        }
    };
    TrainingRankResults results;
    results.packetsSent = next();
    results.queueDrops = next();
    results.lossDrops = next();
    for (uint64_t* counter : CounterFields(results.fpga, results.routers))
    {
        *counter = next();
    }
    results.linkBytes.resize(next());
    for (uint64_t& bytes : results.linkBytes)
    {
        bytes = next();
    }
    results.lastLinkFrame = nextTime();
    results.islands.resize(next());
    for (auto& [island, records] : results.islands)
    {
        island = static_cast<uint32_t>(next());
        records.resize(next());
        for (TrainingRoundRecord& r : records)
        {
            r.island = next();
            r.round = next();
            r.clique = next();
            nextList(r.members);
            r.computeStart = nextTime();
            r.syncStart = nextTime();
            r.syncEnd = nextTime();
            r.hiddenSync = nextTime();
            r.bytesSent = next();
            r.bytesReceived = next();
            r.packetsSent = next();
            r.packetsReceived = next();
            r.retransmissions = next();
            r.controlPacketsSent = next();
            r.controlPacketsReceived = next();
            nextList(r.lostPeers);
            r.finished = next() == 1;
        }
    }
    return results;
}

} // namespace ns3
