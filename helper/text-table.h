/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TEXT_TABLE_H
#define TEXT_TABLE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A plain-text table whose columns stay apart and aligned for any content: each
 *        column is as wide as its least width, or as its longest cell (header included) plus
 *        one space, whichever is more.
 *
 * Fill it with AddColumn and AddRow, then print FormatHeader and FormatRow; a caller may print
 * lines of its own between rows. Where every cell is shorter than its column's least width,
 * the lines are those of std::setw with the same widths.
 */
class TextTable
{
  public:
    /** How a column's cells are aligned. */
    enum Align
    {
        LEFT, //!< padded on the right: text
        RIGHT //!< padded on the left: figures
    };

    /**
     * \brief Add a column, to the right of the others.
     * \param header its header \param minWidth its least width, in characters
     * \param align how its cells are aligned
     */
    void AddColumn(const std::string& header, uint32_t minWidth, Align align);
    /**
     * \brief Add a row.
     * \param cells one per column, in the columns' order
     * \throws std::invalid_argument if their number is not the number of columns
     */
    void AddRow(const std::vector<std::string>& cells);

    /** \param column a column \return its width: what its cells are padded to */
    uint32_t GetWidth(uint32_t column) const;
    /** \return the header line, without a newline */
    std::string FormatHeader() const;
    /** \param row a row \return its line, without a newline */
    std::string FormatRow(uint32_t row) const;

    /**
     * \param value a number \param precision digits after the point
     * \return \p value in fixed notation, e.g. "0.1234"
     */
    static std::string Fixed(double value, int precision);

  private:
    /** \param cells one per column \return them padded to the columns' widths */
    std::string FormatCells(const std::vector<std::string>& cells) const;

    /** A column's header, least width and alignment. */
    struct Column
    {
        std::string header; //!< header
        uint32_t minWidth;  //!< least width
        Align align;        //!< alignment
    };

    std::vector<Column> m_columns;                //!< left to right
    std::vector<std::vector<std::string>> m_rows; //!< top to bottom
};

} // namespace ns3

#endif /* TEXT_TABLE_H */
