// The entity storage, basic_storage<Entity, Entity>: it generates, recycles and releases identifiers, and gives
// memory back (shrink_to_fit). Included by storage.hpp; include that header rather than this one.
#ifndef TESSERA_ENTITY_STORAGES_ENTITY_STORAGE_HPP
#define TESSERA_ENTITY_STORAGES_ENTITY_STORAGE_HPP

#include "../../config/config.hpp"
#include "../../config/std_parts.hpp"
#include "../../core/iterator.hpp"
#include "../../core/type_info.hpp"
#include "../checks/race_guard.hpp"
#include "../entity.hpp"
#include "../fwd.hpp"
#include "../sparse_set.hpp"
#include "iterators.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessera {

/// The entity storage: generates, recycles and releases identifiers. In-use identifiers occupy packed positions
/// [0, free_list()); released ones follow, each already carrying its next version.
template<typename Entity, typename Allocator>
class basic_storage<Entity, Entity, Allocator> : public basic_sparse_set<Entity, Allocator> {
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(std::is_same_v<typename alloc_traits::value_type, Entity>, "basic_storage: invalid allocator");
    using underlying_type = basic_sparse_set<Entity, Allocator>;
    using underlying_iterator = typename underlying_type::basic_iterator;
    using traits_type = entt_traits<Entity>;
    using version_type = typename traits_type::version_type;

    [[nodiscard]] Entity fresh() {
        // the index entity_mask is null's: the cursor stops there, so that the walk ends even when every index
        // below it is in use
        for (; cursor < traits_type::entity_mask && underlying_type::has_index(traits_type::construct(
                                                        static_cast<typename traits_type::entity_type>(cursor), {}));
             ++cursor) {
        }

        if (cursor >= traits_type::entity_mask) [[unlikely]] {
            exhausted();
        }

        // an index shrink_to_fit forgot comes back above every version it had (see shrink_to_fit)
        const auto version = cursor < revived_end ? revived_version : version_type{};
        return traits_type::construct(static_cast<typename traits_type::entity_type>(cursor++), version);
    }

    // Every index is handed out: a misuse, and an exception without assertions (nothing has changed), rather than
    // an identifier that aliases null or another entity.
    [[noreturn]] static void exhausted() {
        TESSERA_ASSERT(false, "entity storage: no identifiers left to generate (a wider identifier type has more)");
        tessera::internal::throw_length_error("entity storage: no identifiers left to generate");
    }

    [[nodiscard]] bool in_use(const Entity entt) const {
        return underlying_type::contains(entt) && (underlying_type::index(entt) < underlying_type::free_list());
    }

protected:
    /// Forgets every identifier and restarts generation at index 0.
    void pop_all() override {
        underlying_type::pop_all();
        cursor = 0u;
        revived_end = 0u;
        revived_version = {};
    }

    /// Any push means generate(hint).
    underlying_iterator try_emplace(const Entity hint, const bool, const void *) override {
        return underlying_type::find(generate(hint));
    }

public:
    /// Allocator type.
    using allocator_type = Allocator;
    /// The common base class.
    using base_type = underlying_type;
    /// Element type.
    using element_type = Entity;
    /// No instances are stored.
    using value_type = void;
    /// Identifier type.
    using entity_type = Entity;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// Signed integer type.
    using difference_type = std::ptrdiff_t;
    /// Iterable of (entity) tuples over the identifiers in use.
    using iterable = iterable_adaptor<internal::extended_storage_iterator<false, typename base_type::iterator>>;
    /// Same as iterable.
    using const_iterable = iterable;
    /// Reverse iterable of (entity) tuples over the identifiers in use.
    using reverse_iterable =
        iterable_adaptor<internal::extended_storage_iterator<false, typename base_type::reverse_iterator>>;
    /// Same as reverse_iterable.
    using const_reverse_iterable = reverse_iterable;
    /// The deletion policy of the entity storage.
    static constexpr deletion_policy storage_policy = deletion_policy::swap_only;

    /// Default constructor.
    basic_storage() : basic_storage{allocator_type{}} {}

    /// Constructs an empty storage with the given allocator.
    explicit basic_storage(const allocator_type &allocator) : base_type{type_id<void>(), storage_policy, allocator} {}

    basic_storage(const basic_storage &) = delete;

    /// Move constructor: the source is left empty.
    basic_storage(basic_storage &&other) noexcept
        : base_type{std::move(other)}, cursor{std::exchange(other.cursor, size_type{})},
          revived_end{std::exchange(other.revived_end, size_type{})}, revived_version{std::exchange(
                                                                          other.revived_version, version_type{})} {}

    /// Allocator-extended move constructor: the identifiers are copied when the allocators cannot share memory.
    basic_storage(basic_storage &&other, const allocator_type &allocator)
        : base_type{std::move(other), allocator}, cursor{std::exchange(other.cursor, size_type{})},
          revived_end{std::exchange(other.revived_end, size_type{})}, revived_version{std::exchange(
                                                                          other.revived_version, version_type{})} {}

    basic_storage &operator=(const basic_storage &) = delete;

    /// Move assignment: the source is left empty. noexcept unless the allocators may have to copy.
    // noexcept only when it cannot fail: it copies, and may throw, when the allocators cannot share memory
    // NOLINTNEXTLINE(bugprone-exception-escape)
    basic_storage &operator=(basic_storage &&other) noexcept(std::is_nothrow_move_assignable_v<base_type>) {
        if (this != &other) {
            base_type::operator=(std::move(other));
            cursor = std::exchange(other.cursor, size_type{});
            revived_end = std::exchange(other.revived_end, size_type{});
            revived_version = std::exchange(other.revived_version, version_type{});
        }

        return *this;
    }

