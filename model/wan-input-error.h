/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_INPUT_ERROR_H
#define WAN_INPUT_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Error raised for an invalid input: a topology or schedule file, a capability set, a
 *        generator parameter or an override.
 *
 * The message names the source (file), the field and the offending value, in the form
 * "source: field: value: problem" (see doc/input-rules.rst). Examples catch it and exit
 * non-zero; nothing in the module aborts on bad input.
 */
class WanInputError : public std::runtime_error
{
  public:
    /** \param message the complete, user-facing message */
    explicit WanInputError(const std::string& message)
        : std::runtime_error(message)
    {
    }
};

/** \ingroup wan-training \brief The name topology code has always used for WanInputError. */
using WanTopologyError = WanInputError;

} // namespace ns3

#endif /* WAN_INPUT_ERROR_H */
