// The iterator behind registry::storage(): it walks the registry's table of pools and yields (name, pool &)
// pairs, so that a loop over every pool needs neither the table's layout nor the pools' own types.
#ifndef TESSERA_ENTITY_TABLES_POOL_ITERATOR_HPP
#define TESSERA_ENTITY_TABLES_POOL_ITERATOR_HPP

#include "../../config/std_parts.hpp"
#include "../../core/fwd.hpp"
#include "../../core/iterator.hpp"
#include <compare>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tessera::internal {

/// Iterator over the (name, pool) pairs of a registry. Pairs are returned by value. Random access, like the
/// vector of pools it walks; an iterator over writable pools converts to one over read-only pools.
template<typename It, typename Common>
class registry_storage_iterator final {
    template<typename, typename>
    friend class registry_storage_iterator;

public:
    using value_type = std::pair<id_type, Common &>;
    using pointer = input_iterator_pointer<value_type>;
    using reference = value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;

    constexpr registry_storage_iterator() noexcept = default;

    constexpr registry_storage_iterator(It iter) noexcept : it{iter} {}

    /// Converts an iterator over writable pools into one over read-only pools.
    template<typename Other>
    requires(!std::is_same_v<Other, Common> && std::is_same_v<const Other, Common>) constexpr registry_storage_iterator(
        const registry_storage_iterator<It, Other> &other) noexcept
        : it{other.it} {}

    constexpr registry_storage_iterator &operator++() noexcept { return ++it, *this; }

    constexpr registry_storage_iterator operator++(int) noexcept {
        registry_storage_iterator before = *this;
        ++*this;
        return before;
    }

    constexpr registry_storage_iterator &operator--() noexcept { return --it, *this; }

    constexpr registry_storage_iterator operator--(int) noexcept {
        registry_storage_iterator before = *this;
        --*this;
        return before;
    }

    constexpr registry_storage_iterator &operator+=(const difference_type value) noexcept {
        it += value;
        return *this;
    }

    constexpr registry_storage_iterator &operator-=(const difference_type value) noexcept {
        it -= value;
        return *this;
    }

    [[nodiscard]] constexpr registry_storage_iterator operator+(const difference_type value) const noexcept {
        return registry_storage_iterator{it + value};
    }

    [[nodiscard]] friend constexpr registry_storage_iterator operator+(const difference_type value,
                                                                       const registry_storage_iterator &iter) noexcept {
        return iter + value;
    }

    [[nodiscard]] constexpr registry_storage_iterator operator-(const difference_type value) const noexcept {
        return registry_storage_iterator{it - value};
    }

    [[nodiscard]] constexpr reference operator[](const difference_type value) const noexcept {
        return {it[value].first, *it[value].second};
    }

    [[nodiscard]] constexpr reference operator*() const noexcept { return operator[](0); }

    [[nodiscard]] constexpr pointer operator->() const noexcept { return operator*(); }

    /// Distance between two iterators of the same registry, whatever the constness of their pools.
    template<typename Other>
    [[nodiscard]] constexpr difference_type
    operator-(const registry_storage_iterator<It, Other> &other) const noexcept {
        return it - other.it;
    }

    /// Equal when they designate the same pool, whatever the constness of their pools.
    template<typename Other>
    [[nodiscard]] constexpr bool operator==(const registry_storage_iterator<It, Other> &other) const noexcept {
        return it == other.it;
    }

    /// Ordered as the pools they designate.
    template<typename Other>
    [[nodiscard]] constexpr auto operator<=>(const registry_storage_iterator<It, Other> &other) const noexcept {
        return it <=> other.it;
    }

private:
    It it{};
};

} // namespace tessera::internal

#endif
