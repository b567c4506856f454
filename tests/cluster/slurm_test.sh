#!/bin/bash
# The batch script (tools/cluster/generate.sbatch) submitted to a real SLURM:
# tools/cluster/local-slurm.sh starts one on this machine, with its own
# configuration and ports. A job of 3 tasks makes the table of one process
# byte for byte; a job cancelled (scancel) once some units are finished keeps
# them, and the same command submitted again resumes to the same bytes. The
# full run launches with mpirun inside the allocation, the cancelled and
# resumed ones with the script's default (srun --mpi=pmix where SLURM offers
# it). Skips (77) without root or the SLURM and munge packages.
# Usage: slurm_test.sh PAWNTB SOURCE_DIR
set -euo pipefail
pawntb=$(realpath "$1") source_dir=$(realpath "$2")
. "$source_dir/tests/cluster/lib.sh"
rows=6 cols=4

[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd runs a job as the user who submitted it)"
need_commands munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo srun mpirun ss
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pawntb-slurm-test.XXXXXX")
# Two free ports of their own, so that the test runs beside any other SLURM.
port_free() { [ -z "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; }
port=$((17000 + $$ % 2000 * 2))
until port_free $port && port_free $((port + 1)); do port=$((port + 2)); done
export PAWNTB_SLURM_DIR=$tmp/slurm PAWNTB_SLURMCTLD_PORT=$port PAWNTB_SLURMD_PORT=$((port + 1))
export SLURM_CONF=$PAWNTB_SLURM_DIR/slurm.conf PAWNTB=$pawntb
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
slurm=$source_dir/tools/cluster/local-slurm.sh
cleanup() {
  "$slurm" stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

"$pawntb" generate --rows $rows --cols $cols --output "$tmp/reference.pawntb" >/dev/null 2>&1 ||
  fail "$pawntb generate did not make the reference table"
note "starting SLURM in $PAWNTB_SLURM_DIR, ports $port and $((port + 1))"
"$slurm" start || fail "the local SLURM did not start"

# submit LAUNCH: submits the script for the board with 3 tasks (--overcommit:
# more tasks than the node's CPUs), prints the job id.
submit() {
  PAWNTB_LAUNCH=$1 sbatch --parsable --ntasks=3 --overcommit --chdir="$tmp" \
    --output="$tmp/job-%j.log" "$source_dir/tools/cluster/generate.sbatch" \
    --rows $rows --cols $cols --threads 1 --work-dir "$tmp/work" --output "$tmp/out.pawntb"
}
state() { scontrol show job -o "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
finished() {
  [ -z "$(squeue -h -j "$1" -t PENDING,RUNNING,COMPLETING,CONFIGURING,SUSPENDED 2>/dev/null)" ] &&
    case $(state "$1") in PENDING | RUNNING | COMPLETING | CONFIGURING | SUSPENDED | "") false ;; esac
}
# wait_job ID STATE: waits for the job to end (at most 120 s), in STATE.
wait_job() {
  wait_until 120 "end of job $1" finished "$1"
  local got
  got=$(state "$1")
  [ "$got" = "$2" ] || { cat "$tmp/job-$1.log" >&2; fail "job $1 ended $got, not $2"; }
}

job=$(submit mpirun)
note "job $job: the whole board, mpirun inside the allocation"
wait_job "$job" COMPLETED
grep -q "pawntb-generate: job $job: 3 ranks on $(hostname -s)" "$tmp/job-$job.log" ||
  fail "job $job's log does not name its ranks and node"
grep -q "rank 0 schedules the units" "$tmp/job-$job.log" || fail "job $job did not run 3 ranks"
same_bytes "$tmp/out.pawntb" "$tmp/reference.pawntb" "job $job (mpirun)"
[ ! -e "$tmp/work" ] || fail "job $job left its work directory"

rm "$tmp/out.pawntb"
job=$(submit "")
note "job $job: the script's own launcher, cancelled once 5 units are finished"
if srun --mpi=list 2>&1 | grep -w pmix >/dev/null; then launcher="srun --mpi=pmix"; else launcher=mpirun; fi
units_or_end() { at_least_units "$tmp/work" 5 || finished "$job"; }
wait_until 120 "5 unit files in $tmp/work" units_or_end
[ "$(state "$job")" = RUNNING ] ||
  { cat "$tmp/job-$job.log"; fail "job $job ended before it could be cancelled: $(state "$job")"; }
scancel "$job"
wait_job "$job" CANCELLED
kept=$(unit_files "$tmp/work")
note "job $job cancelled with $kept unit files kept"
grep -qF -- "$launcher" "$tmp/job-$job.log" || fail "job $job did not launch with $launcher"
grep -q "job $job on $(hostname -s) stopped by SIGTERM .*submit the same command again" \
  "$tmp/job-$job.log" || { cat "$tmp/job-$job.log"; fail "job $job's log does not say it was stopped"; }
[ ! -e "$tmp/out.pawntb" ] || fail "a cancelled job wrote the table"
[ "$kept" -ge 5 ] || fail "job $job's finished units were not kept"

job=$(submit "")
note "job $job: the same command again"
wait_job "$job" COMPLETED
grep -q "resuming" "$tmp/job-$job.log" || { cat "$tmp/job-$job.log"; fail "job $job did not resume"; }
same_bytes "$tmp/out.pawntb" "$tmp/reference.pawntb" "job $job (resumed)"
