/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-mpi.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/string.h"

#include <cstdlib>
#include <stdexcept>

// NS3_MPI: defined by ns-3's build for code that links its mpi module (configure --enable-mpi).
// This file is the only one of the module that looks at it.
#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/point-to-point-remote-channel.h"

#include <mpi.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanMpi");

namespace
{

/** The process's MPI state. */
struct MpiState
{
    std::string simulator{WanMpi::DEFAULT_SIMULATOR}; //!< Init()'s choice
    bool initialisedMpi{false};                       //!< Init() called MPI_Init
    bool simulating{false};                           //!< between Begin and EndSimulation
    uint32_t rank{0};                                 //!< rank in MPI_COMM_WORLD
    uint32_t size{1};                                 //!< ranks in MPI_COMM_WORLD
    uint64_t packetsSent{0};                          //!< SendPacket() calls this simulation
};

MpiState&
State()
{
    NS_LOG_FUNCTION_NOARGS();
    static MpiState state;
    return state;
}

/** \param simulator a --simulator name \return ns-3's SimulatorImplementationType for it */
[[maybe_unused]] std::string
ImplementationType(const std::string& simulator)
{
    NS_LOG_FUNCTION(simulator);
    if (simulator == WanMpi::GRANTED_TIME_WINDOW)
    {
        return "ns3::DistributedSimulatorImpl";
    }
    if (simulator == WanMpi::NULL_MESSAGE)
    {
        return "ns3::NullMessageSimulatorImpl";
    }
    return "ns3::DefaultSimulatorImpl";
}

} // namespace

bool
WanMpi::IsAvailable()
{
    NS_LOG_FUNCTION_NOARGS();
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

void
WanMpi::Init(const std::string& simulator)
{
    NS_LOG_FUNCTION(simulator);
    if (simulator != DEFAULT_SIMULATOR && simulator != GRANTED_TIME_WINDOW &&
        simulator != NULL_MESSAGE)
    {
        throw std::invalid_argument("--simulator: '" + simulator + "': expected " +
                                    DEFAULT_SIMULATOR + ", " + GRANTED_TIME_WINDOW + " or " +
                                    NULL_MESSAGE);
    }
    MpiState& state = State();
    if (state.simulator == simulator)
    {
        return;
    }
    if (state.simulator != DEFAULT_SIMULATOR)
    {
        throw std::runtime_error("WanMpi::Init: the simulator is already " + state.simulator);
    }
    if (simulator == DEFAULT_SIMULATOR)
    {
        return;
    }
    if (!IsAvailable())
    {
        throw std::invalid_argument(
            "--simulator: '" + simulator +
            "' needs ns-3's mpi module, and this build of wan-training has none (Debian's ns-3 "
            "packages are built without MPI): build ns-3 with MPI and this module in contrib/ "
            "with tools/build-ns3.sh, and run its programs under mpirun");
    }
#ifdef NS3_MPI
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised)
    {
        MPI_Init(nullptr, nullptr);
        state.initialisedMpi = true;
    }
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    state.rank = static_cast<uint32_t>(rank);
    state.size = static_cast<uint32_t>(size);
#endif
    state.simulator = simulator;
    NS_LOG_INFO("rank " << state.rank << " of " << state.size << ", simulator " << simulator);
}

std::string
WanMpi::GetSimulator()
{
    NS_LOG_FUNCTION_NOARGS();
    return State().simulator;
}

bool
WanMpi::IsDistributed()
{
    NS_LOG_FUNCTION_NOARGS();
    return State().simulator != DEFAULT_SIMULATOR;
}

uint32_t
WanMpi::GetRank()
{
    return State().rank;
}

uint32_t
WanMpi::GetSize()
{
    NS_LOG_FUNCTION_NOARGS();
    return State().size;
}

void
WanMpi::BeginSimulation()
{
    NS_LOG_FUNCTION_NOARGS();
    MpiState& state = State();
    if (!IsDistributed() || state.simulating)
    {
        return;
    }
#ifdef NS3_MPI
    // The simulator singleton does not exist yet (Simulator::Destroy() ended the last one), so
    // the next simulator call creates the distributed one.
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(ImplementationType(state.simulator)));
    MpiInterface::Enable(MPI_COMM_WORLD);
