# pawntb::check and pawntb::analysis see an opened table through probe's
# public headers alone (probe/include/pawntb: probe.hpp, block_reader.hpp),
# never probe's internals (probe/src: the opened table, its block decoder):
#   1. no file of check/ or analysis/ includes a header named as one of
#      probe/src (by any path);
#   2. every source of check/src and analysis/src compiles (-fsyntax-only)
#      with an include path of every layer's folders but probe/src, on which
#      a file including probe/src/table_impl.hpp does not, so that the path
#      is known to leave probe/src out;
#   3. neither library has a symbol of probe's internal namespace
#      (probe_detail), defined or referenced, which the probe library has.
#   cmake -DCXX=<compiler> -DSOURCE_DIR=<pawntb> -DNM=nm -DCHECK_LIBRARY=<libpawntb_check.a>
#         -DANALYSIS_LIBRARY=<libpawntb_analysis.a> -DPROBE_LIBRARY=<libpawntb_probe>
#         -DWORK_DIR=<a scratch directory> -P public_only.cmake
cmake_minimum_required(VERSION 3.22)
file(GLOB internal_headers RELATIVE ${SOURCE_DIR}/probe/src ${SOURCE_DIR}/probe/src/*.hpp)
if(NOT "table_impl.hpp" IN_LIST internal_headers)
  message(FATAL_ERROR "no probe/src/table_impl.hpp: the check would see nothing")
endif()
file(GLOB_RECURSE files ${SOURCE_DIR}/check/* ${SOURCE_DIR}/analysis/*)
foreach(file IN LISTS files)
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(header IN LISTS internal_headers)
    foreach(line IN LISTS includes)
      if(line MATCHES "[\"</]${header}[\">]")
        message(FATAL_ERROR "${file} includes probe's internal header ${header}: ${line}")
      endif()
    endforeach()
  endforeach()
endforeach()

set(flags -std=c++20 -fsyntax-only)
foreach(dir util/include util/src game/include game/src format/include format/src probe/include
            check/include check/src analysis/include analysis/src)
  list(APPEND flags -I${SOURCE_DIR}/${dir})
endforeach()
file(GLOB sources ${SOURCE_DIR}/check/src/*.cpp ${SOURCE_DIR}/analysis/src/*.cpp)
list(LENGTH sources count)
if(count LESS 2)
  message(FATAL_ERROR "found ${count} sources in check/src and analysis/src: the check would see nothing")
endif()
foreach(source IN LISTS sources)
  execute_process(COMMAND ${CXX} ${flags} ${source} RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${source} does not compile with probe's public headers alone:\n${errors}")
  endif()
endforeach()
file(WRITE ${WORK_DIR}/reaches_probe_internals.cpp "#include \"table_impl.hpp\"\n")
execute_process(COMMAND ${CXX} ${flags} ${WORK_DIR}/reaches_probe_internals.cpp
                RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
if(status EQUAL 0)
  message(FATAL_ERROR "table_impl.hpp is found without probe/src: the include path does not "
                      "leave probe's internals out")
endif()

foreach(library PROBE_LIBRARY CHECK_LIBRARY ANALYSIS_LIBRARY)
  execute_process(COMMAND ${NM} -C ${${library}} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NM} -C ${${library}} failed (${status})")
  endif()
  string(FIND "${symbols}" "pawntb::probe_detail::" at)
  if(library STREQUAL "PROBE_LIBRARY" AND at EQUAL -1)
    message(FATAL_ERROR "${${library}} has no symbol of pawntb::probe_detail: the check would "
                        "see nothing")
  elseif(NOT library STREQUAL "PROBE_LIBRARY" AND NOT at EQUAL -1)
    message(FATAL_ERROR "${${library}} has a symbol of probe's internals (pawntb::probe_detail)")
  endif()
endforeach()
