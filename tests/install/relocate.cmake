# Installs the pawntb build into a scratch prefix, moves the prefix, and runs
# the moved pawntb from a directory outside the source and build trees: it
# must open the moved prefix's share/pawntb/4x4-k4.pawntb. Also checks that no
# installed file names the source or build directory.
#
#   cmake -DPAWNTB_BUILD_DIR=... -DPAWNTB_SOURCE_DIR=... [-DWORK_DIR=...] -P relocate.cmake
#
# WORK_DIR (default: a new directory in $TMPDIR or /tmp, removed on success)
# must be outside both trees.
cmake_minimum_required(VERSION 3.22)

foreach(var PAWNTB_BUILD_DIR PAWNTB_SOURCE_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "relocate.cmake: ${var} is not set")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/../support/scratch_dir.cmake")
if(NOT WORK_DIR)
  pawntb_scratch_dir(WORK_DIR relocate pawntb-relocate)
  set(remove_work_dir ON)
endif()
pawntb_require_outside_trees("relocate: WORK_DIR" "${WORK_DIR}")

set(installed "${WORK_DIR}/installed")
set(moved "${WORK_DIR}/moved")
set(elsewhere "${WORK_DIR}/elsewhere")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${elsewhere}")

# Runs a command in `elsewhere` without $PAWNTB_TABLE; stops with its output
# if it fails. Its stdout is left in `out`.
function(run name)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=PAWNTB_TABLE ${ARGN}
                  WORKING_DIRECTORY "${elsewhere}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT result STREQUAL "0")
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "relocate: ${name} failed (${result})\ncommand: ${command}\n"
                        "--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}")
  endif()
  set(out "${stdout}" PARENT_SCOPE)
endfunction()

# --strip: debug information names the source files by design.
run("install" "${CMAKE_COMMAND}" --install "${PAWNTB_BUILD_DIR}" --prefix "${installed}" --strip)
file(RENAME "${installed}" "${moved}")
if(EXISTS "${installed}")
  message(FATAL_ERROR "relocate: ${installed} still exists after the move")
endif()

set(table "${moved}/share/pawntb/4x4-k4.pawntb")
foreach(file "${moved}/bin/pawntb" "${table}" "${moved}/share/pawntb/checksums.txt")
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "relocate: the install did not produce ${file}")
  endif()
endforeach()

run("pawntb info" "${moved}/bin/pawntb" info)
string(FIND "${out}" "${table}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "relocate: the moved pawntb did not open ${table}; `pawntb info` says:\n${out}")
endif()
run("pawntb probe" "${moved}/bin/pawntb" probe ".ppp/4/.PPP/4 w")
message(STATUS "relocate: the moved pawntb opens ${table}")

# No installed file names the build machine's source or build directory. A
# sanitized build cannot pass: the sanitizers' reports name source files, and
# so do static archives with debug information.
file(STRINGS "${PAWNTB_BUILD_DIR}/CMakeCache.txt" sanitize REGEX "^PAWNTB_(SANITIZE|FUZZ):[A-Z]+=.+")
list(FILTER sanitize EXCLUDE REGEX "=(OFF|0|FALSE|)$")
file(STRINGS "${PAWNTB_BUILD_DIR}/CMakeCache.txt" debug REGEX "^CMAKE_BUILD_TYPE:[A-Z]+=(Debug|RelWithDebInfo)$")
if(sanitize)
  message(STATUS "relocate: sanitized build (${sanitize}): source paths in installed files not checked")
else()
  file(GLOB_RECURSE files LIST_DIRECTORIES false "${moved}/*")
  foreach(file IN LISTS files)
    if(debug AND file MATCHES "\\.a$")
      continue()
    endif()
    file(STRINGS "${file}" text)
    foreach(dir "${PAWNTB_SOURCE_DIR}" "${PAWNTB_BUILD_DIR}")
      string(FIND "${text}" "${dir}" at)
      if(NOT at EQUAL -1)
        message(FATAL_ERROR "relocate: ${file} names ${dir}")
      endif()
    endforeach()
  endforeach()
  list(LENGTH files count)
  message(STATUS "relocate: none of the ${count} installed files names the source or build directory")
endif()
if(remove_work_dir)
  file(REMOVE_RECURSE "${WORK_DIR}")
endif()
