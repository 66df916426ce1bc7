/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest units for WanTopologyGenerator.
 */

#include "ns3/wan-topology-generator.h"
#include "ns3/wan-topology.h"

#include <gtest/gtest.h>

using ns3::WanTopology;
using ns3::WanTopologyGenerator;
using ns3::WanTopologyGeneratorParams;

TEST(WanTopologyGenerator, EveryFamilyValidates)
{
    for (const auto& family : WanTopologyGenerator::Families())
    {
        for (uint32_t cities : {2U, 3U, 16U, 256U})
        {
            WanTopologyGeneratorParams params;
            params.family = family;
            params.cities = cities;
            const WanTopology t = WanTopologyGenerator::Generate(params);
            EXPECT_EQ(t.GetCities().size(), cities) << family;
            EXPECT_NO_THROW(t.Validate());
            EXPECT_NO_THROW(WanTopology::Parse(t.ToJson(), family));
        }
    }
}
