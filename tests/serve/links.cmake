# pawntb-serve links neither Boost.Program_options nor the generator
# (tools/CMakeLists.txt): no symbol of either, defined or referenced, in its
# symbol table. The same patterns are first found in pawntb, which links both,
# so that a pattern that matches nothing cannot pass the check.
#   cmake -DNM=nm -DCLI=<pawntb> -DSERVE=<pawntb-serve> -P links.cmake
cmake_minimum_required(VERSION 3.22)
set(patterns "boost::program_options" "pawntb::plan_generation")
foreach(program CLI SERVE)
  execute_process(COMMAND ${NM} -C ${${program}} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NM} -C ${${program}} failed (${status})")
  endif()
  foreach(pattern IN LISTS patterns)
    string(FIND "${symbols}" "${pattern}" at)
    if(program STREQUAL "CLI" AND at EQUAL -1)
      message(FATAL_ERROR "${${program}} has no symbol ${pattern}: the check would see nothing")
    elseif(program STREQUAL "SERVE" AND NOT at EQUAL -1)
      message(FATAL_ERROR "${${program}} links ${pattern}")
    endif()
  endforeach()
endforeach()
