#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the tests and for trying `grfgen sweep slurm`:
#   scripts/local-slurm.sh start   # prints the SLURM_CONF to export for sbatch, squeue, ...
#   scripts/local-slurm.sh stop    # stops only the daemons `start` started
# Needs root and Debian's slurm-wlm and munge packages (scripts/ensure-tools.sh installs them).
# Its state lives under $GRFGEN_SLURM_DIR (default /tmp/grfgen-slurm).
set -euo pipefail

state="${GRFGEN_SLURM_DIR:-/tmp/grfgen-slurm}"
conf="$state/slurm.conf"
pids="$state/started.pids"

fail() { echo "local-slurm: $*" >&2; exit 1; }

need() {
  [ "$(id -u)" -eq 0 ] || fail "needs root (munged and slurmd run as root here)"
  for tool in munged slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null 2>&1 ||
      fail "$tool not found; install with: sudo apt-get install -y slurm-wlm munge"
  done
}

# Starts munged as the munge user unless one already answers; records its pid if it started it.
start_munge() {
  if munge -n >/dev/null 2>&1 </dev/null; then return; fi
  mkdir -p /run/munge /var/log/munge /etc/munge
  chown munge:munge /run/munge /var/log/munge
  if [ ! -s /etc/munge/munge.key ]; then
    if command -v mungekey >/dev/null 2>&1; then mungekey --create --keyfile=/etc/munge/munge.key
    else dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none; fi
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  runuser -u munge -- munged
  for _ in $(seq 50); do munge -n >/dev/null 2>&1 </dev/null && break; sleep 0.1; done
  munge -n >/dev/null 2>&1 </dev/null || fail "munged did not start"
  cat /run/munge/munged.pid >>"$pids"
}

write_conf() {
  local host; host="$(hostname -s)"
  mkdir -p "$state/state" "$state/spool"
  cat >"$conf" <<CONF
ClusterName=grfgen
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  need
  [ -s "$pids" ] && fail "already started ($pids); run stop first"
  mkdir -p "$state"
  : >"$pids"
  start_munge
  write_conf
  slurmctld -f "$conf" && sleep 0.5 && cat "$state/slurmctld.pid" >>"$pids"
  slurmd -f "$conf" -N "$(hostname -s)" && sleep 0.5 && cat "$state/slurmd.pid" >>"$pids"
  for _ in $(seq 100); do
    if SLURM_CONF="$conf" sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
      echo "$conf"
      return
    fi
    sleep 0.2
  done
  fail "the node did not come up; see $state/slurmctld.log and $state/slurmd.log"
}

# Stops the daemons `start` started, newest first, and waits (up to 10 s each) until they are gone.
stop() {
  [ -f "$pids" ] || return 0
  for pid in $(tac "$pids"); do
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  rm -f "$pids"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) fail "usage: scripts/local-slurm.sh start|stop" ;;
esac
