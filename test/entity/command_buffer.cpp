// Tests of command_buffer.hpp: recording without touching the registry, provisional identifiers and their mapping
// inside values, every command and its signals in recorded order, the rules for invalid entities and repeated
// commands, named pools, empty types, reactive and custom storages, memory reuse without allocation per command,
// exception safety of recording and of apply, listeners that record during apply, and threads.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include <array>
#include <cstddef>
#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <tessera/core/hashed_string.hpp>
#include <tessera/entity/command_buffer.hpp>
#include <tessera/entity/entity.hpp>
#include <tessera/entity/group.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/storage.hpp>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace tessera::literals;
using traits = tessera::entt_traits<tessera::entity>;
const tessera::entity null_entity = tessera::null;

struct position {
    int x;
    int y;
};

struct velocity {
    int dx;
};

struct tag {};

struct stable {
    static constexpr bool in_place_delete = true;
    int value;
};

/// Not an aggregate: built with parentheses.
class label {
public:
    explicit label(std::string value) : text{std::move(value)} {}

    [[nodiscard]] const std::string &get() const { return text; }

private:
    std::string text;
};

/// Holds identifiers in every shape entity_members accepts.
struct link {
    tessera::entity who{};
    int weight{};
    static constexpr auto entity_members = std::tuple{&link::who};
};

struct links {
    std::vector<tessera::entity> targets;
    link best{};
    std::vector<link> others;
    static constexpr auto entity_members = std::tuple{&links::targets, &links::best, &links::others};
};

/// An identifier in a type that does not list it: left as it is.
struct unlisted {
    tessera::entity who{};
};

/// Counts the instances alive, to check that the buffer destroys every value it holds.
struct counted {
    static inline int alive = 0;
    int value{};

    counted(const int init = 0) : value{init} { ++alive; }
    counted(const counted &other) : value{other.value} { ++alive; }
    counted(counted &&other) noexcept : value{other.value} { ++alive; }
    counted &operator=(const counted &) = default;
    counted &operator=(counted &&) noexcept = default;
    ~counted() { --alive; }
};

/// Throws from its move constructor once armed: it can be recorded, and fails when apply moves it into its pool.
struct fragile {
    static inline bool armed = false;
    std::string text{"payload that lives on the heap, long enough"};

    fragile() = default;
    fragile(const fragile &) = default;
    // throwing from a move constructor is what this type is for
    // NOLINTNEXTLINE(bugprone-exception-escape)
    fragile(fragile &&other) : text{std::move(other.text)} {
        if (armed) {
            throw std::runtime_error{"fragile"};
        }
    }
    fragile &operator=(const fragile &) = default;
    fragile &operator=(fragile &&) = default;
    ~fragile() = default;
};

/// Counts its instances and throws from the move constructor when the fuse reaches zero (-1: never).
struct bomb {
    static inline int fuse = -1;
    static inline int alive = 0;
    int value{};

    bomb(const int init = 0) : value{init} { ++alive; }
    bomb(const bomb &other) : value{other.value} { ++alive; }
    // throwing from a move constructor is what this type is for
    // NOLINTNEXTLINE(bugprone-exception-escape)
    bomb(bomb &&other) : value{other.value} {
        if (fuse >= 0 && fuse-- == 0) {
            throw std::runtime_error{"bomb"};
        }

        ++alive;
    }
    bomb &operator=(const bomb &) = default;
    bomb &operator=(bomb &&) = default;
    ~bomb() { --alive; }
};

/// Throws from the constructor that takes an int: recording it fails.
struct refuses {
    std::string text{"another payload that lives on the heap, long enough"};

    refuses() = default;
    explicit refuses(int) { throw std::runtime_error{"refuses"}; }
};

/// Over-aligned: its value is placed at an aligned address inside the buffer's memory.
struct alignas(64) wide {
    int value;
};

/// Larger than the first chunk of a buffer.
struct huge {
    std::array<int, 4096> values;
};

std::string events{};

template<char Letter>
void note(tessera::registry &, const tessera::entity) {
    events += Letter;
}

// A pool type of its own: a plain storage that counts what it receives, without the signal mixin.
struct custom_component {
    int value;
};

struct counting_storage : tessera::basic_storage<custom_component> {
    using base_storage = tessera::basic_storage<custom_component>;
    using base_storage::base_storage;
    int emplaced{};

    template<typename... Args>
    custom_component &emplace(const tessera::entity entt, Args &&...args) {
        ++emplaced;
        return base_storage::emplace(entt, std::forward<Args>(args)...);
    }
};

} // namespace

template<>
struct tessera::storage_type<custom_component, tessera::entity, std::allocator<custom_component>> {
    using type = counting_storage;
};

namespace {

TEST(command_buffer, recording_leaves_the_registry_alone) {
    tessera::registry registry;
    const auto entt = registry.create();
    tessera::command_buffer buffer;
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.size(), 0u);

    const auto made = buffer.create();
    buffer.emplace<position>(entt, 1, 2);
    buffer.emplace<velocity>(made, 3);
    buffer.patch<position>(entt, [](position &pos) { ++pos.x; });
    buffer.remove<velocity>(entt);
    buffer.destroy(entt);

    EXPECT_FALSE(buffer.empty());
    EXPECT_EQ(buffer.size(), 6u);
    // no pool was made, no entity created or destroyed
    EXPECT_EQ(std::as_const(registry).storage<position>(), nullptr);
    EXPECT_EQ(std::as_const(registry).storage<velocity>(), nullptr);
    EXPECT_EQ(registry.storage<tessera::entity>().free_list(), 1u);
    EXPECT_TRUE(registry.valid(entt));
}

