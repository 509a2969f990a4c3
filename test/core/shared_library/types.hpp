// The types whose identity the shared library test compares, and the functions the library exports.
#ifndef TESSERA_TEST_CORE_SHARED_LIBRARY_TYPES_HPP
#define TESSERA_TEST_CORE_SHARED_LIBRARY_TYPES_HPP

#include <string_view>
#include <tessera/core/fwd.hpp>

#if defined(_WIN32)
#    if defined(TESSERA_TEST_BUILDING_SHARED_TYPES)
#        define TESSERA_TEST_SHARED_API __declspec(dllexport)
#    else
#        define TESSERA_TEST_SHARED_API __declspec(dllimport)
#    endif
#else
#    define TESSERA_TEST_SHARED_API __attribute__((visibility("default")))
#endif

namespace shared_types {

/// A plain struct in a namespace.
struct position {
    float x;
    float y;
};

/// A class template, used with a few arguments.
template<typename Type>
struct box {
    Type value;
};

/// What the library computes for one type.
struct identity {
    /// `type_id<T>().hash()`.
    tessera::id_type id_hash;
    /// `type_hash<T>::value()`.
    tessera::id_type hash;
    /// `type_name<T>::value()`.
    std::string_view name;
};

/// Identity of `position`, computed inside the library.
TESSERA_TEST_SHARED_API identity position_identity();
/// Identity of `box<position>`, computed inside the library.
TESSERA_TEST_SHARED_API identity box_identity();
/// Identity of `int`, computed inside the library.
TESSERA_TEST_SHARED_API identity int_identity();

} // namespace shared_types

#endif
