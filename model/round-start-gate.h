/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROUND_START_GATE_H
#define ROUND_START_GATE_H

#include "round-alignment.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

class GradientHeader;
class Packet;
class RoundExchange;
struct ExchangeSettings;

/**
 * \ingroup wan-training
 * \brief When an island starts its exchange of a round whose compute is over: at once, at the
 *        schedule's earliest send time (SetNotBefore), or held for the START notices of late
 *        members (RoundAlignment), at most the alignment limit; and the island's own LATE and
 *        START notices.
 *
 * TrainingApplication calls Request() when a round may start as far as the island is
 * concerned; the gate calls the start callback now or from an event of its own, after
 * asking the pending callback whether the island still waits to start that round (it may
 * have stopped, or moved on). Which rounds need aligned starts at all (their cliques' first
 * passes meet FPGAs) is the application's rule; the gate keeps the notices and the waits.
 */
class RoundStartGate
{
  public:
    /**
     * \brief What the gate uses of its island: its identity and paths, the alignment
     *        attributes, and how to start a round.
     * \param settings the island's exchange settings (island, rtt); they outlive the gate
     * \param limit longest wait for an announced START (AlignmentLimit)
     * \param margin added to the farthest member's one-way delay in a START (AlignmentMargin)
     * \param noticeCopies copies of each LATE and START (NoticeCopies)
     * \param pending (round): true while the island runs and still waits to start the round
     * \param start (round): start the round's exchange now
     */
    void Setup(const ExchangeSettings& settings,
               Time limit,
               Time margin,
               uint32_t noticeCopies,
               std::function<bool(uint32_t)> pending,
               std::function<void(uint32_t)> start);

    /**
     * \param notBefore per round, the earliest time the island may start sending (empty or
     *        shorter: no constraint; TrainingApplication::SetSyncNotBefore)
     */
    void SetNotBefore(const std::vector<Time>& notBefore);

    /**
     * \brief The island's compute for \p round is over: start its exchange now, or hold it
     *        until the START of every member that sent LATE and its announced time (at most
     *        the alignment limit), and until the round's earliest send time.
     * \param round the round (the island's current one)
     */
    void Request(uint32_t round);

    /** \brief The round started or the island stopped: drop the holds' events. */
    void Cancel();

    /**
     * \brief The notices of \p round changed while its start waits: ask again (Request)
     *        if the gate holds it.
     * \param round the round
     */
    void Resume(uint32_t round);

    /**
     * \brief This island will start \p round late (its previous round asks for a resend):
     *        send LATE to its members, once per round.
     * \param round the late round \param exchange its exchange
     */
    void AnnounceLate(uint32_t round, RoundExchange& exchange);

    /**
     * \brief The round before \p round ended: if LATE was sent for \p round, send START
     *        with its time, late enough to reach the farthest member first and not before
     *        the island launches it.
     * \param round the next round \param exchange its exchange \param members its members
     * \param launchDelay how long from now until the island launches it
     */
    void AnnounceStart(uint32_t round,
                       RoundExchange& exchange,
                       const std::vector<uint32_t>& members,
                       Time launchDelay);

    /**
     * \brief A member's LATE or START arrived (checked by the application): note it.
     * \param header its header \param packet the packet (a START carries its time)
     */
    void NoteNotice(const GradientHeader& header, Ptr<const Packet> packet);

    /**
     * \brief A contribution to a round that has not started arrived: its contributors have
     *        started, so their STARTs are no longer waited for.
     * \param header the contribution's header
     * \return true if the round's start waited for STARTs (then Resume() it)
     */
    bool NoteContributors(const GradientHeader& header);

    /** \param round every round below it is over: forget their notices */
    void ForgetBefore(uint32_t round);

  private:
    /** \param round the held round \brief its earliest send time came: start it if pending */
    void StartHeld(uint32_t round);
    /** \param round the round \brief the alignment limit passed: start without the STARTs */
    void StopWaiting(uint32_t round);

    const ExchangeSettings* m_settings{nullptr}; //!< the island's settings
    Time m_limit;                                //!< AlignmentLimit
    Time m_margin;                               //!< AlignmentMargin
    uint32_t m_noticeCopies{1};                  //!< NoticeCopies
    std::function<bool(uint32_t)> m_pending;     //!< the island still waits to start a round
    std::function<void(uint32_t)> m_start;       //!< start a round's exchange now
    std::vector<Time> m_notBefore;               //!< per round, earliest send
    RoundAlignment m_alignment;                  //!< LATE/START notices
    EventId m_heldEvent;                         //!< a held round's earliest send time
    EventId m_limitEvent;                        //!< the alignment limit's end
};

} // namespace ns3

#endif /* ROUND_START_GATE_H */
