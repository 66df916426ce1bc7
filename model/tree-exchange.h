/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TREE_EXCHANGE_H
#define TREE_EXCHANGE_H

#include "stream-exchange.h"

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A TREE exchange (reduction tree): every member sends its update up to the clique's
 *        root, which sums it chunk by chunk and sends each chunk's total down to every member.
 *
 * A member other than the root (TrainingRoundConfig::root) has one stream, unicast to the root
 * at its planned rate: its chunks as DATA with FLAG_REDUCE, so transit FPGAs on the way may add
 * them into aggregates. It completes when it holds every chunk of the root's total: AGGREGATE
 * packets from the root without FLAG_REDUCE, whose contributors are the members summed. It NACKs
 * the root for missing ones, as a DIRECT island NACKs a peer; the root answers "not yet" for a
 * chunk it has not completed or has sent less than the asker's round trip ago.
 *
 * The root collects per chunk disjoint pieces with FLAG_REDUCE (DATA from one member, or an
 * aggregate of several) until they cover every member but itself; a piece overlapping what it
 * holds is discarded and its fresh contributors are asked again (StreamExchange::AcceptPiece).
 * Gaps and silence are tracked per member: a member's progress counts when any piece holding it
 * arrives. A member's END goes up behind its pieces with FLAG_REDUCE, so transit FPGAs read it
 * (a slot that waits only for a member whose END passed leaves at once). Behind FPGAs the END
 * may still overtake the member's pieces that wait in a slot for others, so at the root it
 * shows a member's chunk lost only where every other member is in for that chunk (nothing
 * can hold the chunk then): the chunk is asked for at once, not after a silence of the hold. As
 * each chunk completes, in whatever order, the root adds its own values and queues the total on its
 * down streams (one multicast stream to the clique, or unicast copies), paced at their planned
 * rates; the first pass of the down streams is thus the order of completion.
 *
 * Lost peers: a member the root declares lost is left out of every chunk it has not reached (the
 * totals name their contributors, and every island divides by their count); a member that
 * declares the root lost keeps its own parameters for the round (abandoned).
 */
class TreeExchange : public StreamExchange
{
  public:
    /**
     * \param context the island \param round the round
     * \param config the island's part: root a member; a member's one stream to the root, the
     *        root's streams to every other member (aborts otherwise)
     */
    TreeExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);

    void ReceiveChunk(const GradientHeader& header,
                      const std::vector<int32_t>& values,
                      bool congested) override;
    void ReceiveEnd(const GradientHeader& header) override;
    void Average(std::vector<double>& x, double scale) const override;
    /** \return true if this island is the clique's root */
    bool IsRoot() const;

  protected:
    void StartSending() override;
    bool IsDone() const override;
    Ptr<Packet> BuildChunk(uint32_t chunk, uint16_t flags) override;
    bool FirstPassChunk(uint32_t position, uint32_t& chunk) const override;
    uint32_t FirstPassPosition(uint32_t chunk) const override;
    /** \return FLAG_REDUCE for a member (its END goes up with its pieces), none for the root */
    uint16_t EndFlags() const override;
    /**
     * \param island an island
     * \return for the root, how long something on the way may hold its members' chunks (the
     *         context's hold); for a member, zero: the root's totals pass FPGAs untouched
     */
    Time HoldAt(uint32_t island) const override;
    void OnPeerLost(uint32_t slot) override;

  private:
    /** \brief Abort unless the config's streams are a TREE member's or root's. */
    void CheckStreams() const;
    /**
     * \brief Root: a piece going up.
     * \param header its header \param first its first element \param values its payload
     * \param congested it arrived marked CE
     */
    void ReceiveUp(const GradientHeader& header,
                   uint32_t first,
                   const std::vector<int32_t>& values,
                   bool congested);
    /**
     * \brief Member: a total coming down.
     * \param header its header \param first its first element \param values its payload
     * \param congested it arrived marked CE
     */
    void ReceiveDown(const GradientHeader& header,
                     uint32_t first,
                     const std::vector<int32_t>& values,
                     bool congested);
    /** \param chunk a chunk \return true if every member but the root is in or lost */
    bool IsCovered(uint32_t chunk) const;
    /** \param chunk a covered chunk \brief queue its total on the down streams */
    void CompleteChunk(uint32_t chunk);
    /**
     * \brief Root: NACK \p chunk of the one member still missing from it, if that member's END
     *        came (every other member is in: nothing on the way can hold the chunk).
     * \param chunk a chunk not covered yet
     */
    void CheckEndedMissing(uint32_t chunk);

    uint32_t m_rootSlot;                //!< the root's member position
    uint32_t m_lostCount;               //!< members declared lost
    std::vector<uint16_t> m_have;       //!< root: members in, per chunk
    std::vector<uint32_t> m_ready;      //!< root: complete chunks, in the order they completed
    std::vector<uint32_t> m_positionOf; //!< root: per chunk, its place in m_ready, or NO_SLOT
    std::vector<bool> m_ended;          //!< root: per member position, its END came
    uint32_t m_endedCount;              //!< root: members whose END came
    std::vector<int32_t> m_values;      //!< scratch payload
};

} // namespace ns3

#endif /* TREE_EXCHANGE_H */
