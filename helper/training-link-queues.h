/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_LINK_QUEUES_H
#define TRAINING_LINK_QUEUES_H

#include "ns3/net-device.h"
#include "ns3/ptr.h"
#include "ns3/queue-size.h"
#include "ns3/sync-cost-model.h"
#include "ns3/wan-routing.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The transmit queues of every link device of a training run: sized for the plans'
 *        streams (TrainingHelper::SetTuneQueues) and, for the adaptive transport, given ECN
 *        marking thresholds.
 */
class TrainingLinkQueues
{
  public:
    /** \return every point-to-point device of the simulation (module's or stock) */
    static std::vector<Ptr<NetDevice>> GetLinkDevices();

    /**
     * \brief Size every link device's transmit queue for the plans: a link direction crossed
     *        by S streams holds at least 2 S packets, plus \p controlBurst.
     * \param routing the WAN's routing \param plans the period's round plans
     * \param tune raise queues that are too small (else throw std::runtime_error)
     * \param ecn transport adaptive: also EnableEcn() with the busiest direction's need (the
     *        streams' packets, without \p controlBurst)
     * \param controlBurst room for the control packets an island may send at once (a notice
     *        in copies to every other member of its clique), which paced streams do not hold
     */
    static void Size(const WanRouting& routing,
                     const std::vector<SyncRoundEstimate>& plans,
                     bool tune,
                     bool ecn,
                     uint32_t controlBurst);

    /**
     * \brief Turn on EcnMarking on every WanLinkNetDevice, with thresholds in packets of at
     *        least: EcnMinThreshold \p burst (streams in phase queue that much with no
     *        overload), EcnMaxThreshold 3 x EcnMinThreshold, TxQueueMaxSize 2 x
     *        EcnMaxThreshold (in bytes: that many packets of the MTU). Thresholds set in bytes
     *        are left as they are.
     * \param burst the most packets the plans' streams queue in phase on one direction
     */
    static void EnableEcn(uint32_t burst);

    /**
     * \param size a queue's bound \param packets the packets it must hold
     * \param mtu the device's MTU (a bound in bytes holds \p packets of this size)
     * \return \p size, raised (in its own unit) to hold \p packets if it is smaller
     */
    static QueueSize AtLeast(QueueSize size, uint32_t packets, uint32_t mtu);

  private:
    /** \param device a link device \return its transmit queue's bound */
    static QueueSize GetQueueSize(Ptr<NetDevice> device);
    /** \param device a link device \param size its transmit queue's new bound */
    static void SetQueueSize(Ptr<NetDevice> device, QueueSize size);
};

} // namespace ns3

#endif /* TRAINING_LINK_QUEUES_H */
