# pawntb_library(NAME [INSTALLED] [INCLUDE DIR] SOURCES FILE...)
#
# The library pawntb_NAME with the alias pawntb::NAME and pawntb's compiler
# flags (pawntb_warnings), its public headers in DIR (default: include/ of
# the calling directory, when there is one). Links, private include
# directories and the like are the caller's.
#
# INSTALLED: one of the libraries the package exports as pawntb::NAME (the
# caller lists it in install(TARGETS ... EXPORT pawntbTargets)): static or
# shared as BUILD_SHARED_LIBS says, position-independent, versioned (the ABI
# may change with every minor version before 1.0: the package is
# SameMinorVersion compatible), its headers found in the install prefix's
# include directory once installed, and C++17 for its consumers (pawntb
# itself: CMAKE_CXX_STANDARD 20). Otherwise a static library of the build
# tree.
function(pawntb_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "INSTALLED" "INCLUDE" "SOURCES")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_SOURCES)
    message(FATAL_ERROR "pawntb_library(${name}): expected [INSTALLED] [INCLUDE DIR] SOURCES ...")
  endif()
  if(NOT arg_INCLUDE)
    set(arg_INCLUDE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  endif()
  set(target pawntb_${name})
  if(arg_INSTALLED)
    add_library(${target} ${arg_SOURCES})
    set_target_properties(${target} PROPERTIES
      EXPORT_NAME ${name} OUTPUT_NAME ${target} POSITION_INDEPENDENT_CODE ON
      VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
    if(IS_DIRECTORY ${arg_INCLUDE})
      target_include_directories(${target} PUBLIC
        $<BUILD_INTERFACE:${arg_INCLUDE}>
        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    endif()
    target_compile_features(${target} PUBLIC cxx_std_17)
  else()
    add_library(${target} STATIC ${arg_SOURCES})
    if(IS_DIRECTORY ${arg_INCLUDE})
      target_include_directories(${target} PUBLIC ${arg_INCLUDE})
    endif()
  endif()
  add_library(pawntb::${name} ALIAS ${target})
  pawntb_warnings(${target})
endfunction()
