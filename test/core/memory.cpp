// Tests of memory.hpp: allocate_unique, allocation_deleter, the propagation helpers and uses-allocator
// construction.
#include "support/misuse.hpp"
#include "support/tracking_allocator.hpp"
#include <gtest/gtest.h>
#include <memory>
#include <memory_resource>
#include <stdexcept>
#include <string>
#include <tessera/core/memory.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace unit_core_memory {

namespace {

struct throws_on_build {
    explicit throws_on_build(int) { throw std::runtime_error{"build"}; }
};

template<typename Type, bool Propagate>
struct flagged_allocator : std::allocator<Type> {
    using value_type = Type;
    using propagate_on_container_copy_assignment = std::bool_constant<Propagate>;
    using propagate_on_container_move_assignment = std::bool_constant<Propagate>;
    using propagate_on_container_swap = std::bool_constant<Propagate>;
    int tag{};
    flagged_allocator(int value = 0) : tag{value} {}
    template<typename Other>
    flagged_allocator(const flagged_allocator<Other, Propagate> &other) : tag{other.tag} {}
    template<typename Other>
    struct rebind {
        using other = flagged_allocator<Other, Propagate>;
    };
    bool operator==(const flagged_allocator &other) const { return tag == other.tag; }
};

} // namespace

TEST(memory, allocate_unique_uses_the_allocator) {
    std::pmr::monotonic_buffer_resource upstream{};
    std::pmr::polymorphic_allocator<std::byte> allocator{&upstream};
    auto value = tessera::allocate_unique<std::string>(allocator, 5u, 'x');
    ASSERT_EQ(*value, "xxxxx");
    static_assert(std::is_same_v<decltype(value)::deleter_type,
                                 tessera::allocation_deleter<std::pmr::polymorphic_allocator<std::string>>>);
    value.reset();
    ASSERT_EQ(value, nullptr);
}

TEST(memory, allocate_unique_releases_memory_when_the_constructor_throws) {
    std::pmr::unsynchronized_pool_resource pool{};
    struct counting : std::pmr::memory_resource {
        std::pmr::memory_resource *next;
        int live{};
        explicit counting(std::pmr::memory_resource *upstream) : next{upstream} {}
        void *do_allocate(std::size_t bytes, std::size_t align) override {
            ++live;
            return next->allocate(bytes, align);
        }
        void do_deallocate(void *ptr, std::size_t bytes, std::size_t align) override {
            --live;
            next->deallocate(ptr, bytes, align);
        }
        bool do_is_equal(const std::pmr::memory_resource &other) const noexcept override { return this == &other; }
    } resource{&pool};
    std::pmr::polymorphic_allocator<int> allocator{&resource};

    ASSERT_THROW(static_cast<void>(tessera::allocate_unique<throws_on_build>(allocator, 1)), std::runtime_error);
    ASSERT_EQ(resource.live, 0);

    {
        auto value = tessera::allocate_unique<int>(allocator, 3);
        ASSERT_EQ(resource.live, 1);
    }
    ASSERT_EQ(resource.live, 0);
}

TEST(memory, allocation_deleter_destroys_and_deallocates) {
    std::allocator<std::vector<int>> allocator{};
    auto *memory = std::allocator_traits<decltype(allocator)>::allocate(allocator, 1u);
    std::allocator_traits<decltype(allocator)>::construct(allocator, memory, 3u, 1);
    tessera::allocation_deleter<decltype(allocator)> deleter{allocator};
    // leaks (and fails under ASan) if the deleter does not release the vector and its block
    deleter(memory);
    SUCCEED();
}

TEST(memory, propagation_helpers) {
    flagged_allocator<int, true> plhs{1};
    flagged_allocator<int, true> prhs{2};
    tessera::propagate_on_container_copy_assignment(plhs, prhs);
    ASSERT_EQ(plhs.tag, 2);
    prhs.tag = 3;
    tessera::propagate_on_container_move_assignment(plhs, prhs);
    ASSERT_EQ(plhs.tag, 3);
    prhs.tag = 4;
    tessera::propagate_on_container_swap(plhs, prhs);
    ASSERT_EQ(plhs.tag, 4);
    ASSERT_EQ(prhs.tag, 3);

    flagged_allocator<int, false> lhs{1};
    flagged_allocator<int, false> rhs{2};
    tessera::propagate_on_container_copy_assignment(lhs, rhs);
    tessera::propagate_on_container_move_assignment(lhs, rhs);
    ASSERT_EQ(lhs.tag, 1);
    EXPECT_MISUSE(tessera::propagate_on_container_swap(lhs, rhs), "do not propagate on swap");
    flagged_allocator<int, false> same{1};
    tessera::propagate_on_container_swap(lhs, same);
    ASSERT_EQ(lhs.tag, 1);
}

TEST(memory, uses_allocator_construction) {
    std::pmr::monotonic_buffer_resource resource{};
    const std::pmr::polymorphic_allocator<int> allocator{&resource};

    auto args = tessera::uses_allocator_construction_args<std::pmr::string>(allocator, "text");
    static_assert(std::tuple_size_v<decltype(args)> == 2u);

    const auto text = tessera::make_obj_using_allocator<std::pmr::string>(allocator, "text");
    ASSERT_EQ(text, "text");
    ASSERT_EQ(text.get_allocator().resource(), &resource);

    const auto plain = tessera::make_obj_using_allocator<int>(allocator, 3);
    ASSERT_EQ(plain, 3);

    alignas(std::pmr::string) std::byte buffer[sizeof(std::pmr::string)];
    auto *built = tessera::uninitialized_construct_using_allocator(reinterpret_cast<std::pmr::string *>(buffer),
                                                                   allocator, 3u, 'y');
    ASSERT_EQ(*built, "yyy");
    ASSERT_EQ(built->get_allocator().resource(), &resource);
    std::destroy_at(built);
}

} // namespace unit_core_memory
} // namespace
