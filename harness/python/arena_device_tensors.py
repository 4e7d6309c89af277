"""The harness's device buffers and stream as PyTorch objects, without copies: shared by every
Python-provided kernel (PyTorch references, Triton kernels)."""
import math
import os

import torch

import arena_abi


def use_harness_device():
    """Makes PyTorch's current device the one the runner chose (harness/src/device.cpp: the GPU
    CTest allocated, else ARENA_DEVICE, else 0), so tensors over its buffers, streams and
    Triton launches are on that device, not on device 0."""
    dev = 0
    if int(os.environ.get("CTEST_RESOURCE_GROUP_COUNT", "0") or 0) > 0:
        alloc = os.environ.get("CTEST_RESOURCE_GROUP_0_GPUS",  # "id:1,slots:4"
                               os.environ.get("CTEST_RESOURCE_GROUP_0_PERF_GPUS", ""))  # a shared perf slot
        if alloc.startswith("id:"):
            dev = int(alloc[3:].split(",")[0])
    elif os.environ.get("ARENA_DEVICE"):
        dev = int(os.environ["ARENA_DEVICE"])
    torch.cuda.set_device(dev)
    return dev


class _DevicePointer:
    """A raw device allocation as a CUDA array of bytes, for torch.as_tensor."""

    def __init__(self, ptr, nbytes):
        self.__cuda_array_interface__ = {"shape": (nbytes,), "typestr": "|u1", "data": (ptr, False),
                                         "version": 3, "strides": None}


def device_tensor(ptr, dtype, shape):
    """A tensor over the device memory at `ptr` with a task.json dtype and shape."""
    tname, size = arena_abi.DTYPES[dtype]
    nbytes = math.prod(shape) * size
    if nbytes == 0:
        return torch.empty(shape, dtype=getattr(torch, tname), device="cuda")
    raw = torch.as_tensor(_DevicePointer(ptr, nbytes), device="cuda")
    return raw.view(getattr(torch, tname)).view(shape)


class Streams:
    """torch.cuda.ExternalStream per harness stream handle."""

    def __init__(self):
        self._streams = {}

    def get(self, handle):
        s = self._streams.get(handle)
        if s is None:
            s = self._streams[handle] = torch.cuda.ExternalStream(handle)
        return s
