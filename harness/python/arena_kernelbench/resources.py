"""How much of the machine one import may use. A batch runs many imports at once: each gets an
equal share of the CPU cores (PyTorch's CPU ops otherwise start one thread per core in every
process, and dozens of processes then fight over the cores) and one of the GPUs in turn. Only
apply_limits() imports PyTorch."""
import os

from .common import Refusal

THREADS_ENV = "ARENA_IMPORT_THREADS"  # CPU threads one import's PyTorch may use
# The thread pools PyTorch's CPU kernels draw on read these at start-up.
POOL_ENVS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def threads_per_job(jobs, cores=None):
    """Each of `jobs` concurrent imports gets cores // jobs threads, at least one."""
    cores = cores or os.cpu_count() or 1
    return max(1, cores // max(1, jobs))


def visible_gpus(count):
    """The GPU ids a child process may be given: CUDA_VISIBLE_DEVICES's entries where it is set,
    else 0 .. count - 1."""
    listed = os.environ.get("CUDA_VISIBLE_DEVICES")
    if listed is not None:
        return [g.strip() for g in listed.split(",") if g.strip()][:count] or None
    return [str(i) for i in range(count)] or None


def child_env(threads, gpu=None, base=None):
    """The environment of one import of a batch: its thread share and, where given, its GPU."""
    env = dict(os.environ if base is None else base)
    env[THREADS_ENV] = str(threads)
    for k in POOL_ENVS:
        env[k] = str(threads)
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpu
    return env


def apply_limits():
    """In an import, before any probe: the thread share from ARENA_IMPORT_THREADS (unset: PyTorch's
    default), and no cuDNN autotuning (each probe has new sizes: benchmarking every one of them
    costs more than the probe). Returns the number of CPU threads PyTorch uses."""
    import torch
    text = os.environ.get(THREADS_ENV, "").strip()
    if text:
        try:
            n = int(text)
            if n < 1:
                raise ValueError
        except ValueError:
            raise Refusal(f"{THREADS_ENV}={text!r}: want a positive integer (CPU threads per import)")
        torch.set_num_threads(n)
        try:
            torch.set_num_interop_threads(n)
        except RuntimeError:  # only possible before PyTorch's first parallel work
            pass
    torch.backends.cudnn.benchmark = False
    return torch.get_num_threads()
