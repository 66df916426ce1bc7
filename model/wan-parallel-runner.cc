/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parallel-runner.h"

#include "wan-link-channel.h"
#include "wan-topology.h"

#include "ns3/channel-list.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <limits>
#include <numeric>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanParallelRunner");

namespace
{

/** Window length when no link crosses ranks (the ranks never exchange packets). */
const Time UNCOUPLED_WINDOW = Seconds(1);

/** Fixed part of a frame: body bytes, packets, idle flag. */
struct FrameHeader
{
    uint64_t bodyBytes{0}; //!< bytes of encoded packets that follow
    uint32_t packets{0};   //!< packets in the body
    uint32_t idle{0};      //!< 1: the sender has no events left and sent nothing
};

/** Fixed part of one encoded packet; its serialised bytes follow. */
struct PacketRecord
{
    int64_t arrivalNs{0}; //!< arrival at the far device, ns
    uint32_t channel{0};  //!< ChannelList id
    uint16_t wire{0};     //!< direction, 0 or 1
    uint16_t protocol{0}; //!< protocol number the far device passes up
    uint32_t size{0};     //!< serialised packet bytes
};

/** \param s buffer \param value a trivially copyable value to append */
template <typename T>
void
Append(std::string& s, const T& value)
{
    s.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

/** \param s buffer \param offset read position, advanced \return the value read */
template <typename T>
T
Take(const std::string& s, size_t& offset)
{
    T value;
    if (offset + sizeof(T) > s.size())
    {
        throw std::runtime_error("truncated frame from another rank");
    }
    std::memcpy(&value, s.data() + offset, sizeof(T));
    offset += sizeof(T);
    return value;
}

/** Partition search state: cities' loads and the links. */
struct PartitionProblem
{
    const std::vector<double>& load;        //!< per city
    const std::vector<double>& linkPackets; //!< per link
    const std::vector<WanLink>& links;      //!< the WAN links
    uint32_t ranks;                         //!< R
    /** Second pass: loads up to this count as balanced and lookahead decides; first pass:
     *  infinity (load decides). */
    double balanced;
};

/** Quality of an assignment: smaller max load, then larger lookahead. */
struct PartitionScore
{
    double maxLoad{std::numeric_limits<double>::infinity()}; //!< largest rank load
    double lookahead{0};                                     //!< smallest crossing delay, s
    bool valid{false};                                       //!< every rank used, no 0-delay cut
};

/** \param p the problem \param rank city to rank \return its score */
PartitionScore
Score(const PartitionProblem& p, const std::vector<uint32_t>& rank)
{
    PartitionScore score;
    std::vector<double> load(p.ranks, 0.0);
    for (uint32_t c = 0; c < rank.size(); ++c)
    {
        load[rank[c]] += p.load[c];
    }
    for (uint32_t r = 0; r < p.ranks; ++r)
    {
        if (std::find(rank.begin(), rank.end(), r) == rank.end())
        {
            return score; // a rank without cities
        }
    }
    score.lookahead = std::numeric_limits<double>::infinity();
    for (uint32_t l = 0; l < p.links.size(); ++l)
    {
        const WanLink& link = p.links[l];
        if (rank[link.a] != rank[link.b])
        {
            if (link.delay <= 0)
            {
                return score; // no lookahead across this link
            }
            score.lookahead = std::min(score.lookahead, link.delay);
            load[rank[link.a]] += p.linkPackets[l] * WanParallelRunner::CROSS_PACKET_WORK;
            load[rank[link.b]] += p.linkPackets[l] * WanParallelRunner::CROSS_PACKET_WORK;
        }
    }
    score.maxLoad = *std::max_element(load.begin(), load.end());
    score.valid = true;
    return score;
}

/**
 * \param p the problem (its balanced bound) \param a a score \param b another
 * \return whether a is strictly better: in the first pass a smaller largest load, then a
 *         larger lookahead; in the second, among loads within the bound, a larger lookahead,
 *         then a smaller largest load
 */
bool
Better(const PartitionProblem& p, const PartitionScore& a, const PartitionScore& b)
{
    const bool aIn = a.valid && a.maxLoad <= p.balanced;
    const bool bIn = b.valid && b.maxLoad <= p.balanced;
    if (aIn != bIn)
    {
        return aIn;
    }
    if (!std::isinf(p.balanced) && a.lookahead != b.lookahead)
    {
        return a.lookahead > b.lookahead;
    }
    if (a.maxLoad != b.maxLoad)
    {
        return a.maxLoad < b.maxLoad;
    }
    return a.lookahead > b.lookahead;
}

/**
 * \brief Try every assignment whose ranks appear in first-use order (each set of cities
 *        once), from city c on.
 * \param p the problem \param c next city \param used ranks used so far
 * \param rank the assignment being built \param best best so far \param bestScore its score
 */
void
Search(const PartitionProblem& p,
       uint32_t c,
       uint32_t used,
       std::vector<uint32_t>& rank,
       std::vector<uint32_t>& best,
       PartitionScore& bestScore)
{
    if (c == rank.size())
    {
        const PartitionScore score = Score(p, rank);
        if (Better(p, score, bestScore))
        {
            bestScore = score;
            best = rank;
        }
        return;
    }
    // Enough cities must remain to use every rank.
    const uint32_t remaining = rank.size() - c;
    for (uint32_t r = 0; r <= std::min(used, p.ranks - 1); ++r)
    {
        const uint32_t nowUsed = std::max(used, r + 1);
        if (p.ranks - nowUsed > remaining - 1)
        {
            continue;
        }
        rank[c] = r;
        Search(p, c + 1, nowUsed, rank, best, bestScore);
    }
}

} // namespace

void
WanParallelRunner::CheckRanks(uint32_t ranks, uint32_t cities)
{
    if (ranks < 1 || ranks > cities)
    {
        throw std::invalid_argument("ranks: " + std::to_string(ranks) + ": expected 1 to " +
                                    std::to_string(cities) + " (the number of cities)");
    }
}

std::vector<uint32_t>
WanParallelRunner::PartitionCities(const WanTopology& topology,
                                   const std::vector<double>& cityLoad,
                                   const std::vector<double>& linkPackets,
                                   uint32_t ranks)
{
    const uint32_t n = topology.GetCities().size();
    CheckRanks(ranks, n);
    if (cityLoad.size() != n)
    {
        throw std::invalid_argument("city loads: " + std::to_string(cityLoad.size()) +
                                    " values for " + std::to_string(n) + " cities");
    }
    if (linkPackets.size() != topology.GetLinks().size())
    {
        throw std::invalid_argument("link loads: " + std::to_string(linkPackets.size()) +
                                    " values for " + std::to_string(topology.GetLinks().size()) +
                                    " links");
    }
    PartitionProblem problem{cityLoad,
                             linkPackets,
                             topology.GetLinks(),
                             ranks,
                             std::numeric_limits<double>::infinity()};
    std::vector<uint32_t> best(n, 0);
    PartitionScore bestScore;
    if (std::pow(double(ranks), double(n - 1)) <= double(MAX_EXHAUSTIVE))
    {
        // First the best balance, then the largest lookahead among the nearly as balanced.
        std::vector<uint32_t> rank(n, 0);
        Search(problem, 0, 0, rank, best, bestScore);
        if (bestScore.valid)
        {
            problem.balanced = bestScore.maxLoad * (1 + LOAD_TOLERANCE);
            bestScore = PartitionScore();
            Search(problem, 0, 0, rank, best, bestScore);
        }
    }
    else
    {
        // Longest load first onto the least loaded rank.
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&cityLoad](uint32_t a, uint32_t b) {
            return cityLoad[a] > cityLoad[b];
        });
        std::vector<double> load(ranks, 0.0);
        for (uint32_t c : order)
        {
            const auto r =
                static_cast<uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
            best[c] = r;
            load[r] += cityLoad[c];
        }
        bestScore = Score(problem, best);
    }
    if (!bestScore.valid)
    {
        throw std::invalid_argument("ranks: " + std::to_string(ranks) +
                                    ": no assignment of the cities of '" + topology.GetName() +
                                    "' puts only links with a positive delay between ranks");
    }
    return best;
}

