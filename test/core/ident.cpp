// Tests of ident.hpp: compile-time positions of types in a fixed list.
#include <gtest/gtest.h>
#include <tessera/core/ident.hpp>
#include <type_traits>

namespace {
namespace unit_core_ident {

namespace {

struct first_type {};
struct second_type {};

template<typename>
struct placeholder {};

template<typename Ident, typename Type>
concept identified = requires {
    Ident::template value<Type>;
};

} // namespace

TEST(ident, sequential_constant_values) {
    using id = tessera::ident<first_type, second_type>;
    static_assert(id::value<first_type> == 0u);
    static_assert(id::value<second_type> == 1u);
    static_assert(id::value<const second_type &> == 1u);
    static_assert(std::is_same_v<id::value_type, tessera::id_type>);
    static_assert(!identified<id, int>);

    // a switch needs constant expressions
    const auto describe = [](const tessera::id_type value) {
        switch (value) {
        case id::value<first_type>:
            return 'a';
        case id::value<second_type>:
            return 'b';
        default:
            return '?';
        }
    };
    ASSERT_EQ(describe(id::value<second_type>), 'b');

    // a placeholder keeps the values of the types after a removed one
    using stable = tessera::ident<first_type, placeholder<int>, second_type>;
    static_assert(stable::value<second_type> == 2u);
}

} // namespace unit_core_ident
} // namespace
