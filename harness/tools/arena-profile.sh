#!/bin/sh
# Profiles one launch per side under Nsight Compute and prints arena-profile's report.
#
#   arena-profile.sh --runner 'CMD' --task task.json [--config I] --out DIR [--title TEXT]
#                    [--result profile.json] --side NAME=KERNEL [--side NAME=KERNEL ...] [--measurements]
#
# CMD runs the arena-profile tool (its path, or the Python host with libarena_tools.so and
# the tool name for Python kernels). Each side is launched by `CMD launch` inside ncu's
# capture range, on the perf gate's inputs for seen configuration I, with the clocks left
# alone (--clock-control none) so the numbers match the perf gate's. Exit status: 0 report
# printed, 1 a side could not be profiled, 77 no profiler or no GPU here (said why).
set -u
runner="" task="" config=0 out="" sides="" measurements=0 title=profile result=""
while [ $# -gt 0 ]; do
  case $1 in
    --runner) runner=$2; shift 2 ;;
    --task) task=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --title) title=$2; shift 2 ;;
    --result) result=$2; shift 2 ;;
    --side) sides="$sides $2"; shift 2 ;;
    --measurements) measurements=1; shift ;;
    *) echo "arena-profile.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$runner" ] && [ -n "$task" ] && [ -n "$out" ] && [ -n "$sides" ] ||
  { echo "usage: arena-profile.sh --runner CMD --task task.json [--config I] --out DIR --side NAME=KERNEL..." >&2; exit 2; }
case $config in ''|*[!0-9]*) echo "profile: --config takes a seen configuration number (0, 1, ...), not '$config'" >&2; exit 2 ;; esac

if [ ! -e /dev/nvidiactl ]; then
  if [ -e /dev/kfd ]; then
    echo "profile: this is an AMD GPU; only Nsight Compute (NVIDIA) is supported so far, so nothing was profiled" >&2
  else
    echo "profile: no GPU here (no /dev/nvidiactl): nothing to profile" >&2
  fi
  exit 77
fi
ncu=${ARENA_NCU:-$(command -v ncu 2>/dev/null || true)}
for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
  [ -n "$ncu" ] && break
  [ -x "$c" ] && ncu=$c
done
[ -n "$ncu" ] || { echo "profile: Nsight Compute (ncu) is not installed here (set ARENA_NCU to its path)" >&2; exit 77; }

mkdir -p "$out"
[ -n "$result" ] || result=$out/profile.json
# The fixed metric set, less what this GPU's Nsight Compute does not know (an unknown name
# would fail the whole run).
wanted=$(eval "$runner metrics") || { echo "profile: cannot list the metrics ($runner metrics)" >&2; exit 1; }
known=$("$ncu" --query-metrics 2>/dev/null | awk '{print $1}')
metrics=""
for m in $(echo "$wanted" | tr ',' ' '); do
  if [ -z "$known" ] || echo "$known" | grep -qx "${m%%.*}"; then metrics="$metrics,$m"; fi
done
metrics=${metrics#,}

report_args=""
for s in $sides; do
  name=${s%%=*} kernel=${s#*=}
  eval "\"\$ncu\" --clock-control none --profile-from-start off --csv --page raw --print-units base \
    --metrics \"\$metrics\" $runner launch --task \"\$task\" --kernel \"\$kernel\" --config \"\$config\" \
    --info \"\$out/device.json\"" >"$out/$name.csv" 2>"$out/$name.log"
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^"ID",' "$out/$name.csv"; then
    echo "profile: $name could not be profiled (exit $rc):" >&2
    tail -n 15 "$out/$name.log" "$out/$name.csv" >&2
    [ $rc -eq 77 ] && exit 77
    exit 1
  fi
  report_args="$report_args --side $name=$out/$name.csv"
done
eval "$runner report $report_args --info \"\$out/device.json\" --title \"\$title seen[\$config]\" --result \"\$result\" \
  --measurements $measurements"
