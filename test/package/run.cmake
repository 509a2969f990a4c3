# Script mode: builds and runs the consumer project against tessera, either installed (MODE=find_package)
# or as a subdirectory (MODE=add_subdirectory). Any failing step fails the test.
function(run_step)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "step failed (${result}): ${ARGN}")
    endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
if(MODE STREQUAL "find_package")
    run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/tessera-build -G ${GENERATOR}
        -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DTESSERA_BUILD_TESTING=OFF -DTESSERA_BUILD_EXAMPLES=OFF
        -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
    run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/tessera-build)
    run_step(${CMAKE_COMMAND} --install ${WORK_DIR}/tessera-build)
    # the debugger scripts go with the package (docs/debugging.md), each folder with the layout module they share
    foreach(script IN ITEMS gdb/tessera_printers.py gdb/tessera_layout.py lldb/tessera_lldb.py lldb/tessera_layout.py)
        if(NOT EXISTS ${WORK_DIR}/prefix/share/tessera/${script})
            message(FATAL_ERROR "the install has no share/tessera/${script}")
        endif()
    endforeach()
    run_step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build -G ${GENERATOR}
        -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCONSUMER_MODE=find_package)
else()
    run_step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build -G ${GENERATOR}
        -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCONSUMER_MODE=add_subdirectory -DTESSERA_SOURCE_DIR=${SOURCE_DIR})
endif()
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-build)
run_step(${WORK_DIR}/consumer-build/consumer)
foreach(adapter IN ITEMS json cereal)
    if(EXISTS ${WORK_DIR}/consumer-build/consumer_${adapter})
        run_step(${WORK_DIR}/consumer-build/consumer_${adapter})
    endif()
endforeach()
