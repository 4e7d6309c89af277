#!/usr/bin/env bash
# What can be checked of a task without a GPU, fast, one task at a time while writing it.
# Everything but the spec check follows the task's suite descriptor (task.json's "suite",
# found in ARENA_SUITE_PATH, then suites/; read by tests/tasks/task_suite.cmake): the spec
# loads (arena-spec check); the start (the baseline, or the ABI skeleton where the suite starts
# from one) and the solution compile with the suite's compile command for each of its
# platforms, and pass the ABI symbol checks; a Triton module (kernel kind triton) instead
# passes the module rules and defines launch() as the spec says, README.md naming it
# (tests/structure/check_triton_tasks.py); a C++ oracle built with the project (reference.cpp,
# or the shared one task.json's "reference" names) compiles warning-free; a Python model
# oracle is bound by task.json's "torch" and, with a Python that has PyTorch (ARENA_PYTHON,
# else /usr/bin/python3), builds its model for every configuration. The rules are
# configure's (a task named after its folder, in a suite folder of any name); a task without
# its solution is checked without it. Kernels compile only where a build tree is configured
# (tests/run.sh makes build/test-nvidia and build/test-amd); without one, the spec checker is
# compiled from the harness's sources and the kernel compiles are skipped, saying so.
#
#   [ARENA_SUITE_PATH=<descriptor folders, :-separated>] tests/tasks/check_sources.sh tasks/<suite>/<task> [more task folders]
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
  # The same sources as configure's checker (cmake/ArenaTasks.cmake).
  srcs=("$root/harness/tools/arena_spec.cpp")
  for f in task_spec task_spec_fields task_spec_bindings task_spec_read expr dtype fuzz inputs parallel_host \
           host_pool compare gate_memory; do
    srcs+=("$root/harness/src/$f.cpp")
  done
  key=$(cat "${srcs[@]}" "$root"/harness/src/*.h | cksum | cut -d' ' -f1)
  spec_tool="${XDG_CACHE_HOME:-$HOME/.cache}/kernelarena/arena-spec-$key"
  if [ ! -x "$spec_tool" ]; then
    echo "      (no built arena-spec: compiling one from the harness's sources into $spec_tool)"
    mkdir -p "$(dirname "$spec_tool")"
    ${CXX:-g++} -std=c++17 -O1 -pthread -I "$root/harness/src" "${srcs[@]}" -o "$spec_tool.partial" &&
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
  # What the task's suite descriptor says: its kernel kind, platforms, start and files.
  kind="" platforms="" start="" build_reference="" baseline="" reference="" solution=""
  if cmake -DSPEC="$dir/task.json" -DMODE=settings -P "$root/tests/tasks/task_suite.cmake" >"$tmp/suite.log" 2>&1; then
    while IFS='=' read -r key value; do
      case $key in kind|platforms|start|build_reference|baseline|reference|solution) printf -v "$key" '%s' "$value" ;; esac
    done <"$tmp/suite.log"
  else
    problems+=("suite: $(grep -v '^$' "$tmp/suite.log" | head -5)")
  fi
  shared_oracle=$(sed -n 's/^ *"reference": *"\([^"]*\)".*/\1/p' "$dir/task.json")
  files="README.md task.json $baseline $solution"
  [ -n "$shared_oracle" ] || files="$files $reference"
  # Kernel sources: a Triton module is checked against the module rules; any other kind
  # compiles with its suite's own compile command, for each of the suite's platforms that has
  # a configured build here.
  sources=""
  [ "$start" = skeleton ] && sources="skeleton"
  [ -n "$baseline" ] && sources="$sources baseline:$baseline"
  [ -n "$solution" ] && sources="$sources solution:$solution"
  if [ "$start" = skeleton ]; then
    "$spec_tool" skeleton "$dir/task.json" "$tmp/skeleton.hip" >"$tmp/spec.log" 2>&1 || problems+=("skeleton: $(cat "$tmp/spec.log")")
  fi
  if [ "$kind" = triton ]; then
    sources=""
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
  for platform in $platforms; do
    tc="$root/build/test-$platform/arena_toolchain.cmake"
    [ -f "$tc" ] || continue
    for entry in $sources; do
      what=${entry%%:*} src="$dir/${entry#*:}" base=""
      [ "$what" = skeleton ] && src="$tmp/skeleton.hip"
      [ "$what" = baseline ] && base=ON
      [ -f "$src" ] || continue  # a missing file is reported once, below
      cmake -DSPEC="$dir/task.json" -DMODE=compile -DSOURCE="$src" -DOUTPUT="$tmp/$platform-$what.so" -DTOOLCHAIN="$tc" \
        -DBASELINE="$base" -DWHAT="$name $what ($platform)" -P "$root/tests/tasks/task_suite.cmake" >"$tmp/compile.log" 2>&1 ||
        problems+=("$platform $what: $(grep -v '^$' "$tmp/compile.log" | head -30)")
    done
  done
  # The oracle: a Python model (bound to the ABI by task.json's "torch") builds for every
  # configuration; a C++ one (the shared one task.json names, else the suite's file) compiles
  # warning-free.
  if [ "${reference##*.}" = py ]; then
    grep -q '"torch"' "$dir/task.json" ||
      problems+=("task.json: torch: missing (the oracle of this suite is the model $reference, which task.json binds to the ABI)")
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
" >"$tmp/ref.log" 2>&1 || problems+=("$reference: $(tail -5 "$tmp/ref.log")")
    else
      echo "      (no Python with PyTorch here: $reference not checked)"
    fi
  elif [ -n "$build_reference" ]; then
    oracle="$dir/${shared_oracle:-$reference}"
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
      if [ "$f" = "$solution" ]; then echo "      ($name: no $f yet: the selftests check the baseline only)"
      else problems+=("missing $f"); fi
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
