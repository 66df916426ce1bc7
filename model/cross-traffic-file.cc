/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cross-traffic-file.h"

#include "wan-json-input.h"
#include "wan-topology-json.h"
#include "wan-topology.h"
#include "wan-units.h"

#include "ns3/log.h"
#include "ns3/nstime.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrossTrafficFile");

namespace
{

using Json = WanJsonInput::Json;

/** \param object a flow \return its protocol \throws WanInputError unless "tcp" or "udp" */
CrossTrafficFlow::Protocol
ReadProtocol(const WanJsonObject& object)
{
    NS_LOG_FUNCTION_NOARGS();
    const std::string name = object.String("protocol", true);
    for (const auto protocol : {CrossTrafficFlow::TCP, CrossTrafficFlow::UDP})
    {
        if (name == CrossTrafficFlow::ProtocolName(protocol))
        {
            return protocol;
        }
    }
    object.Fail("protocol", Json(name), "expected \"tcp\" or \"udp\"");
}

/**
 * \brief Read a flow's sending mode: exactly one of "rate" (OnOff at that rate) and
 *        "bulk": true (BulkSend, TCP only).
 * \param object the flow \param flow receives bulk and rateBps (protocol already read)
 */
void
ReadMode(const WanJsonObject& object, CrossTrafficFlow& flow)
{
    NS_LOG_FUNCTION_NOARGS();
    const bool hasRate = object.Has("rate");
    if (!object.Has("bulk"))
    {
        if (!hasRate)
        {
            throw WanInputError(object.Where("rate") +
                                ": missing required field (give a rate, or \"bulk\": true)");
        }
        flow.rateBps = object.Rate("rate", 0);
        return;
    }
    const Json& bulk = object.Require("bulk");
    if (!bulk.is_boolean() || !bulk.get<bool>())
    {
        object.Fail("bulk", bulk, "expected true (a flow without bulk gives a rate)");
    }
    if (hasRate)
    {
        object.Fail("bulk", bulk, "give either a rate or \"bulk\": true, not both");
    }
    if (flow.protocol != CrossTrafficFlow::TCP)
    {
        object.Fail("bulk",
                    bulk,
                    "a bulk flow needs protocol \"tcp\" (BulkSend writes as fast as a stream "
                    "socket takes it; a UDP flow gives a rate)");
    }
    flow.bulk = true;
}

} // namespace

const char*
CrossTrafficFlow::ProtocolName(Protocol protocol)
{
    return protocol == TCP ? "tcp" : "udp";
}

std::string
CrossTrafficFile::TimeProblem(double seconds)
{
    NS_LOG_FUNCTION(seconds);
    return WanUnits::DurationProblem(seconds,
                                     WanUnits::MAX_TIME_SECONDS,
                                     WanUnits::TOO_LARGE_FOR_TIME);
}

std::vector<CrossTrafficFlow>
CrossTrafficFile::Parse(const std::string& text,
                        const std::string& source,
                        const WanTopology& topology)
{
    NS_LOG_FUNCTION(source);
    const Json doc = WanJsonInput::Parse(text, source);
    const WanJsonObject root(doc, source, "", {"description", "flows"});
    root.String("description", false);
    const Json& list = root.Array("flows", true);
    if (list.empty())
    {
        root.Fail("flows", list, "expected a non-empty array of flows");
    }
    std::vector<CrossTrafficFlow> flows;
    for (std::size_t f = 0; f < list.size(); ++f)
    {
        const WanJsonObject object(list[f],
                                   source,
                                   WanJsonInput::Element("flows", f),
                                   {"from", "to", "protocol", "rate", "bulk", "start", "stop"});
        CrossTrafficFlow flow;
        flow.from = WanTopologyJson::CityField(object, "from", topology);
        flow.to = WanTopologyJson::CityField(object, "to", topology);
        if (flow.to == flow.from)
        {
            object.Fail("to",
                        Json(topology.GetCities()[flow.to].code),
                        "same city as from (a flow must cross the WAN)");
        }
        flow.protocol = ReadProtocol(object);
        ReadMode(object, flow);
        object.Require("start");
        object.Require("stop");
        flow.start = object.Seconds("start", 0, &CrossTrafficFile::TimeProblem);
        flow.stop = object.Seconds("stop", 0, &CrossTrafficFile::TimeProblem);
        // Compared as the simulator will run them: rounded to its time step (a stop that
        // rounds to 0 would mean "never" to ns-3's applications).
        if (Seconds(flow.stop) <= Seconds(flow.start))
        {
            object.Fail("stop",
                        object.Require("stop"),
                        "must be after start (" + WanUnits::FormatNumber(flow.start) +
                            " s) by at least the simulator's time step (" +
                            WanUnits::FormatNumber(Time::From(1).GetSeconds()) + " s)");
        }
        flows.push_back(flow);
    }
    return flows;
}

std::vector<CrossTrafficFlow>
CrossTrafficFile::LoadFile(const std::string& path, const WanTopology& topology)
{
    NS_LOG_FUNCTION(path);
    return Parse(WanJsonInput::ReadFile(path, "cross-traffic file"), path, topology);
}

} // namespace ns3
