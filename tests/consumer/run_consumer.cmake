# Installs pawntb into scratch prefixes, builds the consumer project against
# each installed package, and runs its programs: a static pawntb (the build
# under test, or a second one) and a shared one (a second build of the
# libraries alone, or the build under test), so that both kinds are always
# tested. Each program runs once on the installed table named on its command
# line, and once without, copied to a directory outside the source and build
# trees and run there without $PAWNTB_TABLE: it must find the installed
# package's share/pawntb/4x4-k4.pawntb by itself.
#
# Also compiles the C consumer with a C compiler and the flags of
# `pkg-config --cflags --libs --static pawntb`, as a non-CMake user would,
# and runs it on `pkg-config --variable=tabledir pawntb`.
#
#   cmake -DPAWNTB_BUILD_DIR=... -DPAWNTB_SOURCE_DIR=... -DCONSUMER_SOURCE_DIR=...
#         -DWORK_DIR=... [-DCONSUMER_CXX_STANDARD=17] -P run_consumer.cmake
cmake_minimum_required(VERSION 3.22)

# The C++ standard the C++ consumer is compiled as. The public headers are
# meant to be C++17: 17 once they are (branch lib), 20 until then.
if(NOT CONSUMER_CXX_STANDARD)
  set(CONSUMER_CXX_STANDARD 17)
endif()

foreach(var PAWNTB_BUILD_DIR PAWNTB_SOURCE_DIR CONSUMER_SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${var} is not set")
  endif()
endforeach()

# Runs a command; stops with its output if it fails.
function(step name)
  message(STATUS "consumer: ${name}")
  execute_process(COMMAND ${ARGN}
                  RESULT_VARIABLE result
                  OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT result STREQUAL "0")
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "consumer: ${name} failed (${result})\n"
                        "command: ${command}\n"
                        "--- stdout ---\n${out}\n--- stderr ---\n${err}")
  endif()
  if(NOT out STREQUAL "")
    message(STATUS "${out}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# The same compiler and build type as the pawntb build, when it says.
set(configure_args)
set(sanitize_args)
if(EXISTS "${PAWNTB_BUILD_DIR}/CMakeCache.txt")
  file(STRINGS "${PAWNTB_BUILD_DIR}/CMakeCache.txt" cxx REGEX "^CMAKE_CXX_COMPILER:[A-Z]+=")
  if(cxx)
    string(REGEX REPLACE "^[^=]*=" "" cxx "${cxx}")
    list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${cxx}")
  endif()
  file(STRINGS "${PAWNTB_BUILD_DIR}/CMakeCache.txt" build_type REGEX "^CMAKE_BUILD_TYPE:[A-Z]+=")
  string(REGEX REPLACE "^[^=]*=" "" build_type "${build_type}")
  # A sanitized pawntb needs the sanitizer runtime when a consumer links it.
  file(STRINGS "${PAWNTB_BUILD_DIR}/CMakeCache.txt" sanitize REGEX "^PAWNTB_SANITIZE:[A-Z]+=")
  string(REGEX REPLACE "^[^=]*=" "" sanitize "${sanitize}")
  if(sanitize)
    set(sanitize_flag "-fsanitize=${sanitize}")
    set(sanitize_args "-DCMAKE_EXE_LINKER_FLAGS=${sanitize_flag}")
  endif()
endif()
if(NOT build_type)
  set(build_type Release)
endif()

# A directory outside both trees, where the programs run.
include("${CMAKE_CURRENT_LIST_DIR}/../support/scratch_dir.cmake")
pawntb_scratch_dir(elsewhere consumer pawntb-consumer)
file(REMOVE_RECURSE "${elsewhere}")
file(MAKE_DIRECTORY "${elsewhere}")

# Installs `pawntb_build` into WORK_DIR/<kind>/prefix, builds the consumers
# against it, and runs them; `kind` is static or shared.
function(consume kind pawntb_build)
  set(prefix "${WORK_DIR}/${kind}/prefix")
  set(build "${WORK_DIR}/${kind}/build")
  set(table "${prefix}/share/pawntb/4x4-k4.pawntb")
  step("${kind}: install" "${CMAKE_COMMAND}" --install "${pawntb_build}" --prefix "${prefix}")
  foreach(file "${table}" "${prefix}/include/pawntb/probe.hpp" "${prefix}/include/pawntb/pawntb.h")
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "consumer: the install did not produce ${file}")
    endif()
  endforeach()
  file(GLOB libraries "${prefix}/*/libpawntb_probe.*")
  if(kind STREQUAL "static")
    list(FILTER libraries INCLUDE REGEX "\\.a$")
  else()
    list(FILTER libraries INCLUDE REGEX "\\.so")
  endif()
  if(NOT libraries)
    message(FATAL_ERROR "consumer: ${prefix} has no ${kind} libpawntb_probe")
  endif()

  step("${kind}: configure" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}"
       "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=${build_type}"
       "-DCONSUMER_CXX_STANDARD=${CONSUMER_CXX_STANDARD}" ${configure_args} ${sanitize_args})
  step("${kind}: build" "${CMAKE_COMMAND}" --build "${build}")

  foreach(program consumer c_consumer)
    set(exe "${build}/${program}")
    if(NOT EXISTS "${exe}")
      message(FATAL_ERROR "consumer: ${exe} was not built")
    endif()
    step("${kind}: run ${program} ${table}" "${exe}" "${table}")
    # Elsewhere, with no table named: the installed one, found by itself.
    file(COPY "${exe}" DESTINATION "${elsewhere}/${kind}")
    message(STATUS "consumer: ${kind}: run ${program} in ${elsewhere}")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=PAWNTB_TABLE
                            "${elsewhere}/${kind}/${program}"
                    WORKING_DIRECTORY "${elsewhere}"
                    RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT result STREQUAL "0")
      message(FATAL_ERROR "consumer: ${kind} ${program} without a table, run in ${elsewhere}, "
                          "failed (${result}):\n${out}${err}")
    endif()
    if(program STREQUAL "consumer")
      string(FIND "${out}" "${table}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "consumer: ${kind} consumer did not open ${table}:\n${out}")
      endif()
    endif()
    message(STATUS "${out}")
  endforeach()
endfunction()

# The other kind of library than the build under test: the libraries alone,
# configured from the same sources with the same compiler.
file(STRINGS "${PAWNTB_BUILD_DIR}/CMakeCache.txt" shared REGEX "^BUILD_SHARED_LIBS:[A-Z]+=(ON|1|TRUE)$")
if(shared)
  set(kind_under_test shared)
  set(other_kind static)
  set(other_shared OFF)
else()
  set(kind_under_test static)
  set(other_kind shared)
  set(other_shared ON)
endif()
set(other_build "${WORK_DIR}/${other_kind}-pawntb")
set(other_args)
foreach(var CMAKE_CXX_COMPILER CMAKE_CXX_COMPILER_LAUNCHER)
  file(STRINGS "${PAWNTB_BUILD_DIR}/CMakeCache.txt" value REGEX "^${var}:[A-Z]+=")
  if(value)
    string(REGEX REPLACE "^[^=]*=" "" value "${value}")
    list(APPEND other_args "-D${var}=${value}")
  endif()
endforeach()
step("${other_kind} libraries: configure" "${CMAKE_COMMAND}" -S "${PAWNTB_SOURCE_DIR}"
     -B "${other_build}" "-DCMAKE_BUILD_TYPE=${build_type}" "-DBUILD_SHARED_LIBS=${other_shared}"
     -DPAWNTB_BUILD_CLI=OFF -DPAWNTB_BUILD_TESTS=OFF -DPAWNTB_BUILD_BENCH=OFF ${other_args})
step("${other_kind} libraries: build" "${CMAKE_COMMAND}" --build "${other_build}")

consume(${kind_under_test} "${PAWNTB_BUILD_DIR}")
set(sanitize_flag_under_test "${sanitize_flag}")
set(sanitize_args)  # the second build is not sanitized
set(sanitize_flag)
consume(${other_kind} "${other_build}")

# pkg-config, with the consumer's C compiler, against the static install.
# --static adds the C++ runtime and zstd that the static libraries need.
set(prefix "${WORK_DIR}/static/prefix")
set(build "${WORK_DIR}/static/build")
if(kind_under_test STREQUAL "static")
  set(sanitize_flag "${sanitize_flag_under_test}")
endif()
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "consumer: pkg-config not found (tools/install-deps.sh installs it)")
endif()
file(GLOB_RECURSE pc_file "${prefix}/*/pkgconfig/pawntb.pc")
if(NOT pc_file)
  message(FATAL_ERROR "consumer: the install did not produce pawntb.pc")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