WanParallelRunner::WanParallelRunner(std::vector<uint32_t> nodeRank, uint32_t ranks)
    : m_nodeRank(std::move(nodeRank)),
      m_ranks(ranks),
      m_rank(0),
      m_lookahead(UNCOUPLED_WINDOW),
      m_windows(0),
      m_packetsSent(0),
      m_forked(false),
      m_done(false)
{
    NS_LOG_FUNCTION(this << ranks);
    if (ranks < 1)
    {
        throw std::invalid_argument("WanParallelRunner: at least one rank");
    }
    for (uint32_t node = 0; node < m_nodeRank.size(); ++node)
    {
        if (m_nodeRank[node] >= ranks)
        {
            throw std::invalid_argument("WanParallelRunner: node " + std::to_string(node) +
                                        " has rank " + std::to_string(m_nodeRank[node]) +
                                        ", expected below " + std::to_string(ranks));
        }
    }
}

WanParallelRunner::~WanParallelRunner()
{
    NS_LOG_FUNCTION(this);
    for (const Ptr<WanLinkChannel>& channel : m_channels)
    {
        if (channel)
        {
            channel->SetParallelRunner(nullptr);
        }
    }
    CloseAll();
    // Rank 0 left early (an error): the other ranks must not outlive it.
    for (pid_t pid : m_children)
    {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
    }
}

