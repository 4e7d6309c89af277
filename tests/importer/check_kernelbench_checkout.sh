#!/usr/bin/env bash
# The importer on a real KernelBench checkout (-DARENA_KERNELBENCH_DIR=<checkout>, never part of
# this repository): every level 1 and level 2 problem is imported, the refusals are listed with
# their reasons (IMPORT_REPORT.md beside the tasks), and each level must import at least its
# floor. Without a checkout the test is skipped (77), saying so.
#   check_kernelbench_checkout.sh <python with torch> <importer> <checkout or ""> <out> <min level1> <min level2>
set -uo pipefail
python=$1 importer=$2 checkout=$3 out=$4 min1=$5 min2=$6
if [ -z "$checkout" ]; then
  echo "SKIPPED: no KernelBench checkout named (configure with -DARENA_KERNELBENCH_DIR=<a clone of KernelBench>)"
  exit 77
fi
for level in level1 level2; do
  [ -d "$checkout/KernelBench/$level" ] || { echo "FAILED: $checkout/KernelBench/$level is not a folder"; exit 1; }
done
"$python" -c "import torch" 2>/dev/null || { echo "SKIPPED: $python cannot import torch"; exit 77; }
rm -rf "$out"
mkdir -p "$out/torch2hip"
"$python" "$importer" --batch "$checkout/KernelBench/level1" "$checkout/KernelBench/level2" --out "$out/torch2hip" \
  --timeout-s "${ARENA_IMPORT_TIMEOUT_S:-120}" --min-imported "$min1" --min-imported "$min2"
