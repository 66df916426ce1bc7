/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-support.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingSupport");

std::string
TrainingSupport::Refusal(const TrainingRunRequest& run)
{
    const std::string ranks = std::to_string(run.processes) + " MPI ranks";
    if (run.processes > 1 && run.tcp)
    {
        return "the tcp transport needs one process, not " + ranks +
               ": TCP segments carry their bytes, and packets crossing MPI ranks must be virtual";
    }
    if (run.processes > 1 && run.realPayloads)
    {
        return "real payloads need one process, not " + ranks +
               ": the consensus of every round is computed over all islands' parameters as the "
               "round ends, and a distributed run holds each island's parameters on its own rank";
    }
    if (run.processes > 1 && run.crossTraffic)
    {
        return "cross traffic needs one process, not " + ranks +
               ": its goodput is read from every sink at the end";
    }
    if (run.tcp && run.reductionTrees)
    {
        return "the tcp transport has no reduction trees (TREE): TCP's streams cannot be summed "
               "on the way; use the planned or adaptive transport";
    }
    if (run.mixedFormats && run.realPayloads)
    {
        return "update formats that vary by round travel as sizes only: real payloads share one "
               "fixed-point Scale (use --payload=virtual, or one format)";
    }
    if (run.sparse && run.realPayloads && !run.sharedStart)
    {
        return "real top-k averages the islands' changes, not their parameters (SparseChange): "
               "islands that start apart stay apart; start them from one model "
               "(--sharedStart=true)";
    }
    if (run.sparse && run.realPayloads && run.partialCliques)
    {
        return "real top-k averages the islands' changes, not their parameters (SparseChange): "
               "every round's clique must hold every island, or islands that averaged in "
               "different cliques stay apart (use --schedule=global)";
    }
    if (run.fragments && (run.tcp || run.realPayloads))
    {
        return "rounds in fragments run over the planned or adaptive transport with virtual "
               "payloads: the tcp transport's rounds are whole, and averaging a fragment while "
               "later inner steps change it is not modelled (use --fragments=1)";
    }
    if (!run.fixedPoint && (run.ringAllReduce || run.reductionTrees))
    {
        return "bf16 and top-k updates are exchanged in DIRECT cliques: ring all-reduce (RING) "
               "and reduction trees (TREE) add them up on the way, and they are not summed as "
               "integers (top-k needs a gather)";
    }
    return "";
}

void
TrainingSupport::NoteAlgorithms(const CliqueSchedule& schedule, TrainingRunRequest& run)
{
    NS_LOG_FUNCTION(schedule.GetPeriod());
    for (uint32_t t = 0; t < schedule.GetPeriod(); ++t)
    {
        const std::vector<SyncAlgorithm>& algorithms = schedule.GetAlgorithms(t);
        const Partition& partition = schedule.GetPartition(t);
        for (size_t c = 0; c < algorithms.size(); ++c)
        {
            run.reductionTrees |= algorithms[c] == SyncAlgorithm::TREE;
            run.ringAllReduce |= algorithms[c] == SyncAlgorithm::RING && partition[c].size() > 1;
        }
        run.partialCliques |= partition.size() > 1;
    }
}

void
TrainingSupport::NoteFormat(const UpdateFormat& format, TrainingRunRequest& run)
{
    NS_LOG_FUNCTION(format.ToString());
    run.compressed |= format != UpdateFormat();
    run.fixedPoint &= format.IsSummable();
    run.sparse |= format.IsSparse();
}

void
TrainingSupport::NoteFormats(const CliqueSchedule& schedule,
                             const UpdateFormat& runFormat,
                             TrainingRunRequest& run)
{
    NS_LOG_FUNCTION(runFormat.ToString());
    for (uint32_t t = 0; t < schedule.GetPeriod(); ++t)
    {
        if (const std::optional<UpdateFormat>& format = schedule.GetFormat(t))
        {
            NoteFormat(*format, run);
            run.mixedFormats |= *format != runFormat;
        }
    }
}

void
TrainingSupport::Check(const TrainingRunRequest& run)
{
    NS_LOG_FUNCTION(run.processes << run.tcp << run.realPayloads << run.reductionTrees
                                  << run.crossTraffic);
    const std::string refusal = Refusal(run);
    if (!refusal.empty())
    {
        throw UnsupportedRunError(refusal);
    }
}

} // namespace ns3
