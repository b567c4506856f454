# Installs the pawntb build into a scratch prefix, builds the consumer project
# against the installed package, and runs its programs on the installed table.
#
# Also compiles the C consumer with a C compiler and the flags of
# `pkg-config --cflags --libs --static pawntb`, as a non-CMake user would.
#
#   cmake -DPAWNTB_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=...
#         [-DCONSUMER_CXX_STANDARD=17] -P run_consumer.cmake
cmake_minimum_required(VERSION 3.22)

# The C++ standard the C++ consumer is compiled as. The public headers are
# meant to be C++17: 17 once they are (branch lib), 20 until then.
if(NOT CONSUMER_CXX_STANDARD)
  set(CONSUMER_CXX_STANDARD 17)
endif()

foreach(var PAWNTB_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${var} is not set")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
set(table "${prefix}/share/pawntb/4x4-k4.pawntb")

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
    list(APPEND configure_args "-DCMAKE_EXE_LINKER_FLAGS=${sanitize_flag}")
  endif()
endif()
if(NOT build_type)
  set(build_type Release)
endif()

step("install" "${CMAKE_COMMAND}" --install "${PAWNTB_BUILD_DIR}" --prefix "${prefix}")
foreach(file "${table}" "${prefix}/include/pawntb/probe.hpp" "${prefix}/include/pawntb/pawntb.h")
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "consumer: the install did not produce ${file}")
  endif()
endforeach()

step("configure" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}"
     "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=${build_type}"
     "-DCONSUMER_CXX_STANDARD=${CONSUMER_CXX_STANDARD}" ${configure_args})
step("build" "${CMAKE_COMMAND}" --build "${build}")

foreach(program consumer c_consumer)
  set(exe "${build}/${program}")
  if(NOT EXISTS "${exe}")
    message(FATAL_ERROR "consumer: ${exe} was not built")
  endif()
  step("run ${program}" "${exe}" "${table}")
endforeach()

# pkg-config, with the consumer's C compiler. --static adds the C++ runtime
# and zstd that the static libraries need.
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "consumer: pkg-config not found (tools/install-deps.sh installs it)")
endif()
file(GLOB_RECURSE pc_file "${prefix}/*/pkgconfig/pawntb.pc")
if(NOT pc_file)
  message(FATAL_ERROR "consumer: the install did not produce pawntb.pc")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
get_filename_component(libdir "${pc_dir}" DIRECTORY)
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
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
step("build c_consumer with pkg-config" "${cc}" "${CONSUMER_SOURCE_DIR}/c_main.c" ${pc_flags}
     ${sanitize_flag} -o "${build}/c_pkgconfig")
# LD_LIBRARY_PATH for a shared pawntb: pkg-config gives no run-time path.
step("run c_pkgconfig" "${CMAKE_COMMAND}" -E env "LD_LIBRARY_PATH=${libdir}"
     "${build}/c_pkgconfig" "${table}")

message(STATUS "consumer: ok")
