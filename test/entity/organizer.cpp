#include <tessera/core/type_info.hpp>
#include <tessera/entity/organizer.hpp>
#include <tessera/entity/registry.hpp>
#include <tessera/entity/view.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/misuse.hpp"

namespace {
namespace unit_entity_organizer {

namespace {

// Context variables: resources a task reads or writes.
struct A {
    int value{};
};

struct B {
    int value{};
};

struct C {
    int value{};
};

void ro_a(const A &) {}

void rw_a(A &a) { ++a.value; }

void rw_b(B &b) { b.value += 2; }

void ro_ab(const tessera::registry &, const A &, const B &) {}

void sync(tessera::registry &registry) { registry.ctx().emplace<C>().value = 7; }

void only_const_registry(const tessera::registry &) {}

void nothing() {}

void both(const A &, A &) {}

using edge_list = std::vector<std::pair<std::size_t, std::size_t>>;

// Every edge of the graph, checking that in_edges mirror children and that out_edges are the children.
edge_list edges_of(const std::vector<tessera::organizer::vertex> &graph) {
    edge_list out{};
    edge_list in{};

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        EXPECT_EQ(graph[pos].children(), graph[pos].out_edges());
        EXPECT_EQ(graph[pos].top_level(), graph[pos].in_edges().empty());

        for (auto child : graph[pos].children()) {
            out.emplace_back(pos, child);
        }

        for (auto parent : graph[pos].in_edges()) {
            in.emplace_back(parent, pos);
        }
    }

    std::sort(out.begin(), out.end());
    std::sort(in.begin(), in.end());
    EXPECT_EQ(out, in);
    return out;
}

std::vector<std::size_t> top_level_of(const std::vector<tessera::organizer::vertex> &graph) {
    std::vector<std::size_t> out{};

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        if (graph[pos].top_level()) {
            out.push_back(pos);
        }
    }

    return out;
}

TEST(Organizer, SpecExample) {
    tessera::organizer organizer{};
    organizer.emplace<&ro_a>("ro_a");
    organizer.emplace<&rw_a>("rw_a");
    organizer.emplace<&rw_b>();
    organizer.emplace<&ro_ab>();
    organizer.emplace<&sync>("sync");
    organizer.emplace<&ro_a>();

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 6u);
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 1u}, {1u, 3u}, {2u, 3u}, {3u, 4u}, {4u, 5u}}));
    EXPECT_EQ(top_level_of(graph), (std::vector<std::size_t>{0u, 2u}));

    // the registry is never counted
    const std::array<std::pair<std::size_t, std::size_t>, 6u> counts{
        {{1u, 0u}, {0u, 1u}, {0u, 1u}, {2u, 0u}, {0u, 0u}, {1u, 0u}}};

    for (std::size_t pos{}; pos < graph.size(); ++pos) {
        EXPECT_EQ(graph[pos].ro_count(), counts[pos].first) << pos;
        EXPECT_EQ(graph[pos].rw_count(), counts[pos].second) << pos;
    }

    EXPECT_STREQ(graph[0].name(), "ro_a");
    EXPECT_STREQ(graph[1].name(), "rw_a");
    EXPECT_EQ(graph[2].name(), nullptr);
    EXPECT_STREQ(graph[4].name(), "sync");
    EXPECT_EQ(graph[0].data(), nullptr);
}

TEST(Organizer, Dependencies) {
    tessera::organizer organizer{};
    organizer.emplace<&ro_a>();
    organizer.emplace<&ro_a>();
    organizer.emplace<&rw_a>();
    organizer.emplace<&rw_a>();
    organizer.emplace<&ro_a>();
    organizer.emplace<&ro_a>();
    organizer.emplace<&rw_b>();

    // readers run together, a writer waits for all of them, and other resources are independent
    const auto graph = organizer.graph();
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 2u}, {1u, 2u}, {2u, 3u}, {3u, 4u}, {3u, 5u}}));
    EXPECT_EQ(top_level_of(graph), (std::vector<std::size_t>{0u, 1u, 6u}));
}