TEST(command_buffer, provisional_identifiers) {
    tessera::registry registry;
    tessera::command_buffer buffer;
    const auto first = buffer.create();
    const auto second = buffer.create();

    EXPECT_NE(first, second);
    EXPECT_TRUE(tessera::command_buffer::is_provisional(first));
    EXPECT_TRUE(tessera::command_buffer::is_provisional(second));
    EXPECT_FALSE(tessera::command_buffer::is_provisional(registry.create()));
    EXPECT_FALSE(tessera::command_buffer::is_provisional(tessera::null));
    EXPECT_FALSE(tessera::command_buffer::is_provisional(tessera::tombstone));
    // never valid in any registry, and not null
    EXPECT_FALSE(registry.valid(first));
    EXPECT_FALSE(first == tessera::null);
    // before apply they resolve to nothing
    EXPECT_EQ(buffer.resolve(first), null_entity);

    EXPECT_EQ(buffer.apply(registry), 0u);
    const auto real_first = buffer.resolve(first);
    const auto real_second = buffer.resolve(second);
    EXPECT_TRUE(registry.valid(real_first));
    EXPECT_TRUE(registry.valid(real_second));
    EXPECT_NE(real_first, real_second);
    // creation follows recording order
    EXPECT_EQ(traits::to_entity(real_first), 1u);
    EXPECT_EQ(traits::to_entity(real_second), 2u);
    // other identifiers resolve to themselves
    const auto other = registry.create();
    EXPECT_EQ(buffer.resolve(other), other);

    // the answers last until the next create() is recorded
    buffer.emplace<velocity>(other, 1);
    EXPECT_EQ(buffer.resolve(first), real_first);
    const auto again = buffer.create();
    EXPECT_EQ(buffer.resolve(first), null_entity);
    // the next batch's identifiers take the indices after the last batch's
    EXPECT_NE(again, first);
    EXPECT_EQ(traits::to_entity(again), traits::to_entity(second) + 1u);
    buffer.apply(registry);
    EXPECT_TRUE(registry.valid(buffer.resolve(again)));
    EXPECT_NE(buffer.resolve(again), real_first);

    // or until clear()
    buffer.clear();
    EXPECT_EQ(buffer.resolve(again), null_entity);
}

TEST(command_buffer, every_command_in_recorded_order_with_its_signals) {
    tessera::registry registry;
    registry.on_construct<position>().connect<&note<'C'>>();
    registry.on_update<position>().connect<&note<'U'>>();
    registry.on_destroy<position>().connect<&note<'D'>>();
    registry.on_construct<tessera::entity>().connect<&note<'c'>>();
    registry.on_destroy<tessera::entity>().connect<&note<'d'>>();
    const auto entt = registry.create();
    events.clear();

    tessera::command_buffer buffer;
    const auto made = buffer.create();
    buffer.emplace<position>(made, 1, 1);
    buffer.emplace<position>(entt, 2, 2);
    buffer.replace<position>(entt, 3, 3);
    buffer.emplace_or_replace<position>(made, 4, 4);
    buffer.patch<position>(
        entt, [](position &pos) { pos.y = 5; }, [](position &pos) { pos.x *= 10; });
    buffer.erase<position>(made);
    buffer.emplace_or_replace<position>(made, 6, 6);
    buffer.remove<position>(entt);
    buffer.destroy(made);
    EXPECT_EQ(events, "");

    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_EQ(events, "cCCUUUDCDDd");
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.size(), 0u);
    EXPECT_FALSE(registry.valid(buffer.resolve(made)));
    EXPECT_FALSE(registry.all_of<position>(entt));

    // the values that were there in between
    buffer.emplace<position>(entt, 7, 8);
    buffer.patch<position>(entt, [](position &pos) { pos.x += 1; });
    buffer.apply(registry);
    EXPECT_EQ(registry.get<position>(entt).x, 8);
    EXPECT_EQ(registry.get<position>(entt).y, 8);
    buffer.replace<position>(entt, 1, 2);
    buffer.patch<position>(
        entt, [](position &pos) { pos.y *= 3; }, [](position &pos) { pos.y += 1; });
    buffer.apply(registry);
    EXPECT_EQ(registry.get<position>(entt).x, 1);
    EXPECT_EQ(registry.get<position>(entt).y, 7);
}

TEST(command_buffer, values_are_built_when_recorded_and_moved_in_at_apply) {
    tessera::registry registry;
    const auto entt = registry.create();
    tessera::command_buffer buffer;
    std::string text{"a text long enough to live on the heap"};

    buffer.emplace<label>(entt, text);
    // the value is a copy made now: later changes to the argument do not reach it
    text = "changed";
    buffer.emplace<position>(entt, 1, 2);
    buffer.emplace<counted>(entt, 5);
    EXPECT_EQ(counted::alive, 1);
    buffer.apply(registry);

    EXPECT_EQ(registry.get<label>(entt).get(), "a text long enough to live on the heap");
    EXPECT_EQ(registry.get<position>(entt).y, 2);
    EXPECT_EQ(registry.get<counted>(entt).value, 5);
    // the value held by the buffer is gone, the one in the pool remains
    EXPECT_EQ(counted::alive, 1);
    registry.clear();
    EXPECT_EQ(counted::alive, 0);
}

