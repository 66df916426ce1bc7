/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROGRESS_THROTTLE_H
#define PROGRESS_THROTTLE_H

#include <chrono>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief When a long computation may print its next progress line: at most one line per
 *        period of wall-clock time.
 *
 * Progress lines go to stderr and change no result: a throttle only decides when. Used by
 * TrainingExperiment (the simulation's rounds) and ScheduleSearch (the optimiser's stages).
 */
class ProgressThrottle
{
  public:
    /** \param seconds wall seconds between lines; 0 or less: no lines */
    void SetPeriod(double seconds);
    /** \return true if lines are printed at all (a positive period) */
    bool IsOn() const;
    /** \brief Start counting: now is the start and the time of the last line. */
    void Start();
    /**
     * \brief Take the next line's turn if it is due.
     * \return true, remembering now as the last line's time, if lines are on and a period has
     *         passed since the last line (or since Start())
     */
    bool TakeTurn();
    /** \return wall seconds since Start() */
    double GetElapsedSeconds() const;

  private:
    double m_periodSeconds{0};                        //!< period, s; 0 or less: off
    std::chrono::steady_clock::time_point m_start;    //!< Start()
    std::chrono::steady_clock::time_point m_lastLine; //!< last line's time
};

} // namespace ns3

#endif /* PROGRESS_THROTTLE_H */
