// The iterators of storages: the element iterator over a paged storage, and the extended iterator that walks
// identifiers and elements in lockstep for each() and reach().
#ifndef TESSERA_ENTITY_STORAGES_ITERATORS_HPP
#define TESSERA_ENTITY_STORAGES_ITERATORS_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../../core/type_traits.hpp"
#include "../checks/iteration_log.hpp"
#include "../entity.hpp"
#include "../sparse_set.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

namespace internal {

/// Random-access iterator over the elements of a paged storage, in the same order as the sparse set iterator.
/// With TESSERA_DEBUG_ITERATION, iterators handed out by a storage check the iteration rules when they step.
template<typename Container, std::size_t PageSize>
class storage_iterator final
    : public packed_iterator_base<storage_iterator<Container, PageSize>, Container *, std::ptrdiff_t> {
    template<typename, std::size_t>
    friend class storage_iterator;

    using base_type = packed_iterator_base<storage_iterator<Container, PageSize>, Container *, std::ptrdiff_t>;
    friend base_type;

    using container_type = std::remove_const_t<Container>;
    using page_pointer = typename container_type::value_type;
    using element_type = std::remove_pointer_t<page_pointer>;

    static constexpr const char *forward_name = "storage iterator";
    static constexpr const char *backward_name = "storage iterator (reverse)";

public:
    using value_type = element_type;
    using pointer = constness_as_t<element_type, Container> *;
    using reference = constness_as_t<element_type, Container> &;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::random_access_iterator_tag;

    constexpr storage_iterator() noexcept = default;

    constexpr storage_iterator(Container *ref, const difference_type idx) noexcept : base_type{ref, idx} {}

#if TESSERA_DEBUG_ITERATION
    /// TESSERA_DEBUG_ITERATION only: an iterator that checks the iteration rules against the log of its storage.
    storage_iterator(Container *ref, const difference_type idx, const iteration_log *log) noexcept
        : base_type{ref, idx, log} {}

    /// Converts a mutable iterator into a constant one.
    template<typename Other>
    requires(!std::is_same_v<Other, Container> && std::is_same_v<const Other, Container>) constexpr storage_iterator(
        const storage_iterator<Other, PageSize> &other) noexcept
        : base_type{other.array, other.offset, other.mark} {}
#else
    /// Converts a mutable iterator into a constant one.
    template<typename Other>
    requires(!std::is_same_v<Other, Container> && std::is_same_v<const Other, Container>) constexpr storage_iterator(
        const storage_iterator<Other, PageSize> &other) noexcept
        : base_type{other.array, other.offset} {}
#endif

    [[nodiscard]] constexpr reference operator[](const difference_type value) const noexcept {
        const auto pos = static_cast<std::size_t>(this->index() - value);
        return (*this->array)[pos / PageSize][fast_mod(pos, PageSize)];
    }

    [[nodiscard]] constexpr pointer operator->() const noexcept { return std::addressof(operator[](0)); }

    [[nodiscard]] constexpr reference operator*() const noexcept { return operator[](0); }
};

/// Walks an identifier iterator and element iterators in lockstep, yielding (entity, elements...) tuples by
/// value. With SkipHoles, positions that hold a tombstone (in-place holes) are stepped over.
template<bool SkipHoles, typename It, typename... Other>
class extended_storage_iterator final {
    template<bool, typename, typename...>
    friend class extended_storage_iterator;

    constexpr void skip_holes() {
        if constexpr (SkipHoles) {
            while (std::get<0>(it) != last && *std::get<0>(it) == tombstone) {
                std::apply([](auto &...curr) { (++curr, ...); }, it);
            }
        }
    }

public:
    using iterator_type = It;
    using value_type = decltype(std::tuple_cat(std::make_tuple(*std::declval<It>()),
                                               std::forward_as_tuple(*std::declval<Other>()...)));
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    constexpr extended_storage_iterator() = default;

    constexpr extended_storage_iterator(It base, It sentinel, Other... other) : it{base, other...}, last{sentinel} {
        skip_holes();
    }

    /// Converts an iterator over writable elements into one over read-only elements.
    template<typename... Args>
    requires(sizeof...(Args) == sizeof...(Other) && !std::is_same_v<std::tuple<Args...>, std::tuple<Other...>> &&
             (std::is_convertible_v<const Args &, Other> &&
              ...)) constexpr extended_storage_iterator(const extended_storage_iterator<SkipHoles, It, Args...> &other)
        : it{std::apply([](const auto &...curr) { return std::tuple<It, Other...>{curr...}; }, other.it)},
          last{other.last} {}

    constexpr extended_storage_iterator &operator++() {
        std::apply([](auto &...curr) { (++curr, ...); }, it);
        skip_holes();
        return *this;
    }

    constexpr extended_storage_iterator operator++(int) {
        extended_storage_iterator before = *this;
        ++*this;
        return before;
    }

    [[nodiscard]] constexpr reference operator*() const noexcept {
        return std::apply([](auto &first, auto &...other) { return reference{*first, *other...}; }, it);
    }

    [[nodiscard]] constexpr pointer operator->() const noexcept { return operator*(); }

    /// The identifier iterator.
    [[nodiscard]] constexpr iterator_type base() const noexcept { return std::get<0>(it); }

    template<typename... Args>
    [[nodiscard]] friend constexpr bool
    operator==(const extended_storage_iterator &lhs,
               const extended_storage_iterator<SkipHoles, It, Args...> &rhs) noexcept {
        return std::get<0>(lhs.it) == rhs.base();
    }

private:
    std::tuple<It, Other...> it{};
    It last{};
};

/// Builds an extended iterator, deducing its parameters.
template<bool SkipHoles, typename It, typename... Other>
[[nodiscard]] constexpr auto make_extended_storage_iterator(It base, It sentinel, Other... other) {
    return extended_storage_iterator<SkipHoles, It, Other...>{base, sentinel, other...};
}

} // namespace internal

} // namespace tessera

#endif
