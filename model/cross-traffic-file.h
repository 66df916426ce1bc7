/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CROSS_TRAFFIC_FILE_H
#define CROSS_TRAFFIC_FILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class WanTopology;

/**
 * \ingroup wan-training
 * \brief One cross-traffic flow: a sender at one city, a PacketSink at another, ns-3's own
 *        applications between extra hosts (CrossTrafficHelper), sharing the WAN with training.
 */
struct CrossTrafficFlow
{
    /** The transport the flow's applications use. */
    enum Protocol
    {
        TCP, //!< ns3::TcpSocketFactory
        UDP  //!< ns3::UdpSocketFactory
    };

    uint32_t from{0};       //!< city index of the sender's host
    uint32_t to{0};         //!< city index of the receiver's host (not \c from)
    Protocol protocol{UDP}; //!< transport
    bool bulk{false};       //!< true: BulkSend (TCP only), as fast as TCP allows; else OnOff
    uint64_t rateBps{0};    //!< OnOff's constant rate, bits/s of payload (0 for bulk)
    double start{0};        //!< when the sender starts, s
    double stop{0};         //!< when the sender stops, s (after start)

    /** \param protocol a protocol \return "tcp" or "udp" */
    static const char* ProtocolName(Protocol protocol);
};

/**
 * \ingroup wan-training
 * \brief The JSON cross-traffic file format, read with validation against a topology.
 *
 * \code
 * { "description": "free text",
 *   "flows": [ {"from": "NYC", "to": "LON", "protocol": "tcp", "bulk": true,
 *               "start": "0s", "stop": "2s"},
 *              {"from": "LON", "to": "NYC", "protocol": "udp", "rate": "20Gbps",
 *               "start": 0.5, "stop": "1.5s"} ] }
 * \endcode
 *
 * Reading follows the input rules shared with topology and schedule files (WanJsonInput): no
 * repeated or unknown keys, rates and times with units or as bare numbers (bits/s, seconds).
 * Every error is a WanInputError naming the file, the field (e.g. "flows[2].to") and the value
 * (see doc/input-rules.rst).
 */
class CrossTrafficFile
{
  public:
    /**
     * \brief Parse and validate a cross-traffic document.
     * \param text the document \param source the name used in error messages (file path)
     * \param topology the topology whose city codes the flows name
     * \return the flows, in file order
     * \throws WanInputError naming \p source, the field and the value
     */
    static std::vector<CrossTrafficFlow> Parse(const std::string& text,
                                               const std::string& source,
                                               const WanTopology& topology);
    /**
     * \param path a cross-traffic file \param topology the topology the flows run on
     * \return the flows \throws WanInputError naming the file, the field and the value
     */
    static std::vector<CrossTrafficFlow> LoadFile(const std::string& path,
                                                  const WanTopology& topology);
    /**
     * \brief The range rule of a flow's start and stop.
     * \param seconds a time \return "" if finite and in [0, WanUnits::MAX_TIME_SECONDS],
     *        else what is wrong
     */
    static std::string TimeProblem(double seconds);
};

} // namespace ns3

#endif /* CROSS_TRAFFIC_FILE_H */
