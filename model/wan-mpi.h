/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_MPI_H
#define WAN_MPI_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class NetDevice;
class Packet;
class PointToPointChannel;

/**
 * \ingroup wan-training
 * \brief The module's one door to ns-3's MPI engine (src/mpi): distributed simulators,
 *        remote packets and the collectives that gather results on rank 0.
 *
 * ns-3's mpi module exists only when ns-3 was configured with --enable-mpi (Debian's
 * packages are not; tools/build-ns3.sh builds one). Built without it, this class still
 * answers (one process, rank 0) and refuses a distributed simulator with a clear error.
 *
 * One process may run several simulations one after the other (nine-city-training runs an
 * experiment per capability set and schedule); ns-3's MPI interface serves one simulation per
 * Enable(), so MPI itself is initialised once (Init) and every simulation is bracketed by
 * BeginSimulation() and EndSimulation(), which enable and disable ns-3's interface on a
 * duplicate of MPI_COMM_WORLD.
 */
class WanMpi
{
  public:
    /** Names of the simulators, as the --simulator flag takes them. */
    static constexpr const char* DEFAULT_SIMULATOR = "default";
    /** ns3::DistributedSimulatorImpl: conservative, granted time windows. */
    static constexpr const char* GRANTED_TIME_WINDOW = "granted-time-window";
    /** ns3::NullMessageSimulatorImpl: conservative, null messages between neighbours. */
    static constexpr const char* NULL_MESSAGE = "null-message";

    /** \return true if this build links ns-3's mpi module */
    static bool IsAvailable();

    /**
     * \brief Choose the simulator for the rest of the process; initialises MPI for the
     *        distributed ones.
     * \param simulator DEFAULT_SIMULATOR, GRANTED_TIME_WINDOW or NULL_MESSAGE
     * \throws std::invalid_argument for another name, or a distributed simulator in a build
     *         without MPI; std::runtime_error when called twice with different names
     */
    static void Init(const std::string& simulator);
    /** \return the simulator Init() chose (DEFAULT_SIMULATOR before) */
    static std::string GetSimulator();
    /** \return true if Init() chose a distributed simulator */
    static bool IsDistributed();
    /** \return this process's rank in MPI_COMM_WORLD (0 without a distributed simulator) */
    static uint32_t GetRank();
    /** \return the number of ranks (1 without a distributed simulator) */
    static uint32_t GetSize();

    /**
     * \brief Before building a simulation: select the distributed simulator and enable ns-3's
     *        MPI interface. Nothing without a distributed simulator.
     */
    static void BeginSimulation();
    /**
     * \brief After Simulator::Destroy(): disable ns-3's MPI interface. Nothing without a
     *        distributed simulator or when no simulation is open.
     */
    static void EndSimulation();
    /** \return true between BeginSimulation() and EndSimulation() of a distributed run */
    static bool IsSimulating();

    /**
     * \brief Hand a packet to the rank that owns node, to be received by its device dev at
     *        rxTime (MpiInterface::SendPacket). Only while IsSimulating().
     * \param packet the packet (serialised: its bytes, tags and metadata travel)
     * \param rxTime absolute receive time \param node the node id \param dev its device index
     */
    static void SendPacket(Ptr<Packet> packet, Time rxTime, uint32_t node, uint32_t dev);
    /** \return packets SendPacket() handed over since BeginSimulation() */
    static uint64_t GetPacketsSent();
    /**
     * \brief Let a device receive packets from other ranks: aggregates ns-3's MpiReceiver with
     *        the callback. Nothing unless IsSimulating().
     * \param device the device \param receive called with each packet, at its receive time
     */
    static void AttachReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive);
    /**
     * \brief A channel for two PointToPointNetDevices.
     * \param remote true if a distributed run simulates either end on another rank: then
     *        ns-3's PointToPointRemoteChannel (only while IsSimulating())
     * \return the channel
     */
    static Ptr<PointToPointChannel> CreatePointToPointChannel(bool remote);

    /**
     * \brief Collective: every rank gives a text, rank 0 gets all (MPI_Gatherv).
     * \param mine this rank's text
     * \return at rank 0, every rank's text by rank; elsewhere empty. One rank: {mine}.
     */
    static std::vector<std::string> Gather(const std::string& mine);
    /**
     * \brief Collective: true at every rank iff every rank passed true (MPI_Allreduce).
     * \param ok this rank's answer \return the conjunction
     */
    static bool AllTrue(bool ok);
    /**
     * \brief End every rank now with an exit code (MPI_Abort); one process: std::exit.
     * \param code the exit code
     */
    [[noreturn]] static void Abort(int code);
    /** \brief Finalise MPI at the end of the program (nothing if Init() did not start it). */
    static void Finalize();
};

} // namespace ns3

#endif /* WAN_MPI_H */