void
WanParallelRunner::Fail(const std::string& message) const
{
    if (m_rank == 0)
    {
        throw std::runtime_error("parallel run: " + message);
    }
    std::cerr << "error: parallel run, rank " << m_rank << ": " << message << std::endl;
    _exit(1);
}

uint32_t
WanParallelRunner::Fork()
{
    NS_LOG_FUNCTION(this);
    if (m_forked)
    {
        throw std::logic_error("WanParallelRunner::Fork called twice");
    }
    if (m_nodeRank.size() != NodeList::GetNNodes())
    {
        throw std::invalid_argument(
            "WanParallelRunner: ranks of " + std::to_string(m_nodeRank.size()) +
            " nodes, the simulation has " + std::to_string(NodeList::GetNNodes()));
    }
    // The links between ranks and the lookahead.
    m_channels.assign(ChannelList::GetNChannels(), nullptr);
    m_wireRank.assign(ChannelList::GetNChannels(), {0, 0});
    bool coupled = false;
    for (uint32_t id = 0; id < ChannelList::GetNChannels(); ++id)
    {
        Ptr<Channel> channel = ChannelList::GetChannel(id);
        const uint32_t first = m_nodeRank[channel->GetDevice(0)->GetNode()->GetId()];
        bool crosses = false;
        for (std::size_t d = 1; d < channel->GetNDevices(); ++d)
        {
            crosses = crosses || m_nodeRank[channel->GetDevice(d)->GetNode()->GetId()] != first;
        }
        if (!crosses)
        {
            continue;
        }
        Ptr<WanLinkChannel> link = DynamicCast<WanLinkChannel>(channel);
        if (!link)
        {
            throw std::invalid_argument("WanParallelRunner: channel " + std::to_string(id) + " (" +
                                        channel->GetInstanceTypeId().GetName() +
                                        ") joins two ranks; only WanLinkChannel can");
        }
        TimeValue delay;
        link->GetAttribute("Delay", delay);
        if (!delay.Get().IsStrictlyPositive())
        {
            throw std::invalid_argument("WanParallelRunner: channel " + std::to_string(id) +
                                        " joins two ranks and has no delay (no lookahead)");
        }
        m_lookahead = coupled ? std::min(m_lookahead, delay.Get()) : delay.Get();
        coupled = true;
        m_channels[id] = link;
        // Wire 0 runs from device 0 to device 1, wire 1 back.
        m_wireRank[id] = {m_nodeRank[link->GetDevice(1)->GetNode()->GetId()], first};
    }

    // Sockets: one pair per pair of ranks; sockets[i][j] is i's end towards j.
    std::vector<std::vector<int>> sockets(m_ranks, std::vector<int>(m_ranks, -1));
    for (uint32_t i = 0; i < m_ranks; ++i)
    {
        for (uint32_t j = i + 1; j < m_ranks; ++j)
        {
            int pair[2];
            if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0)
            {
                throw std::runtime_error(std::string("WanParallelRunner: socketpair: ") +
                                         std::strerror(errno));
            }
            sockets[i][j] = pair[0];
            sockets[j][i] = pair[1];
        }
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    for (uint32_t r = 1; r < m_ranks; ++r)
    {
        const pid_t pid = fork();
        if (pid < 0)
        {
            throw std::runtime_error(std::string("WanParallelRunner: fork: ") +
                                     std::strerror(errno));
        }
        if (pid == 0)
        {
            m_rank = r;
            m_children.clear();
            break;
        }
        m_children.push_back(pid);
    }
    // Keep this rank's ends only.
    m_peers.assign(m_ranks, Peer());
    for (uint32_t i = 0; i < m_ranks; ++i)
    {
        for (uint32_t j = 0; j < m_ranks; ++j)
        {
            if (sockets[i][j] < 0)
            {
                continue;
            }
            if (i == m_rank)
            {
                m_peers[j].fd = sockets[i][j];
                fcntl(sockets[i][j], F_SETFL, fcntl(sockets[i][j], F_GETFL) | O_NONBLOCK);
            }
            else
            {
                close(sockets[i][j]);
            }
        }
    }
    for (const Ptr<WanLinkChannel>& channel : m_channels)
    {
        if (channel)
        {
            channel->SetParallelRunner(this);
        }
    }
    m_forked = true;
    NS_LOG_INFO("rank " << m_rank << " of " << m_ranks << ", lookahead "
                        << m_lookahead.As(Time::MS));
    return m_rank;
}