    /// Exchanges the contents with another storage.
    void swap(basic_storage &other) noexcept {
        base_type::swap(other);
        std::swap(cursor, other.cursor);
        std::swap(revived_end, other.revived_end);
        std::swap(revived_version, other.revived_version);
    }

    /// The allocator.
    [[nodiscard]] constexpr allocator_type get_allocator() const noexcept { return base_type::get_allocator(); }

    /// Checks that the identifier is in use; there is nothing to return.
    void get([[maybe_unused]] const entity_type entt) const {
        TESSERA_ASSERT(in_use(entt), "entity storage: the identifier is not in use");
    }

    /// An empty tuple, after checking that the identifier is in use.
    [[nodiscard]] std::tuple<> get_as_tuple([[maybe_unused]] const entity_type entt) const {
        TESSERA_ASSERT(in_use(entt), "entity storage: the identifier is not in use");
        return std::tuple{};
    }

    /// A new identifier: the most recently released one if any (LIFO), otherwise a fresh index with version 0.
    entity_type generate() {
        TESSERA_RACE_WRITE(*this, "create");
        // The first released identifier sits right after the ones in use; none released means a fresh index.
        const auto in_use = base_type::free_list();
        entity_type candidate = in_use < base_type::size() ? base_type::data()[in_use] : fresh();
        return *base_type::template push_entity_as<deletion_policy::swap_only>(candidate, true);
    }

    /// Exactly `hint` if its index is free or released; otherwise (in use, null, tombstone) a new identifier.
    entity_type generate(const entity_type hint) {
        TESSERA_RACE_WRITE(*this, "create");
        if (hint != null && hint != tombstone) {
            const auto stored = traits_type::construct(traits_type::to_entity(hint), base_type::current(hint));

            if (!base_type::has_index(hint) || !(base_type::index(stored) < base_type::free_list())) {
                return *base_type::template push_entity_as<deletion_policy::swap_only>(hint, true);
            }
        }

        return generate();
    }

    /// Fills the range with new identifiers, released ones first (LIFO).
    template<typename It>
    void generate(It first, It last) {
        for (; first != last; ++first) {
            *first = generate();
        }
    }

    /// Calls each function with no arguments, after checking that the identifier is in use.
    template<typename... Func>
    void patch([[maybe_unused]] const entity_type entt, Func &&...func) {
        TESSERA_ASSERT(in_use(entt), "entity storage: patch of an identifier that is not in use");
        (std::forward<Func>(func)(), ...);
    }

    /// Iterable of (entity) tuples over the identifiers in use.
    [[nodiscard]] iterable each() const noexcept {
        const auto it = base_type::end() - static_cast<difference_type>(base_type::free_list());
        return {internal::make_extended_storage_iterator<false>(it, base_type::end()),
                internal::make_extended_storage_iterator<false>(base_type::end(), base_type::end())};
    }

    /// Iterable of (entity) tuples over the identifiers in use, from packed position 0 up.
    [[nodiscard]] reverse_iterable reach() const noexcept {
        const auto it = base_type::rbegin() + static_cast<difference_type>(base_type::free_list());
        return {internal::make_extended_storage_iterator<false>(base_type::rbegin(), it),
                internal::make_extended_storage_iterator<false>(it, it)};
    }

    /// Fresh identifiers start at the index of `hint` from now on; its version is ignored.
    void start_from(const entity_type hint) { cursor = static_cast<size_type>(traits_type::to_entity(hint)); }

    /// Releases unused memory: spare packed capacity, sparse pages that hold no identifier, and the released
    /// identifiers whose index is above every identifier in use. Those are forgotten, and their indices come back
    /// from generate() as fresh ones, after the released identifiers kept, with the highest version any of them
    /// carried: an identifier given out again never equals one that was destroyed before (short of the versions
    /// wrapping around, as with recycling). A released identifier below an identifier in use is kept, since it
    /// sits in a page that stays anyway. See docs/storages.md, "Giving memory back".
    void shrink_to_fit() override {
        TESSERA_RACE_WRITE(*this, "shrink_to_fit");
        const entity_type *const ids = base_type::data();
        size_type bound{};

        for (size_type pos{}; pos < base_type::free_list(); ++pos) {
            const auto idx = static_cast<size_type>(traits_type::to_entity(ids[pos]));
            bound = idx < bound ? bound : idx + 1u;
        }

        for (size_type pos = base_type::free_list(); pos < base_type::size(); ++pos) {
            if (const auto idx = static_cast<size_type>(traits_type::to_entity(ids[pos])); !(idx < bound)) {
                const auto version = traits_type::to_version(ids[pos]);
                revived_end = idx < revived_end ? revived_end : idx + 1u;
                revived_version = version < revived_version ? revived_version : version;
            }
        }

        base_type::forget_released_from(bound);
        cursor = bound < cursor ? bound : cursor;
        base_type::shrink_to_fit();
    }

private:
    size_type cursor{};
    // fresh indices below revived_end were forgotten by shrink_to_fit: they start at revived_version
    size_type revived_end{};
    version_type revived_version{};
};

} // namespace tessera

#endif
