// Forward declarations of the core module.
#ifndef TESSERA_CORE_FWD_HPP
#define TESSERA_CORE_FWD_HPP

#include "../config/config.hpp"
#include <cstddef>
#include <cstdint>

namespace tessera {

/// The type of names: pool names, context-variable names, hashed strings and type hashes.
using id_type = TESSERA_ID_TYPE;

template<std::size_t Len = sizeof(double[2]), std::size_t Align = alignof(double[2])>
class basic_any;

/// The default any: room for two doubles inside the object.
using any = basic_any<>;

template<typename Char>
class basic_hashed_string;

using hashed_string = basic_hashed_string<char>;
using hashed_wstring = basic_hashed_string<wchar_t>;

struct type_info;

} // namespace tessera

#endif
