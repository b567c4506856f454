#!/bin/sh
# Builds and runs the whole test suite twice: a normal Release build (build/)
# and one with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/).
# The exhaustive sweeps (CTest label `slow`) run once, in the sanitizer build;
# every other test runs in both. The sanitizer build uses -O1, which compiles
# much faster than -O3 (the measurements are in the commit message). The
# Release build has MPI (PAWNTB_MPI), so that the mpirun tests run, and the
# cluster tests (label `cluster`: a local SLURM, ranks in network namespaces;
# they skip, saying why, without root or their packages); the sanitizer build
# does not (OpenMPI's own allocations would need suppressions).
# Between the two, the Python package is built and tested (tests/python).
# Usage: tools/test.sh   (after tools/install-deps.sh)
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build -DPAWNTB_MPI=ON
cmake --build build -j2
# The browser test's npm package (playwright-core, as package-lock.json pins
# it) into tests/browser/node_modules, without its browser download (the test
# uses Debian's chromium). Without the registry it cannot be had: then the
# browser test is skipped, saying why, and the rest runs.
if ! npm ls --prefix tests/browser --depth=0 >/dev/null 2>&1 &&
  ! PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix tests/browser --no-audit --no-fund \
    --loglevel=error; then
  echo "test.sh: cannot install the browser test's npm package (tests/browser); it will be skipped" >&2
fi
ctest --test-dir build --output-on-failure -j2 --label-exclude slow
# The Python package (docs/python.md): pip builds it into a venv under build/
# with Debian's python3, offline, and pytest checks it against build/'s CLI.
# No bytecode or pytest cache is written into the source tree.
python=/usr/bin/python3; [ -x "$python" ] || python=python3
"$python" -m venv --system-site-packages build/python-venv
build/python-venv/bin/pip install --quiet --no-index --disable-pip-version-check \
  --no-build-isolation .
PYTHONDONTWRITEBYTECODE=1 PAWNTB_CLI=build/tools/pawntb \
  build/python-venv/bin/python -m pytest -q -p no:cacheprovider tests/python
# Again in a venv with only what ensurepip puts there (pip and setuptools: no
# wheel package, no numpy), as a Python that is not Debian's has: setup.py
# then writes the wheel itself. The extension's CMake build under build/python
# is the one above. From a directory with no tables, the issue's check.
"$python" -m venv build/python-venv-nowheel
build/python-venv-nowheel/bin/pip install --quiet --no-index --disable-pip-version-check \
  --no-build-isolation .
winner=$(cd build/python-venv-nowheel && env -u PAWNTB_TABLE bin/python \
  -c "import pawntb; print(pawntb.open_table().probe('pppp/4/4/PPPP w').winner)")
[ "$winner" = white ] || { echo "python-venv-nowheel: pawntb says '$winner', not white" >&2; exit 1; }
cmake -S . -B build-asan -DPAWNTB_SANITIZE=address,undefined -DPAWNTB_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS_RELEASE='-O1 -DNDEBUG'
cmake --build build-asan -j2
ctest --test-dir build-asan --output-on-failure -j2