file(STRINGS "${build}/CMakeCache.txt" cc REGEX "^CMAKE_C_COMPILER:[A-Z]+=")
string(REGEX REPLACE "^[^=]*=" "" cc "${cc}")
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs --static pawntb
                RESULT_VARIABLE result OUTPUT_VARIABLE pc_flags ERROR_VARIABLE err
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT result STREQUAL "0")
  message(FATAL_ERROR "consumer: pkg-config --static pawntb failed: ${err}")
endif()
message(STATUS "consumer: pkg-config --cflags --libs --static pawntb: ${pc_flags}")
execute_process(COMMAND "${PKG_CONFIG}" --variable=tabledir pawntb
                RESULT_VARIABLE result OUTPUT_VARIABLE tabledir OUTPUT_STRIP_TRAILING_WHITESPACE)
file(REAL_PATH "${tabledir}" tabledir_real)
file(REAL_PATH "${prefix}/share/pawntb" expected_real)
if(NOT result STREQUAL "0" OR NOT tabledir_real STREQUAL expected_real)
  message(FATAL_ERROR "consumer: pkg-config --variable=tabledir pawntb gives '${tabledir}', "
                      "not ${prefix}/share/pawntb")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
step("build c_consumer with pkg-config" "${cc}" "${CONSUMER_SOURCE_DIR}/c_main.c" ${pc_flags}
     ${sanitize_flag} -o "${elsewhere}/c_pkgconfig")
step("run c_pkgconfig on its tabledir" "${CMAKE_COMMAND}" -E env "PAWNTB_TABLE=${tabledir}"
     "${elsewhere}/c_pkgconfig")

file(REMOVE_RECURSE "${elsewhere}")
message(STATUS "consumer: ok")
