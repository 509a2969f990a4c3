# tessera_strict_warnings(target): the warnings every target of this repository builds with. They are never
# errors here: the CI and developer presets turn them into errors with CMAKE_COMPILE_WARNING_AS_ERROR, while a
# plain build (a user's, a packager's, a newer compiler's) keeps going when a compiler finds something new.
function(tessera_strict_warnings target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
    endif()
endfunction()
