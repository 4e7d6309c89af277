#!/usr/bin/env python3
"""Two builds of the same Triton kernel make the same image, whatever else differs between the
processes that build them, and the check stays exact (harness/python/arena_triton_build.py,
docs/DESIGN.md "Trusted compile"). Without a GPU: launches are recorded on the CPU
(triton_cpu_recorder.py, compiling for sm_90) and built again by the trusted builder.

Same image: recorders and the builder run with their own working folders, TMPDIR and Triton
caches, two recorders at once sharing one cache, and the kernel's file gets a new modification
time (same content) between the recorders' compiles and the builder's, as a package reinstalled
or a module copied again does; one recorder after that change finds its image in the cache
Triton filled before it. A package kernel (conch_silu_and_mul_bf16's, from a copy of the
installed conch package) and a checked module's kernel. Still refused: the image of the same
build with another num_warps, the image of another source, and the image of the same source
and build compiled with line info on (whose .text, the machine code, is the same: line info
holds none). Needs Triton and PyTorch (skipped without)."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BUILDER = os.path.join(ROOT, "harness", "python", "arena_triton_build.py")
RECORDER = os.path.join(HERE, "triton_cpu_recorder.py")
CONCH_TASK = os.path.join(ROOT, "tasks", "triton2triton", "conch_silu_and_mul_bf16")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what, flush=True)
    if not cond:
        failures.append(what)


TASK = {
    "schema": 1, "name": "silu_f32", "suite": "triton2triton",
    "params": [{"name": "N", "type": "int", "min": 1}],
    "tensors": [{"name": "x", "dtype": "f32", "shape": ["N"], "role": "input"},
                {"name": "y", "dtype": "f32", "shape": ["N"], "role": "output"}],
    "configs": {"seen": [{"N": 5000}]},
}

# tl.sigmoid puts a second file (Triton's standard.py) into the kernel's line info.
MODULE = '''import triton
import triton.language as tl


@triton.jit
def _silu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, v * tl.sigmoid(v) * {factor}, mask=m)


def launch(x, y, N):
    _silu[(triton.cdiv(N, 256),)](x, y, N, BLOCK=256)
'''

# The builder's own compile of one build, with pin_compile_settings left out (line info on).
UNPINNED = '''import json, sys
sys.path.insert(0, sys.argv[1])
import arena_triton_build
arena_triton_build.pin_compile_settings = lambda: None
with open(sys.argv[3]) as f:
    build = json.load(f)[0]["build"]
image = arena_triton_build.Builder(sys.argv[2]).build(build)
with open(sys.argv[4], "wb") as f:
    f.write(image)
'''


def code_sections(image):
    """An ELF64 image's sections that hold machine code (.text.*), by name."""
    shoff, = struct.unpack_from("<Q", image, 0x28)
    entsize, count, names_index = struct.unpack_from("<HHH", image, 0x3a)
    headers = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * entsize) for i in range(count)]
    names = headers[names_index][4]
    out = {}
    for name_at, _, _, _, offset, size, *_ in headers:
        name = image[names + name_at:image.index(b"\0", names + name_at)].decode()
        if name.startswith(".text."):
            out[name] = image[offset:offset + size]
    return out


def env_for(tmp, name, cache, pythonpath=None):
    """A process of its own: its own working folder, TMPDIR and HOME; the given Triton cache."""
    home = os.path.join(tmp, "home-" + name)
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, TRITON_CACHE_DIR=cache, TMPDIR=home, HOME=home)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env, home


