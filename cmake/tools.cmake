# What comes with tessera besides the core headers:
# - the optional modules, targets that bring their library: the archive adapters tessera::json (nlohmann-json, Debian
#   nlohmann-json3-dev) and tessera::cereal (cereal, Debian libcereal-dev), and parallel execution tessera::execution
#   (oneTBB, Debian libtbb-dev). Each is defined only when its library is found; otherwise configuring says so and
#   the target, its tests and its examples are left out. The core target never depends on them and
#   tessera/tessera.hpp never includes their headers;
# - the debugger scripts (docs/debugging.md), installed under share/tessera/gdb and share/tessera/lldb.
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

if(tessera_install_tools)
    # each folder gets the layout module the scripts share, so that one command loads them from the install tree
    install(FILES tools/gdb/tessera_printers.py tools/common/tessera_layout.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/gdb)
    install(FILES tools/lldb/tessera_lldb.py tools/common/tessera_layout.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/lldb)
endif()
