/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHILD_PROCESS_POOL_H
#define CHILD_PROCESS_POOL_H

#include <cstddef>
#include <cstdint>
#include <functional>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Runs numbered tasks in child processes, a given number at once, and tells the parent
 *        how each child ended.
 *
 * Each task runs in a fresh fork(): a simulation that crashes (a signal) or exits ends only
 * its own child. The parent starts children in index order, waits for any of them
 * (waitpid), reports each ending as it comes, and starts the next task in its place, so at
 * most \c workers children run at a time. Tasks hand results back through files they write;
 * the pool passes nothing but the exit status. Not for MPI runs (a forked rank is no rank).
 */
class ChildProcessPool
{
  public:
    /** How a child ended. */
    struct Ending
    {
        bool signalled{false}; //!< ended by a signal (then \c signal says which)
        int signal{0};         //!< the signal that ended it
        int code{0};           //!< its exit code, when it exited
    };

    /** Runs in the child: the task's index in, its process's exit code out. */
    using Task = std::function<int(size_t)>;
    /** Runs in the parent as each child ends: the task's index and how it ended. */
    using Ended = std::function<void(size_t, const Ending&)>;

    /**
     * \brief Run tasks 0 to count - 1 in children, at most \p workers at once, and return once
     *        all have ended.
     *
     * A child flushes std::cout and std::cerr and leaves with _exit, so it runs no destructor
     * of the parent's objects; a task that throws leaves with exit code 1.
     * \param count how many tasks \param workers children at once (0 counts as 1)
     * \param task what a child runs \param ended what the parent does as each ends
     * \throws std::runtime_error when a child cannot be started or waited for
     */
    static void Run(size_t count, uint32_t workers, const Task& task, const Ended& ended);
};

} // namespace ns3

#endif /* CHILD_PROCESS_POOL_H */
