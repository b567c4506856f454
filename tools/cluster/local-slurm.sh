#!/bin/sh
# A one-node SLURM on this machine, for trying and testing the batch script
# (tools/cluster/generate.sbatch; docs/cluster.md): Debian's munged,
# slurmctld and slurmd (tools/install-deps.sh installs them), with their own
# configuration, key, spool, state and logs in one directory, so that nothing
# under /etc is read or changed.
#
# Usage: tools/cluster/local-slurm.sh start|stop|status|env
#   start   writes DIR/slurm.conf (one node named `hostname -s`, its CPUs and
#           memory, oversubscription allowed), makes a munge key if DIR has
#           none, starts munged, slurmctld and slurmd, and returns once sinfo
#           reports the node idle (exit 1, with the daemons' logs, if that takes
#           longer than PAWNTB_SLURM_TIMEOUT seconds, default 60)
#   stop    cancels the jobs, then stops the three daemons (TERM, then KILL)
#   status  the daemons and the node's state; exit 0 if the node is up
#   env     prints `export SLURM_CONF=...`: eval "$(tools/cluster/local-slurm.sh env)"
# Environment: PAWNTB_SLURM_DIR (default ${TMPDIR:-/tmp}/pawntb-slurm),
# PAWNTB_SLURMCTLD_PORT and PAWNTB_SLURMD_PORT (default 6817 and 6818).
# The client commands (sbatch, squeue, sinfo, scontrol) need SLURM_CONF set to
# DIR/slurm.conf. slurmctld starts with an empty queue (-c).
set -eu

dir=${PAWNTB_SLURM_DIR:-${TMPDIR:-/tmp}/pawntb-slurm}
conf=$dir/slurm.conf
timeout=${PAWNTB_SLURM_TIMEOUT:-60}
export SLURM_CONF="$conf"

say() { echo "local-slurm: $*"; }
fail() { echo "local-slurm: $*" >&2; exit 1; }

# The pid in DIR/NAME.pid if that process is alive, else nothing.
running_pid() {
  [ -s "$dir/$1.pid" ] || return 1
  pid=$(cat "$dir/$1.pid")
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

node_state() { sinfo -h -o %T 2>/dev/null | head -n 1; }

show_logs() {
  for log in munged slurmctld slurmd; do
    [ -s "$dir/$log.log" ] || continue
    echo "--- $dir/$log.log (last lines)" >&2
    tail -n 15 "$dir/$log.log" >&2
  done
}

write_conf() {
  host=$(hostname -s)
  cpus=$(nproc)
  # slurmd drains a node that claims more memory than it has: a little less.
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.95 }' /proc/meminfo)
  user=$(id -un)
  cat >"$conf.tmp" <<EOF
# Written by tools/cluster/local-slurm.sh: a one-node cluster on this machine.
ClusterName=pawntb-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${PAWNTB_SLURMCTLD_PORT:-6817}
SlurmdPort=${PAWNTB_SLURMD_PORT:-6818}
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# No cgroups: processes tracked by their parents, tasks not bound to CPUs.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
EOF
  mv "$conf.tmp" "$conf"
}

start() {
  for tool in munged mungekey slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null 2>&1 ||
      fail "$tool is missing: install slurmctld, slurmd, slurm-client and munge (tools/install-deps.sh)"
  done
  if running_pid slurmctld >/dev/null && running_pid slurmd >/dev/null &&
     [ "$(node_state)" = idle ]; then
    say "already up; export SLURM_CONF=$conf"
    return 0
  fi
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  chmod 0700 "$dir/munge"
  write_conf
  key=$dir/munge/munge.key
  [ -s "$key" ] || mungekey --create --keyfile="$key"
  chmod 0400 "$key"
  if ! running_pid munged >/dev/null; then
    # --force: the state directory may sit under a world-writable /tmp.
    munged --force --socket="$dir/munge/munge.socket" --key-file="$key" \
      --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
      --seed-file="$dir/munge/munged.seed" || { show_logs; fail "munged did not start"; }
  fi
  running_pid slurmctld >/dev/null || slurmctld -c -f "$conf" || { show_logs; fail "slurmctld did not start"; }
  running_pid slurmd >/dev/null || slurmd -f "$conf" || { show_logs; fail "slurmd did not start"; }
  # The node reports idle once slurmd has registered with slurmctld.
  deadline=$(( $(date +%s) + timeout ))
  while [ "$(node_state)" != idle ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      show_logs
      fail "the node is '$(node_state)', not idle, after ${timeout} s (logs above, in $dir)"
    fi
    for daemon in slurmctld slurmd; do
      # The pid file may lag the fork: only a written, dead pid is a failure.
      if [ -s "$dir/$daemon.pid" ] && ! running_pid "$daemon" >/dev/null; then
        show_logs
        fail "$daemon exited (logs above, in $dir)"
      fi
    done
    sleep 0.2
  done
  say "up: node $(hostname -s), $(nproc) CPUs, partition debug; export SLURM_CONF=$conf"
}

# Sends TERM to DIR/NAME.pid's process, then KILL if it is alive after 15 s.
stop_daemon() {
  pid=$(running_pid "$1") || { rm -f "$dir/$1.pid"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$(( $(date +%s) + 15 ))
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      say "$1 ($pid) did not stop on TERM: KILL"
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  rm -f "$dir/$1.pid"
}

stop() {
  if running_pid slurmctld >/dev/null; then
    jobs=$(squeue -h -o %i 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      # shellcheck disable=SC2086
      scancel $jobs 2>/dev/null || true
      deadline=$(( $(date +%s) + 30 ))
      while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ "$(date +%s)" -lt "$deadline" ]; do
        sleep 0.2
      done
    fi
  fi
  stop_daemon slurmd
  stop_daemon slurmctld
  stop_daemon munged
  say "stopped"
}

status() {
  up=0
  for daemon in munged slurmctld slurmd; do
    if pid=$(running_pid "$daemon"); then
      echo "$daemon: running ($pid)"
    else
      echo "$daemon: not running"
      up=3
    fi
  done
  state=$(node_state || true)
  echo "node $(hostname -s): ${state:-unknown}; SLURM_CONF=$conf"
  [ "$up" -eq 0 ] && [ -n "$state" ] && [ "${state%%[*~#]}" != down ] || exit 3
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
