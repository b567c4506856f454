# Scratch directories for the script tests (cmake -P) that install, move and
# run pawntb away from the trees it was built from: they prove nothing if the
# directory is inside the source or the build tree.

# Stops with an error when `dir` is inside PAWNTB_SOURCE_DIR or
# PAWNTB_BUILD_DIR; `who` names the script in the message.
function(pawntb_require_outside_trees who dir)
  foreach(tree "${PAWNTB_SOURCE_DIR}" "${PAWNTB_BUILD_DIR}")
    cmake_path(IS_PREFIX tree "${dir}" NORMALIZE inside)
    if(inside)
      message(FATAL_ERROR "${who}: ${dir} is inside ${tree}")
    endif()
  endforeach()
endfunction()

# Sets `out_var` to a new name, PREFIX-<random> in $TMPDIR or /tmp, checked
# to be outside both trees. The caller creates and removes it.
function(pawntb_scratch_dir out_var who prefix)
  set(tmp "$ENV{TMPDIR}")
  if(NOT tmp)
    set(tmp /tmp)
  endif()
  string(RANDOM LENGTH 8 suffix)
  set(dir "${tmp}/${prefix}-${suffix}")
  pawntb_require_outside_trees("${who}" "${dir}")
  set(${out_var} "${dir}" PARENT_SCOPE)
endfunction()