TEST(command_buffer, commands_on_invalid_entities_are_skipped) {
    tessera::registry registry;
    registry.on_construct<position>().connect<&note<'C'>>();
    registry.on_update<position>().connect<&note<'U'>>();
    registry.on_destroy<position>().connect<&note<'D'>>();
    const auto gone = registry.create();
    const auto doomed = registry.create();
    const auto kept = registry.create();
    registry.emplace<position>(doomed);
    registry.emplace<position>(kept);
    tessera::command_buffer buffer;

    // destroyed between recording and apply
    buffer.emplace<position>(gone, 1, 1);
    buffer.replace<position>(gone, 1, 1);
    buffer.patch<position>(gone, [](position &) {});
    buffer.remove<position>(gone);
    buffer.erase<position>(gone);
    buffer.destroy(gone);
    // destroyed by an earlier command of the same buffer
    buffer.destroy(doomed);
    buffer.emplace_or_replace<position>(doomed, 2, 2);
    buffer.destroy(doomed);
    // a stale version of a live index
    registry.destroy(gone);
    const auto recycled = registry.create();
    EXPECT_EQ(traits::to_entity(recycled), traits::to_entity(gone));
    // null and the tombstone would be misuse at recording; an identifier never handed out is just invalid
    buffer.emplace<position>(traits::construct(100u, 0u), 3, 3);
    buffer.patch<position>(kept, [](position &pos) { pos.x = 9; });
    events.clear();

    EXPECT_EQ(buffer.apply(registry), 9u);
    // only the destroy of `doomed` and the patch of `kept` did something
    EXPECT_EQ(events, "DU");
    EXPECT_FALSE(registry.valid(doomed));
    EXPECT_TRUE(registry.valid(recycled));
    EXPECT_FALSE(registry.all_of<position>(recycled));
    EXPECT_EQ(registry.get<position>(kept).x, 9);
    EXPECT_EQ(registry.storage<position>().size(), 1u);
}

TEST(command_buffer, repeated_commands_are_applied_one_by_one) {
    tessera::registry registry;
    registry.on_construct<position>().connect<&note<'C'>>();
    registry.on_update<position>().connect<&note<'U'>>();
    registry.on_destroy<position>().connect<&note<'D'>>();
    registry.on_construct<velocity>().connect<&note<'c'>>();
    registry.on_destroy<velocity>().connect<&note<'d'>>();
    registry.on_destroy<tessera::entity>().connect<&note<'x'>>();
    tessera::command_buffer buffer;

    // a destroy after emplaces: the emplaces happen, then the destroy
    const auto first = registry.create();
    buffer.emplace<position>(first, 1, 1);
    buffer.emplace<velocity>(first, 1);
    buffer.destroy(first);
    events.clear();
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_EQ(events.substr(0u, 2u), "Cc");
    // destroy removes the components (pool order unspecified), then releases the entity
    EXPECT_EQ(events.size(), 5u);
    EXPECT_EQ(events.back(), 'x');
    EXPECT_FALSE(registry.valid(first));

    // two emplaces of one type: the second replaces the first
    const auto second = registry.create();
    buffer.emplace<position>(second, 1, 1);
    buffer.emplace<position>(second, 2, 2);
    events.clear();
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_EQ(events, "CU");
    EXPECT_EQ(registry.get<position>(second).x, 2);

    // replace and patch after a remove find nothing: skipped; erase of a missing component too, remove is not
    buffer.remove<position>(second);
    buffer.replace<position>(second, 3, 3);
    buffer.patch<position>(second, [](position &) {});
    buffer.erase<position>(second);
    buffer.remove<position>(second);
    buffer.emplace<position>(second, 4, 4);
    events.clear();
    EXPECT_EQ(buffer.apply(registry), 3u);
    EXPECT_EQ(events, "DC");
    EXPECT_EQ(registry.get<position>(second).x, 4);

    // destroy twice: the second is skipped
    buffer.destroy(second);
    buffer.destroy(second);
    EXPECT_EQ(buffer.apply(registry), 1u);

    // several types in one call make one command per type
    const auto third = registry.create();
    registry.emplace<position>(third);
    registry.emplace<velocity>(third);
    buffer.remove<position, velocity, tag>(third);
    EXPECT_EQ(buffer.size(), 3u);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_TRUE(registry.orphan(third));
    registry.emplace<position>(third);
    buffer.erase<position, velocity>(third);
    EXPECT_EQ(buffer.apply(registry), 1u);
    EXPECT_TRUE(registry.orphan(third));
}

TEST(command_buffer, provisional_identifiers_inside_values_are_mapped) {
    tessera::registry registry;
    const auto real = registry.create();
    tessera::command_buffer buffer;
    const auto parent = buffer.create();
    const auto child = buffer.create();

    buffer.emplace<link>(child, parent, 1);
    buffer.emplace<links>(parent, links{{child, real, parent}, link{child, 2}, {link{parent, 3}, link{real, 4}}});
    buffer.emplace<unlisted>(child, parent);
    buffer.emplace<link>(real, child, 5);
    buffer.replace<link>(real, parent, 6);
    buffer.apply(registry);

    const auto real_parent = buffer.resolve(parent);
    const auto real_child = buffer.resolve(child);
    EXPECT_EQ(registry.get<link>(real_child).who, real_parent);
    EXPECT_EQ(registry.get<link>(real_child).weight, 1);
    const auto &many = registry.get<links>(real_parent);
    EXPECT_EQ(many.targets, (std::vector{real_child, real, real_parent}));
    EXPECT_EQ(many.best.who, real_child);
    EXPECT_EQ(many.others[0].who, real_parent);
    EXPECT_EQ(many.others[1].who, real);
    // a type that lists nothing keeps the provisional identifier, which is never valid
    EXPECT_EQ(registry.get<unlisted>(real_child).who, parent);
    EXPECT_FALSE(registry.valid(registry.get<unlisted>(real_child).who));
    // replace maps too
    EXPECT_EQ(registry.get<link>(real).who, real_parent);
    EXPECT_EQ(registry.get<link>(real).weight, 6);

    // a provisional identifier that this apply did not create maps to null
    const auto stale = parent;
    buffer.emplace<link>(real, stale, 7);
    buffer.apply(registry);
    EXPECT_EQ(registry.get<link>(real).who, null_entity);
}

