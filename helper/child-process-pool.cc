/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "child-process-pool.h"

#include "ns3/log.h"
#include "ns3/wan-input-error.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChildProcessPool");

namespace
{

/**
 * \brief Fork a child that runs one task and leaves with its code.
 * \param task the task \param index its index \return the child's process id (in the parent)
 * \throws std::runtime_error when fork fails
 */
pid_t
StartChild(const ChildProcessPool::Task& task, size_t index)
{
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = fork();
    if (pid < 0)
    {
        throw std::runtime_error(std::string("--jobs: cannot start a process: ") +
                                 std::strerror(errno));
    }
    if (pid > 0)
    {
        return pid;
    }
    int code = 1;
    try
    {
        code = task(index);
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << WanInputError::Escape(e.what()) << std::endl;
    }
    std::cout.flush();
    std::cerr.flush();
    _exit(code); // the parent owns every other resource
}

/**
 * \brief Wait for any child.
 * \param[out] ending how it ended \return its process id
 * \throws std::runtime_error when waitpid fails
 */
pid_t
WaitForChild(ChildProcessPool::Ending& ending)
{
    int status = 0;
    const pid_t done = waitpid(-1, &status, 0);
    if (done < 0)
    {
        throw std::runtime_error(std::string("--jobs: waiting for a process: ") +
                                 std::strerror(errno));
    }
    ending.signalled = WIFSIGNALED(status);
    ending.signal = ending.signalled ? WTERMSIG(status) : 0;
    ending.code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    return done;
}

} // namespace

void
ChildProcessPool::Run(size_t count, uint32_t workers, const Task& task, const Ended& ended)
{
    NS_LOG_FUNCTION(count << workers);
    const size_t most = workers == 0 ? 1 : workers;
    std::map<pid_t, size_t> running;
    size_t next = 0;
    while (next < count || !running.empty())
    {
        while (running.size() < most && next < count)
        {
            running[StartChild(task, next)] = next;
            NS_LOG_LOGIC("task " << next << " started; " << running.size() << " running");
            ++next;
        }
        Ending ending;
        const pid_t done = WaitForChild(ending);
        auto it = running.find(done);
        if (it == running.end())
        {
            continue; // a child this pool did not start
        }
        NS_LOG_LOGIC("task " << it->second << " ended: code " << ending.code << ", signal "
                             << ending.signal);
        const size_t index = it->second;
        running.erase(it);
        ended(index, ending);
    }
}

} // namespace ns3
