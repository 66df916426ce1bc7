/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_HELPER_H
#define WAN_TOPOLOGY_HELPER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"
#include "ns3/wan-router-net-device.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-transit-fpgas.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class FpgaAggregatorNetDevice;
class WanRouterNetDevice;

/**
 * \ingroup wan-training
 * \brief Builds the simulated WAN from a WanTopology and acts as its controller.
 *
 * Install() creates one router node per city (no IP stack; a WanRouterNetDevice over its
 * point-to-point ports), one host node per island (internet stack, one IPv4 address), the
 * access links, the WAN links and, for islands whose city has an FPGA, an FPGA node split
 * into the access link (island -- access link -- FPGA -- in-box link -- router), and for
 * cities with the transit capability a transit FPGA beside the router (WanTransitFpgas). It
 * installs
 * unicast host routes on every router from WanRouting, and (source, group) multicast trees on
 * request.
 */
class WanTopologyHelper
{
  public:
    WanTopologyHelper();
    ~WanTopologyHelper();

    /**
     * \brief Set an attribute of every WanRouterNetDevice created by Install().
     * \param name attribute name \param value attribute value
     */
    void SetRouterAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every FpgaAggregatorNetDevice created by Install().
     * \param name attribute name \param value attribute value
     */
    void SetFpgaAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every TransitAggregatorNetDevice created by Install().
     * \param name attribute name \param value attribute value
     */
    void SetTransitAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set the in-box link between an FPGA (edge or transit) and its router (default
     *        400 Gbps, 0.5 us).
     * \param rate data rate \param delay propagation delay
     */
    void SetInBoxLink(DataRate rate, Time delay);
    /**
     * \brief Bound every link device's transmit queue with one spec, in place of the
     *        topology's own (its links' and access links' "queue", default
     *        WanQueueSpec::DEFAULT, 50 ms at the link's rate): a WanLinkNetDevice's
     *        TxQueueMaxSize, or the MaxSize of a stock device's DropTail queue. A packet beyond
     *        it is dropped (the device's MacTxDrop).
     *
     * Install() resolves a spec per device (ResolveQueue): a time at the link's rate, or "bdp"
     * with the longest round trip of the island pairs routed over the link
     * (WanRouting::GetLongestRoundTrips); an FPGA's in-box link takes its island's spec at the
     * in-box rate, a transit FPGA's and AttachHost's router end the topology's default.
     * \param queue the spec
     */
    void SetQueue(const WanQueueSpec& queue);
    /**
     * \brief SetQueue with a fixed bound. \param size the bound, in packets or bytes
     */
    void SetQueueSize(QueueSize size);
    /**
     * \param mtu MTU of every point-to-point device (default 9000 bytes); gradient chunks fill it
     * \throws std::invalid_argument outside MIN_MTU..MAX_MTU (CheckMtu)
     */
    void SetMtu(uint32_t mtu);
    /**
     * \brief Check an MTU before use, e.g. a command-line flag before anything runs.
     * \param mtu bytes
     * \throws std::invalid_argument naming the value, outside MIN_MTU..MAX_MTU
     */
    static void CheckMtu(uint32_t mtu);
    /** \return the MTU of every point-to-point device, bytes */
    uint16_t GetMtu() const;
    /**
     * \brief Choose the links' devices and channel.
     * \param stock true: ns-3's PointToPointNetDevice (PPP header, DropTail Queue object,
     *        flow control on the islands' devices) over PointToPointChannel (one event per
     *        packet in flight, and its TxRxPointToPoint trace fires); false (default):
     *        WanLinkNetDevice over WanLinkChannel, the same packet timing at a fraction of the
     *        cost per frame. For comparisons, NetAnim and the stock traces.
     */
    void SetStockLinks(bool stock);

    /**
     * \brief Give each city's nodes (router, FPGAs, islands) a system id: the rank of a
     *        distributed run that simulates them (ns-3's MPI engine; see WanPartition).
     * \param systemIds one per city, by city index; empty (the default): all 0
     *
     * Call before Install(); Install() checks the count.
     */
    void SetCitySystemIds(const std::vector<uint32_t>& systemIds);
    /** \return the system id of every city (empty: all 0) */
    const std::vector<uint32_t>& GetCitySystemIds() const;
    /**
     * \brief Build nodes, devices, addresses and unicast routes. Call once.
     * \param topology a validated topology (capabilities already applied)
     */
    void Install(const WanTopology& topology);