void
WanParallelRunner::Run()
{
    NS_LOG_FUNCTION(this);
    if (!m_forked)
    {
        throw std::logic_error("WanParallelRunner::Run before Fork");
    }
    m_done = false;
    Simulator::Schedule(m_lookahead, &WanParallelRunner::Barrier, this);
    Simulator::Run();
    if (!m_done)
    {
        Fail("the simulation stopped before every rank was idle (Simulator::Stop is not "
             "supported in a parallel run)");
    }
}

void
WanParallelRunner::Barrier()
{
    ++m_windows;
    // Inside an event, IsFinished() tells whether anything else is pending.
    bool sent = false;
    for (const Peer& peer : m_peers)
    {
        sent = sent || peer.outPackets > 0;
    }
    const bool idle = Simulator::IsFinished() && !sent;
    if (Exchange(idle))
    {
        m_done = true;
        return;
    }
    DeliverIncoming();
    Simulator::Schedule(m_lookahead, &WanParallelRunner::Barrier, this);
}

void
WanParallelRunner::Send(uint32_t channel,
                        uint32_t wire,
                        Time arrival,
                        uint16_t protocol,
                        Ptr<const Packet> packet)
{
    Peer& peer = m_peers[m_wireRank[channel][wire]];
    PacketRecord record;
    record.arrivalNs = arrival.GetNanoSeconds();
    record.channel = channel;
    record.wire = static_cast<uint16_t>(wire);
    record.protocol = protocol;
    record.size = packet->GetSerializedSize();
    Append(peer.out, record);
    const size_t offset = peer.out.size();
    peer.out.resize(offset + record.size);
    packet->Serialize(reinterpret_cast<uint8_t*>(&peer.out[offset]), record.size);
    ++peer.outPackets;
    ++m_packetsSent;
}

bool
WanParallelRunner::Exchange(bool idle)
{
    std::vector<std::string> out(m_ranks);
    std::vector<std::string> in(m_ranks);
    std::vector<size_t> inBytes(m_ranks, 0);
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        if (r == m_rank)
        {
            continue;
        }
        FrameHeader header;
        header.bodyBytes = m_peers[r].out.size();
        header.packets = m_peers[r].outPackets;
        header.idle = idle ? 1 : 0;
        Append(out[r], header);
        inBytes[r] = sizeof(FrameHeader);
    }
    Transfer(out, in, inBytes);
    bool allIdle = idle;
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        if (r == m_rank)
        {
            continue;
        }
        size_t offset = 0;
        const auto header = Take<FrameHeader>(in[r], offset);
        allIdle = allIdle && header.idle == 1;
        inBytes[r] = header.bodyBytes;
        out[r].swap(m_peers[r].out);
        m_peers[r].out.clear();
        m_peers[r].outPackets = 0;
    }
    Transfer(out, in, inBytes);
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        m_peers[r].in.swap(in[r]);
    }
    return allIdle;
}

void
WanParallelRunner::DeliverIncoming()
{
    const Time now = Simulator::Now();
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        const std::string& in = m_peers[r].in;
        size_t offset = 0;
        while (offset < in.size())
        {
            const auto record = Take<PacketRecord>(in, offset);
            if (offset + record.size > in.size() || record.channel >= m_channels.size() ||
                !m_channels[record.channel] || record.wire > 1)
            {
                Fail("malformed packet record from rank " + std::to_string(r));
            }
            const Time arrival = NanoSeconds(record.arrivalNs);
            if (arrival < now)
            {
                Fail("a packet from rank " + std::to_string(r) + " arrives at " +
                     std::to_string(arrival.GetSeconds()) + " s, before this window's end at " +
                     std::to_string(now.GetSeconds()) + " s");
            }
            Ptr<Packet> packet =
                Create<Packet>(reinterpret_cast<const uint8_t*>(in.data() + offset),
                               record.size,
                               true);
            offset += record.size;
            m_channels[record.channel]->ReceiveRemote(record.wire,
                                                      arrival,
                                                      record.protocol,
                                                      packet);
        }
        m_peers[r].in.clear();
    }
}

