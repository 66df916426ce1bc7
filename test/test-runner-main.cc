/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test runner for the standalone build: ns3::TestRunner is exported from libns3-core, so this
 * main accepts the same flags as ns-3's test-runner (--suite=, --list, --verbose, ...).
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
