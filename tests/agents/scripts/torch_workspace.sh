# Scripted agent on a torch2hip task: lists what it was given and runs the self-check.
ws=$1
ls -A "$ws" > "$ws/listing.txt"
sh "$ws/check.sh" > "$ws/check.log" 2>&1
echo $? > "$ws/check.rc"
