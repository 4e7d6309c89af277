"""What a probe of a KernelBench model may cost: factory calls of huge tensors refused before
they allocate (size_guard), and forward() run first on PyTorch's meta device to refuse sizes
that make a huge tensor or too many floating-point operations (check_inner_sizes)."""
import contextlib
import copy
import math

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten


PROBE_MAX_ELEMS = 1 << 27  # a tensor the probes would allocate (a size kept at a large file value)
SIZED = ("rand", "randn", "zeros", "ones", "empty", "full", "randint")


def _requested_numel(name, args, kwargs):
    """The element count a factory call asks for, or None where it cannot tell."""
    size = kwargs.get("size")
    if size is None:
        if name == "randint":  # randint(high, size) / randint(low, high, size)
            size = next((x for x in args if isinstance(x, (tuple, list, torch.Size))), None)
        elif name == "full":
            size = args[0] if args else None
        elif args and isinstance(args[0], (tuple, list, torch.Size)):
            size = args[0]
        else:
            size = [x for x in args if isinstance(x, int)]
    try:
        return math.prod(int(x) for x in size) if size is not None else None
    except (TypeError, ValueError):
        return None


def _guarded(fn, name):
    def call(*args, **kwargs):
        n = _requested_numel(name, args, kwargs)
        if n is not None and n > PROBE_MAX_ELEMS:
            raise ProbeTooLarge(f"torch.{name} of {n} elements at these sizes (over 2^27)")
        return fn(*args, **kwargs)
    return call


class ProbeTooLarge(RuntimeError):
    """A probe would allocate a huge tensor (a size kept at its file value), or forward() would
    make one (sizes that multiply: a transposed convolution's stride times its input length)."""


# The largest tensor forward() may make in a probe: this many elements, or 8 times the largest
# input or state tensor where that is more. A larger one comes from probe sizes that multiply
# (a stride of 11 times a length of 23): such a probe costs seconds to minutes on a CPU and
# gigabytes of host copies, and tells nothing a cheaper probe would not.
PROBE_MAX_INNER = 1 << 25
# The most floating-point operations forward()'s convolutions and matrix products may do in a
# probe (under a second on a CPU): a kernel of 41 over 43 channels probed at 59 x 61 would be a
# teraflop, minutes on a CPU, for shapes a smaller probe gives as well.
PROBE_MAX_FLOPS = 1 << 35

_MATMULS = {"mm", "bmm", "addmm", "baddbmm", "addbmm"}


class _Watch(TorchDispatchMode):
    """Records the element count of the largest tensor any op returns, and the floating-point
    operations of the convolutions and matrix products (the ops that dominate a probe's cost)."""

    def __init__(self):
        super().__init__()
        self.numel = 0
        self.flops = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        leaves = [t for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
        for t in leaves:
            self.numel = max(self.numel, t.numel())
        name = func.__name__.split(".")[0]
        if name == "convolution" and leaves:
            # The weight meets every position of the output (of the input, transposed): 2 *
            # weight elements * batch * spatial positions.
            w, per = args[1], (args[0] if args[6] else leaves[0])
            if per.dim() > 1 and per.shape[1]:
                self.flops += 2 * (per.numel() // per.shape[1]) * w.numel()
        elif name in _MATMULS and leaves:
            a = args[-2] if name.startswith(("add", "badd")) else args[0]
            self.flops += 2 * leaves[0].numel() * a.shape[-1]
        return out


def check_inner_sizes(model, fwd, state):
    """Runs forward() on PyTorch's meta device (shapes only, no data, no compute) and raises
    ProbeTooLarge when it makes a tensor over PROBE_MAX_INNER or does more than PROBE_MAX_FLOPS;
    a model that fails on the meta device is left to the real run."""
    limit = max([PROBE_MAX_INNER] + [8 * t.numel() for t in list(fwd) + list(state.values())])
    watch = _Watch()
    try:
        # A copy: whatever forward() keeps on the module (a cached mask) stays off the real model.
        clone = copy.deepcopy(model).to("meta")
        with watch:
            clone(*[t.to("meta") for t in fwd])
    except ProbeTooLarge:  # size_guard: a meta kernel asked torch.empty for a huge tensor
        raise
    except Exception:  # noqa: BLE001 an op without a meta kernel, or one that reads data
        pass
    if watch.numel > limit:
        raise ProbeTooLarge(f"forward() makes a tensor of {watch.numel} elements at these sizes (over "
                            f"{limit}, the probes' limit)")
    if watch.flops > PROBE_MAX_FLOPS:
        raise ProbeTooLarge(f"forward()'s convolutions and matrix products do {watch.flops:.3g} floating-point "
                            f"operations at these sizes (over 2^35, the probes' limit)")


@contextlib.contextmanager
def size_guard():
    """Probes never allocate tensors over PROBE_MAX_ELEMS elements: with sizes kept at large file
    values a model could otherwise exhaust the machine's memory."""
    saved = [(n, getattr(torch, n)) for n in SIZED if hasattr(torch, n)]
    for n, fn in saved:
        setattr(torch, n, _guarded(fn, n))
    try:
        yield
    finally:
        for n, fn in saved:
            setattr(torch, n, fn)
