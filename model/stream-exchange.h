/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STREAM_EXCHANGE_H
#define STREAM_EXCHANGE_H

#include "chunk-repair.h"
#include "exchange-sum.h"
#include "gradient-pacer.h"
#include "udp-exchange.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The common part of the exchanges whose streams carry whole updates chunk by chunk
 *        (DirectExchange, TreeExchange): the outgoing streams of the island's config, each
 *        paced at its rate with its resends, and the incoming updates of the members, one
 *        ChunkTracker each.
 *
 * Send side: one GradientPacer per configured stream (to a multicast group or one peer). At each
 * pacing instant a stream sends a resend asked for by any of its receivers, else its next
 * first-pass chunk, else, after its last, its END; a resend weighs the stream's resendWeight
 * chunks. The first pass is the chunks in the order the exchange makes them ready
 * (FirstPassChunk): DIRECT and a TREE member have them all at the start, in chunk order; a TREE
 * root as they complete. A NACKed chunk not sent yet, or sent less than the asker's round trip
 * ago, is answered "not yet".
 *
 * Receive side: the updates expected (ExpectFrom) are tracked per member position. A piece of a
 * chunk (a DATA chunk, or an aggregate with several contributors) counts only if none of its
 * contributors is in for the chunk yet (AcceptPiece; real sums cannot be split), else its fresh
 * contributors are asked again. First passes arrive in chunk order, so a piece marks every chunk
 * below it still missing from its contributors as a gap; a sender's END does the same for all of
 * its chunks, unless something on the way holds chunks (HoldAt of this island), which the END
 * overtakes.
 */
class StreamExchange : public UdpExchange
{
  public:
    /**
     * \param context the island \param round the round \param config the island's part
     */
    StreamExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    ~StreamExchange() override;

    void Shutdown() override;
    void ReceiveEnd(const GradientHeader& header) override;

  protected:
    uint32_t QueueResends(const GradientHeader& nack, bool& notYet) override;
    ChunkTracker* SilentStream(uint32_t slot, uint16_t& step) override;
    ChunkTracker* StreamOf(uint32_t slot, uint16_t step) override;
    void OnPeerLost(uint32_t slot) override;
    GradientPacer* PacerToward(uint32_t island) override;
    Time HoldAt(uint32_t island) const override;
    void OnFinished() override;
    AdaptiveRateControl* ControlFor(uint32_t peer) override;

    /**
     * \brief Open the config's streams, each paced at its planned rate (transport adaptive:
     *        its controller's, from FairGuess).
     * \param senders streams entering each receiver without aggregation (FairGuess)
     */
    void OpenStreams(uint32_t senders);
    /**
     * \param chunk a chunk of the island's outgoing update \param flags extra flags
     * \return its packet (first pass, or a resend with FLAG_RETRANSMISSION)
     */
    virtual Ptr<Packet> BuildChunk(uint32_t chunk, uint16_t flags) = 0;
    /**
     * \param position a position in the first pass \param chunk receives its chunk
     * \return false if no chunk is ready for it yet (by default every chunk is, in order)
     */
    virtual bool FirstPassChunk(uint32_t position, uint32_t& chunk) const;
    /**
     * \param chunk a chunk \return its position in the first pass, or NO_SLOT if it is not
     *         ready yet (by default the chunk itself)
     */
    virtual uint32_t FirstPassPosition(uint32_t chunk) const;
    /** \return the flags of the END behind a first pass (by default none) */
    virtual uint16_t EndFlags() const;
    /** \brief A chunk became ready: every idle stream sends it at its next pacing instant. */
    void WakeStreams();
    /** \return true once every stream has sent its first pass */
    bool StreamsSent() const;

    /** \param slot a member's position \brief its update is expected here */
    void ExpectFrom(uint32_t slot);
    /**
     * \brief Take a piece in if none of its contributors is in for its chunk: mark them,
     *        count their progress, NACK the gaps a first pass reveals, and add its values to
     *        m_sums (real payloads). A resend not known missing is set aside instead where
     *        SetsAsideResends() says so (see AsidePieces).
     * \param header the piece (checked by CheckDirectChunk)
     * \param first its first element \param values its payload (real payloads)
     * \param fresh receives its contributors
     * \return false if it overlaps (counted duplicate; its fresh contributors asked again) or
     *         was set aside
     */
    bool AcceptPiece(const GradientHeader& header,
                     uint32_t first,
                     const std::vector<int32_t>& values,
                     uint32_t& fresh);
    /**
     * \brief A chunk of an expected update is in (not in before): count the progress, and
     *        NACK the gaps a first pass reveals.
     * \param slot the member's position \param chunk the chunk \param firstPass not a resend
     */
    void MarkIn(uint32_t slot, uint32_t chunk, bool firstPass);
    /**
     * \param slot peer position \param chunk a chunk of it known lost
     * \brief Take its piece set aside, or else NACK it.
     */
    void NoteLost(uint32_t slot, uint32_t chunk);
    /**
     * \return true if a peer's resend that reaches this island before it knew the chunk
     *         missing is set aside (AsidePieces); by default false
     */
    virtual bool SetsAsideResends() const;

    std::vector<ChunkTracker> m_in; //!< per member position: its update, if expected
    uint32_t m_incomplete;          //!< updates expected, neither complete nor lost
    /** The accepted pieces' sums (real payloads): a DIRECT island's peers; a TREE root's
     *  members, a TREE member's totals. */
    DirectSum m_sums;
    AsidePieces m_aside; //!< resends set aside (SetsAsideResends)

  private:
    /**
     * \param header a piece \param first its first element \param values its payload
     * \return true if it is a resend of one peer's chunk not known missing here, now set aside
     */
    bool SetAside(const GradientHeader& header, uint32_t first, const std::vector<int32_t>& values);
    /**
     * \param slot peer position \param chunk a chunk of it known missing
     * \return true if a piece of it was set aside: it is now taken in
     */
    bool TakeAside(uint32_t slot, uint32_t chunk);

    /** One outgoing stream. */
    struct OutStream
    {
        Ipv4Address destination;          //!< group or peer
        uint32_t next{0};                 //!< next first-pass position
        bool done{false};                 //!< first pass sent
        bool endPending{false};           //!< its END goes at the next pacing instant
        GradientPacer pacer;              //!< its pacing
        ResendQueue resends;              //!< chunks asked for again
        FirstPassClock clock;             //!< when each first-pass position left
        Ptr<AdaptiveRateControl> control; //!< its rate (transport adaptive), else null
    };

    /** \param peer a receiver \return the index of the stream reaching it, or NO_SLOT */
    uint32_t StreamTo(uint32_t peer) const;
    /** \brief Stop the streams' rate controllers. */
    void StopControls();
    /** \param index stream index \return wire bytes of the packet sent, 0 if none */
    uint32_t SendNext(uint32_t index);
    /** \param slot a member's position \return its tracker if its update is expected */
    ChunkTracker* Expected(uint32_t slot);

    std::vector<std::unique_ptr<OutStream>> m_streams; //!< outgoing streams
};

} // namespace ns3

#endif /* STREAM_EXCHANGE_H */
