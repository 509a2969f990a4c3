# What comes with tessera besides the core headers:
# - the optional modules, targets that bring their library: the archive adapters tessera::json (nlohmann-json, Debian
#   nlohmann-json3-dev) and tessera::cereal (cereal, Debian libcereal-dev), and parallel execution tessera::execution
#   (oneTBB, Debian libtbb-dev), and the live inspector tessera::inspector (cpp-httplib, Debian libcpp-httplib-dev,
#   found through pkg-config, plus nlohmann-json). Each is defined only when its libraries are found; otherwise
#   configuring says so and the target, its tests and its examples are left out. The core target never depends on them and
#   tessera/tessera.hpp never includes their headers;
# - the debugger scripts (docs/debugging.md), installed under share/tessera/gdb and share/tessera/lldb;
# - the inspector's page (tools/inspector, docs/inspector.md), installed under share/tessera/inspector.
# Included from the top-level CMakeLists.txt after the tessera target is defined.

# install rules follow the project's install option where there is one
if(NOT DEFINED TESSERA_INSTALL OR TESSERA_INSTALL)
    set(tessera_install_tools ON)
else()
    set(tessera_install_tools OFF)
endif()

# tessera_adapter(<name> <package> <imported target>): the INTERFACE target tessera_<name> (alias tessera::<name>),
# exported in its own file so that find_package(tessera) defines it only where the package is found too.
function(tessera_adapter name package imported)
    find_package(${package} CONFIG QUIET)

    if(NOT ${package}_FOUND)
        message(STATUS "tessera: ${package} not found: tessera::${name}, its tests and examples are skipped")
        set(TESSERA_HAS_${name} OFF PARENT_SCOPE)
        return()
    endif()

    add_library(tessera_${name} INTERFACE)
    add_library(tessera::${name} ALIAS tessera_${name})
    set_target_properties(tessera_${name} PROPERTIES EXPORT_NAME ${name})
    target_link_libraries(tessera_${name} INTERFACE tessera ${imported})
    set(TESSERA_HAS_${name} ON PARENT_SCOPE)

    if(tessera_install_tools)
        install(TARGETS tessera_${name} EXPORT tessera-${name}-targets)
        install(EXPORT tessera-${name}-targets NAMESPACE tessera::
            DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/cmake)
    endif()
endfunction()

tessera_adapter(json nlohmann_json nlohmann_json::nlohmann_json)
tessera_adapter(cereal cereal cereal::cereal)
tessera_adapter(execution TBB TBB::tbb)

# The inspector (docs/inspector.md): an HTTP server on cpp-httplib and JSON on nlohmann-json. Debian ships
# cpp-httplib as a compiled library without a CMake package, built with TLS and compression support: pkg-config
# gives the definitions its header must be compiled with to match the library (a mismatch changes class layouts).
# The server finds its page (static files, no build step) where the target says: the source tree while building,
# the install tree once installed.
set(TESSERA_HAS_inspector OFF)
if(TARGET nlohmann_json::nlohmann_json)
    find_package(PkgConfig QUIET)
    find_package(Threads QUIET)
    if(PkgConfig_FOUND)
        pkg_check_modules(tessera_httplib QUIET IMPORTED_TARGET GLOBAL cpp-httplib)
    endif()
    if(tessera_httplib_FOUND AND Threads_FOUND)
        add_library(tessera_inspector INTERFACE)
        add_library(tessera::inspector ALIAS tessera_inspector)
        set_target_properties(tessera_inspector PROPERTIES EXPORT_NAME inspector)
        target_link_libraries(tessera_inspector INTERFACE
            tessera nlohmann_json::nlohmann_json PkgConfig::tessera_httplib Threads::Threads)
        target_compile_definitions(tessera_inspector INTERFACE
            "TESSERA_INSPECTOR_PAGE_DIR=\"$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/tools/inspector>$<INSTALL_INTERFACE:$<INSTALL_PREFIX>/${CMAKE_INSTALL_DATADIR}/tessera/inspector>\"")
        set(TESSERA_HAS_inspector ON)
        if(tessera_install_tools)
            install(TARGETS tessera_inspector EXPORT tessera-inspector-targets)
            install(EXPORT tessera-inspector-targets NAMESPACE tessera::
                DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/cmake)
        endif()
    else()
        message(STATUS "tessera: cpp-httplib (pkg-config cpp-httplib) not found: tessera::inspector, its tests and "
                       "examples are skipped")
    endif()
else()
    message(STATUS "tessera: nlohmann_json not found: tessera::inspector, its tests and examples are skipped")
endif()

if(tessera_install_tools)
    # each folder gets the layout module the scripts share, so that one command loads them from the install tree
    install(FILES tools/gdb/tessera_printers.py tools/common/tessera_layout.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/gdb)
    install(FILES tools/lldb/tessera_lldb.py tools/common/tessera_layout.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/lldb)
    # the inspector's page goes with the package even where the module's libraries are missing: it is static files
    install(DIRECTORY tools/inspector/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/inspector)
endif()
