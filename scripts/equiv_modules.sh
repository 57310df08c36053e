#!/bin/bash
# Proves modules of two emitted Verilog files equivalent, each module alone with its submodules as
# black boxes: Yosys's equiv_make, equiv_simple and equiv_induct. For a change that should leave
# a module's logic as it was but not its text (statements reordered, say).
#   scripts/equiv_modules.sh OLD.v NEW.v MODULE [MODULE ...]
# Exit 0 when every module is proven, 1 when one is not (its log is named), 2 on bad usage.
set -u
if [ $# -lt 3 ] || [ ! -f "$1" ] || [ ! -f "$2" ]; then
    echo "usage: scripts/equiv_modules.sh OLD.v NEW.v MODULE [MODULE ...] (both files must exist)" >&2
    exit 2
fi
old=$1; new=$2; shift 2
yosys=${YOSYS:-yosys}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for module in "$@"; do
    cat > "$work/check.ys" <<EOS
read_verilog -sv $old
hierarchy -top $module
proc; opt_clean
rename $module gold
design -stash gold
read_verilog -sv $new
hierarchy -top $module
proc; opt_clean
rename $module gate
design -stash gate
design -copy-from gold -as gold gold
design -copy-from gate -as gate gate
equiv_make gold gate equiv
hierarchy -top equiv
equiv_simple
equiv_induct
equiv_status -assert
EOS
    if "$yosys" "$work/check.ys" > "$work/$module.log" 2>&1; then
        echo "$module: equivalent ($(grep -o '[0-9]* are proven' "$work/$module.log" | tail -1))"
    else
        cp "$work/$module.log" "./$module.equiv.log"
        echo "$module: NOT proven equivalent (log: ./$module.equiv.log)"
        status=1
    fi
done
exit $status