def start_recording(tmp, name, module, task, cache, pythonpath=None):
    env, home = env_for(tmp, name, cache, pythonpath)
    out = os.path.join(tmp, name)
    p = subprocess.Popen([sys.executable, RECORDER, "--task", task, "--module", module, "--out", out], cwd=home,
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return name, p, out


def finish_recording(started):
    name, p, out = started
    log = p.communicate()[0]
    check(p.returncode == 0, f"{name}: recorded on the CPU ({log.strip()[-600:]})")
    if p.returncode != 0:
        return None
    with open(os.path.join(out, "builds.json")) as f:
        return out, json.load(f)


def images(recording):
    out = {}
    for item in recording[1]:
        with open(item["sent"], "rb") as f:
            out[item["build"]["kernel"]] = f.read()
    return out


def build(tmp, name, module, builds_file, task, pythonpath=None):
    """The trusted builder in a process of its own with a fresh cache: {kernel: result entry}."""
    env, home = env_for(tmp, name, os.path.join(tmp, name + "-cache"), pythonpath)
    out = os.path.join(tmp, name)
    r = subprocess.run([sys.executable, BUILDER, "--source", module, "--builds", builds_file, "--out", out,
                        "--task", task], cwd=home, env=env, capture_output=True, text=True)
    check(r.returncode == 0, f"{name}: the builder ran ({(r.stdout + r.stderr).strip()[-600:]})")
    if r.returncode != 0:
        return {}
    with open(os.path.join(out, "result.json")) as f:
        return {e["kernel"]: e for e in json.load(f)}


def edited_builds(tmp, recording, name, edit):
    with open(os.path.join(recording[0], "builds.json")) as f:
        builds = json.load(f)
    for item in builds:
        edit(item)
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(builds, f)
    return path


def touch_later(path):
    """A new modification time, the content unchanged (what a reinstall or a new copy does)."""
    st = os.stat(path)
    os.utime(path, (st.st_atime, st.st_mtime + 86400 * 400 + 7))


def same_everywhere(tmp, what, kernel_file, task, recorders, pythonpath=None):
    """Records with `recorders` (name, module, cache) started together, gives `kernel_file` a new
    time, records once more with the first cache and builds with a fresh one: every image must
    be the builder's. Returns the first recording."""
    started = [start_recording(tmp, n, m, task, c, pythonpath) for n, m, c in recorders]
    recordings = [finish_recording(s) for s in started]
    if not all(recordings):
        return None
    touch_later(kernel_file)
    first_name, first_module, first_cache = recorders[0]
    again = finish_recording(start_recording(tmp, first_name + "-again", first_module, task, first_cache,
                                             pythonpath))
    if again is None:
        return None
    recordings.append(again)
    trusted = build(tmp, what + "-trusted", first_module, os.path.join(recordings[0][0], "builds.json"), task,
                    pythonpath)
    kernels = sorted(trusted)
    check(kernels and all(e.get("same") is True for e in trusted.values()),
          f"{what}: the builder, after the file's new time, makes the image the recorder sent ({trusted})")
    for r in recordings[1:]:
        for kernel, image in images(r).items():
            check(kernel in trusted and image == images(recordings[0]).get(kernel),
                  f"{what}: {os.path.basename(r[0])} sent the same {kernel} image as "
                  f"{os.path.basename(recordings[0][0])}")
    return recordings[0]


def conch_copy(tmp):
    """The installed conch package copied to a folder of the test's own (its files' times are
    then the test's to change), or None where conch is not installed."""
    try:
        import conch
    except ImportError:
        return None
    site = os.path.join(tmp, "site")
    shutil.copytree(os.path.dirname(os.path.abspath(conch.__file__)), os.path.join(site, "conch"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    return site


def main():
    try:
        import triton  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"skipped: {sys.executable} cannot import Triton and PyTorch ({e})")
        return 77
    tmp = tempfile.mkdtemp(prefix="arena-image-determinism-")
    try:
        # The failing case on the GPU: the same package kernel recorded for both sides (the
        # baseline as the candidate), built again by the judge.
        site = conch_copy(tmp)
        if site is None:
            print("note: conch is not installed: the package kernel case is left out")
        else:
            task = os.path.join(CONCH_TASK, "task.json")
            candidate = os.path.join(tmp, "candidate", "kernel.py")
            os.makedirs(os.path.dirname(candidate))
            shutil.copy(os.path.join(CONCH_TASK, "baseline.py"), candidate)
            shared = os.path.join(tmp, "conch-shared-cache")
            kernel_file = os.path.join(site, "conch", "kernels", "activation", "silu_and_mul.py")
            same_everywhere(tmp, "conch package kernel", kernel_file, task,
                            [("conch-baseline", os.path.join(CONCH_TASK, "baseline.py"), shared),
                             ("conch-candidate", candidate, shared),
                             ("conch-own-cache", candidate, os.path.join(tmp, "conch-own-cache"))],
                            pythonpath=site)

        # A checked module's kernel.
        folder = os.path.join(tmp, "module")
        os.makedirs(folder)
        module = os.path.join(folder, "kernel.py")
        with open(module, "w") as f:
            f.write(MODULE.format(factor="2.0"))
        task = os.path.join(folder, "task.json")
        with open(task, "w") as f:
            json.dump(TASK, f)
        shared = os.path.join(tmp, "module-shared-cache")
        honest = same_everywhere(tmp, "module kernel", module, task,
                                 [("module-a", module, shared), ("module-b", module, shared),
                                  ("module-own-cache", module, os.path.join(tmp, "module-own-cache"))])
        if honest is None:
            raise SystemExit("FAILED: cannot go on without the module's recording")
        honest_builds = os.path.join(honest[0], "builds.json")

        # Still refused: the honest image offered for a build with another num_warps.
        def other_warps(item):
            item["build"]["options"]["num_warps"] = 8
        results = build(tmp, "warps-trusted", module, edited_builds(tmp, honest, "warps", other_warps), task)
        check(results.get("_silu", {}).get("same") is False,
              f"the image of num_warps 4 is refused for a build with num_warps 8 ({results})")

        # Still refused: an image of another source (the module recorded with another factor,
        # the checked file holding the first one again).
        other = os.path.join(tmp, "other", "kernel.py")
        os.makedirs(os.path.dirname(other))
        with open(other, "w") as f:
            f.write(MODULE.format(factor="3.0"))
        other_recording = finish_recording(start_recording(tmp, "other-source", other, task,
                                                           os.path.join(tmp, "other-cache")))
        if other_recording:
            with open(other, "w") as f:
                f.write(MODULE.format(factor="2.0"))
            results = build(tmp, "other-trusted", other, os.path.join(other_recording[0], "builds.json"), task)
            check(results.get("_silu", {}).get("same") is False,
                  f"the image of another source is refused ({results})")

        # Still refused: the same source and build compiled with line info on (the setting the
        # trusted compile pins is part of what must match).
        lined = os.path.join(tmp, "line-info.bin")
        env, home = env_for(tmp, "line-info", os.path.join(tmp, "line-info-cache"))
        r = subprocess.run([sys.executable, "-c", UNPINNED, os.path.join(ROOT, "harness", "python"), module,
                            honest_builds, lined], cwd=home, env=env, capture_output=True, text=True)
        check(r.returncode == 0, f"compiled with line info on ({(r.stdout + r.stderr).strip()[-600:]})")
        if r.returncode == 0:
            def line_info_image(item):
                item["sent"] = lined
            results = build(tmp, "line-info-trusted", module,
                            edited_builds(tmp, honest, "line-info", line_info_image), task)
            check(results.get("_silu", {}).get("same") is False,
                  f"the image compiled with line info on is refused ({results})")
            # What line info adds holds no code: the machine code is the same.
            with open(lined, "rb") as f:
                lined_code = code_sections(f.read())
            honest_code = code_sections(images(honest)["_silu"])
            check(list(honest_code) == [".text._silu"] and lined_code == honest_code,
                  f"line info on or off, the kernel's .text is the same ({sorted(lined_code)}, {sorted(honest_code)})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
