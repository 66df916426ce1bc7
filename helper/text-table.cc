/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "text-table.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

void
TextTable::AddColumn(const std::string& header, uint32_t minWidth, Align align)
{
    m_columns.push_back({header, minWidth, align});
}

void
TextTable::AddRow(const std::vector<std::string>& cells)
{
    if (cells.size() != m_columns.size())
    {
        throw std::invalid_argument("TextTable: a row of " + std::to_string(cells.size()) +
                                    " cells in a table of " + std::to_string(m_columns.size()) +
                                    " columns");
    }
    m_rows.push_back(cells);
}

uint32_t
TextTable::GetWidth(uint32_t column) const
{
    const Column& c = m_columns.at(column);
    // One space more than the longest cell keeps it apart from its neighbour on either side.
    std::size_t longest = c.header.size();
    for (const std::vector<std::string>& row : m_rows)
    {
        longest = std::max(longest, row[column].size());
    }
    return std::max<uint32_t>(c.minWidth, longest + 1);
}

std::string
TextTable::FormatHeader() const
{
    std::vector<std::string> headers;
    for (const Column& c : m_columns)
    {
        headers.push_back(c.header);
    }
    return FormatCells(headers);
}

std::string
TextTable::FormatRow(uint32_t row) const
{
    return FormatCells(m_rows.at(row));
}

std::string
TextTable::FormatCells(const std::vector<std::string>& cells) const
{
    std::ostringstream os;
    for (uint32_t c = 0; c < m_columns.size(); ++c)
    {
        os << (m_columns[c].align == LEFT ? std::left : std::right) << std::setw(GetWidth(c))
           << cells[c];
    }
    return os.str();
}

std::string
TextTable::Fixed(double value, int precision)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << value;
    return os.str();
}

} // namespace ns3
