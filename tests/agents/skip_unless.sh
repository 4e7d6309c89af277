#!/bin/sh
# Runs a test command, or exits 77 (CTest: skipped) saying why when what it needs is missing.
#   skip_unless.sh bwrap|claude|codex|none -- command args...
need=$1
shift 2
case $need in
  bwrap)
    command -v bwrap >/dev/null 2>&1 || { echo "SKIPPED: bubblewrap (bwrap) is not installed"; exit 77; }
    bwrap --ro-bind / / true >/dev/null 2>&1 || { echo "SKIPPED: bubblewrap cannot create a sandbox on this machine"; exit 77; }
    ;;
  claude|codex)
    # npm packages, which CI does not install (it reaches Debian and PyPI only): found on PATH or skipped.
    package=@anthropic-ai/claude-code
    [ "$need" = codex ] && package=@openai/codex
    command -v "$need" >/dev/null 2>&1 || {
      echo "SKIPPED: the $need CLI is not on PATH (install it with 'npm install -g $package' where npm is reachable, or put an installed $need on PATH)"
      exit 77
    }
    ;;
esac
exec "$@"
