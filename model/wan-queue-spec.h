/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_QUEUE_SPEC_H
#define WAN_QUEUE_SPEC_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief How much a link's transmit queue holds, as the user says it: a number of packets, a
 *        number of bytes, a time at the link's rate, or one bandwidth-delay product.
 *
 * The text forms are "100p" (or "100packets"), "125MB" (B, KB, MB, GB, KiB, MiB, GiB), "50ms"
 * (s, ms, us, ns: that long at the link's rate) and "bdp" (the link's rate times the longest
 * round trip of any island pair whose route crosses it, WanRouting::GetLongestRoundTrip). The
 * spec belongs to a topology's links and access links (WanTopology, the topology file's
 * "queue" keys, the --queue flag); WanTopologyHelper resolves it for each device once the
 * rates and routes are known (Resolve).
 *
 * The default, DEFAULT, is 50 ms at line rate: WAN routers buffer tens of milliseconds per port
 * (deep-buffer routers), not the 100 packets of ns-3's LAN default (0.7 ms at 10 Gbit/s with
 * 9000-byte packets). See doc/topology.rst, "Queues".
 */
class WanQueueSpec
{
  public:
    /** What the number of a spec counts. */
    enum Kind
    {
        PACKETS, //!< packets, whatever their size
        BYTES,   //!< bytes
        TIME,    //!< seconds at the link's rate
        BDP      //!< bandwidth-delay products (the value is 1)
    };

    /** The default spec's text: 50 ms at the link's rate. */
    static const char DEFAULT[];

    /** \brief The default spec (DEFAULT). */
    WanQueueSpec();

    /**
     * \brief Read a spec.
     * \param text e.g. "100p", "125MB", "50ms" or "bdp"
     * \param what where the text came from (file and field, or flag), for the error message
     * \return the spec
     * \throws WanInputError naming \p what and \p text if it is none of the forms, or its
     *         number is not positive
     */
    static WanQueueSpec Parse(const std::string& text, const std::string& what);
    /** \param packets at least 1 \return a spec of that many packets */
    static WanQueueSpec Packets(uint32_t packets);
    /** \param bytes at least 1 \return a spec of that many bytes */
    static WanQueueSpec Bytes(uint32_t bytes);

    /** \return what the number counts */
    Kind GetKind() const;
    /** \return the number: packets, bytes, seconds, or 1 (BDP) */
    double GetValue() const;
    /** \return the text form; Parse(ToString()) gives an equal spec */
    const std::string& ToString() const;
    /** \return the text form with what it means, e.g. "50ms at the link's rate" */
    std::string Describe() const;

    /**
     * \brief The bound of one device's queue.
     * \param bps the link's rate, bits per second
     * \param roundTrip the longest round trip through the link, seconds (for BDP)
     * \param mtu the device's MTU, bytes
     * \return for PACKETS the packets; otherwise bytes, rounded up, at least one MTU (a
     *         queue must hold one whole packet) and at most WanUnits::MAX_COUNT
     */
    uint64_t Resolve(double bps, double roundTrip, uint32_t mtu) const;

    /** \param other a spec \return true if both have the same kind and number */
    bool operator==(const WanQueueSpec& other) const;
    /** \param other a spec \return true unless equal */
    bool operator!=(const WanQueueSpec& other) const;

  private:
    /** \param kind the kind \param value the number \param text its text form */
    WanQueueSpec(Kind kind, double value, std::string text);

    Kind m_kind;        //!< what the number counts
    double m_value;     //!< the number
    std::string m_text; //!< the text form
};

} // namespace ns3

#endif /* WAN_QUEUE_SPEC_H */
