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
# it (tests/structure/check_triton_tasks.py), and the oracle compiles warning-free. The rules
# are configure's (a task named after its folder, in a suite folder of any name); a task
# without solution.* is checked without it. Kernels compile only where a build tree is
# configured (tests/run.sh makes build/test-nvidia and build/test-amd); without one, the spec
# checker is compiled from the harness's sources and the kernel compiles are skipped, saying so.
#
#   tests/tasks/check_sources.sh tasks/<suite>/<task> [more task folders]
set -uo pipefail

# The first of ARENA_PYTHON, python3 and /usr/bin/python3 that runs the given code; "" if none.
python_with() {
  local p
  for p in "${ARENA_PYTHON:-}" python3 /usr/bin/python3; do
    [ -n "$p" ] && "$p" -c "$1" 2>/dev/null && { echo "$p"; return; }
  done
}

root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || { echo "usage: $0 <task folder>..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The spec checker: a built one, else one compiled here from the harness's loader, as configure
# does (about 20 s, kept in the user's cache while the sources do not change).
spec_tool=""
for b in "$root"/build/test-nvidia "$root"/build/test-amd; do
  [ -x "$b/harness/arena-spec" ] && { spec_tool="$b/harness/arena-spec"; break; }
done
if [ -z "$spec_tool" ]; then
  srcs=("$root/harness/tools/arena_spec.cpp" "$root/harness/src/task_spec.cpp" "$root/harness/src/expr.cpp"
        "$root/harness/src/dtype.cpp")
  key=$(cat "${srcs[@]}" "$root"/harness/src/*.h | cksum | cut -d' ' -f1)
  spec_tool="${XDG_CACHE_HOME:-$HOME/.cache}/kernelarena/arena-spec-$key"
  if [ ! -x "$spec_tool" ]; then
    echo "      (no built arena-spec: compiling one from the harness's sources into $spec_tool)"
    mkdir -p "$(dirname "$spec_tool")"
    ${CXX:-g++} -std=c++17 -O1 -I "$root/harness/src" "${srcs[@]}" -o "$spec_tool.partial" &&
      mv "$spec_tool.partial" "$spec_tool" || { echo "cannot build the spec checker" >&2; exit 2; }
  fi
fi
toolchains=0
for platform in nvidia amd; do
  [ -f "$root/build/test-$platform/arena_toolchain.cmake" ] && toolchains=1
done
[ $toolchains = 1 ] || echo "      (no configured build/test-nvidia or build/test-amd: kernels are not compiled; configure one" \
  "with 'cmake --preset ci -B build/test-nvidia -DARENA_HIP_PLATFORM=nvidia' to add that check)"
failed=0
for dir in "$@"; do
  dir=$(cd "$dir" && pwd) || { failed=1; continue; }
  name=$(basename "$dir")
  problems=()
  # Configure's rules: the spec loads and the task is named after its folder (a task added
  # with arena_add_task may sit in a suite folder of any name).
  "$spec_tool" check --any-folder "$dir/task.json" >"$tmp/spec.log" 2>&1 || problems+=("spec: $(cat "$tmp/spec.log")")
  spec_name=$(sed -n 's/^ *"name": *"\([^"]*\)".*/\1/p' "$dir/task.json" | head -1)
  [ "$spec_name" = "$name" ] || problems+=("task.json: name \"$spec_name\" differs from its folder \"$name\"")
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
      [ -f "$src" ] || continue  # a missing file is reported once, below
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
      # The Python that has the suite's baseline packages installed (their modules are read
      # from its path), else any.
      py=$(python_with "import importlib.metadata as m; m.version('liger-kernel')")
      [ -n "$py" ] || py=$(python_with "import ast, json")
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
    if [ ! -f "$dir/$f" ]; then
      # Without an expert solution the task loads and runs; its selftests then prove no headroom.
      case $f in solution.*) echo "      ($name: no $f yet: the selftests check the baseline only)" ;;
                 *) problems+=("missing $f") ;; esac
    fi
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
