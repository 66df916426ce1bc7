/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_SUPPORT_H
#define TRAINING_SUPPORT_H

#include "ns3/clique-schedule.h"
#include "ns3/update-format.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A run the module cannot simulate: the message names the feature and why.
 */
class UnsupportedRunError : public std::invalid_argument
{
  public:
    using std::invalid_argument::invalid_argument;
};

/**
 * \ingroup wan-training
 * \brief What a run asks for, as far as the module's limits go.
 */
struct TrainingRunRequest
{
    uint32_t processes{1};      //!< MPI ranks that share the simulation (1: one process)
    bool tcp{false};            //!< the exchanges run over the tcp transport
    bool realPayloads{false};   //!< int32 parameters travel in the packets
    bool reductionTrees{false}; //!< the schedule has a TREE clique
    bool crossTraffic{false};   //!< cross-traffic flows share the WAN
    bool compressed{false};     //!< an update format other than int32 (UpdateFormat)
    bool fixedPoint{true};      //!< the format's values are integers (int32, int8, int4)
    bool sparse{false};         //!< the format is top-k (entries of a sparse vector)
    bool mixedFormats{false};   //!< rounds of the schedule name other formats than the run's
    bool ringAllReduce{false};  //!< the schedule has a RING clique
    bool fragments{false};      //!< rounds are exchanged in fragments (FragmentPlan)
    bool partialCliques{false}; //!< a round's clique leaves islands out (or may: the optimiser)
    bool sharedStart{false};    //!< real payloads: every island starts from one model
};

/**
 * \ingroup wan-training
 * \brief The one place that says which runs the module supports (processes, transports,
 *        payloads, reduction trees, cross traffic); TrainingHelper, CrossTrafficHelper and the
 *        examples ask it before they build anything.
 *
 * Rules: the tcp transport, real payloads and cross traffic need one process (TCP segments
 * carry their bytes while packets crossing MPI ranks are virtual; the consensus of a round is
 * computed over every island's parameters; cross-traffic goodput is read from every sink); the
 * tcp transport has no reduction trees (TCP's streams cannot be summed on the way); update
 * formats int8 and int4 travel in every clique (their sums widen on the way:
 * ChunkLayout::GetRingEncoding, UpdateFormat::SumSources), bf16 and top-k in DIRECT cliques
 * only; real top-k averages the islands' changes (SparseChange), so it needs islands that
 * start from one model and cliques of every island in every round; rounds in fragments run over
 * the
 * planned or adaptive transport with virtual payloads (their timing is modelled; the numerics of
 * parameters averaged while later inner steps change them are not).
 */
class TrainingSupport
{
  public:
    /**
     * \param run what the run asks for
     * \throws UnsupportedRunError naming the first rule \p run breaks
     */
    static void Check(const TrainingRunRequest& run);
    /**
     * \param run what the run asks for
     * \return "" if the module supports it, else why not (Check's message)
     */
    static std::string Refusal(const TrainingRunRequest& run);
    /**
     * \brief Note what a schedule's cliques ask for: reduction trees and ring all-reduce.
     * \param schedule the schedule \param run receives reductionTrees, ringAllReduce and
     *        partialCliques
     */
    static void NoteAlgorithms(const CliqueSchedule& schedule, TrainingRunRequest& run);
    /**
     * \brief Note what an update format asks for (added to what \p run asks already).
     * \param format the format \param run receives compressed, fixedPoint and sparse
     */
    static void NoteFormat(const UpdateFormat& format, TrainingRunRequest& run);
    /**
     * \brief Note the formats a schedule's rounds name (NoteFormat), and whether they differ
     *        from the run's.
     * \param schedule the schedule \param runFormat the run's format (rounds without one)
     * \param run receives them and mixedFormats
     */
    static void NoteFormats(const CliqueSchedule& schedule,
                            const UpdateFormat& runFormat,
                            TrainingRunRequest& run);
};

} // namespace ns3

#endif /* TRAINING_SUPPORT_H */