    /** \return the topology installed */
    const WanTopology& GetTopology() const;
    /** \return the routes installed (shared with the cost model) */
    const WanRouting& GetRouting() const;
    /** \return all island host nodes, by island index */
    NodeContainer GetIslandNodes() const;
    /** \param island island index \return its host node */
    Ptr<Node> GetIslandNode(uint32_t island) const;
    /** \param island island index \return its IPv4 address */
    Ipv4Address GetIslandAddress(uint32_t island) const;
    /** \param address an island address \return the island index, or UINT32_MAX if none */
    uint32_t GetIslandIndex(Ipv4Address address) const;
    /** \param city city index \return its router node */
    Ptr<Node> GetRouterNode(uint32_t city) const;
    /** \param city city index \return its router device */
    Ptr<WanRouterNetDevice> GetRouter(uint32_t city) const;
    /** \param city city index \return its nodes: router, then its islands' FPGA nodes and
     *  hosts in island order, then its transit FPGA's node, then its extra hosts (AddHost) */
    NodeContainer GetCityNodes(uint32_t city) const;
    /** \param island island index \return the FPGA in front of it, or nullptr */
    Ptr<FpgaAggregatorNetDevice> GetFpga(uint32_t island) const;
    /** \param city city index \return its transit FPGA, or nullptr */
    Ptr<TransitAggregatorNetDevice> GetTransit(uint32_t city) const;
    /** \param island island index \return the island's own end of its access link */
    Ptr<NetDevice> GetIslandDevice(uint32_t island) const;
    /** \param island island index \return the far end of the access link (FPGA or router port) */
    Ptr<NetDevice> GetAccessPeerDevice(uint32_t island) const;
    /** \param hop a directed WAN hop \return the device that transmits that hop */
    Ptr<NetDevice> GetWanDevice(const WanHop& hop) const;

    /**
     * \brief Attach a node with the internet stack to a city's router, after Install(): on its
     *        own access link, never behind an FPGA, with \p address and a default route out of
     *        that link, and its host route on every router, computed like the islands'. It
     *        joins no group: islands' addresses, groups and FPGA paths stay as they are. For the
     *        extra hosts of cross traffic (WanHostHelper numbers them and picks addresses).
     * \param city city index \param address the host's address (outside the islands' block)
     * \param rate access link rate \param delay access link delay
     * \param queue the bound of the host's own transmit queue (the router's end of the access
     *        link has the topology's default queue, resolved with the WAN's longest round trip)
     * \return the access link's devices: the host's end (its node is the new host), the
     *         router's end
     * \throws WanTopologyError for a city out of range
     */
    std::array<Ptr<NetDevice>, 2> AttachHost(uint32_t city,
                                             Ipv4Address address,
                                             DataRate rate,
                                             Time delay,
                                             QueueSize queue);
    /**
     * \param netBase the block's network address (host order), e.g. 10.0.0.0
     * \param index the host's number in the block
     * \return the address of host \p index: the .1 of the block's /24 number \p index
     */
    static Ipv4Address GetSubnetHostAddress(uint32_t netBase, uint32_t index);

    /**
     * \param hop a WAN link and the city it leaves from
     * \return the router port of that city on the link
     */
    uint32_t GetWanPort(const WanHop& hop) const;
    /** \param island island index \return its router's port towards it (access or in-box) */
    uint32_t GetAccessPort(uint32_t island) const;

    /** \return a fresh group address from 239.0.0.0/8 (239.0.0.1, 239.0.0.2, ...) */
    Ipv4Address AllocateGroup();
    /**
     * \brief Install the (sender, group) shortest-path tree towards the receivers on every
     *        router it crosses (WanMulticastTree::Install).
     * \param sender sending island \param group group address
     * \param receivers receiving islands (the sender itself is ignored)
     * \param refusal if not null, receives why the routers would not carry the tree ("" when
     *        they would): a city without the multicast capability, a router whose
     *        MulticastEnabled attribute is false, or a router entry over its MaxFanOut
     * \return true if every router on the tree is multicast-capable and would replicate the
     *         group's packets: only then may the sender use the group; otherwise it must send
     *         unicast copies
     */
    bool InstallMulticastTree(uint32_t sender,
                              Ipv4Address group,
                              const std::vector<uint32_t>& receivers,
                              std::string* refusal = nullptr);