TEST(Organizer, RegistryAccess) {
    tessera::organizer organizer{};
    organizer.emplace<&ro_a>();
    organizer.emplace<&rw_b>();
    // a const registry and nothing else: the registry is written, so the task is a synchronization point
    organizer.emplace<&only_const_registry>();
    organizer.emplace<&ro_a>();
    organizer.emplace<&nothing>();
    organizer.emplace<&ro_ab>();
    organizer.emplace<&ro_ab>();

    const auto graph = organizer.graph();
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 2u}, {1u, 2u}, {2u, 3u}, {3u, 4u}, {4u, 5u}, {4u, 6u}}));
    EXPECT_EQ(graph[2].ro_count(), 0u);
    EXPECT_EQ(graph[2].rw_count(), 0u);
    EXPECT_EQ(graph[4].ro_count(), 0u);
    EXPECT_EQ(graph[4].rw_count(), 0u);
}

TEST(Organizer, Dependency) {
    tessera::organizer organizer{};
    organizer.emplace<&ro_ab>();
    organizer.emplace<&rw_a, const B, C>();
    const auto graph = organizer.graph();

    std::array<const tessera::type_info *, 3u> buffer{};
    ASSERT_EQ(graph[0].ro_dependency(buffer.data(), buffer.size()), 2u);
    EXPECT_EQ(*buffer[0], tessera::type_id<A>());
    EXPECT_EQ(*buffer[1], tessera::type_id<B>());
    EXPECT_EQ(buffer[2], nullptr);
    EXPECT_EQ(graph[0].rw_dependency(buffer.data(), buffer.size()), 0u);

    // a short buffer gets what fits
    buffer = {};
    ASSERT_EQ(graph[0].ro_dependency(buffer.data(), 1u), 1u);
    EXPECT_EQ(*buffer[0], tessera::type_id<A>());
    EXPECT_EQ(buffer[1], nullptr);
    EXPECT_EQ(graph[0].ro_dependency(buffer.data(), 0u), 0u);

    // extra resources from the template arguments
    EXPECT_EQ(graph[1].ro_count(), 1u);
    EXPECT_EQ(graph[1].rw_count(), 2u);
    buffer = {};
    ASSERT_EQ(graph[1].rw_dependency(buffer.data(), buffer.size()), 2u);
    EXPECT_EQ(*buffer[0], tessera::type_id<A>());
    EXPECT_EQ(*buffer[1], tessera::type_id<C>());
    ASSERT_EQ(graph[1].ro_dependency(buffer.data(), buffer.size()), 1u);
    EXPECT_EQ(*buffer[0], tessera::type_id<B>());
}

TEST(Organizer, Overrides) {
    tessera::organizer organizer{};
    organizer.emplace<&ro_a>();
    // const A: the writer is treated as a reader
    organizer.emplace<&rw_a, const A>();
    organizer.emplace<&ro_a>();
    // plain A: the reader is treated as a writer
    organizer.emplace<&ro_a, A>();
    // a resource read and written by the same task is written
    organizer.emplace<&both>();

    const auto graph = organizer.graph();
    EXPECT_EQ(graph[1].ro_count(), 1u);
    EXPECT_EQ(graph[1].rw_count(), 0u);
    EXPECT_EQ(graph[3].ro_count(), 0u);
    EXPECT_EQ(graph[3].rw_count(), 1u);
    EXPECT_EQ(graph[4].ro_count(), 0u);
    EXPECT_EQ(graph[4].rw_count(), 1u);
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 3u}, {1u, 3u}, {2u, 3u}, {3u, 4u}}));
}

// The manual's examples: free functions, a member function with its instance, decayed lambdas, names, extra
// resources, access overrides, and preparing a registry from the graph.
struct position {
    int x{};
};

struct velocity {
    int dx{};
};

struct renderable {
    int frame{};
};

void free_function(renderable &, const position &) {}

struct clazz {
    void member_function(const velocity &, tessera::registry &registry) {
        owner = &registry;
        ++calls;
    }

    void reader(const position &pos) const { seen = pos.x; }

    tessera::registry *owner{};
    int calls{};
    mutable int seen{};
};

