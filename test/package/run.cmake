# Script mode: builds and runs the consumer project against tessera, the three ways a user gets it:
#   MODE=find_package      tessera installed into a prefix, found with find_package(tessera <version> EXACT CONFIG);
#   MODE=add_subdirectory  the source tree as a subdirectory, with TESSERA_BUILD_TESTING=ON and Python hidden (the
#                          test tree must configure inside another project and without Python);
#   MODE=fetch_content     an archive of the library's files, as a release archive would be, through FetchContent.
# In the last two, installing the consumer must not install tessera (TESSERA_INSTALL is off in a subproject).
# Any failing step fails the test.
function(run_step)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "step failed (${result}): ${ARGN}")
    endif()
endfunction()

set(common -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DEXPECTED_VERSION=${VERSION})
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

if(MODE STREQUAL "find_package")
    run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/tessera-build -G ${GENERATOR}
        -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DTESSERA_BUILD_TESTING=OFF -DTESSERA_BUILD_EXAMPLES=OFF
        -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
    run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/tessera-build)
    run_step(${CMAKE_COMMAND} --install ${WORK_DIR}/tessera-build)
    # the debugger scripts go with the package (docs/debugging.md), each folder with the layout module they share, and
    # the inspector's page (docs/inspector.md)
    foreach(script IN ITEMS gdb/tessera_printers.py gdb/tessera_layout.py lldb/tessera_lldb.py lldb/tessera_layout.py
                            inspector/index.html inspector/inspector.js inspector/inspector.css)
        if(NOT EXISTS ${WORK_DIR}/prefix/share/tessera/${script})
            message(FATAL_ERROR "the install has no share/tessera/${script}")
        endif()
    endforeach()
    # the execution module was installed where oneTBB was found: then the consumer requires it as a component
    set(components)
    if(EXISTS ${WORK_DIR}/prefix/share/tessera/cmake/tessera-execution-targets.cmake)
        set(components -DCONSUMER_COMPONENTS=execution)
        # a consumer without oneTBB (hidden here) still gets the core, and requiring the module fails
        run_step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-no-tbb ${common}
            -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCONSUMER_MODE=find_package -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON)
        run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-no-tbb --target consumers)
        if(EXISTS ${WORK_DIR}/consumer-no-tbb/consumer_execution)
            message(FATAL_ERROR "without oneTBB, find_package(tessera) should not define tessera::execution")
        endif()
        execute_process(
            COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-no-tbb-required ${common}
                -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCONSUMER_MODE=find_package
                -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON -DCONSUMER_COMPONENTS=execution
            RESULT_VARIABLE result OUTPUT_QUIET ERROR_QUIET)
        if(result EQUAL 0)
            message(FATAL_ERROR "without oneTBB, find_package(tessera COMPONENTS execution REQUIRED) should fail")
        endif()
    else()
        message(STATUS "oneTBB was not found: the execution component is not checked")
    endif()
    run_step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build ${common}
        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCONSUMER_MODE=find_package ${components})
elseif(MODE STREQUAL "add_subdirectory")
    execute_process(
        COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build ${common}
            -DCONSUMER_MODE=add_subdirectory -DTESSERA_SOURCE_DIR=${SOURCE_DIR}
            -DTESSERA_BUILD_TESTING=ON -DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    message("${output}")
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "configuring the consumer with tessera's tests failed (${result})")
    endif()
    if(NOT output MATCHES "documentation tests \\(docs\\.\\*\\) are skipped")
        message(FATAL_ERROR "without Python the configuration should say that the documentation tests are skipped")
    endif()
elseif(MODE STREQUAL "fetch_content")
    # What a release archive holds of the library: no tests, no build trees.
    set(archive ${WORK_DIR}/tessera-${VERSION}.tar.gz)
    execute_process(
        COMMAND ${CMAKE_COMMAND} -E tar czf ${archive} CMakeLists.txt cmake include tools LICENSE
        WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "archiving the library failed (${result})")
    endif()
    run_step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build ${common}
        -DCONSUMER_MODE=fetch_content -DTESSERA_ARCHIVE=${archive})
else()
    message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()

run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-build --target consumers)
run_step(${WORK_DIR}/consumer-build/consumer)
foreach(adapter IN ITEMS json cereal execution inspector)
    if(EXISTS ${WORK_DIR}/consumer-build/consumer_${adapter})
        run_step(${WORK_DIR}/consumer-build/consumer_${adapter})
    endif()
endforeach()

if(NOT MODE STREQUAL "find_package")
    run_step(${CMAKE_COMMAND} --install ${WORK_DIR}/consumer-build --prefix ${WORK_DIR}/consumer-prefix)
    file(GLOB_RECURSE installed RELATIVE ${WORK_DIR}/consumer-prefix ${WORK_DIR}/consumer-prefix/*)
    if(NOT installed STREQUAL "bin/consumer")
        message(FATAL_ERROR "installing the consumer should install bin/consumer only, it installed: ${installed}")
    endif()
endif()
