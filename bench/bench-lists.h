/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the benchmarks share: their comma-separated list flags.
 */

#ifndef WAN_TRAINING_BENCH_LISTS_H
#define WAN_TRAINING_BENCH_LISTS_H

#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \param text a comma-separated list (a benchmark flag such as --sets=none,both)
 * \return its non-empty items, in order
 */
inline std::vector<std::string>
SplitBenchList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

} // namespace ns3

#endif /* WAN_TRAINING_BENCH_LISTS_H */
