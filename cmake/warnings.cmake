# tessera_strict_warnings(target): the warnings every target of this repository builds with. They are never
# errors here: the CI and developer presets turn them into errors with CMAKE_COMPILE_WARNING_AS_ERROR, while a
# plain build (a user's, a packager's, a newer compiler's) keeps going when a compiler finds something new.
function(tessera_strict_warnings target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
    endif()
endfunction()

# tessera_third_party_ub_exception(target): for targets that use cereal's JSON or XML archives. Debian's rapidjson
# 1.1.0, under cereal's JSON archive, adds an offset to a null pointer when its stack first grows
# (rapidjson/internal/stack.h, Reserve); UBSan's pointer-overflow check would stop the sanitized tests there, in code
# that is not tessera's. Only that check is turned off, and only for these targets.
function(tessera_third_party_ub_exception target)
    if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*undefined")
        target_compile_options(${target} PRIVATE -fno-sanitize=pointer-overflow)
    endif()
endfunction()

# tessera_long_running(target): for the test targets whose run time, not their compile time, dominates (the model
# test, the fuzz targets). A sanitizer preset compiles every test at -O0, where its many small units build about three
# times faster than at -O1; these few run three times slower there, so TESSERA_LONG_RUNNING_OPTIONS (a ;-list, empty
# by default) gives them their own flags, which come after CMAKE_CXX_FLAGS and win.
set(TESSERA_LONG_RUNNING_OPTIONS "" CACHE STRING "Compile options for the long-running test targets (a ;-list)")
function(tessera_long_running target)
    if(TESSERA_LONG_RUNNING_OPTIONS)
        target_compile_options(${target} PRIVATE ${TESSERA_LONG_RUNNING_OPTIONS})
    endif()
endfunction()
