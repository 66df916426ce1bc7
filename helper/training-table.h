/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_TABLE_H
#define TRAINING_TABLE_H

#include "ns3/cross-traffic-helper.h"
#include "ns3/training-experiment.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One row of the summary table nine-city-training prints: an experiment's labels and
 *        figures.
 */
struct TrainingTableRow
{
    std::string capabilities; //!< label of the capability set
    std::string schedule;     //!< schedule label
    TrainingSummary summary;  //!< figures
    /** Goodput of every cross-traffic flow (none: the run has no --crossTraffic) */
    std::optional<std::vector<CrossTrafficResult>> cross;
};

/**
 * \ingroup wan-training
 * \brief The summary table of nine-city-training (stdout): one line of figures per experiment,
 *        then lines for what needs a word (trouble counters, the transport's note, held
 *        starts, the gain over other transports, cross traffic). Text only; the files of the
 *        output contract are TrainingOutput's.
 */
class TrainingTable
{
  public:
    /**
     * \brief Print the table.
     * \param os stream \param rows the experiments, in order
     * \param assumptions a line above the header saying what the figures assume (e.g. the
     *        buffers and the TCP baselines' set-up); "" for none
     */
    static void Print(std::ostream& os,
                      const std::vector<TrainingTableRow>& rows,
                      const std::string& assumptions = "");

    /** Width of the schedule column: "tcp-ring (TcpCubic x8)" and a space. */
    static constexpr int SCHEDULE_WIDTH = 24;

    /**
     * \param s a summary
     * \return its counters that tell of trouble, e.g. "stopped by maxSimTime; lost peers:
     *         NYC-0 2; router drops: NoRoute 3", or "" if there is none
     */
    static std::string DescribeTrouble(const TrainingSummary& s);

    /**
     * \param results the cross-traffic flows of a run
     * \return one item per flow, e.g. " #0 NYC>LON tcp bulk, goodput 0.188 Gbps; #1 LON>NYC
     *         udp offered 70.000 Gbps, goodput 69.945 Gbps"
     */
    static std::string DescribeCrossTraffic(const std::vector<CrossTrafficResult>& results);

    /**
     * \param s a summary
     * \return its gains over the other transports, e.g. "gain over tcp: 3.12x (time to
     *         epsilon)", or "" if it has none
     */
    static std::string DescribeGains(const TrainingSummary& s);
};

} // namespace ns3

#endif /* TRAINING_TABLE_H */
