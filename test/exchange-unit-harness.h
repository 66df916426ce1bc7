/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One round exchange driven by hand, for the suites that test an exchange alone (TreeExchange,
 * DirectExchange): what it sends is captured, what it receives is built by the test.
 */

#ifndef WAN_TRAINING_EXCHANGE_UNIT_HARNESS_H
#define WAN_TRAINING_EXCHANGE_UNIT_HARNESS_H

#include "ns3/gradient-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/round-exchange.h"
#include "ns3/test.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training-tests
 * \brief A test case driving one exchange by hand: 3 chunks of 2 int32 each, islands 0..3,
 *        every round trip 1 ms, real payloads; what the exchange sends lands in m_sent.
 */
class ExchangeUnitTestCase : public TestCase
{
  protected:
    /** A packet the exchange sent. */
    struct Sent
    {
        Time at;                     //!< when
        GradientHeader header;       //!< its header
        std::vector<int32_t> values; //!< its payload
        Ipv4Address to;              //!< destination
        bool control;                //!< NACK, answer or END
    };

    /** \param name the test's name */
    explicit ExchangeUnitTestCase(const std::string& name);

    /**
     * \param island this island
     * \param hold every island's FPGA hold (zero: no FPGA in front of any island)
     * \brief a context whose sends land in m_sent
     */
    void MakeContext(uint32_t island, Time hold = Time(0));

    /**
     * \param type DATA, AGGREGATE or NACK \param sender its sender \param chunk chunk index
     * \param contributors its contributors \param flags its flags
     * \return a header of round 0, clique 0, members 0..3, 3 chunks of 2 elements
     */
    static GradientHeader Header(GradientHeader::Type type,
                                 uint32_t sender,
                                 uint32_t chunk,
                                 const std::vector<uint32_t>& contributors,
                                 uint16_t flags);

    /**
     * \param exchange the exchange \param at when \param header a chunk's header (a NACK goes
     * to ReceiveControl) \param values its payload
     */
    static void Deliver(RoundExchange* exchange,
                        Time at,
                        const GradientHeader& header,
                        std::vector<int32_t> values);

    /**
     * \param control control packets or data \param to destination
     * \return the captured packets of that kind to \p to, in order
     */
    std::vector<Sent> SentTo(bool control, Ipv4Address to) const;

    /**
     * \param scale island i's element e is scale x i + step x e + offset (fixed point)
     * \param step see scale \param offset see scale
     * \brief set m_own, the four islands' parameters
     */
    void MakeOwn(int32_t scale, int32_t step, int32_t offset);

    /**
     * \param islands contributors \param chunk chunk index
     * \return the sum of their m_own values of the chunk
     */
    std::vector<int32_t> Slice(const std::vector<uint32_t>& islands, uint32_t chunk) const;

    /**
     * \param exchange a finished exchange \param what what the mean is, for the messages
     * \brief its Average is the exact mean of the four islands' m_own
     */
    void CheckExactMean(const RoundExchange& exchange, const std::string& what);

    ExchangeContext m_context;               //!< the island's context
    std::vector<Sent> m_sent;                //!< what it sent
    uint32_t m_resent{0};                    //!< resends counted
    uint32_t m_completed{0};                 //!< completions
    std::vector<std::vector<int32_t>> m_own; //!< each island's parameters (MakeOwn)
};

} // namespace ns3

#endif /* WAN_TRAINING_EXCHANGE_UNIT_HARNESS_H */
