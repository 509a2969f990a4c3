// Type hashes computed inside a shared library equal the ones computed in the executable.
#include "types.hpp"
#include <gtest/gtest.h>
#include <tessera/core/type_info.hpp>

namespace {

template<typename Type>
void expect_same_identity(const shared_types::identity &from_library) {
    EXPECT_EQ(from_library.id_hash, tessera::type_id<Type>().hash());
    EXPECT_EQ(from_library.hash, tessera::type_hash<Type>::value());
    EXPECT_EQ(from_library.id_hash, from_library.hash);
    EXPECT_EQ(from_library.name, tessera::type_name<Type>::value());
}

} // namespace

TEST(shared_library, struct_in_a_namespace) {
    expect_same_identity<shared_types::position>(shared_types::position_identity());
}

TEST(shared_library, template_instance) {
    expect_same_identity<shared_types::box<shared_types::position>>(shared_types::box_identity());
}

TEST(shared_library, fundamental_type) { expect_same_identity<int>(shared_types::int_identity()); }

TEST(shared_library, distinct_types_differ) {
    EXPECT_NE(shared_types::position_identity().hash, shared_types::box_identity().hash);
    EXPECT_NE(shared_types::position_identity().hash, shared_types::int_identity().hash);
}
