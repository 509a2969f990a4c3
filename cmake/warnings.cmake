# tessera_strict_warnings(target): the warning level every target of this repository builds with.
function(tessera_strict_warnings target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
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