void
WanParallelRunner::Transfer(const std::vector<std::string>& out,
                            std::vector<std::string>& in,
                            const std::vector<size_t>& inBytes)
{
    std::vector<size_t> written(m_ranks, 0);
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        in[r].assign(inBytes[r], '\0');
    }
    std::vector<size_t> read(m_ranks, 0);
    while (true)
    {
        std::vector<pollfd> fds;
        std::vector<uint32_t> rankOf;
        for (uint32_t r = 0; r < m_ranks; ++r)
        {
            short events = 0;
            if (r != m_rank && written[r] < out[r].size())
            {
                events |= POLLOUT;
            }
            if (r != m_rank && read[r] < inBytes[r])
            {
                events |= POLLIN;
            }
            if (events != 0)
            {
                fds.push_back({m_peers[r].fd, events, 0});
                rankOf.push_back(r);
            }
        }
        if (fds.empty())
        {
            return;
        }
        if (poll(fds.data(), fds.size(), -1) < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            Fail(std::string("poll: ") + std::strerror(errno));
        }
        for (size_t k = 0; k < fds.size(); ++k)
        {
            const uint32_t r = rankOf[k];
            if ((fds[k].revents & POLLOUT) != 0)
            {
                const ssize_t n = send(fds[k].fd,
                                       out[r].data() + written[r],
                                       out[r].size() - written[r],
                                       MSG_NOSIGNAL);
                if (n < 0 && errno != EAGAIN && errno != EINTR)
                {
                    Fail("rank " + std::to_string(r) + " is gone (" + std::strerror(errno) + ")");
                }
                written[r] += n > 0 ? n : 0;
            }
            if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) != 0 && read[r] < inBytes[r])
            {
                const ssize_t n = recv(fds[k].fd, &in[r][read[r]], inBytes[r] - read[r], 0);
                if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
                {
                    Fail("rank " + std::to_string(r) + " ended before the run did");
                }
                read[r] += n > 0 ? n : 0;
            }
        }
    }
}

std::vector<std::string>
WanParallelRunner::Gather(const std::string& data)
{
    NS_LOG_FUNCTION(this << data.size());
    std::vector<std::string> out(m_ranks);
    std::vector<std::string> in(m_ranks);
    std::vector<size_t> inBytes(m_ranks, 0);
    if (m_rank != 0)
    {
        Append(out[0], uint64_t(data.size()));
        out[0] += data;
        Transfer(out, in, inBytes);
        return {};
    }
    for (uint32_t r = 1; r < m_ranks; ++r)
    {
        inBytes[r] = sizeof(uint64_t);
    }
    Transfer(out, in, inBytes);
    for (uint32_t r = 1; r < m_ranks; ++r)
    {
        size_t offset = 0;
        inBytes[r] = Take<uint64_t>(in[r], offset);
    }
    Transfer(out, in, inBytes);
    in[0] = data;
    return in;
}

void
WanParallelRunner::Finish()
{
    NS_LOG_FUNCTION(this);
    if (m_rank != 0)
    {
        CloseAll();
        _exit(0);
    }
    CloseAll();
    std::string failed;
    for (uint32_t r = 1; r <= m_children.size(); ++r)
    {
        int status = 0;
        if (waitpid(m_children[r - 1], &status, 0) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
        {
            failed += (failed.empty() ? "" : ", ") + std::to_string(r);
        }
    }
    m_children.clear();
    if (!failed.empty())
    {
        Fail("rank(s) " + failed + " failed");
    }
}

void
WanParallelRunner::CloseAll()
{
    for (Peer& peer : m_peers)
    {
        if (peer.fd >= 0)
        {
            close(peer.fd);
            peer.fd = -1;
        }
    }
}

uint32_t
WanParallelRunner::GetRank() const
{
    return m_rank;
}

uint32_t
WanParallelRunner::GetRanks() const
{
    return m_ranks;
}

bool
WanParallelRunner::IsLocal(uint32_t node) const
{
    return m_nodeRank.at(node) == m_rank;
}

Time
WanParallelRunner::GetLookahead() const
{
    return m_lookahead;
}

uint64_t
WanParallelRunner::GetWindows() const
{
    return m_windows;
}

uint64_t
WanParallelRunner::GetPacketsSent() const
{
    return m_packetsSent;
}

} // namespace ns3
