/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_FRAME_ERROR_MODEL_H
#define WAN_FRAME_ERROR_MODEL_H

#include "ns3/error-model.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Loses each frame with a fixed probability, deciding from the frame itself rather
 *        than from the order frames arrive in.
 *
 * ns-3's RateErrorModel draws one random number per packet from its stream, so which frame a
 * draw hits depends on the order the device receives them. Two frames that reach a router in
 * the same nanosecond leave in the order ns-3 runs the two events, which is not the same in a
 * run split over MPI ranks (a frame from another rank is scheduled when its message is taken)
 * as in one process; after such a swap, every later draw on the links the two frames take hits
 * another frame.
 *
 * This model gives every frame its own draw: a 64-bit hash of the frame's first KEY_BYTES
 * bytes (for IPv4, the header without the TOS byte, which queues may mark, and the checksum
 * that covers it; then the UDP or TCP header and what follows), its size, the ns-3 seed and
 * run (RngSeedManager) and the model's stream, mapped to [0, 1) and compared with ErrorRate.
 * Each datagram the module's hosts, FPGAs and ns-3's IPv4 stack send carries its own IPv4
 * identification and, for gradients, its round and chunk, so a resend is a new draw; the same
 * frame on another link direction (another stream) is an independent draw. Frames that are
 * identical byte for byte on one link direction share their fate.
 *
 * The loss is Bernoulli(ErrorRate) per frame, as with RateErrorModel's packet unit, but the
 * realisation does not depend on event order: the same seed loses the same frames wherever the
 * same frames are sent. A tie that moves a frame by a transmission time can still change what
 * its sender sends next (the identification of a resend), so a run split over MPI ranks can
 * still differ, far less often (doc/training.rst, "When a split run differs").
 */
class WanFrameErrorModel : public ErrorModel
{
  public:
    /** Bytes of a frame that choose its fate (shorter frames: all of them, and the size). */
    static constexpr uint32_t KEY_BYTES = 128;

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    WanFrameErrorModel();
    ~WanFrameErrorModel() override;

    /**
     * \brief Set the stream that separates this model's draws from other models' (ns-3's
     *        AssignStreams convention).
     * \param stream the stream number
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief The draw of a frame, in [0, 1): the frame is lost if it is below ErrorRate.
     * \param packet the frame as the receiving device sees it
     * \return the frame's uniform draw under the current seed, run and stream
     */
    double Draw(Ptr<const Packet> packet) const;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    double m_rate;    //!< probability that a frame is lost
    int64_t m_stream; //!< stream number (AssignStreams)
};

} // namespace ns3

#endif // WAN_FRAME_ERROR_MODEL_H
