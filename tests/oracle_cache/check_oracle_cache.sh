#!/usr/bin/env bash
# The correctness gate's oracle cache end to end, on the CPU (arena-correct --only oracle runs
# the host oracle without a device): a second run computes nothing, a damaged or truncated
# entry is named, recomputed and rewritten byte for byte as before, another fuzz seed misses
# the generated configurations only, and another spec misses everything. The drawn inputs are
# kept beside the outputs (<task folder>/inputs): a repeat draws nothing, and a damaged input
# entry is named and drawn again, after which the outputs still hit.
#   check_oracle_cache.sh <arena-correct> <task.json> <reference.so> <work dir>
set -uo pipefail
correct=$1 task=$2 reference=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cache=$work/cache
fail() { echo "FAILED: $*"; exit 1; }

run() {  # name, task, fuzz seed: prints the run's oracle cache line
  "$correct" --only oracle --task "$2" --reference "$reference" --set unseen --fuzz-seed "$3" --trials 2 \
    --oracle-cache "$cache" >"$work/$1.log" 2>&1 || { cat "$work/$1.log"; fail "$1: arena-correct exited $?"; }
  grep "^oracle cache: [0-9]" "$work/$1.log" || fail "$1: no oracle cache line in its output"
}
inputs() {  # name: "hits drawn rejected" of that run's input cache
  grep "^input cache: " "$work/$1.log" | sed -E 's/^input cache: ([0-9]+) hit\(s\), ([0-9]+) drawn, ([0-9]+) rejected.*/\1 \2 \3/'
}
oracle_entries() { find "$cache" -name '*.oracle' -not -path '*/inputs/*' | sort; }
input_entries() { find "$cache" -path '*/inputs/*' -name '*.oracle' | sort; }
counts() {  # log line -> "hits computed rejected"
  sed -E 's/^oracle cache: ([0-9]+) hit\(s\), ([0-9]+) computed, ([0-9]+) rejected, 0 not kept.*/\1 \2 \3/' <<<"$1"
}

read -r h c r <<<"$(counts "$(run first "$task" 5)")"
[ "$h" = 0 ] && [ "$r" = 0 ] && [ "$c" -ge 4 ] || fail "first run: $h hit(s), $c computed, $r rejected (expected all computed)"
total=$c
entries=$(oracle_entries | wc -l)
[ "$entries" = "$total" ] || fail "first run wrote $entries entries for $total oracle runs"
echo "first run: $total oracle runs, $entries entries"
read -r h d r <<<"$(inputs first)"
[ "$h" = 0 ] && [ "$d" = "$total" ] && [ "$r" = 0 ] || fail "first run's inputs: $h hit(s), $d drawn, $r rejected (expected $total drawn)"
[ "$(input_entries | wc -l)" = "$total" ] || fail "first run kept $(input_entries | wc -l) input entries for $total draws"

read -r h c r <<<"$(counts "$(run repeat "$task" 5)")"
[ "$h" = "$total" ] && [ "$c" = 0 ] && [ "$r" = 0 ] || fail "repeat: $h hit(s), $c computed, $r rejected (expected $total hits)"
echo "repeat: $h hits, nothing computed"
read -r h d r <<<"$(inputs repeat)"
[ "$h" = "$total" ] && [ "$d" = 0 ] && [ "$r" = 0 ] || fail "repeat's inputs: $h hit(s), $d drawn, $r rejected (expected $total hits)"
echo "repeat: every input read back, nothing drawn"

# One entry with a byte flipped in its outputs, one cut short.
mapfile -t files < <(oracle_entries)
flipped=${files[0]} cut=${files[1]}
cp "$flipped" "$work/flipped.orig"
cp "$cut" "$work/cut.orig"
python3 - "$flipped" "$cut" <<'PY'
import os, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(-20, os.SEEK_END)
    b = f.read(1)
    f.seek(-20, os.SEEK_END)
    f.write(bytes([b[0] ^ 0x40]))
os.truncate(sys.argv[2], os.path.getsize(sys.argv[2]) // 2)
PY
read -r h c r <<<"$(counts "$(run damaged "$task" 5)")"
[ "$c" = 2 ] && [ "$r" = 2 ] && [ "$h" = $((total - 2)) ] || fail "damaged: $h hit(s), $c computed, $r rejected (expected 2 recomputed)"
grep -qF "oracle cache: $flipped not used (checksum mismatch" "$work/damaged.log" || fail "the damaged entry $flipped is not named"
grep -qF "oracle cache: $cut not used (truncated" "$work/damaged.log" || fail "the truncated entry $cut is not named"
cmp -s "$flipped" "$work/flipped.orig" || fail "the recomputed entry differs from the first run's"
cmp -s "$cut" "$work/cut.orig" || fail "the recomputed truncated entry differs from the first run's"
echo "damaged: both entries named, recomputed and rewritten as the first run wrote them"

# A damaged input entry: named, drawn again and rewritten as before; the outputs still hit.
input=$(input_entries | head -1)
cp "$input" "$work/input.orig"
python3 - "$input" <<'PY'
import os, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(-3, os.SEEK_END)
    b = f.read(1)
    f.seek(-3, os.SEEK_END)
    f.write(bytes([b[0] ^ 0x01]))
PY
read -r h c r <<<"$(counts "$(run damaged_input "$task" 5)")"
[ "$h" = "$total" ] && [ "$c" = 0 ] || fail "damaged input: the outputs $h hit(s), $c computed (expected all to hit)"
read -r h d r <<<"$(inputs damaged_input)"
[ "$d" = 1 ] && [ "$r" = 1 ] && [ "$h" = $((total - 1)) ] || fail "damaged input: $h hit(s), $d drawn, $r rejected (expected 1 drawn again)"
grep -qF "oracle cache: $input not used (checksum mismatch" "$work/damaged_input.log" || fail "the damaged input entry is not named"
cmp -s "$input" "$work/input.orig" || fail "the redrawn input entry differs from the first run's"
echo "damaged input: named, drawn again and rewritten as before; the outputs still hit"

# Another run's fuzz seed: the fixed unseen configurations still hit, the generated ones miss.
read -r h c r <<<"$(counts "$(run seed "$task" 6)")"
[ "$h" -ge 1 ] && [ "$c" -ge 1 ] && [ $((h + c)) = "$total" ] && [ "$r" = 0 ] ||
  fail "another fuzz seed: $h hit(s), $c computed, $r rejected (expected the fixed ones to hit, the generated ones to miss)"
echo "another fuzz seed: $h hits (fixed configurations), $c computed (generated ones)"

# Another spec (the same file with a trailing newline): nothing hits.
cp "$task" "$work/task.json"
echo >>"$work/task.json"
read -r h c r <<<"$(counts "$(run spec "$work/task.json" 5)")"
[ "$h" = 0 ] && [ "$c" = "$total" ] || fail "another spec: $h hit(s), $c computed (expected none to hit)"
echo "another spec: nothing hits"
echo "PASSED"
