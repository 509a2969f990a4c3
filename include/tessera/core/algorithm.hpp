// Sort function objects: the default one used by sparse sets and storages, one for nearly sorted data and a radix
// sort for integer keys.
#ifndef TESSERA_CORE_ALGORITHM_HPP
#define TESSERA_CORE_ALGORITHM_HPP

#include "../config/std_parts.hpp"
#include "fwd.hpp"
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

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

/// A stable least-significant-digit radix sort on an unsigned key of `Bits` bits taken from each element by a getter,
/// `Digit` bits per pass. It allocates a buffer as large as the range and needs random-access iterators over
/// move-constructible, move-assignable values. Keys are ordered as unsigned numbers (a negative key comes after
/// every non-negative one); passes on which every element has the same digit cost a counting pass and no move.
template<std::size_t Digit, std::size_t Bits>
struct radix_sort {
    static_assert(Digit > 0u && Digit < 32u, "radix_sort: sort 1 to 31 bits per pass");
    static_assert(Bits % Digit == 0u, "radix_sort: the number of key bits must be a multiple of the bits per pass");
    static_assert(Bits <= 64u, "radix_sort: keys have at most 64 bits");

    /// Sorts `[first, last)` by `getter(element)`, an integer (the element itself by default).
    template<typename It, typename Getter = std::identity>
    void operator()(It first, It last, Getter getter = Getter{}) const {
        static_assert(std::random_access_iterator<It>, "radix_sort: the range needs random-access iterators");
        using value_type = typename std::iterator_traits<It>::value_type;
        using key_type = std::remove_cvref_t<std::invoke_result_t<Getter &, const value_type &>>;
        static_assert(std::integral<key_type> || std::is_enum_v<key_type>,
                      "radix_sort: the getter must return an integer (or an enum) for each element");

        const auto count = static_cast<std::size_t>(last - first);
        if (count < 2u) {
            return;
        }

        constexpr std::size_t buckets = std::size_t{1u} << Digit;
        const auto digit_of = [&getter](const value_type &value, const std::size_t shift) {
            const auto key = static_cast<std::uint64_t>(tessera::internal::invoke(getter, value));
            return static_cast<std::size_t>((key >> shift) & (buckets - 1u));
        };

        // The elements start in the buffer and travel between it and the range, one way per useful pass.
        std::vector<value_type> buffer(std::make_move_iterator(first), std::make_move_iterator(last));
        std::vector<std::size_t> offset(buckets);
        bool in_buffer = true;

        const auto distribute = [&](const auto from, const auto into, const std::size_t shift) {
            const auto end = std::next(from, static_cast<std::iter_difference_t<decltype(from)>>(count));
            std::fill(offset.begin(), offset.end(), std::size_t{});
            for (auto it = from; it != end; ++it) {
                ++offset[digit_of(*it, shift)];
            }
            if (std::find(offset.begin(), offset.end(), count) != offset.end()) {
                // One digit for every element: the order already holds for this pass.
                return false;
            }
            std::size_t running{};
            for (auto &slot : offset) {
                running += std::exchange(slot, running);
            }
            for (auto it = from; it != end; ++it) {
                const auto target = offset[digit_of(*it, shift)]++;
                *std::next(into, static_cast<std::iter_difference_t<decltype(into)>>(target)) = std::move(*it);
            }
            return true;
        };

        for (std::size_t shift{}; shift < Bits; shift += Digit) {
            if (in_buffer ? distribute(buffer.begin(), first, shift) : distribute(first, buffer.begin(), shift)) {
                in_buffer = !in_buffer;
            }
        }

        if (in_buffer) {
            std::move(buffer.begin(), buffer.end(), first);
        }
    }
};

} // namespace tessera

#endif