TEST(command_buffer, a_provisional_identifier_of_an_earlier_batch_is_not_the_current_one) {
    // the index of an identifier resolved by the last apply is not handed out again by the next batch
    tessera::registry registry;
    tessera::command_buffer buffer;
    const auto earlier = buffer.create();
    buffer.apply(registry);
    const auto real_earlier = buffer.resolve(earlier);
    ASSERT_TRUE(registry.valid(real_earlier));

    const auto current = buffer.create();
    EXPECT_TRUE(tessera::command_buffer::is_provisional(current));
    EXPECT_NE(current, earlier);
    EXPECT_MISUSE(buffer.emplace<position>(earlier, 1, 1), "did not create in this batch");
    buffer.emplace<link>(current, earlier, 3);
    buffer.apply(registry);

    const auto real_current = buffer.resolve(current);
    EXPECT_NE(real_current, real_earlier);
    EXPECT_EQ(registry.get<link>(real_current).who, null_entity);
    EXPECT_EQ(buffer.resolve(earlier), null_entity);
    // a batch that is cleared gives up its indices too
    const auto dropped = buffer.create();
    buffer.clear();
    EXPECT_NE(buffer.create(), dropped);
}

TEST(command_buffer, named_pools) {
    tessera::registry registry;
    const auto entt = registry.create();
    tessera::command_buffer buffer;
    auto boost = buffer.storage<velocity>("boost"_hs);

    boost.emplace(entt, 3);
    buffer.emplace<velocity>(entt, 1);
    buffer.storage<velocity>().emplace_or_replace(entt, 2);
    boost.patch(entt, [](velocity &vel) { vel.dx *= 10; });
    buffer.apply(registry);
    EXPECT_EQ(registry.storage<velocity>("boost"_hs).get(entt).dx, 30);
    EXPECT_EQ(registry.get<velocity>(entt).dx, 2);

    boost.replace(entt, 4);
    boost.emplace_or_replace(entt, 5);
    buffer.apply(registry);
    EXPECT_EQ(registry.storage<velocity>("boost"_hs).get(entt).dx, 5);

    boost.remove(entt);
    boost.erase(entt);
    buffer.storage<velocity>("other"_hs).patch(entt, [](velocity &) {});
    EXPECT_EQ(buffer.apply(registry), 2u);
    EXPECT_FALSE(registry.storage<velocity>("boost"_hs).contains(entt));
    EXPECT_TRUE(registry.all_of<velocity>(entt));
    // a name taken by another type is the registry's misuse, reported at apply
    buffer.storage<position>("boost"_hs).emplace(entt, 1, 1);
    EXPECT_MISUSE(buffer.apply(registry), "taken by another element type");
    // the failed apply drops what it did not apply (the statement is skipped when TESSERA_DISABLE_ASSERT)
    EXPECT_EQ(buffer.empty(), tessera_test::misuse_runs);
}

TEST(command_buffer, empty_types_and_in_place_storages) {
    tessera::registry registry;
    registry.on_update<tag>().connect<&note<'U'>>();
    const auto entt = registry.create();
    const auto other = registry.create();
    tessera::command_buffer buffer;

    buffer.emplace<tag>(entt);
    buffer.emplace<tag>(other);
    buffer.emplace<stable>(entt, 1);
    buffer.emplace<stable>(other, 2);
    buffer.apply(registry);
    EXPECT_TRUE((registry.all_of<tag, stable>(entt)));
    EXPECT_TRUE((registry.all_of<tag, stable>(other)));

    events.clear();
    buffer.patch<tag>(entt);
    buffer.emplace_or_replace<tag>(entt);
    buffer.replace<tag>(other);
    buffer.remove<tag>(other);
    buffer.erase<stable>(entt);
    buffer.emplace<stable>(entt, 3);
    buffer.apply(registry);
    EXPECT_EQ(events, "UUU");
    EXPECT_FALSE(registry.all_of<tag>(other));
    // the hole left by erase was filled again
    EXPECT_EQ(registry.get<stable>(entt).value, 3);
    EXPECT_EQ(registry.storage<stable>().size(), 2u);
}

TEST(command_buffer, reactive_and_custom_storages) {
    tessera::registry registry;
    auto &observed = registry.storage<tessera::reactive>("observed"_hs);
    observed.on_construct<position>().on_update<position>();
    const auto entt = registry.create();
    const auto other = registry.create();
    tessera::command_buffer buffer;

    buffer.emplace<position>(entt, 1, 1);
    buffer.emplace<custom_component>(entt, 4);
    buffer.emplace<custom_component>(other, 5);
    buffer.apply(registry);
    EXPECT_TRUE(observed.contains(entt));
    EXPECT_FALSE(observed.contains(other));
    auto &custom = registry.storage<custom_component>();
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(custom)>, counting_storage>);
    EXPECT_EQ(custom.emplaced, 2);
    EXPECT_EQ(custom.get(other).value, 5);

    // commands on the reactive pool itself
    buffer.storage<tessera::reactive>("observed"_hs).remove(entt);
    buffer.patch<position>(entt, [](position &) {});
    buffer.replace<custom_component>(other, 6);
    buffer.remove<custom_component>(entt);
    buffer.apply(registry);
    // removed, then collected again by the update
    EXPECT_TRUE(observed.contains(entt));
    EXPECT_EQ(custom.get(other).value, 6);
    EXPECT_FALSE(custom.contains(entt));

    buffer.storage<tessera::reactive>("observed"_hs).erase(entt);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_FALSE(observed.contains(entt));
}

