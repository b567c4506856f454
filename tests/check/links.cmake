# Verify, its plan, the block checks, tier checksums and entry scans are
# pawntb::check's, not pawntb::probe's: no symbol naming them, defined or
# referenced, is in the probe library nor in a program that only probes
# (probe_only.cpp). The names are first found in pawntb, which links
# pawntb::check, so that a name that matches nothing cannot pass the check.
#   cmake -DNM=nm -DCLI=<pawntb> -DPROBE_LIBRARY=<libpawntb_probe>
#         -DPROBE_ONLY=<probe_only> -P links.cmake
cmake_minimum_required(VERSION 3.22)
set(names "verify" "verify_plan" "check_blocks" "read_entries" "tier_checksums")
foreach(program CLI PROBE_LIBRARY PROBE_ONLY)
  execute_process(COMMAND ${NM} -C ${${program}} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NM} -C ${${program}} failed (${status})")
  endif()
  foreach(name IN LISTS names)
    if(program STREQUAL "CLI")
      string(FIND "${symbols}" "pawntb::check::${name}(" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "${${program}} has no symbol pawntb::check::${name}: the check would "
                            "see nothing")
      endif()
    else()
      string(FIND "${symbols}" "${name}" at)
      if(NOT at EQUAL -1)
        message(FATAL_ERROR "${${program}} has a symbol naming ${name}")
      endif()
    endif()
  endforeach()
endforeach()
