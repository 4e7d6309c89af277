"""ctypes mirrors of the kernel ABI (arena_abi.h), the oracle ABI (arena_reference.h) and
the Python loader interface (kernel_library.h), shared by every Python-provided kernel."""
import ctypes
import os
import traceback

DTYPES = {  # task.json dtype -> (torch dtype name, bytes per element)
    "f32": ("float32", 4), "f16": ("float16", 2), "bf16": ("bfloat16", 2), "f64": ("float64", 8),
    "i32": ("int32", 4), "i64": ("int64", 8), "i8": ("int8", 1), "u8": ("uint8", 1),
}


class ArenaArgs(ctypes.Structure):
    _fields_ = [
        ("tensors", ctypes.POINTER(ctypes.c_void_p)), ("num_tensors", ctypes.c_int),
        ("ints", ctypes.POINTER(ctypes.c_int64)), ("num_ints", ctypes.c_int),
        ("floats", ctypes.POINTER(ctypes.c_double)), ("num_floats", ctypes.c_int),
        ("workspace", ctypes.c_void_p), ("workspace_bytes", ctypes.c_size_t),
        ("stream", ctypes.c_void_p),
    ]


class ArenaRefArgs(ctypes.Structure):
    _fields_ = [
        ("tensors", ctypes.POINTER(ctypes.POINTER(ctypes.c_double))),
        ("numel", ctypes.POINTER(ctypes.c_int64)), ("num_tensors", ctypes.c_int),
        ("ints", ctypes.POINTER(ctypes.c_int64)), ("num_ints", ctypes.c_int),
        ("floats", ctypes.POINTER(ctypes.c_double)), ("num_floats", ctypes.c_int),
    ]


LAUNCH_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArenaArgs))
WORKSPACE_FN = ctypes.CFUNCTYPE(ctypes.c_size_t, ctypes.POINTER(ArenaArgs))
REFERENCE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArenaRefArgs))


IMAGE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                            ctypes.POINTER(ctypes.c_size_t))


class PythonObject(ctypes.Structure):
    _fields_ = [("launch", ctypes.c_void_p), ("workspace_size", ctypes.c_void_p),
                ("reference", ctypes.c_void_p), ("writes_outputs", ctypes.c_int), ("image", ctypes.c_void_p),
                ("build", ctypes.c_void_p)]


LOADER_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                             ctypes.POINTER(PythonObject), ctypes.c_void_p, ctypes.c_size_t)


def params_of(args):
    """(ints, floats) of an ArenaArgs or ArenaRefArgs as Python lists."""
    return ([args.ints[i] for i in range(args.num_ints)], [args.floats[i] for i in range(args.num_floats)])


def describe_error(e):
    """One line naming an exception. Triton's CompilationError keeps its reason in the chained
    cause, often a bare assertion: the failing source line then says what was wrong."""
    text, cause = f"{type(e).__name__}: {e}", e.__cause__ or e.__context__
    if cause is None:
        return text
    why = str(cause)
    if not why:
        frames = traceback.extract_tb(cause.__traceback__)
        why = f"{frames[-1].line} ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    if why not in text:
        text += f" (because {type(cause).__name__}: {why})"
    return text
