#!/bin/bash
# MPI over TCP between two "hosts": two network namespaces joined by a veth
# pair, 10.211.77.1 and .2, with OpenMPI held to TCP (btl tcp,self: no shared
# memory) on that subnet only. mpirun runs in the first namespace with ranks
# 0 and 1, and starts rank 2 in the second through a launch agent that runs
# `ip netns exec` where ssh would log in. Both see one work directory. The
# table is the one-process table byte for byte; then rank 2's process is
# killed once some units are finished: the job ends within a bounded time
# with an error naming that rank and its host, and the same command resumes
# to the same bytes. Skips (77) without root, ip netns or veth.
# Usage: netns_test.sh PAWNTB SOURCE_DIR
set -euo pipefail
pawntb=$(realpath "$1") source_dir=$(realpath "$2")
. "$source_dir/tests/cluster/lib.sh"
rows=6 cols=4
host_a=10.211.77.1 host_b=10.211.77.2
hang_limit=60  # seconds from the kill to the end of the job

[ "$(id -u)" -eq 0 ] || skip "needs root (ip netns)"
need_commands ip mpirun
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pawntb-netns-test.XXXXXX")
ns_a=pawntb-$$-a ns_b=pawntb-$$-b
mpirun_pid=""
cleanup() {
  [ -z "$mpirun_pid" ] || kill -KILL "$mpirun_pid" 2>/dev/null || true
  for ns in "$ns_a" "$ns_b"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT

ip netns add "$ns_a" 2>"$tmp/err" || skip "cannot make a network namespace: $(cat "$tmp/err")"
ip netns add "$ns_b"
ip link add "pt$$a" type veth peer name "pt$$b" 2>"$tmp/err" ||
  skip "cannot make a veth pair: $(cat "$tmp/err")"
ip link set "pt$$a" netns "$ns_a"
ip link set "pt$$b" netns "$ns_b"
ip -n "$ns_a" addr add "$host_a/24" dev "pt$$a"
ip -n "$ns_b" addr add "$host_b/24" dev "pt$$b"
ip -n "$ns_a" link set "pt$$a" up
ip -n "$ns_b" link set "pt$$b" up
ip -n "$ns_a" link set lo up
ip -n "$ns_b" link set lo up

cat >"$tmp/agent" <<AGENT
#!/bin/sh
# OpenMPI's launch agent (plm_rsh_agent), in place of ssh: agent HOST COMMAND...
echo "\$@" >>"$tmp/agent.log"
host=\$1; shift
case \$host in
  $host_a) ns=$ns_a ;;
  $host_b) ns=$ns_b ;;
  *) echo "agent: no namespace for host \$host" >&2; exit 255 ;;
esac
exec ip netns exec "\$ns" /bin/sh -c "\$*"
AGENT
chmod +x "$tmp/agent"

"$pawntb" generate --rows $rows --cols $cols --output "$tmp/reference.pawntb" >/dev/null 2>&1 ||
  fail "$pawntb generate did not make the reference table"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
subnet=${host_a%.*}.0/24
hosts=$host_a:2,$host_b:1  # ranks 0 and 1 on the first host, 2 on the second
mpi=(ip netns exec "$ns_a" timeout --kill-after=10 150 mpirun -np 3 --host "$hosts"
  --mca btl "tcp,self" --mca btl_tcp_if_include "$subnet" --mca oob_tcp_if_include "$subnet"
  --mca plm_rsh_agent "$tmp/agent"
  "$pawntb" generate --rows "$rows" --cols "$cols" --threads 1 --work-dir "$tmp/work"
  --output "$tmp/out.pawntb")

note "3 ranks over TCP: 0 and 1 on $host_a, 2 on $host_b"
"${mpi[@]}" >"$tmp/run1.out" 2>"$tmp/run1.err" ||
  { cat "$tmp/run1.err" >&2; fail "the run over TCP failed"; }
grep -q "^$host_b .*orted" "$tmp/agent.log" || fail "no daemon was started on $host_b"
grep -q "rank 0 schedules the units" "$tmp/run1.err" || fail "the run did not have 3 ranks"
same_bytes "$tmp/out.pawntb" "$tmp/reference.pawntb" "3 ranks on two hosts"

rm "$tmp/out.pawntb"
"${mpi[@]}" >"$tmp/run2.out" 2>"$tmp/run2.err" &
mpirun_pid=$!
mpirun_ended() { ! kill -0 "$mpirun_pid" 2>/dev/null; }
units_or_end() { at_least_units "$tmp/work" 5 || mpirun_ended; }
wait_until 120 "5 unit files in $tmp/work" units_or_end
# rank 2 is the only pawntb in the second namespace.
victim=""
for pid in $(ip netns pids "$ns_b"); do
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = pawntb ] && victim=$pid
done
if [ -z "$victim" ] || mpirun_ended; then
  cat "$tmp/run2.err" >&2
  fail "the run ended before a rank could be killed"
fi
kill -KILL "$victim"
killed_at=$SECONDS
note "killed rank 2 (pid $victim on $host_b) with $(unit_files "$tmp/work") units finished"
wait_until "$hang_limit" "end of the job after the kill" mpirun_ended
status=0
wait "$mpirun_pid" || status=$?
mpirun_pid=""
note "the job ended $((SECONDS - killed_at)) s after the kill, status $status"
# mpirun exits with the killed rank's status (137); the time limit around it
# (timeout, 150 s) is far past the wait above, so it is mpirun's own.
[ "$status" -ne 0 ] || fail "the job with a killed rank exited 0"
grep -q "rank 2 .*$host_b" "$tmp/run2.err" ||
  { cat "$tmp/run2.err" >&2; fail "the error does not name rank 2 and its host $host_b"; }
[ ! -e "$tmp/out.pawntb" ] || fail "a job with a killed rank wrote the table"

note "the same command again"
"${mpi[@]}" >"$tmp/run3.out" 2>"$tmp/run3.err" ||
  { cat "$tmp/run3.err" >&2; fail "the rerun failed"; }
grep -q "resuming" "$tmp/run3.err" || fail "the rerun did not resume"
same_bytes "$tmp/out.pawntb" "$tmp/reference.pawntb" "the rerun after a killed rank"
