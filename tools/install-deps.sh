#!/bin/sh
# Installs pawntb's build and test dependencies from Debian packages.
# Idempotent: does nothing when every package is already present.
# Usage: tools/install-deps.sh [--fuzz] [--no-cluster]
#   --fuzz        adds clang and its sanitizer runtime
#   --no-cluster  leaves out SLURM and munge (the cluster tests then skip)
set -eu
fuzz="" cluster=yes
for arg in "$@"; do
  case $arg in
    --fuzz) fuzz=yes ;;
    --no-cluster) cluster="" ;;
    *) echo "usage: $0 [--fuzz] [--no-cluster]" >&2; exit 2 ;;
  esac
done

# libc6-dev (which g++ brings anyway) and the -dev packages of Boost and zstd
# hold the static archives that the static pawntb executable links; pkg-config
# is for the test of pawntb.pc.
packages="cmake g++ make libc6-dev libboost-program-options-dev libzstd-dev libxxhash-dev \
libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev pkg-config time libcpp-httplib-dev \
libopenmpi-dev openmpi-bin"
# The Python package (python/, docs/python.md): built by pip in a venv with
# setuptools (and wheel) driving CMake, with pybind11; numpy and pytest for
# its tests. Offline: the venv sees these through --system-site-packages.
packages="$packages python3-dev python3-venv python3-setuptools python3-wheel python3-pybind11 \
pybind11-dev python3-numpy python3-pytest"
if [ -n "$fuzz" ]; then
  packages="$packages clang libclang-rt-14-dev"
fi
# The cluster tests (CTest label `cluster`, docs/cluster.md): a one-node SLURM
# started by tools/cluster/local-slurm.sh, and MPI ranks in network
# namespaces (iproute2's ip netns).
if [ -n "$cluster" ]; then
  packages="$packages slurmctld slurmd slurm-client munge iproute2"
fi
# The browser test (tests/browser) drives Debian's chromium with npm's
# playwright-core, which tools/test.sh installs (it needs the npm registry;
# nothing here does). A node and npm already on the machine are kept (they may
# be newer than Debian's); Debian's nodejs and npm come only when they are absent.
packages="$packages chromium"
command -v node >/dev/null 2>&1 || packages="$packages nodejs"
command -v npm >/dev/null 2>&1 || packages="$packages npm"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done

if [ -z "$missing" ]; then
  echo "install-deps: all dependencies present"
  exit 0
fi

echo "install-deps: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "install-deps: need root (or sudo) to install:$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing
