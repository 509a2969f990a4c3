// tessera version numbers, for code that adapts to the library release it is built against.
#ifndef TESSERA_CONFIG_VERSION_HPP
#define TESSERA_CONFIG_VERSION_HPP

#define TESSERA_VERSION_MAJOR 0
#define TESSERA_VERSION_MINOR 1
#define TESSERA_VERSION_PATCH 0

/// The version as a string literal, "major.minor.patch".
#define TESSERA_VERSION "0.1.0"

#endif