TEST(Organizer, ManualExamples) {
    tessera::organizer organizer{};
    clazz instance{};

    organizer.emplace<&free_function>();
    organizer.emplace<&clazz::member_function>(&instance);
    organizer.emplace(+[](const void *, tessera::registry &) {});
    organizer.emplace(
        +[](const void *, tessera::registry &) {}, &instance);
    organizer.emplace<&free_function>("func");
    organizer.emplace<&free_function, position, velocity>("func");
    organizer.emplace<&free_function, const renderable>("func");

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 7u);

    EXPECT_EQ(graph[0].ro_count(), 1u);
    EXPECT_EQ(graph[0].rw_count(), 1u);
    EXPECT_EQ(graph[1].data(), &instance);
    EXPECT_EQ(graph[2].data(), nullptr);
    EXPECT_EQ(graph[3].data(), &instance);
    EXPECT_STREQ(graph[4].name(), "func");
    EXPECT_EQ(graph[5].ro_count(), 0u);
    EXPECT_EQ(graph[5].rw_count(), 3u);
    EXPECT_EQ(graph[6].ro_count(), 2u);
    EXPECT_EQ(graph[6].rw_count(), 0u);

    // the member function and both lambdas write the registry: a chain of synchronization points
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 1u}, {1u, 2u}, {2u, 3u}, {3u, 4u}, {4u, 5u}, {5u, 6u}}));

    tessera::registry registry{};

    for (auto &&node : graph) {
        node.prepare(registry);
    }

    EXPECT_TRUE(registry.ctx().contains<renderable>());
    EXPECT_TRUE(registry.ctx().contains<position>());
    EXPECT_TRUE(registry.ctx().contains<velocity>());
}

TEST(Organizer, Members) {
    tessera::organizer organizer{};
    clazz instance{};
    const clazz other{};
    clazz *pointer = &instance;

    organizer.emplace<&clazz::member_function>(instance, "by reference");
    organizer.emplace<&clazz::reader>(pointer, "by pointer");
    organizer.emplace<&clazz::reader>(other);

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 3u);
    EXPECT_EQ(graph[0].data(), &instance);
    EXPECT_EQ(graph[1].data(), &instance);
    EXPECT_EQ(graph[2].data(), &other);
    EXPECT_EQ(graph[0].ro_count(), 1u);
    EXPECT_EQ(graph[0].rw_count(), 0u);
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 1u}, {0u, 2u}}));

    tessera::registry registry{};
    registry.ctx().emplace<position>().x = 42;
    graph[0].callback()(graph[0].data(), registry);
    graph[0].callback()(graph[0].data(), registry);
    EXPECT_EQ(instance.owner, &registry);
    EXPECT_EQ(instance.calls, 2);
    // the context variable was created when the task ran
    EXPECT_TRUE(registry.ctx().contains<velocity>());

    graph[1].callback()(graph[1].data(), registry);
    EXPECT_EQ(instance.seen, 42);
    graph[2].callback()(graph[2].data(), registry);
    EXPECT_EQ(other.seen, 42);
}

struct payload {
    int calls{};
};

void with_payload(payload &data, A &a, const B &b) {
    ++data.calls;
    a.value += 10 + b.value;
}

void with_const_payload(const payload &data, C &c) { c.value = data.calls; }

TEST(Organizer, Payload) {
    tessera::organizer organizer{};
    payload data{};
    organizer.emplace<&with_payload>(data, "reference");
    organizer.emplace<&with_payload>(&data, "pointer");
    organizer.emplace<&with_const_payload>(std::as_const(data));

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 3u);
    EXPECT_EQ(graph[0].data(), &data);
    EXPECT_EQ(graph[1].data(), &data);
    EXPECT_EQ(graph[2].data(), &data);
    // the payload is not a resource
    EXPECT_EQ(graph[0].ro_count(), 1u);
    EXPECT_EQ(graph[0].rw_count(), 1u);
    EXPECT_EQ(graph[2].ro_count(), 0u);
    EXPECT_EQ(graph[2].rw_count(), 1u);
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 1u}}));

    tessera::registry registry{};
    registry.ctx().emplace<B>().value = 1;

    for (auto &&node : graph) {
        node.callback()(node.data(), registry);
    }

    EXPECT_EQ(data.calls, 2);
    EXPECT_EQ(registry.ctx().get<A>().value, 22);
    EXPECT_EQ(registry.ctx().get<C>().value, 2);
}

