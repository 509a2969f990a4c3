// Sort function objects: the default one used by sparse sets and storages, and one for nearly sorted data.
#ifndef TESSERA_CORE_ALGORITHM_HPP
#define TESSERA_CORE_ALGORITHM_HPP

#include "fwd.hpp"
#include <algorithm>
#include <functional>
#include <iterator>
#include <utility>

namespace tessera {

/// Sorts with `std::sort`. Extra arguments, such as an execution policy, are passed in front of the range.
struct std_sort {
    /// Sorts `[first, last)` with `compare`.
    template<typename It, typename Compare = std::less<>, typename... Args>
    void operator()(It first, It last, Compare compare = Compare{}, Args &&...args) const {
        std::sort(std::forward<Args>(args)..., std::move(first), std::move(last), std::move(compare));
    }
};

/// A stable insertion sort: quadratic in general, close to linear on nearly sorted data.
struct insertion_sort {
    /// Sorts `[first, last)` with `compare`; equal elements keep their order.
    template<typename It, typename Compare = std::less<>>
    void operator()(It first, It last, Compare compare = Compare{}) const {
        static_assert(std::bidirectional_iterator<It>, "insertion_sort: the range needs bidirectional iterators");
        if (first == last) {
            return;
        }
        for (auto it = std::next(first); it != last; ++it) {
            auto value = std::move(*it);
            auto hole = it;
            // Only strictly smaller elements move past larger ones: this is what keeps the sort stable.
            for (auto prev = std::prev(hole); compare(value, *prev); --prev) {
                *hole = std::move(*prev);
                hole = prev;
                if (prev == first) {
                    break;
                }
            }
            *hole = std::move(value);
        }
    }
};

} // namespace tessera

#endif
