#!/bin/sh
# Configures and builds pawntb with combinations of its build options, each in
# its own directory, building only the targets each option adds, and prints a
# table of results. Exits 1 if a combination that should work does not, or
# one that should be refused is not.
# Usage: tools/check-build-options.sh [WORK_DIR]   (default: build-options/)
# Set JOBS (default 2). Fuzz rows need clang (tools/install-deps.sh --fuzz).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$src/build-options}
jobs=${JOBS:-2}
generator=""
command -v ninja >/dev/null 2>&1 && generator="-GNinja"
mkdir -p "$work"
failures=0
summary=""

# row NAME EXPECT TARGETS TESTS -- CMAKE_ARGS...
# EXPECT: ok or refused (at configure time); TESTS: a ctest -R regex to run
# after the build, or "".
row() {
  name=$1 expect=$2 targets=$3 tests_run=$4
  shift 5
  dir="$work/$name"
  log="$dir.log"
  rm -rf "$dir"
  result=ok
  if ! cmake -S "$src" -B "$dir" $generator "$@" >"$log" 2>&1; then
    result=refused
  elif ! cmake --build "$dir" -j"$jobs" --target $targets >>"$log" 2>&1; then
    result=build-failed
  elif [ -n "$tests_run" ] && ! ctest --test-dir "$dir" -R "$tests_run" >>"$log" 2>&1; then
    result=tests-failed
  fi
  if [ "$result" = "$expect" ]; then verdict=PASS; else verdict=FAIL; failures=$((failures + 1)); fi
  line=$(printf '%-4s %-26s %-12s %s' "$verdict" "$name" "$result" "$*")
  echo "$line"
  summary="$summary$line
"
  [ "$result" = ok ] && rm -rf "$dir"  # keep failures' trees for a look, drop the rest
}

# One or two targets of each kind, to keep the run short: the libraries, the
# CLI, the benchmark programs that link pawntb, a test and a fuzz replayer.
lib="pawntb_probe"
cli="pawntb"
bench="make_uva_input naive_size"
tests="locate_tests replay_table"

# Quick ones first: the refused combinations stop at configure time.
row tests-without-cli  refused "$lib" "" -- -DPAWNTB_BUILD_CLI=OFF
row fuzz-with-gcc      refused "$lib" "" -- -DCMAKE_CXX_COMPILER=g++ -DPAWNTB_FUZZ=ON
row sanitize-alone     ok "$lib $cli $bench $tests" "" -- -DPAWNTB_SANITIZE=address,undefined
row shared             ok "$lib $cli $bench $tests" "Locate|installed_package" -- -DBUILD_SHARED_LIBS=ON
row library-only       ok "all" "" -- -DPAWNTB_BUILD_CLI=OFF -DPAWNTB_BUILD_TESTS=OFF \
                                         -DPAWNTB_BUILD_BENCH=OFF
if command -v clang++ >/dev/null 2>&1; then
  row fuzz             ok "$lib fuzz_table fuzz_position replay_table" "" -- \
                          -DCMAKE_CXX_COMPILER=clang++ -DPAWNTB_FUZZ=ON -DPAWNTB_BUILD_TESTS=OFF \
                          -DPAWNTB_BUILD_BENCH=OFF
else
  echo "SKIP fuzz rows: no clang++ (tools/install-deps.sh --fuzz)"
fi
row cli-and-library    ok "all" "" -- -DPAWNTB_BUILD_TESTS=OFF -DPAWNTB_BUILD_BENCH=OFF
row shared-static-cli  ok "$lib $cli" "" -- -DBUILD_SHARED_LIBS=ON -DPAWNTB_STATIC_CLI=ON \
                                         -DPAWNTB_BUILD_TESTS=OFF -DPAWNTB_BUILD_BENCH=OFF
row default            ok "$lib $cli $bench $tests" "Locate|installed_package" --
row bench-without-cli  ok "$lib $bench" "" -- -DPAWNTB_BUILD_CLI=OFF -DPAWNTB_BUILD_TESTS=OFF
row mpi                ok "$lib $cli mpi_tests" "" -- -DPAWNTB_MPI=ON -DPAWNTB_BUILD_BENCH=OFF
row sanitize-thread    ok "$lib $cli $tests" "" -- -DPAWNTB_SANITIZE=thread -DPAWNTB_BUILD_BENCH=OFF
row shared-sanitize    ok "$lib $cli $tests" "" -- -DBUILD_SHARED_LIBS=ON \
                                         -DPAWNTB_SANITIZE=address,undefined -DPAWNTB_BUILD_BENCH=OFF
if command -v clang++ >/dev/null 2>&1; then
  row fuzz-shared      ok "$lib fuzz_table" "" -- -DCMAKE_CXX_COMPILER=clang++ -DPAWNTB_FUZZ=ON \
                          -DBUILD_SHARED_LIBS=ON -DPAWNTB_BUILD_TESTS=OFF -DPAWNTB_BUILD_BENCH=OFF
fi

# pawntb added to another project: no tests or benchmarks, so neither
# GoogleTest nor Google Benchmark is looked for; with PAWNTB_BUILD_CLI=OFF
# neither are Boost and nlohmann_json.
outer="$work/outer-src"
rm -rf "$outer"
mkdir -p "$outer"
cat >"$outer/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.22)
project(outer CXX)
# A consumer on C++17: the public headers must compile as C++17.
set(CMAKE_CXX_STANDARD 17)
add_subdirectory("$src" pawntb)
foreach(pkg GTest benchmark Boost nlohmann_json)
  if(\${pkg}_FOUND OR DEFINED CACHE{\${pkg}_DIR})
    message(FATAL_ERROR "pawntb as a subproject looked for \${pkg}")
  endif()
endforeach()
add_executable(outer main.cpp)
target_link_libraries(outer PRIVATE pawntb::probe)
CMAKE
printf '#include "pawntb/probe.hpp"\nint main() { return pawntb::Table::search_path().empty(); }\n' \
  >"$outer/main.cpp"
src_saved=$src
src=$outer
row subproject         ok "outer" "" -- -DPAWNTB_BUILD_CLI=OFF
src=$src_saved

printf '\n%s' "$summary"
[ "$failures" -eq 0 ] || { echo "$failures combination(s) failed; logs in $work/*.log" >&2; exit 1; }
echo "all combinations as expected"
