// Standard ranges support for the library's iterable objects: an iterable_adaptor is a borrowed range and a view.
// The two variables it specializes come from config/std_parts.hpp, which spares libstdc++ users <ranges> itself.
#ifndef TESSERA_CORE_RANGES_HPP
#define TESSERA_CORE_RANGES_HPP

#include "../config/std_parts.hpp"
#include "iterator.hpp"

namespace std::ranges {

/// The adaptor only holds two iterators into storage it does not own.
template<typename It, typename Sentinel>
inline constexpr bool enable_borrowed_range<tessera::iterable_adaptor<It, Sentinel>> = true;

/// The adaptor is cheap to copy, so it models std::ranges::view.
template<typename It, typename Sentinel>
inline constexpr bool enable_view<tessera::iterable_adaptor<It, Sentinel>> = true;

} // namespace std::ranges

#endif
