/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "exchange-factory.h"

#include "direct-exchange.h"
#include "ring-exchange.h"
#include "round-config.h"
#include "tcp-direct-exchange.h"
#include "tcp-ring-exchange.h"
#include "tree-exchange.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExchangeFactory");

std::unique_ptr<RoundExchange>
CreateRoundExchange(ExchangeContext& context,
                    uint32_t round,
                    const TrainingRoundConfig& config,
                    bool tcp)
{
    NS_LOG_FUNCTION(round << tcp);
    const bool several = config.members.size() > 1;
    if (tcp)
    {
        NS_ABORT_MSG_IF(config.algorithm == SyncAlgorithm::TREE && several,
                        "round " << round << ": the tcp transport has no reduction trees (TREE)");
        if (config.algorithm == SyncAlgorithm::RING && several)
        {
            return std::make_unique<TcpRingExchange>(context, round, config);
        }
        return std::make_unique<TcpDirectExchange>(context, round, config);
    }
    if (config.algorithm == SyncAlgorithm::RING && several)
    {
        return std::make_unique<RingExchange>(context, round, config);
    }
    if (config.algorithm == SyncAlgorithm::TREE && several)
    {
        return std::make_unique<TreeExchange>(context, round, config);
    }
    return std::make_unique<DirectExchange>(context, round, config);
}

} // namespace ns3
