/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_COMPAT_H
#define WAN_TRAINING_COMPAT_H

/**
 * \file
 * \ingroup wan-training
 * The one place where the module bridges ns-3 API differences between the releases it supports
 * (3.37 to 3.48; see doc/building.rst). Everything else uses a form every release accepts:
 * - test durations and suite types: leave them at their defaults, `AddTestCase(new X)` and
 *   `TestSuite("name")` (both QUICK and UNIT on every release; the named constants moved from
 *   `TestCase::QUICK`/`TestSuite::UNIT` to `TestCase::Duration::QUICK`/`TestSuite::Type::UNIT`);
 * - events: `IsExpired()` and `!IsExpired()` (`IsRunning()` is gone in 3.46, `IsPending()` is
 *   missing in 3.37).
 *
 * The differences are detected from the API itself (overload resolution), not from a version
 * number: Debian's ns-3 packages do not install a version header.
 */

#include "ns3/attribute.h"
#include "ns3/callback.h"
#include "ns3/command-line.h"
#include "ns3/enum.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{
namespace wancompat
{

/// Overload rank: Rank<1> is preferred over Rank<0>.
template <int N>
struct Rank : Rank<N - 1>
{
};

/// Lowest overload rank.
template <>
struct Rank<0>
{
};

/**
 * ns-3 >= 3.41: `MakeEnumAccessor` takes the enum type as its first template argument.
 * \param member the member (or getter/setter) to access
 * \returns the accessor
 */
template <typename E, typename M>
auto
MakeEnumAccessorImpl(M member, Rank<1>) -> decltype(MakeEnumAccessor<E>(member))
{
    return MakeEnumAccessor<E>(member);
}

/**
 * ns-3 <= 3.40: `EnumValue` is not a template and `MakeEnumAccessor` deduces everything.
 * \param member the member (or getter/setter) to access
 * \returns the accessor
 */
template <typename E, typename M>
auto
MakeEnumAccessorImpl(M member, Rank<0>) -> decltype(MakeEnumAccessor(member))
{
    return MakeEnumAccessor(member);
}

/**
 * \param target a text flag's value \param value the value as typed
 * \return true (stored); the callback form of ns-3 >= 3.43 (const reference)
 */
inline bool
StoreTextByReference(std::string* target, const std::string& value)
{
    *target = value;
    return true;
}

/**
 * \param target a text flag's value \param value the value as typed
 * \return true (stored); the callback form of ns-3 3.37 (by value)
 */
inline bool
StoreTextByValue(std::string* target, std::string value)
{
    *target = value;
    return true;
}

/// `CommandLine::AddValue` of newer ns-3, with a callback taking `const std::string&`.
template <typename C>
using AddValueByReference = void (C::*)(const std::string&,
                                        const std::string&,
                                        Callback<bool, const std::string&>,
                                        const std::string&);

/**
 * Newer ns-3: `CommandLine::AddValue` takes a `Callback<bool, const std::string&>`. Detected
 * by the member's exact type, not by whether a call compiles: ns-3 3.37's Callback converts
 * from any other Callback at run time (a downcast UBSan rejects), so a call compiles there too.
 * \param cmd the command line \param name flag name \param help help text
 * \param value the target, holding its default
 */
template <typename C>
auto
AddTextImpl(C& cmd, const std::string& name, const std::string& help, std::string& value, Rank<1>)
    -> decltype(static_cast<AddValueByReference<C>>(&C::AddValue), void())
{
    cmd.AddValue(name, help, MakeBoundCallback(&StoreTextByReference, &value), value);
}

/**
 * ns-3 3.37: `CommandLine::AddValue` takes a `Callback<bool, std::string>`.
 * \param cmd the command line \param name flag name \param help help text
 * \param value the target, holding its default
 */
template <typename C>
void
AddTextImpl(C& cmd, const std::string& name, const std::string& help, std::string& value, Rank<0>)
{
    cmd.AddValue(name, help, MakeBoundCallback(&StoreTextByValue, &value), value);
}

} // namespace wancompat

/**
 * \ingroup wan-training
 * \brief Register a text flag whose value ns-3's CommandLine hands over whole, through a
 *        callback: a `std::string` target is read with `>>`, which stops at the first blank.
 *        The callback's argument is `std::string` in ns-3 3.37 and `const std::string&` later.
 * \param cmd the command line \param name flag name \param help help text
 * \param value the target, holding its default (kept by address)
 */
inline void
AddWholeTextValue(CommandLine& cmd,
                  const std::string& name,
                  const std::string& help,
                  std::string& value)
{
    wancompat::AddTextImpl(cmd, name, help, value, wancompat::Rank<1>{});
}

/**
 * \ingroup wan-training
 * `MakeEnumAccessor` for an attribute of enum type \p E, on every supported ns-3 release:
 * `MakeEnumAccessor<E>(member)` from ns-3 3.41 on, `MakeEnumAccessor(member)` before.
 * \tparam E the enum type
 * \param member the member (or getter/setter) to access
 * \returns the accessor
 */
template <typename E, typename M>
Ptr<const AttributeAccessor>
MakeWanEnumAccessor(M member)
{
    return wancompat::MakeEnumAccessorImpl<E>(member, wancompat::Rank<1>{});
}

} // namespace ns3

#endif /* WAN_TRAINING_COMPAT_H */