TEST(command_buffer, groups_follow_the_changes) {
    tessera::registry registry;
    auto group = registry.group<position>(tessera::get<velocity>);
    std::vector<tessera::entity> entities(8u);
    registry.create(entities.begin(), entities.end());
    tessera::command_buffer buffer;

    for (const auto entt : entities) {
        buffer.emplace<position>(entt, 1, 1);
        buffer.emplace<velocity>(entt, 1);
    }

    buffer.apply(registry);
    EXPECT_EQ(group.size(), 8u);

    // recording while the group is iterated, then applying after
    for (const auto entt : group) {
        if (traits::to_entity(entt) % 2u) {
            buffer.remove<velocity>(entt);
        }
    }

    buffer.apply(registry);
    EXPECT_EQ(group.size(), 4u);
}

TEST(command_buffer, large_and_over_aligned_values) {
    tessera::registry registry;
    const auto entt = registry.create();
    tessera::command_buffer buffer;
    huge big{};
    big.values.back() = 7;

    for (int round{}; round < 3; ++round) {
        buffer.emplace<velocity>(entt, round);
        buffer.emplace_or_replace<huge>(entt, big);
        buffer.emplace_or_replace<wide>(entt, round);
        buffer.emplace_or_replace<huge>(entt, big);
        buffer.emplace<position>(entt, round, round);
        buffer.remove<velocity, position>(entt);
        EXPECT_EQ(buffer.size(), 7u);
        buffer.apply(registry);
        EXPECT_EQ(registry.get<huge>(entt).values.back(), 7);
        EXPECT_EQ(registry.get<wide>(entt).value, round);
    }

    // many commands over many chunks keep their order
    const auto made = buffer.create();

    for (int value{}; value < 100000; ++value) {
        buffer.emplace_or_replace<velocity>(made, value);
    }

    buffer.apply(registry);
    EXPECT_EQ(registry.get<velocity>(buffer.resolve(made)).dx, 99999);
}

namespace {

using tracked_registry = tessera::basic_registry<tessera::entity, tessera_test::tracking_allocator<tessera::entity>>;
using tracked_buffer = tessera::basic_command_buffer<tracked_registry>;

// Runs body(registry, buffer, buffer_log) with a registry and a buffer on allocators of their own, then checks that
// both gave everything back.
template<typename Body>
void with_tracked_buffer(Body body) {
    tessera_test::allocation_log registry_log{};
    tessera_test::allocation_log buffer_log{};

    {
        tracked_registry registry{tessera_test::tracking_allocator<tessera::entity>{registry_log}};
        tracked_buffer buffer{tessera_test::tracking_allocator<tessera::entity>{buffer_log}};
        body(registry, buffer, buffer_log);
    }

    EXPECT_TRUE(buffer_log.balanced());
    EXPECT_TRUE(registry_log.balanced());
}

} // namespace

TEST(command_buffer, no_allocation_per_command_once_warm) {
    with_tracked_buffer(
        [](tracked_registry &registry, tracked_buffer &buffer, tessera_test::allocation_log &buffer_log) {
            EXPECT_EQ(buffer.get_allocator().log().allocations, 0u);
            EXPECT_EQ(buffer_log.allocations, 0u);
            std::vector<tessera::entity> entities(4096u);
            registry.create(entities.begin(), entities.end());

            const auto round = [&] {
                for (const auto entt : entities) {
                    buffer.emplace<position>(entt, 1, 2);
                    buffer.patch<position>(entt, [](position &pos) { ++pos.x; });
                }

                for (int count{}; count < 100; ++count) {
                    buffer.destroy(buffer.create());
                }

                buffer.apply(registry);

                for (const auto entt : entities) {
                    buffer.remove<position>(entt);
                }

                buffer.apply(registry);
            };

            round();
            const auto warm = buffer_log.allocations;
            EXPECT_GT(warm, 0u);
            // a few chunks, not one allocation per command
            EXPECT_LT(warm, 16u);

            for (int again{}; again < 5; ++again) {
                round();
            }

            EXPECT_EQ(buffer_log.allocations, warm);
            buffer.emplace<position>(entities[0], 1, 1);
            buffer.clear();
            EXPECT_EQ(buffer_log.allocations, warm);

            // moving the buffer moves its memory
            auto moved = std::move(buffer);
            round();
            moved.emplace<position>(entities[0], 1, 1);
            moved.apply(registry);
            EXPECT_EQ(registry.get<position>(entities[0]).x, 1);
        });
}

TEST(command_buffer, shrink_to_fit_gives_the_retained_chunks_back) {
    with_tracked_buffer(
        [](tracked_registry &registry, tracked_buffer &buffer, tessera_test::allocation_log &buffer_log) {
            std::vector<tessera::entity> entities(20000u);
            registry.create(entities.begin(), entities.end());

            // a large batch leaves several chunks behind
            for (const auto entt : entities) {
                buffer.emplace<position>(entt, 1, 2);
            }
            buffer.apply(registry);
            const auto retained = buffer_log.live();
            EXPECT_GT(retained, 2u);

            // a small batch in progress keeps the chunk it fills, and its commands
            buffer.emplace<velocity>(entities[0], 6);
            buffer.shrink_to_fit();
            EXPECT_LT(buffer_log.live(), retained);
            EXPECT_GT(buffer_log.live(), 0u);
            EXPECT_EQ(buffer.size(), 1u);
            buffer.apply(registry);
            EXPECT_EQ(registry.get<velocity>(entities[0]).dx, 6);

            // an empty buffer keeps nothing, and records again afterwards
            buffer.shrink_to_fit();
            EXPECT_EQ(buffer_log.live(), 0u);
            EXPECT_EQ(buffer_log.live_bytes, 0u);
            const auto made = buffer.create();
            buffer.emplace<position>(made, 3, 4);
            buffer.apply(registry);
            EXPECT_EQ(registry.get<position>(buffer.resolve(made)).y, 4);
        });
}

