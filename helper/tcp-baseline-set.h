/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_BASELINE_SET_H
#define TCP_BASELINE_SET_H

#include "ns3/training-experiment.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One way today's software runs all-reduce over TCP: a congestion control and the
 *        connections per peer a message is striped over.
 */
struct TcpBaseline
{
    std::string congestion; //!< an ns-3 TcpCongestionOps class name, e.g. "TcpBbr"
    uint32_t streams{1};    //!< connections per peer (TcpTransport's Streams)

    /** \return e.g. "TcpBbr x8" */
    std::string GetLabel() const;
};

/**
 * \ingroup wan-training
 * \brief The passive-WAN baseline at its best: ring all-reduce over ns-3 TCP in the set-ups
 *        practitioners use, of which the fastest is the one to beat.
 *
 * The set (GetDefault) is Cubic (Linux's default) and BBR (what WAN transfers switch to), each
 * with one connection per peer (one socket per peer, as a plain socket library does) and with
 * eight (NCCL's sockets per thread times threads; WAN libraries go up to 64-128). Every run
 * keeps its connections open across rounds and leaves the first round (handshakes, slow
 * start) out of its figures (TrainingExperiment::SetWarmupRounds), as training's thousands of
 * rounds do; buffers are one bandwidth-delay product per peer (TcpTransport).
 */
class TcpBaselineSet
{
  public:
    /** \return Cubic and BBR, with 1 and 8 connections per peer */
    static std::vector<TcpBaseline> GetDefault();

    /**
     * \param summaries the baselines' summaries
     * \return the index of the one with the shortest time to epsilon among those that
     *         completed every round (the first of equals), or none if none did
     */
    static std::optional<size_t> FindBest(const std::vector<TrainingSummary>& summaries);
};

} // namespace ns3

#endif /* TCP_BASELINE_SET_H */
