"""What every part of the KernelBench importer shares: the refusal it reports, and small text helpers."""
import re


class Refusal(Exception):
    """What is wrong with the problem file: reported as one line, nothing is written."""


class ProbeError(Exception):
    """The model (or get_inputs()) failed on one set of probe sizes."""


class DeviceFault(Exception):
    """The GPU hit an error that leaves this process's CUDA context unusable (a device-side assert:
    an index out of range at probe sizes): every later probe would fail, so the import starts
    again with its probes on the CPU, where the same mistake is an ordinary exception."""


class Unusable(Exception):
    """Sizes the importer could express on its probes that fail elsewhere (another configuration,
    the smallest sizes): another choice of fixed variables may do."""


# Names a tensor or param must not take: C++ keywords, and `a`, the ABI argument of arena_launch.
RESERVED = set("""a alignas alignof and asm auto bool break case catch char class const constexpr
continue decltype default delete do double else enum explicit export extern false float for friend
goto if inline int long mutable namespace new noexcept not nullptr operator or private protected
public register return short signed sizeof static struct switch template this throw true try
typedef typeid typename union unsigned using virtual void volatile while""".split())


def short(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def sanitize(name):
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def ident(name, taken, prefix="t"):
    """A C identifier for a tensor or param name, unique among `taken` (which it joins)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", name) or prefix
    if name[0].isdigit():
        name = prefix + name
    while name in RESERVED or name in taken:
        name += "_"
    taken.add(name)
    return name


def where(values):
    return ", ".join(f"{k}={v}" for k, v in values.items())


def first_line(e):
    text = str(e).strip().splitlines()
    return text[0] if text else "(no message)"