TEST(command_buffer, values_never_applied_are_destroyed) {
    tessera::registry registry;
    const auto entt = registry.create();

    {
        tessera::command_buffer buffer;
        buffer.emplace<counted>(entt, 1);
        buffer.patch<position>(entt, [kept = counted{2}](position &) {});
        EXPECT_EQ(counted::alive, 2);
        buffer.clear();
        EXPECT_EQ(counted::alive, 0);
        EXPECT_TRUE(buffer.empty());

        buffer.replace<counted>(entt, 4);
        buffer.emplace<counted>(entt, 3);
        EXPECT_EQ(counted::alive, 2);
        // replace found nothing to replace: its value goes too
        EXPECT_EQ(buffer.apply(registry), 1u);
        EXPECT_EQ(counted::alive, 1);
        buffer.emplace<counted>(entt, 5);
    }

    // the buffer's destructor took the last one
    EXPECT_EQ(counted::alive, 1);
    registry.clear();
    EXPECT_EQ(counted::alive, 0);
}

TEST(command_buffer, move_construction_and_assignment) {
    tessera::registry registry;
    const auto entt = registry.create();
    tessera::command_buffer buffer;
    const auto made = buffer.create();
    buffer.emplace<counted>(made, 1);

    tessera::command_buffer moved{std::move(buffer)};
    EXPECT_EQ(moved.size(), 2u);
    EXPECT_TRUE(buffer.empty());
    buffer.emplace<counted>(entt, 2);

    tessera::command_buffer other;
    other.emplace<counted>(entt, 3);
    EXPECT_EQ(counted::alive, 3);
    // the assigned-to buffer drops its own commands
    other = std::move(moved);
    EXPECT_EQ(counted::alive, 2);
    EXPECT_EQ(other.size(), 2u);
    other.apply(registry);
    EXPECT_EQ(registry.get<counted>(other.resolve(made)).value, 1);
    buffer.apply(registry);
    EXPECT_EQ(registry.get<counted>(entt).value, 2);
    registry.clear();
    EXPECT_EQ(counted::alive, 0);
}

TEST(command_buffer, a_throwing_constructor_records_nothing) {
    tessera::registry registry;
    const auto entt = registry.create();
    tessera::command_buffer buffer;
    buffer.emplace<position>(entt, 1, 1);

    EXPECT_THROW(buffer.emplace<refuses>(entt, 1), std::runtime_error);
    EXPECT_EQ(buffer.size(), 1u);
    buffer.emplace<velocity>(entt, 2);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_TRUE((registry.all_of<position, velocity>(entt)));
    EXPECT_FALSE(registry.all_of<refuses>(entt));
}

TEST(command_buffer, a_throwing_command_stops_apply) {
    tessera::registry registry;
    registry.on_construct<position>().connect<&note<'C'>>();
    std::vector<tessera::entity> entities(3u);
    registry.create(entities.begin(), entities.end());
    tessera::command_buffer buffer;

    buffer.emplace<position>(entities[0], 1, 1);
    const auto made = buffer.create();
    buffer.emplace<fragile>(entities[1]);
    buffer.emplace<position>(entities[2], 1, 1);
    buffer.emplace<counted>(entities[2], 1);
    buffer.emplace<fragile>(entities[2]);
    events.clear();
    fragile::armed = true;
    EXPECT_THROW(buffer.apply(registry), std::runtime_error);
    fragile::armed = false;

    // the commands before the one that threw are applied, the one that threw left nothing, the rest are dropped
    EXPECT_EQ(events, "C");
    EXPECT_TRUE(registry.all_of<position>(entities[0]));
    EXPECT_TRUE(registry.valid(buffer.resolve(made)));
    EXPECT_FALSE(registry.all_of<fragile>(entities[1]));
    EXPECT_FALSE(registry.all_of<position>(entities[2]));
    EXPECT_EQ(counted::alive, 0);
    EXPECT_TRUE(buffer.empty());

    // the buffer is usable again
    buffer.emplace<fragile>(entities[1]);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_TRUE(registry.all_of<fragile>(entities[1]));
}

TEST(command_buffer, a_throwing_command_in_the_middle_of_a_run) {
    tessera::registry registry;
    std::vector<tessera::entity> entities(4u);
    registry.create(entities.begin(), entities.end());
    tessera::command_buffer buffer;

    // four emplaces of one type in a row, then one of another type
    for (const auto entt : entities) {
        buffer.emplace<bomb>(entt, 1);
    }

    buffer.emplace<position>(entities[0], 1, 1);
    EXPECT_EQ(bomb::alive, 4);
    // the second move into the pool throws
    bomb::fuse = 1;
    EXPECT_THROW(buffer.apply(registry), std::runtime_error);
    bomb::fuse = -1;

    EXPECT_TRUE(registry.all_of<bomb>(entities[0]));
    EXPECT_FALSE(registry.all_of<bomb>(entities[1]));
    EXPECT_FALSE(registry.all_of<bomb>(entities[2]));
    EXPECT_FALSE(registry.all_of<position>(entities[0]));
    // only the one in the pool is left
    EXPECT_EQ(bomb::alive, 1);
    EXPECT_TRUE(buffer.empty());
    registry.clear();
    EXPECT_EQ(bomb::alive, 0);
}

struct chain {
    tessera::command_buffer *buffer;
    std::vector<tessera::entity> *entities;

    void on_position(tessera::registry &, const tessera::entity entt) {
        // the next entity of the chain gets a position too: this extends the run being applied
        for (std::size_t pos{}; pos + 1u < entities->size(); ++pos) {
            if ((*entities)[pos] == entt) {
                buffer->emplace<position>((*entities)[pos + 1u], static_cast<int>(pos) + 1, 0);
            }
        }
    }
};

