/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROUND_ALIGNMENT_H
#define ROUND_ALIGNMENT_H

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <set>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief When an island may start a round's first pass so that its clique's contributions
 *        reach the FPGAs together: the late notices and announced start times of its members.
 *
 * In-line FPGAs fold a chunk only while every member's copy arrives within the slot's hold,
 * which the plan sizes for members that start together. A member still repairing the round
 * before starts this one late, by a repair's round trip or more, and every slot of the round
 * would then be flushed without it, and its chunks passed on alone: the islands would receive
 * two pieces of every chunk instead of one. So a member that asks for a resend (its round may
 * end late) sends LATE for the next round to that round's members, and once its round ends,
 * START with the time its next first pass starts (late enough for the START to reach every
 * member first). A member that heard LATE from someone holds the round's first pass until it
 * has the START of every member that sent LATE, then starts at the latest announced time (or
 * at once if that is past). A contribution of such a member to the round counts as its START
 * (every copy of the START may have been lost), so a lost notice costs a one-way delay, not
 * the AlignmentLimit. Lossless rounds send neither, and nothing changes.
 *
 * This class keeps the bookkeeping of one island; TrainingApplication sends the notices,
 * holds the first pass and bounds the wait (AlignmentLimit).
 */
class RoundAlignment
{
  public:
    /**
     * \brief This island announces being late for \p round (once per round).
     * \param round the round it will start late \return true the first time for the round
     */
    bool Announce(uint32_t round);
    /** \param round a round \return true if this island sent LATE for it */
    bool HasAnnounced(uint32_t round) const;
    /** \param round a round \param member a member sent LATE for it */
    void NoteLate(uint32_t round, uint32_t member);
    /**
     * \param round a round \param member a member (this island too) that announced its start
     * \param at when its first pass of the round starts
     */
    void NoteStart(uint32_t round, uint32_t member, Time at);
    /**
     * \brief A contribution of \p member to \p round arrived: it has started, so its START
     *        (all of whose copies may have been lost) is no longer waited for. Its start time
     *        is past and moves nothing.
     * \param round a round \param member a member of it
     */
    void NoteContribution(uint32_t round, uint32_t member);
    /** \param round a round \return true while a member that sent LATE has not sent START */
    bool IsWaiting(uint32_t round) const;
    /** \param round a round \return the latest start a member announced for it (or zero) */
    Time GetNotBefore(uint32_t round) const;
    /** \param round every round below it is over: forget them */
    void ForgetBefore(uint32_t round);

  private:
    /** One round's notices. */
    struct RoundState
    {
        bool announced{false};      //!< this island sent LATE
        std::set<uint32_t> late;    //!< members that sent LATE and no START yet
        std::set<uint32_t> started; //!< members whose START came
        Time notBefore;             //!< the latest announced start
    };

    std::map<uint32_t, RoundState> m_rounds; //!< per round
};

} // namespace ns3

#endif /* ROUND_ALIGNMENT_H */