    /**
     * \brief Enable pcap on the island's access link (both ends).
     * \param prefix file name prefix \param island island index
     */
    void EnablePcapAccess(const std::string& prefix, uint32_t island);
    /** \brief Enable pcap on every link (the extra hosts' too, when they exist already).
     *  \param prefix file name prefix */
    void EnablePcapAll(const std::string& prefix);

    /** Default in-box link rate between an FPGA and its router. */
    static const DataRate DEFAULT_IN_BOX_RATE;
    /** Default in-box link delay between an FPGA and its router. */
    static const Time DEFAULT_IN_BOX_DELAY;
    /** Smallest MTU SetMtu accepts: IPv6's minimum link MTU, room for every header and a chunk. */
    static constexpr uint16_t MIN_MTU = 1280;
    /** Largest MTU SetMtu accepts: the largest IPv4 total length. */
    static constexpr uint16_t MAX_MTU = 65535;
    /** First multicast group handed out by AllocateGroup() (239.0.0.1). */
    static constexpr uint32_t FIRST_GROUP = 0xEF000001;
    /** Last multicast group AllocateGroup() may hand out (239.255.255.255). */
    static constexpr uint32_t LAST_GROUP = 0xEFFFFFFF;

  private:
    // The steps of Install(), in order.
    /**
     * \param topology the topology to install
     * \throws WanTopologyError if it is invalid, has more islands than the addresses allow, or
     *         SetCitySystemIds gave another number of cities
     */
    void CheckInstallable(const WanTopology& topology) const;
    /** \param city a city \return the system id (MPI rank) of its nodes (0 without a partition) */
    uint32_t SystemIdOf(uint32_t city) const;
    /** \brief Routers by city index, then hosts by island index. */
    void CreateNodes();
    /** \param linkRoundTrips per link, its longest round trip (queues) \brief the WAN links */
    void ConnectWanLinks(const std::vector<double>& linkRoundTrips);
    /**
     * \param accessRoundTrips per island, its longest round trip (queues)
     * \return per island, the device its router's port attaches (access or in-box link)
     */
    std::vector<Ptr<NetDevice>> ConnectIslands(const std::vector<double>& accessRoundTrips);
    /**
     * \brief Island \p i's access link, split by an FPGA and an in-box link where its city has one.
     * \param i the island \param accessRoundTrip its longest round trip (queues)
     * \return the device its router's port attaches
     */
    Ptr<NetDevice> ConnectIsland(uint32_t i, double accessRoundTrip);
    /** \param routerSide per island, its router-side device \brief one router per city */
    void InstallRouters(const std::vector<Ptr<NetDevice>>& routerSide);
    /** \brief The transit FPGAs of cities with the capability, beside their routers. */
    void InstallTransitFpgas();
    /**
     * \brief Connect two nodes by a point-to-point link: the module's (WanLinkHelper), or with
     *        SetStockLinks ns-3's (ConnectStockLink).
     * \param a first node \param b second node \param rate rate in each direction
     * \param delay one-way propagation delay
     * \param queues the bounds of a's and b's transmit queues
     * \return the two devices, a's first
     */
    std::array<Ptr<NetDevice>, 2> Connect(Ptr<Node> a,
                                          Ptr<Node> b,
                                          DataRate rate,
                                          Time delay,
                                          const std::array<QueueSize, 2>& queues);
    /**
     * \brief Connect() with SetStockLinks: ns-3's PointToPointNetDevice and channel (its
     *        remote channel between ranks).
     * \param a first node \param b second node \param rate rate in each direction
     * \param delay one-way propagation delay \param queues a's and b's queue bounds
     * \return the two devices, a's first
     */
    std::array<Ptr<NetDevice>, 2> ConnectStockLink(Ptr<Node> a,
                                                   Ptr<Node> b,
                                                   DataRate rate,
                                                   Time delay,
                                                   const std::array<QueueSize, 2>& queues);
    /**
     * \param spec a queue spec \param rate the link's rate
     * \param roundTrip the longest round trip through the link, seconds
     * \return the bound of a device's queue on that link (WanQueueSpec::Resolve at the MTU)
     */
    QueueSize ResolveQueue(const WanQueueSpec& spec, DataRate rate, double roundTrip) const;
    /** \brief Write a pcap file of one device. \param prefix file name prefix
     *  \param device a link device (raw IPv4 for WanLinkNetDevice, PPP for the stock one) */
    void EnablePcap(const std::string& prefix, Ptr<NetDevice> device);
    /** \brief Give every island host its stack, address and host routes. */
    void InstallHosts();
    /** \brief Install the unicast host route of every island on every router. */
    void InstallUnicastRoutes();
    /**
     * \brief Install one host's route on every router that reaches its city.
     * \param address the host's address \param city its city
     * \param accessPort the port of its access (or in-box) link on the city's router
     */
    void InstallHostRoute(Ipv4Address address, uint32_t city, uint32_t accessPort);
    /**
     * \brief Give a host node (stack installed) its access interface, address and default route.
     * \param node the host \param device its end of the access link \param address its address
     * \return the interface index
     */
    uint32_t ConfigureHost(Ptr<Node> node, Ptr<NetDevice> device, Ipv4Address address);
    /** \param island an island index \param what the caller, for the message \throws */
    void CheckIsland(uint32_t island, const char* what) const;
    /** \brief Abort unless Install() ran. \param what the caller */
    void CheckInstalled(const char* what) const;