TEST(command_buffer, listeners_may_extend_the_run_being_applied) {
    tessera::registry registry;
    tessera::command_buffer buffer;
    std::vector<tessera::entity> entities(6u);
    registry.create(entities.begin(), entities.end());
    chain listener{&buffer, &entities};
    registry.on_construct<position>().connect<&chain::on_position>(listener);

    buffer.emplace<position>(entities[0], 0, 0);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_TRUE(buffer.empty());

    for (std::size_t pos{}; pos < entities.size(); ++pos) {
        EXPECT_EQ(registry.get<position>(entities[pos]).x, static_cast<int>(pos));
    }
}

struct reentrant {
    tessera::command_buffer *buffer{};
    int depth{};

    void on_position(tessera::registry &, const tessera::entity entt) {
        // a listener records more work: it is applied in the same apply, after what was recorded before
        if (depth++ < 2) {
            buffer->emplace<velocity>(entt, depth);
        }
    }

    void on_velocity(tessera::registry &registry, const tessera::entity) { buffer->apply(registry); }
};

TEST(command_buffer, listeners_may_record_into_the_buffer_being_applied) {
    tessera::registry registry;
    tessera::command_buffer buffer;
    reentrant listener{&buffer};
    registry.on_construct<position>().connect<&reentrant::on_position>(listener);
    std::vector<tessera::entity> entities(3u);
    registry.create(entities.begin(), entities.end());

    for (const auto entt : entities) {
        buffer.emplace<position>(entt, 1, 1);
    }

    buffer.emplace<tag>(entities[0]);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(registry.get<velocity>(entities[0]).dx, 1);
    EXPECT_EQ(registry.get<velocity>(entities[1]).dx, 2);
    EXPECT_FALSE(registry.all_of<velocity>(entities[2]));

    // applying from a listener of the same apply is a misuse
    registry.on_construct<velocity>().connect<&reentrant::on_velocity>(listener);
    registry.clear<velocity>();
    buffer.emplace<velocity>(entities[2], 1);
    EXPECT_MISUSE(buffer.apply(registry), "already being applied");
    // the failed apply drops what it did not apply (the statement is skipped when TESSERA_DISABLE_ASSERT)
    EXPECT_EQ(buffer.empty(), tessera_test::misuse_runs);
}

struct shrinking {
    tessera::command_buffer *buffer;

    void on_position(tessera::registry &, tessera::entity) { buffer->shrink_to_fit(); }
};

TEST(command_buffer, shrink_to_fit_during_apply_is_a_misuse) {
    tessera::registry registry;
    tessera::command_buffer buffer;
    shrinking listener{&buffer};
    registry.on_construct<position>().connect<&shrinking::on_position>(listener);
    const auto entt = registry.create();
    buffer.emplace<position>(entt, 1, 1);
    EXPECT_MISUSE(buffer.apply(registry), "shrink_to_fit: the buffer is being applied");
}

TEST(command_buffer, threads_record_into_their_own_buffers) {
    const auto build = [](tessera::registry &registry) {
        std::vector<tessera::entity> entities(2000u);
        registry.create(entities.begin(), entities.end());

        for (const auto entt : entities) {
            registry.emplace<position>(entt, static_cast<int>(traits::to_entity(entt)), 0);
        }

        constexpr std::size_t parts = 4u;
        std::array<tessera::command_buffer, parts> buffers{};
        std::vector<std::thread> workers{};
        const auto view = std::as_const(registry).view<position>();

        for (std::size_t part{}; part < buffers.size(); ++part) {
            workers.emplace_back([&view, &buffer = buffers[part], part] {
                // each thread reads the view and records into its own buffer only
                for (const auto [entt, pos] : view.each()) {
                    if (static_cast<std::size_t>(pos.x) % parts == part) {
                        buffer.emplace<velocity>(entt, pos.x);
                        buffer.emplace<link>(buffer.create(), entt, pos.x);

                        if (pos.x % 3 == 0) {
                            buffer.destroy(entt);
                        }
                    }
                }
            });
        }

        for (auto &&worker : workers) {
            worker.join();
        }

        // applied in a fixed order, the buffers give the same registry every time
        for (auto &&buffer : buffers) {
            buffer.apply(registry);
        }
    };

    tessera::registry lhs;
    tessera::registry rhs;
    build(lhs);
    build(rhs);
    const auto &left = lhs.storage<tessera::entity>();
    const auto &right = rhs.storage<tessera::entity>();
    ASSERT_EQ(left.free_list(), right.free_list());
    EXPECT_TRUE(std::equal(left.begin(), left.end(), right.begin()));

    for (const auto [entt, elem] : lhs.view<link>().each()) {
        EXPECT_EQ(rhs.get<link>(entt).who, elem.who);
        EXPECT_EQ(rhs.get<link>(entt).weight, elem.weight);
    }

    EXPECT_EQ(lhs.storage<velocity>().size(), rhs.storage<velocity>().size());
    EXPECT_EQ(lhs.storage<link>().size(), 2000u);
}

TEST(command_buffer, misuse) {
    tessera::registry registry;
    tessera::command_buffer buffer;
    EXPECT_MISUSE(buffer.destroy(tessera::null), "the null entity");
    EXPECT_MISUSE(buffer.emplace<position>(tessera::null), "the null entity");
    const auto made = buffer.create();
    buffer.apply(registry);
    // provisional identifiers of an earlier apply are stale
    EXPECT_MISUSE(buffer.emplace<position>(made, 1, 1), "did not create");
    EXPECT_MISUSE(buffer.storage<position>("named"_hs).remove(made), "did not create");
    EXPECT_TRUE(buffer.empty());
}

