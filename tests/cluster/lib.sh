# shellcheck shell=bash
# Shared by the cluster tests (slurm_test.sh, netns_test.sh); sourced by bash.
# A test skips (status 77, CTest's SKIP_RETURN_CODE) with its reason printed
# when the machine cannot run it, and fails (status 1) with a message
# otherwise. Every wait is a poll for an event with a time limit.

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*" >&2; exit 1; }
note() { echo "$(date -u +%H:%M:%S) $*"; }

need_commands() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 ||
      skip "$tool is not installed (tools/install-deps.sh installs the cluster packages)"
  done
}

# wait_until SECONDS WHAT COMMAND...: polls COMMAND every 0.1 s until it
# succeeds; fails naming WHAT after SECONDS.
wait_until() {
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || fail "no $what within $limit s"
    sleep 0.1
  done
}

# How many finished unit files DIR holds (a killed writer's temporary files
# start with a dot and are not counted).
unit_files() {
  local n=0 f
  for f in "$1"/unit-*.zst; do [ -e "$f" ] && n=$((n + 1)); done
  echo "$n"
}
at_least_units() { [ "$(unit_files "$1")" -ge "$2" ]; }

# same_bytes A B WHAT: the two tables are equal byte for byte.
same_bytes() {
  [ -f "$1" ] || fail "$3: $1 was not written"
  cmp "$1" "$2" || fail "$3: $1 differs from the one-process table $2"
  note "$3: byte for byte the one-process table"
}
