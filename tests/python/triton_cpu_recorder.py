#!/usr/bin/env python3
"""Records a Triton module's launch without a GPU, as the recorder would: Triton's own JIT
specializes, autotunes (every config compiled, the first chosen) and compiles each kernel for
sm_90 through a stand-in driver whose loads and launches do nothing, and arena_triton's hook
keeps each loaded kernel's image and build. Writes DIR/builds.json in the trusted builder's
input format (harness/python/arena_triton_build.py), each image beside it.

    triton_cpu_recorder.py --task task.json --module module.py --out DIR
                           [--config K | --unseen K] [--arch 90]

Needs PyTorch and Triton (CPU builds are enough); the driver stand-in is test code only."""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "harness", "python"))

import torch  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.backends.driver import DriverBase  # noqa: E402
from triton.runtime.driver import driver  # noqa: E402


class _Utils:
    def __init__(self):
        self.handles = 0

    def load_binary(self, name, kernel, shared, device):
        self.handles += 1
        return (self.handles, 0x1000 + self.handles, 0, 0, 1024)  # module, function, regs, spills, threads

    def get_device_properties(self, device):
        return {"max_shared_mem": 232448, "multiprocessor_count": 132, "max_num_regs": 65536, "warpSize": 32,
                "sm_clock_rate": 1980000, "mem_clock_rate": 2619000, "mem_bus_width": 5120}


class CpuDriver(DriverBase):
    """Compiles for a chosen NVIDIA target; loads and launches nothing."""

    def __init__(self, arch=90):
        self.arch = arch
        self.utils = _Utils()
        self.launcher_cls = lambda src, metadata: (lambda *args: None)

    @classmethod
    def is_active(cls):
        return False

    def map_python_to_cpp_type(self, ty):
        return ty

    def get_current_target(self):
        return GPUTarget("cuda", self.arch, 32)

    def get_active_torch_device(self):
        return torch.device("cpu")

    def get_benchmarker(self):
        def bench(fn, quantiles=None, **kwargs):  # each config compiled once, all equally fast
            fn()
            return [1.0, 1.0, 1.0] if quantiles else 1.0
        return bench

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_device_interface(self):
        return torch.cuda

    def get_device_capability(self, device=0):
        return (self.arch // 10, self.arch % 10)

    def get_empty_cache_for_benchmark(self):
        return torch.empty(16, dtype=torch.int8)

    def clear_cache(self, cache):
        cache.zero_()


def record(task_file, module_file, out, config=0, arch=90, kind="seen"):
    import arena_abi
    import arena_task
    import arena_triton
    driver.set_active(CpuDriver(arch))
    arena_triton._keep_images()
    task = arena_task.TaskInfo(task_file)
    values = {p["name"]: p["default"] for p in task.spec["params"] if "default" in p}
    values.update(task.spec["configs"][kind][config])
    module = arena_triton._load_module(os.path.abspath(module_file), "candidate")
    kwargs = {}
    for t in task.tensors:
        tname, _ = arena_abi.DTYPES[t["dtype"]]
        dtype = getattr(torch, tname)
        shape = task.shape(t["name"], values)
        kwargs[t["name"]] = (torch.ones(shape, dtype=dtype) if dtype.is_floating_point
                             else torch.zeros(shape, dtype=dtype))
    if callable(getattr(module, "workspace_bytes", None)):
        kwargs["workspace"] = torch.zeros(int(module.workspace_bytes(**values)), dtype=torch.uint8)
    kwargs.update(values)
    module.launch(**kwargs)
    os.makedirs(out, exist_ok=True)
    builds = []
    for i, (function, image) in enumerate(sorted(arena_triton._images.items())):
        sent = os.path.join(out, f"sent-{i}.bin")
        with open(sent, "wb") as f:
            f.write(image)
        builds.append({"build": json.loads(arena_triton._builds[function]), "sent": sent})
    with open(os.path.join(out, "builds.json"), "w") as f:
        json.dump(builds, f, indent=1)
    return builds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--task", required=True)
    p.add_argument("--module", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--config", type=int, default=0, help="the K-th seen configuration")
    p.add_argument("--unseen", type=int, default=None, help="the K-th unseen configuration instead")
    p.add_argument("--arch", type=int, default=90)
    a = p.parse_args()
    if a.unseen is not None:
        builds = record(a.task, a.module, a.out, a.unseen, a.arch, "unseen")
    else:
        builds = record(a.task, a.module, a.out, a.config, a.arch)
    print(f"{a.module}: {len(builds)} kernel image(s): " + ", ".join(b["build"]["kernel"] for b in builds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
