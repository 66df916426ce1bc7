/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_FUZZ_INPUT_H
#define WAN_TRAINING_FUZZ_INPUT_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wan_training_fuzz
{

/**
 * One packet of a packet harness's input: which neighbour sends it, as which protocol, and
 * its bytes (an IPv4 packet, or what the fuzzer made of one).
 */
struct FuzzPacket
{
    uint8_t port;               //!< the record's port byte (harness picks the sender from it)
    std::vector<uint8_t> bytes; //!< the packet, starting at the IPv4 header
};

/**
 * The input format of the packet harnesses (router and FPGA), shared with write-seeds.cc:
 *
 *   byte 0            configuration bits (harness-specific device attributes)
 *   then records      port byte, length (2 bytes, big-endian), that many packet bytes
 *
 * A length longer than what is left takes the rest; a trailing record shorter than its 3-byte
 * head is ignored. At most MAX_PACKETS records are read.
 */
class FuzzInput
{
  public:
    /** Records read at most per input (keeps one input's simulation short). */
    static constexpr std::size_t MAX_PACKETS = 64;

    /** \param data the fuzzer's bytes \param size their number */
    FuzzInput(const uint8_t* data, std::size_t size)
    {
        if (size == 0)
        {
            return;
        }
        m_config = data[0];
        std::size_t at = 1;
        while (at + 3 <= size && m_packets.size() < MAX_PACKETS)
        {
            FuzzPacket packet;
            packet.port = data[at];
            const std::size_t length = (std::size_t{data[at + 1]} << 8) | data[at + 2];
            at += 3;
            const std::size_t take = std::min(length, size - at);
            packet.bytes.assign(data + at, data + at + take);
            at += take;
            m_packets.push_back(std::move(packet));
        }
    }

    /** \return the configuration byte (0 for an empty input) */
    uint8_t GetConfig() const
    {
        return m_config;
    }

    /** \return the packets in input order */
    const std::vector<FuzzPacket>& GetPackets() const
    {
        return m_packets;
    }

    /**
     * \brief Append one record to an input being written (seeds).
     * \param input the input so far \param port the port byte \param bytes the packet
     */
    static void AppendRecord(std::vector<uint8_t>& input,
                             uint8_t port,
                             const std::vector<uint8_t>& bytes)
    {
        input.push_back(port);
        input.push_back(static_cast<uint8_t>(bytes.size() >> 8));
        input.push_back(static_cast<uint8_t>(bytes.size() & 0xff));
        input.insert(input.end(), bytes.begin(), bytes.end());
    }

  private:
    uint8_t m_config{0};               //!< configuration byte
    std::vector<FuzzPacket> m_packets; //!< the records
};

} // namespace wan_training_fuzz

#endif /* WAN_TRAINING_FUZZ_INPUT_H */
