# Scripted agent: touches everything but the candidate (all of it must be listed and ignored).
ws=$1
echo "tampered" >> "$ws/README.md"
echo "notes" > "$ws/notes.txt"
rm -f "$ws/check.sh"