TEST(Organizer, RawTasks) {
    tessera::organizer organizer{};
    payload data{};
    organizer.emplace<&ro_a>();
    organizer.emplace<&rw_b>();
    organizer.emplace(
        +[](const void *value, tessera::registry &registry) {
            ++static_cast<payload *>(const_cast<void *>(value))->calls;
            static_cast<void>(registry.create());
        },
        &data, "raw");
    organizer.emplace<&ro_a>();
    organizer.emplace<const A, B>(+[](const void *, tessera::registry &) {});

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 5u);
    // a raw task writes the registry: everything before runs first, everything after waits
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 2u}, {1u, 2u}, {2u, 3u}, {3u, 4u}}));
    EXPECT_EQ(graph[2].info(), tessera::type_id<void>());
    EXPECT_EQ(graph[4].info(), tessera::type_id<void>());
    EXPECT_STREQ(graph[2].name(), "raw");
    EXPECT_EQ(graph[2].data(), &data);
    EXPECT_EQ(graph[2].ro_count(), 0u);
    EXPECT_EQ(graph[2].rw_count(), 0u);
    EXPECT_EQ(graph[4].ro_count(), 1u);
    EXPECT_EQ(graph[4].rw_count(), 1u);

    tessera::registry registry{};
    // raw tasks prepare nothing
    graph[2].prepare(registry);
    graph[4].prepare(registry);
    EXPECT_FALSE(registry.ctx().contains<A>());
    EXPECT_FALSE(registry.ctx().contains<B>());

    graph[2].callback()(graph[2].data(), registry);
    EXPECT_EQ(data.calls, 1);
    EXPECT_EQ(registry.storage<tessera::entity>().free_list(), 1u);

    EXPECT_MISUSE(organizer.emplace(nullptr), "organizer");
}

TEST(Organizer, Info) {
    tessera::organizer organizer{};
    clazz instance{};
    organizer.emplace<&ro_a>();
    organizer.emplace<&rw_a>();
    organizer.emplace<&ro_a>();
    organizer.emplace<&clazz::reader>(instance);
    organizer.emplace<&clazz::member_function>(instance);
    organizer.emplace(+[](const void *, tessera::registry &) {});

    const auto graph = organizer.graph();
    EXPECT_EQ(graph[0].info(), graph[2].info());
    EXPECT_NE(graph[0].info(), graph[1].info());
    EXPECT_NE(graph[3].info(), graph[4].info());
    EXPECT_NE(graph[0].info(), graph[3].info());

    for (std::size_t pos{}; pos < 5u; ++pos) {
        EXPECT_NE(graph[pos].info(), tessera::type_id<void>()) << pos;
    }

    EXPECT_EQ(graph[5].info(), tessera::type_id<void>());
}

TEST(Organizer, PrepareAndCallback) {
    tessera::organizer organizer{};
    organizer.emplace<&ro_ab>();
    organizer.emplace<&rw_a>();
    organizer.emplace<&sync>();
    const auto graph = organizer.graph();

    tessera::registry registry{};
    graph[0].prepare(registry);
    EXPECT_TRUE(registry.ctx().contains<A>());
    EXPECT_TRUE(registry.ctx().contains<B>());
    EXPECT_FALSE(registry.ctx().contains<C>());

    registry.ctx().get<A>().value = 5;
    graph[1].prepare(registry);
    // an existing variable is kept
    EXPECT_EQ(registry.ctx().get<A>().value, 5);

    graph[1].callback()(graph[1].data(), registry);
    EXPECT_EQ(registry.ctx().get<A>().value, 6);
    graph[2].callback()(graph[2].data(), registry);
    EXPECT_EQ(registry.ctx().get<C>().value, 7);

    // running a task creates what it needs
    tessera::registry other{};
    graph[1].callback()(graph[1].data(), other);
    EXPECT_EQ(other.ctx().get<A>().value, 1);
}

TEST(Organizer, Clear) {
    tessera::organizer organizer{};
    EXPECT_TRUE(organizer.graph().empty());
    organizer.emplace<&ro_a>();
    organizer.emplace<&rw_a>();
    EXPECT_EQ(organizer.graph().size(), 2u);

    organizer.clear();
    EXPECT_TRUE(organizer.graph().empty());

    organizer.emplace<&rw_b>();
    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 1u);
    EXPECT_TRUE(graph[0].top_level());
    EXPECT_TRUE(graph[0].children().empty());
}

