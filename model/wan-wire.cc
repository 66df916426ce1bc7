/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-wire.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanWire");

namespace
{

/** The one setting of the gradient port (WanWire::GetGradientPort). */
GlobalValue g_gradientPort("WanGradientPort",
                           "UDP destination port of gradient traffic: the training applications "
                           "send to it, the routers and the FPGAs look for it (read when each "
                           "is created)",
                           UintegerValue(WanWire::DEFAULT_GRADIENT_PORT),
                           MakeUintegerChecker<uint16_t>(1));

} // namespace

uint16_t
WanWire::GetGradientPort()
{
    NS_LOG_FUNCTION_NOARGS();
    UintegerValue port;
    g_gradientPort.GetValue(port);
    return static_cast<uint16_t>(port.Get());
}

} // namespace ns3
