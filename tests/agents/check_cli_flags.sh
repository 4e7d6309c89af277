#!/bin/sh
# The flags an adapter passes must exist in the installed CLI's help.
#   check_cli_flags.sh <help command...> -- flag...
help_cmd=""
while [ "$1" != "--" ]; do help_cmd="$help_cmd $1"; shift; done
shift
text=$($help_cmd 2>&1) || { echo "FAILED: '$help_cmd' exited non-zero"; echo "$text"; exit 1; }
missing=0
for flag in "$@"; do
  if printf '%s\n' "$text" | grep -q -- "$flag"; then echo "ok: $flag"; else echo "MISSING: $flag"; missing=1; fi
done
exit $missing
