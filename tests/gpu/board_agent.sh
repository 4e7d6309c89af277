# A command agent for the board's GPU check (tests/gpu/board_runs.sh): a self-check, a harmless
# edit, a second self-check, a profile; it counts its own calls in calls.txt so the check can
# compare them with what the runner recorded.
ws=$1
cd "$ws" || exit 1
n=0
sh ./check.sh > check1.log 2>&1; n=$((n + 1))
printf '\n// an edit between two checks\n' >> kernel.hip
sh ./check.sh > check2.log 2>&1; n=$((n + 1))
if [ -f profile.sh ]; then sh ./profile.sh > profile.log 2>&1; n=$((n + 1)); fi
echo "$n" > calls.txt
