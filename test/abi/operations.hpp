// The operations of one translation unit of the ABI test: included once per unit, after the unit has set its
// macros (NDEBUG, TESSERA_DISABLE_ASSERT, TESSERA_ASSERT_ALWAYS_ON) and named its namespace TESSERA_ABI_UNIT. The
// bodies are the same in every unit; what differs is how each unit compiled the tessera classes they use.
#include "abi.hpp"

#ifndef TESSERA_ABI_UNIT
#    error "define TESSERA_ABI_UNIT to the unit's namespace before including operations.hpp"
#endif

#define TESSERA_ABI_STRING_OF(value) #value
#define TESSERA_ABI_STRING(value) TESSERA_ABI_STRING_OF(value)

namespace tessera_abi::TESSERA_ABI_UNIT {

const char *macros() {
#ifdef NDEBUG
    return TESSERA_ABI_STRING(TESSERA_ABI_UNIT) ": NDEBUG, TESSERA_ASSERT_ENABLED " TESSERA_ABI_STRING(
        TESSERA_ASSERT_ENABLED) ", TESSERA_DEBUG_ITERATION " TESSERA_ABI_STRING(TESSERA_DEBUG_ITERATION);
#else
    return TESSERA_ABI_STRING(TESSERA_ABI_UNIT) ": no NDEBUG, TESSERA_ASSERT_ENABLED " TESSERA_ABI_STRING(
        TESSERA_ASSERT_ENABLED) ", TESSERA_DEBUG_ITERATION " TESSERA_ABI_STRING(TESSERA_DEBUG_ITERATION);
#endif
}

layout_table layouts() {
    // a constant of this unit: the comparison across units is the test's
    constexpr auto table = layouts_of(checked_types{});
    return table;
}

void populate(registry &reg, const int count) {
    for (int value{}; value < count; ++value) {
        const auto entt = reg.create();
        reg.emplace<position>(entt, value, -value);
        reg.emplace<stable>(entt, value);

        if (value % 2 == 0) {
            reg.emplace<velocity>(entt, value, 1);
        }

        if (value % 3 == 0) {
            reg.emplace<tag>(entt);
        }
    }
}

pair_view make_view(registry &reg) { return reg.view<position, velocity>(tessera::exclude<tag>); }

long long sum_each_callback(const pair_view &view) {
    long long sum{};
    view.each([&sum](const position &pos, const velocity &) { sum += pos.x; });
    return sum;
}

long long sum_each_iterators(each_iterator_t<pair_view> first, const each_iterator_t<pair_view> last) {
    long long sum{};

    while (first != last) {
        // a copy, and the post-increment that hands one back
        const auto previous = first++;
        sum += std::get<1>(*previous).x;
    }

    return sum;
}

long long sum_iterators(const pair_view &view, pair_view::iterator first, const pair_view::iterator last) {
    long long sum{};

    for (; first != last; ++first) {
        sum += view.get<position>(*first).x;
    }

    return sum;
}

long long sum_group(const owning_group &group) {
    long long sum{};
    group.each([&sum](const position &, const velocity &vel) { sum += vel.dx; });
    return sum;
}

long long sum_group_each(each_iterator_t<owning_group> first, const each_iterator_t<owning_group> last) {
    long long sum{};

    for (; first != last; ++first) {
        sum += std::get<1>(*first).x;
    }

    return sum;
}

long long sum_plain_group(const plain_group &group) {
    long long sum{};

    for (const auto entt : group) {
        sum += group.get<stable>(entt).value;
    }

    return sum;
}

long long sum_storage(position_storage::iterator first, const position_storage::iterator last) {
    long long sum{};

    for (; first != last; ++first) {
        sum += first->x;
    }

    return sum;
}

long long count_set(tessera::sparse_set::iterator first, const tessera::sparse_set::iterator last) {
    long long count{};

    for (; first != last; first++) {
        ++count;
    }

    return count;
}

long long sum_stable(const stable_view &view) {
    long long sum{};

    for (const auto &elem : view.each()) {
        sum += std::get<1>(elem).value;
    }

    return sum;
}

long long sum_handle(const tessera::handle handle) {
    long long sum{};

    if (const auto *pos = handle.try_get<position>(); pos) {
        sum += pos->x;
    }

    // one thousand per pool the entity is in
    for (auto it = handle.storage().begin(), last = handle.storage().end(); it != last; ++it) {
        sum += 1000;
    }

    return sum;
}

void drop_velocity_of_multiples(registry &reg, const int divisor) {
    // removing the current entity's component while iterating is allowed (docs/thread_safety.md, iteration rule 2)
    for (auto [entt, pos, vel] : reg.view<position, velocity>().each()) {
        if (pos.x % divisor == 0) {
            reg.remove<velocity>(entt);
        }
    }
}

void tag_while_iterating(registry &reg, const int divisor) {
    // adding while iterating is allowed (iteration rule 1)
    for (const auto entt : reg.view<position>()) {
        if (reg.get<position>(entt).x % divisor == 0) {
            reg.emplace_or_replace<tag>(entt);
        }
    }
}

} // namespace tessera_abi::TESSERA_ABI_UNIT