TEST(command_buffer, other_registry_types) {
    using registry_type = tessera::basic_registry<std::uint64_t>;
    registry_type registry;
    tessera::basic_command_buffer<registry_type> buffer;
    const auto made = buffer.create();
    EXPECT_TRUE(buffer.is_provisional(made));
    buffer.emplace<position>(made, 1, 2);
    buffer.apply(registry);
    EXPECT_EQ(registry.get<position>(buffer.resolve(made)).y, 2);
}

// The registries of the next test: the same entities and components, built the same way.
void populate(tessera::registry &registry, std::vector<tessera::entity> &made) {
    for (int pos{}; pos < 64; ++pos) {
        const auto entt = registry.create();
        made.push_back(entt);
        registry.emplace<position>(entt, pos, -pos);

        if (pos % 2 == 0) {
            registry.emplace<velocity>(entt, pos);
        }

        if (pos % 3 == 0) {
            registry.emplace<stable>(entt, pos);
        }

        if (pos % 5 == 0) {
            registry.emplace<tag>(entt);
            registry.disable<position>(entt);
        }
    }

    // some released identifiers, so that versions and the free list take part
    for (int pos{}; pos < 8; ++pos) {
        registry.destroy(made[static_cast<std::size_t>(pos * 7)]);
    }
}

template<typename Type>
void expect_same_pool(const tessera::registry &lhs, const tessera::registry &rhs) {
    const auto &left = *lhs.storage<Type>();
    const auto &right = *rhs.storage<Type>();
    ASSERT_EQ(left.size(), right.size());
    EXPECT_EQ(left.free_list(), right.free_list());

    for (std::size_t pos{}; pos < left.size(); ++pos) {
        EXPECT_EQ(left.data()[pos], right.data()[pos]) << "position " << pos;
    }
}

TEST(command_buffer, a_run_of_destroys_ends_as_one_destroy_after_the_other) {
    tessera::registry batched;
    tessera::registry reference;
    std::vector<tessera::entity> made;
    populate(batched, made);
    made.clear();
    populate(reference, made);

    // shuffled live entities, a duplicate, stale identifiers and the entities the buffer creates itself
    std::vector<tessera::entity> doomed;
    for (std::size_t pos = 3u; pos < made.size(); pos += 5u) {
        doomed.push_back(made[(pos * 37u) % made.size()]);
    }
    doomed.push_back(doomed[2]);
    doomed.push_back(made[7]);

    tessera::command_buffer buffer;
    const auto fresh = buffer.create();
    const auto other = buffer.create();
    buffer.emplace<position>(fresh, 100, 100);
    buffer.emplace<position>(other, 101, 101);
    for (const auto entt : doomed) {
        buffer.destroy(entt);
    }
    buffer.destroy(fresh);
    buffer.destroy(other);
    buffer.destroy(fresh);

    // the reference: every command on its own, in recorded order
    std::size_t skipped{};
    const auto fresh_entity = reference.create();
    const auto other_entity = reference.create();
    reference.emplace<position>(fresh_entity, 100, 100);
    reference.emplace<position>(other_entity, 101, 101);
    doomed.insert(doomed.end(), {fresh_entity, other_entity, fresh_entity});
    for (const auto entt : doomed) {
        if (reference.valid(entt)) {
            reference.destroy(entt);
        } else {
            ++skipped;
        }
    }

    EXPECT_EQ(buffer.apply(batched), skipped);
    // the duplicate, the stale identifier and the second destroy of `fresh`
    EXPECT_EQ(skipped, 3u);
    EXPECT_EQ(buffer.resolve(fresh), fresh_entity);
    expect_same_pool<tessera::entity>(batched, reference);
    expect_same_pool<position>(batched, reference);
    expect_same_pool<velocity>(batched, reference);
    expect_same_pool<stable>(batched, reference);
    expect_same_pool<tag>(batched, reference);

    const tessera::sparse_set &positions = batched.storage<position>();

    for (const auto entt : positions) {
        EXPECT_EQ(batched.get<position>(entt).x, reference.get<position>(entt).x);
    }

    // the free lists match too: the next identifiers are the same
    for (int count{}; count < 20; ++count) {
        EXPECT_EQ(batched.create(), reference.create());
    }
}

tessera::entity watched{};
bool still_there{};

// a listener on the entity storage: whether the watched entity still has its position when another one leaves
void note_watched(tessera::registry &owner, const tessera::entity entt) {
    if (entt != watched) {
        still_there = owner.all_of<position>(watched);
    }
}

TEST(command_buffer, a_run_of_destroys_under_listeners_goes_one_entity_at_a_time) {
    tessera::registry registry;
    const auto first = registry.create();
    const auto second = registry.create();
    registry.emplace<position>(first);
    registry.emplace<velocity>(first);
    registry.emplace<position>(second);
    registry.emplace<velocity>(second);
    registry.on_destroy<position>().connect<&note<'p'>>();
    registry.on_destroy<velocity>().connect<&note<'v'>>();

    tessera::command_buffer buffer;
    buffer.destroy(first);
    buffer.destroy(second);
    events.clear();
    EXPECT_EQ(buffer.apply(registry), 0u);
    // newest pool first, one entity after the other; pool by pool would give "vvpp"
    EXPECT_EQ(events, "vpvp");

    // a listener on the entity storage alone: when an entity is released, the next one still has its components
    registry.on_destroy<position>().disconnect<&note<'p'>>();
    registry.on_destroy<velocity>().disconnect<&note<'v'>>();
    const auto third = registry.create();
    const auto fourth = registry.create();
    registry.emplace<position>(third);
    registry.emplace<position>(fourth);
    watched = fourth;
    registry.on_destroy<tessera::entity>().connect<&note_watched>();
    buffer.destroy(third);
    buffer.destroy(fourth);
    EXPECT_EQ(buffer.apply(registry), 0u);
    EXPECT_TRUE(still_there);
    EXPECT_FALSE(registry.valid(fourth));
}

} // namespace
