/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXCHANGE_FACTORY_H
#define EXCHANGE_FACTORY_H

#include "round-exchange.h"

#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The one place that picks the exchange class of a round (TrainingApplication calls it).
 *
 * Over the TCP transport: a TcpRingExchange for a ring of two
 * or more members, else a TcpDirectExchange; a reduction tree (TREE) aborts, since the helper
 * refuses such a schedule before the run. Over UDP (planned or adaptive): a RingExchange for a
 * ring of two or more members, a TreeExchange for a reduction tree of two or more, else a
 * DirectExchange.
 *
 * \param context the island (outlives the exchange)
 * \param round the training round
 * \param config the island's part of the round
 * \param tcp the TCP transport's exchanges (the context's TcpTransport), else UDP's
 * \return the round's exchange
 */
std::unique_ptr<RoundExchange> CreateRoundExchange(ExchangeContext& context,
                                                   uint32_t round,
                                                   const TrainingRoundConfig& config,
                                                   bool tcp);

} // namespace ns3

#endif /* EXCHANGE_FACTORY_H */
