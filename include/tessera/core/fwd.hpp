// Forward declarations of the core module.
#ifndef TESSERA_CORE_FWD_HPP
#define TESSERA_CORE_FWD_HPP

#include "../config/config.hpp"
#include <cstddef>
#include <cstdint>

namespace tessera {

/// The type of names: pool names, context-variable names, hashed strings and type hashes.
using id_type = TESSERA_ID_TYPE;

// The defaults of basic_any live here only: a default template argument may be given once.
template<std::size_t Len = sizeof(double[2]), std::size_t Align = alignof(double[2])>
class basic_any;

/// The default any: room for two doubles inside the object.
using any = basic_any<>;

enum class any_policy : std::uint8_t;

template<typename First, typename Second>
class compressed_pair;

template<typename Char>
class basic_hashed_string;

/// A hashed narrow string.
using hashed_string = basic_hashed_string<char>;
/// A hashed wide string.
using hashed_wstring = basic_hashed_string<wchar_t>;

struct type_info;

template<typename Type>
struct type_index;

template<typename Type>
struct type_hash;

template<typename Type>
struct type_name;

template<typename...>
class family;

template<typename... Type>
struct type_list;

template<auto... Value>
struct value_list;

template<typename It, typename Sentinel>
struct iterable_adaptor;

template<typename Type>
struct input_iterator_pointer;

struct std_sort;
struct insertion_sort;

template<std::size_t Digit, std::size_t Bits>
struct radix_sort;

// Reflection (reflect.hpp).
template<typename Enum>
struct enum_range;

template<typename Type>
struct reflect_as_identifier;

template<typename Class, typename Member>
struct reflected_field;

enum class value_kind : std::uint8_t;

} // namespace tessera

#endif