// A graph is a value: it stays valid when the organizer changes or goes away.
TEST(Organizer, GraphOutlivesOrganizer) {
    std::vector<tessera::organizer::vertex> graph{};

    {
        tessera::organizer organizer{};
        organizer.emplace<&ro_ab>("first");
        organizer.emplace<&rw_a>("second");
        graph = organizer.graph();
        organizer.clear();

        for (int count{}; count < 16; ++count) {
            organizer.emplace<&rw_b>();
        }
    }

    ASSERT_EQ(graph.size(), 2u);
    EXPECT_STREQ(graph[0].name(), "first");
    EXPECT_EQ(graph[0].ro_count(), 2u);
    EXPECT_EQ(graph[1].rw_count(), 1u);
    EXPECT_NE(graph[0].info(), graph[1].info());

    tessera::registry registry{};
    graph[1].prepare(registry);
    graph[1].callback()(graph[1].data(), registry);
    EXPECT_EQ(registry.ctx().get<A>().value, 1);
}

// Components seen through view parameters.
struct spot {
    int x{};
};

struct speed {
    int dx{};
};

struct hidden {};

void integrate(tessera::view<tessera::get_t<spot, const speed>> view) {
    for (auto [entt, pos, vel] : view.each()) {
        pos.x += vel.dx;
    }
}

void count_visible(tessera::view<tessera::get_t<const spot>, tessera::exclude_t<hidden>> view, A &counter) {
    for ([[maybe_unused]] auto entt : view) {
        ++counter.value;
    }
}

void double_speed(tessera::view<tessera::get_t<speed>> view) {
    for (auto [entt, vel] : view.each()) {
        vel.dx *= 2;
    }
}

TEST(Organizer, ViewParameters) {
    tessera::organizer organizer{};
    organizer.emplace<&integrate>("integrate");
    organizer.emplace<&count_visible>();
    organizer.emplace<&double_speed>();
    organizer.emplace<&integrate, const spot>();

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 4u);
    // the element types are the resources: const ones and excluded ones are read-only
    EXPECT_EQ(graph[0].ro_count(), 1u);
    EXPECT_EQ(graph[0].rw_count(), 1u);
    EXPECT_EQ(graph[1].ro_count(), 2u);
    EXPECT_EQ(graph[1].rw_count(), 1u);
    EXPECT_EQ(graph[2].ro_count(), 0u);
    EXPECT_EQ(graph[2].rw_count(), 1u);
    EXPECT_EQ(graph[3].ro_count(), 2u);
    EXPECT_EQ(graph[3].rw_count(), 0u);

    std::array<const tessera::type_info *, 2u> buffer{};
    ASSERT_EQ(graph[0].rw_dependency(buffer.data(), buffer.size()), 1u);
    EXPECT_EQ(*buffer[0], tessera::type_id<spot>());
    ASSERT_EQ(graph[0].ro_dependency(buffer.data(), buffer.size()), 1u);
    EXPECT_EQ(*buffer[0], tessera::type_id<speed>());
    ASSERT_EQ(graph[1].ro_dependency(buffer.data(), buffer.size()), 2u);
    EXPECT_EQ(*buffer[0], tessera::type_id<spot>());
    EXPECT_EQ(*buffer[1], tessera::type_id<hidden>());
    ASSERT_EQ(graph[1].rw_dependency(buffer.data(), buffer.size()), 1u);
    EXPECT_EQ(*buffer[0], tessera::type_id<A>());

    // spot: 0 writes, 1 and 3 read; speed: 0 reads, 2 writes, 3 reads (0 -> 3 is implied by 0 -> 2 -> 3)
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 1u}, {0u, 2u}, {2u, 3u}}));

    tessera::registry registry{};
    EXPECT_EQ(std::as_const(registry).storage<spot>(), nullptr);

    for (auto &&node : graph) {
        node.prepare(registry);
    }

    // every pool of the views, excluded ones included, and the context variable
    EXPECT_NE(std::as_const(registry).storage<spot>(), nullptr);
    EXPECT_NE(std::as_const(registry).storage<speed>(), nullptr);
    EXPECT_NE(std::as_const(registry).storage<hidden>(), nullptr);
    EXPECT_TRUE(registry.ctx().contains<A>());

    const auto first = registry.create();
    const auto second = registry.create();
    const auto third = registry.create();
    registry.emplace<spot>(first, 1);
    registry.emplace<speed>(first, 2);
    registry.emplace<spot>(second, 5);
    registry.emplace<hidden>(second);
    registry.emplace<spot>(third, 0);

    for (auto &&node : graph) {
        node.callback()(node.data(), registry);
    }

    EXPECT_EQ(registry.get<spot>(first).x, 7);
    EXPECT_EQ(registry.get<speed>(first).dx, 4);
    EXPECT_EQ(registry.get<spot>(second).x, 5);
    EXPECT_EQ(registry.ctx().get<A>().value, 2);
}

