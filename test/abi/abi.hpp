// Shared by the translation units of the ABI test: the component types, the classes passed between units, the
// list of types whose layout must not depend on NDEBUG or on the assert macros, and the functions each unit
// defines (operations.hpp, compiled once per unit under that unit's macros).
#ifndef TESSERA_TEST_ABI_ABI_HPP
#define TESSERA_TEST_ABI_ABI_HPP

#include <array>
#include <cstddef>
#include <tessera/tessera.hpp>
#include <type_traits>
#include <utility>

namespace tessera_abi {

struct position {
    int x{};
    int y{};
};

struct velocity {
    int dx{};
    int dy{};
};

struct tag {};

/// In-place deletion: its views take the hole-skipping iterators.
struct stable {
    static constexpr bool in_place_delete = true;
    int value{};
};

using registry = tessera::registry;
/// The multi-type view the units pass around.
using pair_view = decltype(std::declval<registry &>().view<position, velocity>(tessera::exclude<tag>));
/// A single-type view over a swap-and-pop pool, and one over an in-place pool.
using single_view = decltype(std::declval<registry &>().view<position>());
using stable_view = decltype(std::declval<registry &>().view<stable>());
/// The owning group (position owned, velocity get) and a non-owning one.
using owning_group = decltype(std::declval<registry &>().group<position>(tessera::get<velocity>));
using plain_group = decltype(std::declval<registry &>().group<>(tessera::get<velocity, stable>));
using position_storage = tessera::storage_type_t<position>;

template<typename Iterable>
using each_iterator_t = decltype(std::declval<const Iterable &>().each().begin());

/// The types whose size and alignment every unit reports.
using checked_types =
    tessera::type_list<tessera::sparse_set, tessera::sparse_set::iterator, tessera::sparse_set::reverse_iterator,
                       tessera::storage<position>, tessera::storage<position>::iterator,
                       tessera::storage<position>::const_reverse_iterator, each_iterator_t<tessera::storage<position>>,
                       position_storage, tessera::storage_type_t<tag>, tessera::storage_type_t<stable>,
                       tessera::storage_type_t<tessera::entity>, registry, pair_view, pair_view::iterator,
                       each_iterator_t<pair_view>, single_view, single_view::iterator, each_iterator_t<single_view>,
                       stable_view::iterator, each_iterator_t<stable_view>, owning_group, owning_group::iterator,
                       each_iterator_t<owning_group>, plain_group, plain_group::iterator, each_iterator_t<plain_group>,
                       tessera::handle, tessera::runtime_view, tessera::runtime_view::iterator, tessera::any,
                       tessera::delegate<void(int)>, tessera::sigh<void(int)>>;

/// Names of checked_types, in order, for messages.
inline constexpr std::array type_names{"sparse_set",
                                       "sparse_set::iterator",
                                       "sparse_set::reverse_iterator",
                                       "storage<position>",
                                       "storage<position>::iterator",
                                       "storage<position>::const_reverse_iterator",
                                       "storage<position>::each() iterator",
                                       "storage_type_t<position>",
                                       "storage_type_t<tag>",
                                       "storage_type_t<stable>",
                                       "storage_type_t<entity>",
                                       "registry",
                                       "view<position, velocity>(exclude<tag>)",
                                       "its iterator",
                                       "its each() iterator",
                                       "view<position>",
                                       "its iterator",
                                       "its each() iterator",
                                       "view<stable>::iterator",
                                       "view<stable> each() iterator",
                                       "group<position>(get<velocity>)",
                                       "its iterator",
                                       "its each() iterator",
                                       "group<>(get<velocity, stable>)",
                                       "its iterator",
                                       "its each() iterator",
                                       "handle",
                                       "runtime_view",
                                       "runtime_view::iterator",
                                       "any",
                                       "delegate<void(int)>",
                                       "sigh<void(int)>"};

/// Size and alignment of one type, and the exception specifications that generic code reads (move_if_noexcept,
/// containers, algorithms): they must not depend on the assert macros either.
struct layout {
    std::size_t size;
    std::size_t align;
    bool nothrow_move;
    bool nothrow_copy;
    // false where the operation does not exist
    bool nothrow_increment;
    bool nothrow_decrement;

    friend constexpr bool operator==(const layout &, const layout &) = default;
};

/// The layout of one type as the including unit sees it.
template<typename Type>
constexpr layout layout_of() noexcept {
    layout out{sizeof(Type),
               alignof(Type),
               std::is_nothrow_move_constructible_v<Type>,
               std::is_nothrow_copy_constructible_v<Type>,
               false,
               false};

    if constexpr (requires(Type & value) { ++value; }) {
        out.nothrow_increment = noexcept(++std::declval<Type &>()) &&noexcept(std::declval<Type &>()++);
    }

    if constexpr (requires(Type & value) { --value; }) {
        out.nothrow_decrement = noexcept(--std::declval<Type &>()) &&noexcept(std::declval<Type &>()--);
    }

    return out;
}

/// The layouts of checked_types.
using layout_table = std::array<layout, checked_types::size>;

static_assert(type_names.size() == layout_table{}.size(), "abi test: one name per checked type");

/// The layouts of checked_types as the including unit sees them, at compile time.
template<typename... Type>
constexpr layout_table layouts_of(tessera::type_list<Type...>) noexcept {
    return {layout_of<Type>()...};
}

// What every unit defines (operations.hpp), each in a namespace of its own.
#define TESSERA_ABI_DECLARE_UNIT(unit)                                                                                 \
    namespace unit {                                                                                                   \
    /* the unit's macros, for messages: NDEBUG, TESSERA_ASSERT_ENABLED */                                              \
    const char *macros();                                                                                              \
    layout_table layouts();                                                                                            \
    void populate(registry &reg, int count);                                                                           \
    pair_view make_view(registry &reg);                                                                                \
    long long sum_each_callback(const pair_view &view);                                                                \
    long long sum_each_iterators(each_iterator_t<pair_view> first, each_iterator_t<pair_view> last);                   \
    long long sum_iterators(const pair_view &view, pair_view::iterator first, pair_view::iterator last);               \
    long long sum_group(const owning_group &group);                                                                    \
    long long sum_group_each(each_iterator_t<owning_group> first, each_iterator_t<owning_group> last);                 \
    long long sum_plain_group(const plain_group &group);                                                               \
    long long sum_storage(position_storage::iterator first, position_storage::iterator last);                          \
    long long count_set(tessera::sparse_set::iterator first, tessera::sparse_set::iterator last);                      \
    long long sum_stable(const stable_view &view);                                                                     \
    long long sum_handle(tessera::handle handle);                                                                      \
    void drop_velocity_of_multiples(registry &reg, int divisor);                                                       \
    void tag_while_iterating(registry &reg, int divisor);                                                              \
    }

TESSERA_ABI_DECLARE_UNIT(checked)
TESSERA_ABI_DECLARE_UNIT(release)
TESSERA_ABI_DECLARE_UNIT(disabled)
TESSERA_ABI_DECLARE_UNIT(always_on)

} // namespace tessera_abi

#endif
