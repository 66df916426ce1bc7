/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CROSS_TRAFFIC_HELPER_H
#define CROSS_TRAFFIC_HELPER_H

#include "ns3/application.h"
#include "ns3/cross-traffic-file.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/wan-host-helper.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class PacketSink;
class WanTopologyHelper;

/**
 * \ingroup wan-training
 * \brief What one cross-traffic flow achieved (CrossTrafficHelper::GetResults).
 */
struct CrossTrafficResult
{
    uint32_t flow{0};       //!< index in the file
    std::string from;       //!< city code of the sender
    std::string to;         //!< city code of the receiver
    std::string protocol;   //!< "tcp" or "udp"
    bool bulk{false};       //!< BulkSend (else OnOff at offeredBps)
    uint64_t offeredBps{0}; //!< OnOff's rate (0 for bulk)
    double start{0};        //!< configured start, s
    double stop{0};         //!< configured stop, s
    double active{0};       //!< seconds the flow was on: stop - start, or less if the run ended
    uint64_t bytes{0};      //!< bytes the sink received while the flow was on
    double goodputBps{0};   //!< bytes x 8 / active (0 if it never ran)
};

/**
 * \ingroup wan-training
 * \brief Cross traffic on an installed WAN: extra hosts at cities, ns-3's own applications
 *        between them, sharing the WAN links with training.
 *
 * Install() attaches one host per city that a flow names (WanTopologyHelper::AddHost: its own
 * access link and address, routes installed by the WAN controller like the islands', never
 * behind an FPGA), then per flow a PacketSink on the receiver's host (its own port, from
 * FirstPort up) and the sender on the other: OnOffApplication at the flow's constant rate
 * (always on between start and stop), or BulkSendApplication for bulk TCP. UDP uses ns-3's
 * UdpSocketFactory; TCP the hosts' CrossTrafficSocketFactory, which gives their sockets the
 * segment and buffer sizes below without touching any other TCP socket. Nothing here knows of
 * training: the training's plan keeps its rates, and meets the cross traffic in the queues.
 *
 * GetResults() gives each flow's goodput after the run: the bytes its sink received until the
 * flow's stop plus the one-way propagation delay between the hosts (when the last bytes sent
 * by the stop arrive, if nothing queued), over the flow's active time, stop - start. A run
 * that ends earlier (a limit) ends the active time there.
 *
 * One process only: under ns-3's distributed simulators Install() throws.
 */
class CrossTrafficHelper : public Object
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    CrossTrafficHelper();
    ~CrossTrafficHelper() override;

    /**
     * \brief Attach the hosts and install every flow's applications. Call once, after
     *        WanTopologyHelper::Install() and before the simulation runs.
     * \param wan an installed WAN (kept by reference; must outlive the run)
     * \param flows the flows (city indices of \p wan's topology)
     * \throws std::runtime_error in a distributed run, or when Check() refuses the flows
     */
    void Install(WanTopologyHelper& wan, const std::vector<CrossTrafficFlow>& flows);
    /**
     * \brief What Install() checks of the flows against the attributes, before any network is
     *        built (a program checks its inputs before it makes its output folder).
     * \param flows the flows to install \param mtu the WAN's MTU
     * \throws std::runtime_error naming the attribute (and flow) when the sink ports from
     *         FirstPort run past 65535, HostAccessRate is 0, a UDP write or a TCP segment does
     *         not fit the MTU, a rate flow is faster than HostAccessRate, or it would send its
     *         writes less than one simulator time step apart (its clock would stand still)
     */
    void Check(const std::vector<CrossTrafficFlow>& flows, uint32_t mtu) const;

    /** \return the flows installed */
    const std::vector<CrossTrafficFlow>& GetFlows() const;
    /** \param flow a flow index \return its receiver's sink */
    Ptr<PacketSink> GetSink(uint32_t flow) const;
    /** \param flow a flow index \return its sender (OnOffApplication or BulkSendApplication) */
    Ptr<Application> GetSender(uint32_t flow) const;
    /** \param city a city index \return the host Install() attached there (WanTopologyHelper
     *  host index) \throws std::out_of_range if none */
    uint32_t GetHost(uint32_t city) const;
    /** \return the hosts Install() attached (numbered as GetHost gives them) \pre Install() */
    const WanHostHelper& GetHosts() const;
    /** \param protocol a protocol \return the bytes of one application write (PacketSize, or the
     *  payload of one MTU-sized packet) */
    uint32_t GetPacketSize(CrossTrafficFlow::Protocol protocol) const;
    /** \return the TCP segment size of the hosts' sockets (TcpSegmentSize, or the MTU's) */
    uint32_t GetTcpSegmentSize() const;

    /**
     * \return every flow's result, in flow order, as of now (call after the run, before
     *         Simulator::Destroy)
     */
    std::vector<CrossTrafficResult> GetResults() const;

  protected:
    void DoDispose() override;

  private:
    /** One installed flow. */
    struct Installed
    {
        Ptr<Application> sender; //!< OnOff or BulkSend
        Ptr<PacketSink> sink;    //!< at the receiver
        Time propagation;        //!< one-way propagation delay between the hosts
        bool stopped{false};     //!< its stop time has come to the sink (bytesAtStop is set)
        uint64_t bytesAtStop{0}; //!< sink's bytes at the stop time plus the propagation
    };

    /** \param flow a flow index \brief take its sink's byte count at its stop time (plus the
     *  propagation delay) */
    void RecordStop(uint32_t flow);
    /** \param city a city \return its host, attached now if it has none yet */
    uint32_t HostAt(uint32_t city);
    /** \param mtu an MTU \return the TCP segment that fills it (IPv4 and TCP headers,
     *  timestamps) */
    static uint32_t GetMtuTcpSegmentSize(uint32_t mtu);
    /** \param mtu an MTU \return the UDP payload that fills it (IPv4 and UDP headers) */
    static uint32_t GetMtuUdpPayload(uint32_t mtu);
    /** \param mtu an MTU \return the hosts' TCP segment size on links of that MTU */
    uint32_t TcpSegmentSizeAt(uint32_t mtu) const;
    /** \param protocol a protocol \param mtu an MTU \return the bytes of one application
     *  write on links of that MTU */
    uint32_t PacketSizeAt(CrossTrafficFlow::Protocol protocol, uint32_t mtu) const;

    DataRate m_hostAccessRate;   //!< access link rate of every host
    Time m_hostAccessDelay;      //!< access link delay of every host
    uint16_t m_firstPort;        //!< sink port of flow 0; flow f uses m_firstPort + f
    uint32_t m_packetSize;       //!< bytes per application write (0: fill the MTU)
    uint32_t m_tcpSegmentSize;   //!< TCP segment size (0: fill the MTU)
    uint32_t m_tcpBufferSize;    //!< TCP send and receive buffers, bytes
    uint32_t m_hostQueuePackets; //!< bound of a host's transmit queue (0: a TCP buffer's worth)

    WanTopologyHelper* m_wan{nullptr};         //!< the WAN (Install)
    std::unique_ptr<WanHostHelper> m_hosts;    //!< the hosts at cities (Install)
    std::vector<CrossTrafficFlow> m_flows;     //!< the flows
    std::vector<Installed> m_installed;        //!< per flow
    std::map<uint32_t, uint32_t> m_hostByCity; //!< city index -> host index
};

} // namespace ns3

#endif /* CROSS_TRAFFIC_HELPER_H */