void prepare_only(tessera::view<tessera::get_t<const spot>, tessera::exclude_t<const hidden>> view) {
    static_cast<void>(view);
}

TEST(Organizer, PrepareCreatesPoolsOnly) {
    tessera::organizer organizer{};
    organizer.emplace<&prepare_only>();
    const auto graph = organizer.graph();
    EXPECT_EQ(graph[0].ro_count(), 2u);
    EXPECT_EQ(graph[0].rw_count(), 0u);

    tessera::registry registry{};
    graph[0].prepare(registry);
    EXPECT_NE(std::as_const(registry).storage<spot>(), nullptr);
    EXPECT_NE(std::as_const(registry).storage<hidden>(), nullptr);
    EXPECT_TRUE(registry.storage<spot>().empty());
    graph[0].callback()(graph[0].data(), registry);
}

void move_owned(tessera::group<tessera::owned_t<spot>, tessera::get_t<const speed>, tessera::exclude_t<hidden>> group) {
    group.each([](spot &pos, const speed &vel) { pos.x += vel.dx; });
}

void read_owned(
    const tessera::group<tessera::owned_t<const spot>, tessera::get_t<const speed>, tessera::exclude_t<hidden>> &group,
    A &out) {
    for (auto entity : group) {
        out.value += group.get<const spot>(entity).x;
    }
}

TEST(Organizer, GroupParameters) {
    tessera::organizer organizer{};
    organizer.emplace<&move_owned>("move");
    organizer.emplace<&read_owned>("read");

    const auto graph = organizer.graph();
    ASSERT_EQ(graph.size(), 2u);
    // owned and get types by their constness, excluded types read-only
    EXPECT_EQ(graph[0].rw_count(), 1u);
    EXPECT_EQ(graph[0].ro_count(), 2u);
    EXPECT_EQ(graph[1].rw_count(), 1u);
    EXPECT_EQ(graph[1].ro_count(), 3u);
    std::array<const tessera::type_info *, 3u> buffer{};
    ASSERT_EQ(graph[0].rw_dependency(buffer.data(), buffer.size()), 1u);
    EXPECT_EQ(*buffer[0], tessera::type_id<spot>());
    EXPECT_EQ(edges_of(graph), (edge_list{{0u, 1u}}));

    tessera::registry registry{};

    for (auto &&node : graph) {
        node.prepare(registry);
    }

    // prepare creates the group, so that no task arranges pools while others run
    EXPECT_TRUE(registry.owned<spot>());
    EXPECT_TRUE((registry.group_if_exists<spot>(tessera::get<speed>, tessera::exclude<hidden>)));

    const auto first = registry.create();
    const auto second = registry.create();
    registry.emplace<spot>(first, 1);
    registry.emplace<speed>(first, 2);
    registry.emplace<spot>(second, 5);
    registry.emplace<speed>(second, 1);
    registry.emplace<hidden>(second);

    for (auto &&node : graph) {
        node.callback()(node.data(), registry);
    }

    EXPECT_EQ(registry.get<spot>(first).x, 3);
    EXPECT_EQ(registry.get<spot>(second).x, 5);
    EXPECT_EQ(registry.ctx().get<A>().value, 3);
}

} // namespace

} // namespace unit_entity_organizer
} // namespace
