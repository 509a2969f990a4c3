# Script mode: runs a debugger on PROGRAM with the commands of SCRIPT and fails unless what it prints between the
# lines "==== begin" and "==== end" equals the file EXPECTED. Prints a line starting with "tessera-skip:" (which
# ctest turns into a skipped test) when the debugger or its Python support is missing.
#   DEBUGGER  gdb or lldb executable          KIND     gdb or lldb
#   MODE      autoload (gdb loads the printers named in the program) or source (loaded by one command)
#   LOADER    the printer script to load in source mode (the lldb formatters are always loaded this way)
#   UPDATE    when ON, writes what the debugger printed to EXPECTED instead of comparing
if(NOT DEBUGGER OR NOT EXISTS "${DEBUGGER}")
    message("tessera-skip: ${KIND} is not installed")
    return()
endif()

get_filename_component(program_dir ${PROGRAM} DIRECTORY)
set(environment)

if(KIND STREQUAL "gdb")
    execute_process(COMMAND ${DEBUGGER} -nx -batch -ex "python print('tessera-python-' + 'ok')"
                    OUTPUT_VARIABLE probe ERROR_VARIABLE probe_error)
    if(NOT probe MATCHES "tessera-python-ok")
        message("tessera-skip: ${DEBUGGER} has no Python support")
        return()
    endif()

    if(MODE STREQUAL "autoload")
        set(command ${DEBUGGER} -nx -batch -iex "add-auto-load-safe-path ${program_dir}" -x ${SCRIPT} ${PROGRAM})
    else()
        # the program's own entry is declined (its folder is not in the safe path): the one command loads them
        set(command ${DEBUGGER} -nx -batch -ex "source ${LOADER}" -x ${SCRIPT} ${PROGRAM})
    endif()
else()
    # Debian's lldb-14 looks for its Python module in a folder that does not exist; point it to the real one
    file(GLOB lldb_python /usr/lib/llvm-*/lib/python3*/dist-packages)
    foreach(folder IN LISTS lldb_python)
        if(EXISTS ${folder}/lldb/embedded_interpreter.py)
            set(environment "PYTHONPATH=${folder}")
        endif()
    endforeach()

    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${environment} ${DEBUGGER} --batch -o "script print('tessera-python-' + 'ok')"
                    OUTPUT_VARIABLE probe ERROR_VARIABLE probe_error)
    if(NOT probe MATCHES "tessera-python-ok")
        message("tessera-skip: ${DEBUGGER} has no working Python support: ${probe_error}")
        return()
    endif()

    set(command ${DEBUGGER} --batch -o "command script import ${LOADER}" -s ${SCRIPT} ${PROGRAM})
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${environment} ${command}
                OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE result TIMEOUT 120)

string(FIND "${output}" "==== begin\n" begin)
# at the start of a line: lldb also echoes the commands that print the markers
string(FIND "${output}" "\n==== end" end)
if(begin EQUAL -1 OR end EQUAL -1)
    message(FATAL_ERROR "the ${KIND} session did not reach the end of ${SCRIPT} (exit ${result})\n"
                        "--- output ---\n${output}\n--- errors ---\n${errors}")
endif()

math(EXPR first "${begin} + 11")
math(EXPR length "${end} + 1 - ${first}")
string(SUBSTRING "${output}" ${first} ${length} actual)
# the hash of a pool's name depends on the width of id_type, which the programs differ in
string(REGEX REPLACE "@0x[0-9a-f]+" "@0x<hash>" actual "${actual}")
# lldb echoes the commands it runs from a file: keep the results only, without the types it prints first (their
# spelling depends on the compiler and the lldb version)
string(REGEX REPLACE "\\(lldb\\) [^\n]*\n" "" actual "${actual}")
string(REGEX REPLACE "(^|\n)\\([^\n]*\\) ([*$A-Za-z_][A-Za-z_0-9]*) = " "\\1\\2 = " actual "${actual}")

if(UPDATE)
    # cmake -DUPDATE=ON ... -P run_debugger.cmake rewrites the expected file (review the difference before committing)
    file(WRITE ${EXPECTED} "${actual}")
    return()
endif()

file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "what ${KIND} printed differs from ${EXPECTED}\n--- printed ---\n${actual}--- expected ---\n"
                        "${expected}--- errors ---\n${errors}")
endif()
