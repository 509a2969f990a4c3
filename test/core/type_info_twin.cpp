// Second translation unit for the type_info tests: a unit-local type spelled like one in type_info.cpp.
#include <string_view>
#include <tessera/core/type_info.hpp>

namespace {

struct unit_local {};

} // namespace

/// The hash of this unit's `unit_local`.
tessera::id_type twin_unit_local_hash() { return tessera::type_hash<unit_local>::value(); }

/// The name of this unit's `unit_local`.
std::string_view twin_unit_local_name() { return tessera::type_name<unit_local>::value(); }
