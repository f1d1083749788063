#!/usr/bin/env bash
# A real single-node Slurm (Debian's slurm-wlm + munge): munged, slurmctld and slurmd
# started on this machine in a temporary directory, contrib/slurm/tfgpu-fleet.sbatch run
# for real with `sbatch --wait`, the snapshot it writes (DIR/<host name>.json) and the
# fleet report it prints checked; the daemons are stopped at the end.
#
#   tests/real/slurm_fleet.sh [TFGPU_BINARY]
#
# Exit 0 passed, 1 failed, 77 skipped (printed with the reason: Slurm or munge not
# installed, not root, or a daemon that would not start, with its log).
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
tfgpu=$(readlink -f "${1:-$here/build/release/tfgpu}")
skip() { echo "SKIP slurm_fleet: $*"; exit 77; }
failed() { echo "FAIL slurm_fleet: $*"; exit 1; }

[ -x "$tfgpu" ] || failed "no tfgpu binary at $tfgpu"
for b in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$b" >/dev/null || skip "$b is not installed (apt-get install slurm-wlm munge)"
done
# slurmd starts job steps as the submitting user: it must run as root.
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to launch jobs; run this test as root"

T=$(mktemp -d /tmp/tfgpu-slurm.XXXXXX)
chmod 0755 "$T"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT

node=$(uname -n)
# Free TCP ports for slurmctld and slurmd (the defaults, 6817/6818, may be taken).
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

mkdir -p "$T/state" "$T/spool" "$T/snapshots"
mungekey --create --keyfile="$T/munge.key" >/dev/null 2>&1 || skip "mungekey could not create a key"
munged --socket="$T/munge.sock" --key-file="$T/munge.key" --log-file="$T/munged.log" \
  --pid-file="$T/munged.pid" --seed-file="$T/munged.seed" --force ||
  skip "munged did not start: $(tail -3 "$T/munged.log" 2>/dev/null)"
pids+=("$(cat "$T/munged.pid")")

cat >"$T/slurm.conf" <<CONF
ClusterName=tfgpu-test
SlurmctldHost=$node
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf

slurmctld -i || skip "slurmctld did not start: $(tail -5 "$T/slurmctld.log" 2>/dev/null)"
for _ in $(seq 50); do [ -s "$T/slurmctld.pid" ] && break; sleep 0.1; done
[ -s "$T/slurmctld.pid" ] && pids+=("$(cat "$T/slurmctld.pid")")
slurmd || skip "slurmd did not start: $(tail -5 "$T/slurmd.log" 2>/dev/null)"
for _ in $(seq 50); do [ -s "$T/slurmd.pid" ] && break; sleep 0.1; done
[ -s "$T/slurmd.pid" ] && pids+=("$(cat "$T/slurmd.pid")")

state=""
for _ in $(seq 100); do
  state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
  case "$state" in idle*) break ;; esac
  sleep 0.2
done
case "$state" in
  idle*) ;;
  *) skip "node $node is not idle (sinfo says '${state:-nothing}'); slurmctld: $(tail -3 "$T/slurmctld.log") slurmd: $(tail -3 "$T/slurmd.log")" ;;
esac
echo "slurm_fleet: slurmctld + slurmd up on $node ($(sinfo -V))"

# The sbatch script, for real.
cd "$T"
TFGPU="$tfgpu" sbatch --wait --nodes=1 --output="$T/job.out" "$here/contrib/slurm/tfgpu-fleet.sbatch" "$T/snapshots" >"$T/sbatch.out" 2>&1
job_status=$?
echo "slurm_fleet: sbatch --wait exited $job_status: $(cat "$T/sbatch.out")"
echo "----- job output -----"
cat "$T/job.out"
echo "----------------------"

# The snapshot is named for the host and parses; the report names the node.
[ -f "$T/snapshots/$node.json" ] || failed "no $T/snapshots/$node.json (files: $(ls "$T/snapshots"))"
ls "$T/snapshots" | grep -q '\.tmp\.' && failed "a temporary file was left in the snapshot directory"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["host"]["hostname"]==sys.argv[2], j["host"]' \
  "$T/snapshots/$node.json" "$node" || failed "the snapshot does not record host name $node"
grep -q "^tfgpu fleet: 1 node, 1 configuration" "$T/job.out" || failed "no fleet headline in the job output"
grep -q "  1 node  .*$" "$T/job.out" || failed "no configuration line"
grep -q "^ *$node\b" "$T/job.out" || failed "the configuration's hostlist does not name $node"
# The job's exit status is fleet's, which is doctor's over the same snapshot.
"$tfgpu" doctor --snapshot "$T/snapshots/$node.json" >/dev/null 2>&1
doctor_status=$?
[ "$job_status" -eq "$doctor_status" ] || failed "job exited $job_status, doctor on the snapshot $doctor_status"
echo "PASS slurm_fleet: sbatch ran the probe on $node through srun, fleet reported it (exit $job_status = doctor's)"