    ObjectFactory m_routerFactory;         //!< creates the WanRouterNetDevices
    ObjectFactory m_fpgaFactory;           //!< creates the FpgaAggregatorNetDevices
    std::optional<WanQueueSpec> m_queue;   //!< SetQueue's spec, in place of the topology's
    double m_longestRoundTrip{0};          //!< of any island pair, seconds
    PointToPointHelper m_p2p;              //!< enables pcap on the stock devices
    DataRate m_inBoxRate;                  //!< FPGA to router link rate
    Time m_inBoxDelay;                     //!< FPGA to router link delay
    uint16_t m_mtu;                        //!< MTU of every link device
    bool m_stockLinks{false};              //!< stock point-to-point devices and channels
    uint32_t m_nextGroup;                  //!< next group AllocateGroup() returns (host order)
    WanTopology m_topology;                //!< the installed topology
    std::unique_ptr<WanRouting> m_routing; //!< the routes (null until Install)
    std::vector<uint32_t> m_citySystemIds; //!< system id per city (empty: all 0)
    WanTransitFpgas m_transit;             //!< the transit FPGAs

    NodeContainer m_routerNodes;                             //!< router node per city
    NodeContainer m_islandNodes;                             //!< host node per island
    NodeContainer m_fpgaNodes;                               //!< FPGA nodes, in island order
    std::vector<Ptr<WanRouterNetDevice>> m_routers;          //!< router device per city
    std::vector<Ptr<FpgaAggregatorNetDevice>> m_fpgas;       //!< per island, null without FPGA
    std::vector<Ptr<NetDevice>> m_islandDevices;             //!< island end of access links
    std::vector<Ptr<NetDevice>> m_accessPeers;               //!< far end of access links
    std::vector<std::array<Ptr<NetDevice>, 2>> m_inBox;      //!< per island: FPGA, router
    std::vector<std::array<Ptr<NetDevice>, 2>> m_wanDevices; //!< per link: at a, at b
    std::vector<std::array<uint32_t, 2>> m_wanPorts;         //!< per link: router port at a, at b
    std::vector<uint32_t> m_accessPorts;                     //!< per island: its router's port
    std::vector<Ipv4Address> m_islandAddresses;              //!< per island: its address
    std::map<uint32_t, uint32_t> m_islandByAddress;          //!< address (host order) to island
    std::vector<uint32_t> m_hostCities;                      //!< per AttachHost: its city
    std::vector<std::array<Ptr<NetDevice>, 2>> m_hostLinks;  //!< per AttachHost: host, router
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_HELPER_H */
