/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARALLEL_RUNNER_H
#define WAN_PARALLEL_RUNNER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ns3
{

class Packet;
class WanLinkChannel;
class WanTopology;

/**
 * \ingroup wan-training
 * \brief Runs one simulation on several processes (ranks) of this machine, each simulating
 *        the nodes of some cities, with conservative time windows.
 *
 * ns-3's own parallel simulator needs MPI, which Debian's ns-3 does not ship. This runner
 * needs only fork() and sockets. The simulation is built once; Fork() then makes rank 1 .. R-1
 * as copies of the process, connected to each other by socket pairs, and every rank keeps
 * executing the events of its own nodes only: a packet sent on a WanLinkChannel whose far
 * device belongs to another rank is serialised (Packet::Serialize) and handed to that rank,
 * which delivers it at the same instant it would have arrived in one process.
 *
 * Synchronisation: windows of the lookahead L, the smallest propagation delay of the links
 * between ranks. A barrier event at the end of every window, (k + 1) L, exchanges the packets
 * sent in the window with the other ranks and schedules their deliveries: a packet sent at t
 * arrives at t + L or later, never before the barrier that hands it over. The run ends at the
 * first barrier where no rank has other events pending and nothing is in flight.
 *
 * Rules: only WanLinkChannels may cross ranks (nodes of one city share a rank, so only WAN
 * links do), and their delay must be positive. Each rank holds a full copy of the simulation,
 * so the user disables what runs on other ranks' nodes (TrainingHelper does this for its
 * applications, see TrainingApplication::SetRemote). Events at the same instant may execute in
 * another order than in one process; outputs are deterministic for a given number of ranks.
 * A rank that dies ends every other rank with an error: never a hang.
 */
class WanParallelRunner
{
  public:
    /**
     * \param nodeRank rank of every node, by node id (every id below NodeList::GetNNodes())
     * \param ranks number of ranks, at least 1; every value of nodeRank is below it
     */
    WanParallelRunner(std::vector<uint32_t> nodeRank, uint32_t ranks);
    ~WanParallelRunner();

    WanParallelRunner(const WanParallelRunner&) = delete;
    WanParallelRunner& operator=(const WanParallelRunner&) = delete;

    /**
     * \brief Assign cities to ranks: among the assignments whose largest rank load is within
     *        LOAD_TOLERANCE of the smallest possible, the one with the largest lookahead
     *        (smallest delay of a link between ranks), then the smallest largest load, then
     *        the first in lexicographic order.
     * \param topology the WAN (cities, links and their delays)
     * \param cityLoad estimated work of each city, in handlings of one packet by a device
     * \param linkPackets packets each link carries; where a link joins two ranks, each of them
     *        also pays CROSS_PACKET_WORK per packet (serialisation, sockets)
     * \param ranks number of ranks, 1 .. number of cities
     * \return the rank of every city; every rank gets at least one city
     *
     * Exhaustive up to MAX_EXHAUSTIVE assignments, else the longest-load-first greedy. Links
     * of zero delay never cross ranks; std::invalid_argument when that makes it impossible.
     */
    static std::vector<uint32_t> PartitionCities(const WanTopology& topology,
                                                 const std::vector<double>& cityLoad,
                                                 const std::vector<double>& linkPackets,
                                                 uint32_t ranks);

    /**
     * Work of one packet crossing ranks, at each end, in handlings of one packet by a device
     * (callgrind: Packet::Serialize and the framing about 2.3 k instructions, the decoding
     * about 2.1 k, against about 3.4 k for one end of a link hop).
     */
    static constexpr double CROSS_PACKET_WORK = 0.65;

    /**
     * Loads are estimates: assignments within this fraction of the best balance count as
     * balanced, and the lookahead chooses among them (fewer barriers, more slack per window).
     */
    static constexpr double LOAD_TOLERANCE = 0.03;

    /**
     * \brief Check a number of ranks against a topology: 1 to its number of cities.
     * \param ranks the number asked for \param cities the topology's cities
     *
     * Throws std::invalid_argument naming the value and the range otherwise.
     */
    static void CheckRanks(uint32_t ranks, uint32_t cities);

    /** Largest number of assignments PartitionCities tries one by one. */
    static constexpr uint64_t MAX_EXHAUSTIVE = 2000000;

    /**
     * \brief Check the links between ranks, create the ranks and attach the remote wires.
     * \return this process's rank (0 in the calling process)
     *
     * Throws std::invalid_argument if a link between ranks is not a WanLinkChannel or has no
     * delay, std::runtime_error if a socket or process cannot be created.
     */
    uint32_t Fork();

    /**
     * \brief Run the simulation in windows until every rank is idle and nothing is in flight.
     *
     * Replaces Simulator::Run() after Fork(). Throws std::runtime_error naming the rank if
     * another rank ends or breaks its socket before the end.
     */
    void Run();

    /**
     * \brief Collect one message from every rank at rank 0.
     * \param data this rank's message
     * \return at rank 0, the messages of ranks 0 .. R-1; at other ranks, nothing
     */
    std::vector<std::string> Gather(const std::string& data);

    /**
     * \brief End a rank other than 0 (its work is in rank 0's Gather()); at rank 0, wait for
     *        the other ranks to exit.
     *
     * A rank other than 0 leaves with _exit(0), without running the rest of the program.
     * Throws std::runtime_error at rank 0 if another rank failed.
     */
    void Finish();

    /**
     * \brief Hand a packet to the rank of the far end of a wire (called by WanLinkChannel).
     * \param channel the channel's id (ChannelList) \param wire its direction, 0 or 1
     * \param arrival when the packet reaches the far device
     * \param protocol the protocol number the far device passes up \param packet the packet
     */
    void Send(uint32_t channel,
              uint32_t wire,
              Time arrival,
              uint16_t protocol,
              Ptr<const Packet> packet);

    /** \return this process's rank */
    uint32_t GetRank() const;
    /** \return the number of ranks */
    uint32_t GetRanks() const;
    /** \param node a node id \return whether this rank simulates it */
    bool IsLocal(uint32_t node) const;
    /** \return the window length (valid after Fork) */
    Time GetLookahead() const;
    /** \return windows run so far by this rank */
    uint64_t GetWindows() const;
    /** \return packets this rank sent to other ranks */
    uint64_t GetPacketsSent() const;

  private:
    /** One rank's socket to another and its outgoing bytes of the current window. */
    struct Peer
    {
        int fd{-1};             //!< socket to that rank (-1 for this rank itself)
        std::string out;        //!< encoded packets for it in this window
        uint32_t outPackets{0}; //!< packets in out
        std::string in;         //!< bytes received from it
    };

    /** \brief The barrier at the end of a window: exchange, deliver, schedule the next one. */
    void Barrier();
    /**
     * \brief Send every peer its frame and read one frame from every peer.
     * \param idle whether this rank has no events left and sent nothing
     * \return whether every rank was idle
     */
    bool Exchange(bool idle);
    /** \brief Schedule the deliveries of the packets Exchange() read. */
    void DeliverIncoming();
    /** \brief Report a failure: throw at rank 0, print and _exit(1) elsewhere.
     *  \param message what went wrong */
    [[noreturn]] void Fail(const std::string& message) const;
    /** \brief Write and read whole buffers to and from every peer, interleaved (no deadlock).
     *  \param out bytes for each rank \param in where bytes from each rank go \param inBytes
     *  how many to read from each rank */
    void Transfer(const std::vector<std::string>& out,
                  std::vector<std::string>& in,
                  const std::vector<size_t>& inBytes);
    /** \brief Close every socket. */
    void CloseAll();

    std::vector<uint32_t> m_nodeRank;                //!< rank of each node
    uint32_t m_ranks;                                //!< R
    uint32_t m_rank;                                 //!< this process's rank
    Time m_lookahead;                                //!< window length
    std::vector<Peer> m_peers;                       //!< by rank
    std::vector<pid_t> m_children;                   //!< rank 0: pids of ranks 1 .. R-1
    std::vector<Ptr<WanLinkChannel>> m_channels;     //!< by channel id; null: no wire crosses ranks
    std::vector<std::array<uint32_t, 2>> m_wireRank; //!< by channel id: rank each wire reaches
    uint64_t m_windows;                              //!< windows run
    uint64_t m_packetsSent;                          //!< packets sent to other ranks
    bool m_forked;                                   //!< Fork() ran
    bool m_done;                                     //!< the last barrier ran
};

} // namespace ns3

#endif /* WAN_PARALLEL_RUNNER_H */
