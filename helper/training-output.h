/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_OUTPUT_H
#define TRAINING_OUTPUT_H

#include "ns3/cross-traffic-helper.h"
#include "ns3/training-experiment.h"

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The output contract of nine-city-training, written from a TrainingExperiment: the
 *        rows of rounds.csv, consensus.csv and links.csv, and the entries of summary.json;
 *        with cross traffic, the rows of cross-traffic.csv and the entries' "cross_traffic".
 *
 * Every text field of the CSV files (labels, island names, city codes) goes through
 * TrainingCsv::Field; nlohmann::json escapes the JSON strings. Times in the CSV files have
 * nanosecond digits, other reals 12 significant digits: the same inputs give the same bytes.
 */
class TrainingOutput
{
  public:
    /**
     * \param os stream \param fragments the rounds are exchanged in fragments: add the column
     *        hidden_sync_s (after sync_end_s)
     * \brief rounds.csv header
     */
    static void WriteRoundsHeader(std::ostream& os, bool fragments);
    /**
     * \brief rounds.csv rows: one per island and round, round-major; with fragments, the sync
     *        hidden behind compute after sync_end_s (TrainingRoundRecord::hiddenSync).
     * \param os stream \param experiment a run \param capabilities label \param schedule label
     */
    static void WriteRounds(std::ostream& os,
                            const TrainingExperiment& experiment,
                            const std::string& capabilities,
                            const std::string& schedule);
    /** \param os stream \brief consensus.csv header */
    static void WriteConsensusHeader(std::ostream& os);
    /**
     * \brief consensus.csv rows: one per round (real payloads only).
     * \param os stream \param experiment a run \param capabilities label \param schedule label
     */
    static void WriteConsensus(std::ostream& os,
                               const TrainingExperiment& experiment,
                               const std::string& capabilities,
                               const std::string& schedule);
    /** \param os stream \brief links.csv header */
    static void WriteLinksHeader(std::ostream& os);
    /**
     * \brief links.csv rows: one per WAN link direction, with its utilisation over the run.
     * \param os stream \param experiment a run \param capabilities label \param schedule label
     */
    static void WriteLinks(std::ostream& os,
                           const TrainingExperiment& experiment,
                           const std::string& capabilities,
                           const std::string& schedule);
    /**
     * \param summary a summary
     * \return its fields as a "results" entry of summary.json (keys as mean_round_s, absent
     *         optionals as null); the caller adds the entry's labels
     */
    static nlohmann::json SummaryToJson(const TrainingSummary& summary);
    /**
     * \param entry what SummaryToJson wrote (other keys ignored)
     * \return the summary (FPGA counters: only those SummaryToJson writes, and mismatches)
     * \throws nlohmann::json::exception if a field is missing or of the wrong type
     */
    static TrainingSummary SummaryFromJson(const nlohmann::json& entry);

    /** \param os stream \brief cross-traffic.csv header */
    static void WriteCrossTrafficHeader(std::ostream& os);
    /**
     * \brief cross-traffic.csv rows: one per cross-traffic flow, with its goodput.
     * \param os stream \param results CrossTrafficHelper::GetResults() after a run
     * \param capabilities label \param schedule label
     */
    static void WriteCrossTraffic(std::ostream& os,
                                  const std::vector<CrossTrafficResult>& results,
                                  const std::string& capabilities,
                                  const std::string& schedule);
    /**
     * \param results CrossTrafficHelper::GetResults() after a run
     * \return them as the "cross_traffic" array of a summary.json entry, one object per flow
     */
    static nlohmann::json CrossTrafficToJson(const std::vector<CrossTrafficResult>& results);
    /**
     * \param array what CrossTrafficToJson wrote \return the results
     * \throws nlohmann::json::exception if a field is missing or of the wrong type
     */
    static std::vector<CrossTrafficResult> CrossTrafficFromJson(const nlohmann::json& array);
};

} // namespace ns3

#endif /* TRAINING_OUTPUT_H */
