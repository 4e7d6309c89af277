#!/usr/bin/env bash
# What can be checked of a task without a GPU, fast, one task at a time while writing it:
# the spec loads (arena-spec check), baseline.hip and solution.hip compile with the build's
# kernel command for every configured platform and pass the ABI symbol checks, and the oracle
# (reference.cpp, or the shared one task.json's "reference" names) compiles warning-free.
# torch2hip tasks: the generated ABI skeleton and solution.hip compile, and, with a Python
# that has PyTorch (ARENA_PYTHON, else /usr/bin/python3), reference.py builds its model for
# every configuration with its state bound as task.json says. triton2triton tasks (candidate
# kernel.py): baseline.py and solution.py pass the compile gate
# (harness/python/arena_check_triton.py) and define launch() as the spec says, README.md names
# it (tests/structure/check_triton_tasks.py), and the oracle compiles warning-free. Needs
# configured build trees (tests/run.sh makes
# build/test-nvidia and build/test-amd).
#
#   tests/tasks/check_sources.sh tasks/<suite>/<task> [more task folders]
set -uo pipefail

# The first of ARENA_PYTHON, /usr/bin/python3 and python3 that runs the given code; "" if none.
python_with() {
  local p
  for p in "${ARENA_PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] && "$p" -c "$1" 2>/dev/null && { echo "$p"; return; }
  done
}

root=$(cd "$(dirname "$0")/../.." && pwd)
spec_tool=""
for b in "$root"/build/test-nvidia "$root"/build/test-amd; do
  [ -x "$b/harness/arena-spec" ] && { spec_tool="$b/harness/arena-spec"; break; }
done
[ -n "$spec_tool" ] || { echo "no built arena-spec: run tests/run.sh (or configure and build build/test-nvidia) first" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: $0 <task folder>..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for dir in "$@"; do
  dir=$(cd "$dir" && pwd) || { failed=1; continue; }
  name=$(basename "$dir")
  problems=()
  "$spec_tool" check "$dir/task.json" >"$tmp/spec.log" 2>&1 || problems+=("spec: $(cat "$tmp/spec.log")")
  torch=0
  grep -q '"torch"' "$dir/task.json" && torch=1
  triton=0
  grep -Eq '"candidate" *: *"[^"]*\.py"' "$dir/task.json" && triton=1
  kinds="baseline solution"
  [ $triton = 1 ] && kinds=""  # Python modules: no kernel library to build
  if [ $torch = 1 ]; then
    kinds="skeleton solution"
    "$spec_tool" skeleton "$dir/task.json" "$tmp/skeleton.hip" >"$tmp/spec.log" 2>&1 || problems+=("skeleton: $(cat "$tmp/spec.log")")
  fi
  for platform in nvidia amd; do
    tc="$root/build/test-$platform/arena_toolchain.cmake"
    [ -f "$tc" ] || continue
    for kind in $kinds; do
      src="$dir/$kind.hip"
      [ $kind = skeleton ] && src="$tmp/skeleton.hip"
      cmake -DSOURCE="$src" -DOUTPUT="$tmp/$platform-$kind.so" -DTOOLCHAIN="$tc" -DWHAT="$name $kind ($platform)" \
        -P "$root/cmake/ArenaCompileKernel.cmake" >"$tmp/compile.log" 2>&1 ||
        problems+=("$platform $kind: $(grep -v '^$' "$tmp/compile.log" | head -30)")
    done
  done
  if [ $torch = 1 ]; then
    files="README.md solution.hip reference.py task.json"
    py=$(python_with "import torch")
    if [ -n "$py" ]; then
      "$py" -c "
import json, sys
sys.path.insert(0, '$root/harness/python')
import arena_torch
t = arena_torch.TorchTask('$dir')
spec = json.load(open('$dir/task.json'))
params = {p['name']: p for p in spec['params']}
for c in spec['configs']['seen'] + spec['configs'].get('unseen', []):
    ints = [c[n] for n in t.int_names]
    floats = [c.get(n, params[n].get('default')) for n in t.float_names]
    t.model(t.values(ints, floats))
" >"$tmp/ref.log" 2>&1 || problems+=("reference.py: $(tail -5 "$tmp/ref.log")")
    else
      echo "      (no Python with PyTorch here: reference.py not checked)"
    fi
  else
    files="README.md baseline.hip solution.hip task.json"
    if [ $triton = 1 ]; then
      files="README.md baseline.py solution.py task.json"
      py=$(python_with "import ast, json")
      if [ -n "$py" ]; then
        "$py" "$root/tests/structure/check_triton_tasks.py" "$dir" >"$tmp/triton.log" 2>&1 ||
          problems+=("$(grep '^FAILED: ' "$tmp/triton.log" | sed 's/^FAILED: //')")
      else
        problems+=("no Python here to run the Triton module checks")
      fi
    fi
    # The oracle: the shared one task.json's "reference" names (relative to the folder), else reference.cpp.
    oracle=$(sed -n 's/^ *"reference": *"\([^"]*\)".*/\1/p' "$dir/task.json")
    oracle="$dir/${oracle:-reference.cpp}"
    if [ -f "$oracle" ]; then
      g++ -std=c++17 -O2 -Wall -Wextra -Werror -shared -fPIC -I"$root/harness/include" "$oracle" \
        -o "$tmp/reference.so" >"$tmp/ref.log" 2>&1 || problems+=("$oracle: $(head -30 "$tmp/ref.log")")
    else
      problems+=("missing its oracle $oracle")
    fi
  fi
  for f in $files; do
    [ -f "$dir/$f" ] || problems+=("missing $f")
  done
  if [ ${#problems[@]} -eq 0 ]; then
    echo "OK    $name"
  else
    failed=1
    echo "FAIL  $name"
    printf '      %s\n' "${problems[@]}"
  fi
done
exit $failed
