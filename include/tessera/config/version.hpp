// tessera version numbers, for code that adapts to the library release it is built against. The only place the
// version is written: CMakeLists.txt reads the three numbers from here.
#ifndef TESSERA_CONFIG_VERSION_HPP
#define TESSERA_CONFIG_VERSION_HPP

#define TESSERA_VERSION_MAJOR 0
#define TESSERA_VERSION_MINOR 1
#define TESSERA_VERSION_PATCH 0

// Two steps, so that the numbers are expanded before they become text.
#define TESSERA_INTERNAL_VERSION_TEXT(number) #number
#define TESSERA_INTERNAL_VERSION_EXPAND(number) TESSERA_INTERNAL_VERSION_TEXT(number)

/// The version as a string literal, "major.minor.patch", made from the three numbers above.
#define TESSERA_VERSION                                                                                                \
    TESSERA_INTERNAL_VERSION_EXPAND(TESSERA_VERSION_MAJOR)                                                             \
    "." TESSERA_INTERNAL_VERSION_EXPAND(TESSERA_VERSION_MINOR) "." TESSERA_INTERNAL_VERSION_EXPAND(                    \
        TESSERA_VERSION_PATCH)

#endif