#endif
    state.simulating = true;
    state.packetsSent = 0;
}

void
WanMpi::EndSimulation()
{
    NS_LOG_FUNCTION_NOARGS();
    MpiState& state = State();
    if (!state.simulating)
    {
        return;
    }
#ifdef NS3_MPI
    // Frees ns-3's duplicate communicator; MPI itself stays up for the next simulation.
    MpiInterface::Disable();
#endif
    state.simulating = false;
}

bool
WanMpi::IsSimulating()
{
    NS_LOG_FUNCTION_NOARGS();
    return State().simulating;
}

void
WanMpi::SendPacket(Ptr<Packet> packet, Time rxTime, uint32_t node, uint32_t dev)
{
    NS_LOG_FUNCTION(packet << rxTime << node << dev);
    NS_ASSERT_MSG(IsSimulating(), "WanMpi::SendPacket outside a distributed simulation");
#ifdef NS3_MPI
    MpiInterface::SendPacket(packet, rxTime, node, dev);
#endif
    ++State().packetsSent;
}

uint64_t
WanMpi::GetPacketsSent()
{
    NS_LOG_FUNCTION_NOARGS();
    return State().packetsSent;
}

void
WanMpi::AttachReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive)
{
    NS_LOG_FUNCTION(device);
    if (!IsSimulating())
    {
        return;
    }
#ifdef NS3_MPI
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(receive);
    device->AggregateObject(receiver);
#endif
}

Ptr<PointToPointChannel>
WanMpi::CreatePointToPointChannel(bool remote)
{
    NS_LOG_FUNCTION(remote);
    NS_ABORT_MSG_IF(remote && !IsSimulating(),
                    "WanMpi::CreatePointToPointChannel: a remote channel outside a distributed "
                    "simulation");
#ifdef NS3_MPI
    if (remote)
    {
        return CreateObject<PointToPointRemoteChannel>();
    }
#endif
    return CreateObject<PointToPointChannel>();
}

std::vector<std::string>
WanMpi::Gather(const std::string& mine)
{
    NS_LOG_FUNCTION(mine);
    if (GetSize() == 1)
    {
        return {mine};
    }
    std::vector<std::string> all;
#ifdef NS3_MPI
    const uint32_t size = GetSize();
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(size, 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(size, 0);
    int total = 0;
    for (uint32_t r = 0; r < size; ++r)
    {
        offsets[r] = total;
        total += lengths[r];
    }
    std::string joined(GetRank() == 0 ? static_cast<size_t>(total) : 0, '\0');
    MPI_Gatherv(mine.data(),
                length,
                MPI_CHAR,
                joined.data(),
                lengths.data(),
                offsets.data(),
                MPI_CHAR,
                0,
                MPI_COMM_WORLD);
    if (GetRank() == 0)
    {
        for (uint32_t r = 0; r < size; ++r)
        {
            all.push_back(joined.substr(offsets[r], lengths[r]));
        }
    }
#endif
    return all;
}

bool
WanMpi::AllTrue(bool ok)
{
    NS_LOG_FUNCTION(ok);
    if (GetSize() == 1)
    {
        return ok;
    }
    int all = ok ? 1 : 0;
#ifdef NS3_MPI
    int mine = all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
#endif
    return all == 1;
}

void
WanMpi::Abort(int code)
{
    NS_LOG_FUNCTION(code);
#ifdef NS3_MPI
    if (GetSize() > 1)
    {
        MPI_Abort(MPI_COMM_WORLD, code);
    }
#endif
    std::exit(code);
}

void
WanMpi::Finalize()
{
    NS_LOG_FUNCTION_NOARGS();
    MpiState& state = State();
    EndSimulation();
#ifdef NS3_MPI
    if (state.initialisedMpi)
    {
        MPI_Finalize();
        state.initialisedMpi = false;
    }
#endif
    state.simulator = DEFAULT_SIMULATOR;
    state.rank = 0;
    state.size = 1;
}

} // namespace ns3
