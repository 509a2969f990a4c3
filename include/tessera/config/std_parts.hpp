// The parts of the standard library that tessera takes from <memory>, <algorithm>, <iterator>, <functional>, <ranges>
// and <stdexcept>: allocators and allocator_traits, addressof, construct_at and destroy_at, the uninitialized
// algorithms, to_address; sort, find_if and the other algorithms; reverse_iterator, the iterator tags, concepts and
// traits, next, prev and distance; the range concepts and enable_view; invoke; the std::length_error the entity
// storage throws.
//
// Why a header of its own: those headers cost more to compile than all of tessera's core together. With libstdc++
// (g++, and clang on Linux), <memory> also brings shared_ptr with the atomics under it and the glue of the parallel
// algorithms, <algorithm> the ranges algorithms and that glue again, <iterator> the stream iterators with the iostream
// machinery, <functional> std::function and the searchers, <stdexcept> std::string: together most of the time a unit
// that includes the registry took to compile (docs/benchmarks/README.md, compile times). libstdc++ declares everything
// the core uses from them in headers <vector> and <tuple> include (bits/allocator.h, bits/alloc_traits.h,
// bits/stl_construct.h, bits/stl_uninitialized.h, bits/stl_iterator.h, bits/stl_iterator_base_funcs.h,
// bits/iterator_concepts.h, bits/stl_algobase.h, bits/invoke.h, bits/functexcept.h), in bits/ranges_base.h (the range
// concepts, which <string_view> includes too) and in bits/stl_algo.h, which has held std::sort and the other
// algorithms of <algorithm> since the library's first release. Other standard
// libraries get the standard headers.
#ifndef TESSERA_CONFIG_STD_PARTS_HPP
#define TESSERA_CONFIG_STD_PARTS_HPP

#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__GLIBCXX__)
#    include <bits/ranges_base.h>
#    include <bits/stl_algo.h>
#else
#    include <algorithm>
#    include <functional>
#    include <iterator>
#    include <memory>
#    include <ranges>
#    include <stdexcept>
#endif

namespace tessera::internal {

/// std::invoke, which <functional> declares: a callable, a member function or a data member called with the rest.
template<typename Func, typename... Args>
constexpr decltype(auto) invoke(Func &&func, Args &&...args) noexcept(std::is_nothrow_invocable_v<Func, Args...>) {
#if defined(__GLIBCXX__)
    return std::__invoke(std::forward<Func>(func), std::forward<Args>(args)...);
#else
    return std::invoke(std::forward<Func>(func), std::forward<Args>(args)...);
#endif
}

/// Throws std::length_error with the message, which <stdexcept> declares with std::string.
[[noreturn]] inline void throw_length_error(const char *what) {
#if defined(__GLIBCXX__)
    std::__throw_length_error(what);
#else
    throw std::length_error{what};
#endif
}

} // namespace tessera::internal

#endif
