/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_CSV_H
#define TRAINING_CSV_H

#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The one place where the module's CSV writers turn text into a CSV field.
 *
 * Island names, city codes, schedule labels and other user-given text may hold the field
 * separator: written as they are, they would shift the columns of their row.
 */
class TrainingCsv
{
  public:
    /**
     * \brief Text as one CSV field, per RFC 4180: enclosed in double quotes, with every
     *        double quote doubled, when it holds a comma, a double quote, CR or LF; else as is.
     * \param text the field's text \return the field as written in a CSV file
     */
    static std::string Field(const std::string& text);
};

} // namespace ns3

#endif /* TRAINING_CSV_H */
