/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RANK_BUNDLE_H
#define WAN_RANK_BUNDLE_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief Frames of one link direction bound for another MPI rank, carried as one packet.
 *
 * Under ns-3's distributed simulators every packet handed to MpiInterface::SendPacket is one
 * MPI message and, at the receiving rank, one event in the simulator's queue until it is due:
 * a 100 Gbps link between ranks puts thousands of frames into that queue. WanLinkChannel
 * collects the frames one direction sends within the time its lookahead allows and hands
 * them to ns-3's MPI engine as one packet of this format; the receiving channel opens it and
 * keeps the frames in its own FIFO.
 *
 * Each frame is stored with ns-3's own Packet::Serialize (bytes, tags and metadata travel as
 * they do in MpiInterface::SendPacket), after its arrival time and protocol number. The
 * format is this module's, between ranks of one run (same build, same byte order): a magic
 * word and the frame count, then per frame its arrival (64-bit time step), protocol and
 * serialised size, then the serialised packet, all in 32-bit words.
 */
class WanRankBundle
{
  public:
    /** One frame of a bundle. */
    struct Frame
    {
        Time arrival;       //!< when it reaches the far device
        Ptr<Packet> packet; //!< the packet
        uint16_t protocol;  //!< its protocol number
    };

    /**
     * The largest bundle ns-3's MPI interfaces can carry: they receive messages of at most 2000
     * bytes, of which their envelope takes 24 and the bundle packet's own serialisation about 40
     * more; the rest is left as a margin.
     */
    static constexpr uint32_t MAX_BYTES = 1856;

    WanRankBundle();

    /**
     * \param packet a packet
     * \return the bytes Add() would add for it
     */
    static uint32_t GetFrameBytes(Ptr<const Packet> packet);

    /**
     * \brief Append a frame (serialised at once: later changes to the packet do not travel),
     *        unless the bundle already holds a frame and would grow past maxBytes with it.
     * \param arrival its arrival time, not before the previous frame's
     * \param packet the packet \param protocol its protocol number
     * \param maxBytes the most GetBytes() may become (an empty bundle takes any frame)
     * \return false if the frame was not added (the bundle is full for it)
     */
    bool Add(Time arrival,
             Ptr<const Packet> packet,
             uint16_t protocol,
             uint32_t maxBytes = MAX_BYTES);
    /** \return true if no frame was added since the last Take() */
    bool IsEmpty() const;
    /** \return frames added since the last Take() */
    uint32_t GetFrames() const;
    /** \return size in bytes of the packet Take() would return */
    uint32_t GetBytes() const;
    /** \return arrival time of the first frame (the bundle must not be empty) */
    Time GetFirstArrival() const;
    /** \return the frames as one packet; the bundle is empty afterwards */
    Ptr<Packet> Take();

    /**
     * \brief Read a packet Take() made.
     * \param bundle the packet
     * \return its frames, in order; aborts with a message if it is not such a packet
     */
    static std::vector<Frame> Open(Ptr<const Packet> bundle);

  private:
    /** Words before the first frame: magic and frame count. */
    static constexpr uint32_t HEAD_WORDS = 2;
    /** Words before each frame's serialised packet: arrival (2), protocol, size. */
    static constexpr uint32_t FRAME_HEAD_WORDS = 4;
    /** First word of every bundle. */
    static constexpr uint32_t MAGIC = 0x57414e42; // "WANB"

    /** \param frameHead a frame's first word \return that frame's arrival */
    static Time ReadArrival(const uint32_t* frameHead);
    /** \param serialised a packet's serialised size \return its frame's bytes in a bundle */
    static uint32_t FrameBytes(uint32_t serialised);

    std::vector<uint32_t> m_words; //!< the bundle being built, head included
    Time m_lastArrival;            //!< arrival of the last frame
};

} // namespace ns3

#endif /* WAN_RANK_BUNDLE_H */
