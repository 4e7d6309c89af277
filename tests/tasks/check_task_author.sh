#!/usr/bin/env bash
# A task author's check (tests/tasks/check_sources.sh) follows configure's rules: a task in a
# folder named after no suite and without a solution yet passes; a task whose name differs
# from its folder is refused, naming both.
#   check_task_author.sh <source dir> <scratch dir>
set -uo pipefail
root=$1 work=$2
rm -rf "$work"
mkdir -p "$work/my_suite"
cp -r "$root/tasks/hip2hip/avgpool_global_f16" "$work/my_suite/"
rm "$work/my_suite/avgpool_global_f16/solution.hip"
out=$(XDG_CACHE_HOME="$work/cache" bash "$root/tests/tasks/check_sources.sh" "$work/my_suite/avgpool_global_f16" 2>&1)
rc=$?
echo "$out"
[ $rc = 0 ] && grep -q "^OK    avgpool_global_f16" <<<"$out" || { echo "FAILED: a valid task without a solution, outside tasks/, was refused"; exit 1; }
grep -q "no solution.hip yet" <<<"$out" || { echo "FAILED: the missing solution was not mentioned"; exit 1; }
mv "$work/my_suite/avgpool_global_f16" "$work/my_suite/renamed"
out=$(XDG_CACHE_HOME="$work/cache" bash "$root/tests/tasks/check_sources.sh" "$work/my_suite/renamed" 2>&1)
rc=$?
echo "$out"
[ $rc != 0 ] && grep -q 'name "avgpool_global_f16" differs from its folder "renamed"' <<<"$out" ||
  { echo "FAILED: a task named unlike its folder was not refused with both names"; exit 1; }
echo "a task author's check: configure's rules, a missing solution noted, a misnamed folder refused"
