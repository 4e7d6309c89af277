"""The configurations a task holds: each variable's minimum, the unseen configurations and the
fuzz domain, all bounded in size."""
import itertools
import math

import torch

from .common import ProbeError, Refusal, Unusable, where
from .probe import run_model
from .sizes import prod_text, prod_value

MAX_ELEMS = 1 << 26          # per tensor, in every configuration the importer generates
WORK_CAP = 1 << 30           # product of all int params in a generated configuration (or 4x that of seen)


def is_prime(n):
    if n < 2:
        return False
    for p in range(2, int(math.isqrt(n)) + 1):
        if n % p == 0:
            return False
    return True


def next_prime(n):
    n = max(n, 2)
    while not is_prime(n):
        n += 1
    return n


def odd(n):
    n = max(1, int(n))
    return n if n % 2 else n + 1


def finite(tensors):
    return all(bool(torch.isfinite(t).all()) for t in tensors if t.is_floating_point())  # no float64 copy


def find_minimums(module, a, seen):
    """The smallest value of each variable (1 where the model handles it) with the others at probe sizes."""
    base = {**a.probes[0], **a.frozen}
    base_finite = finite(a.runs[0].outputs)

    def works(cfg):
        """Shapes first (on the meta device), then, where the probes' outputs were finite, a real
        run whose outputs must be finite too."""
        try:
            shapes = run_model(module, cfg, meta=True)
            # An output with a dimension of 0 (a pooling window longer than its input) is a
            # size the task cannot hold: every tensor has at least one element.
            if any(o.numel() == 0 for o in shapes.outputs) or a.predicts(shapes) is not None:
                return False
            return not base_finite or finite(run_model(module, cfg).outputs)
        except (ProbeError, Refusal):
            return False

    mins = {}
    for v in a.free:
        mins[v] = a.probes[0][v]
        # Power products work from 1 on; affine sizes (a convolution's output) from a few more.
        for cand in range(1, a.probes[0][v]):
            if works({**base, v: cand}):
                mins[v] = cand
                break
        mins[v] = min(mins[v], seen[v])
    for t in a.inputs + a.state:  # an index range [low, V - 1] needs V > low
        var = getattr(t, "int_high_var", None)
        if var:
            mins[var] = max(mins[var], int(t.dist["low"]) + 1)

    # Every variable at its minimum at once (e.g. instance norm needs 2 spatial elements):
    # raise the innermost sizes by one, in turn, until the model handles it.
    tries = 0
    while not works({**mins, **a.frozen}):
        bump = [v for v in reversed(a.free) if mins[v] < min(seen[v], a.probes[0][v])]
        tries += 1
        if not bump or tries > 64:
            raise Unusable(f"the model fails on its smallest sizes ({where(mins)})")
        mins[bump[(tries - 1) % len(bump)]] += 1
    return mins


def max_numel(a, cfg):
    return max(prod_value(t.numel(), cfg) for t in a.tensors())


def cap(a, cfg, mins, work_cap):
    """Halves the largest variable of the biggest tensor (staying odd) until every tensor has at
    most 2^26 elements and the product of all variables stays under work_cap."""
    cfg = dict(cfg)
    for _ in range(200):
        big = max(a.tensors(), key=lambda t: prod_value(t.numel(), cfg))
        if prod_value(big.numel(), cfg) > MAX_ELEMS:
            pool = [v for v in a.free if v in big.numel().vars() and cfg[v] > mins[v]]  # file order: deterministic
        elif math.prod(cfg.values()) > work_cap:
            pool = [v for v in cfg if cfg[v] > mins[v]]
        else:
            return cfg
        if not pool:
            return cfg
        v = max(pool, key=lambda x: cfg[x])
        cfg[v] = max(mins[v], (cfg[v] // 2) | 1)
    return cfg


def make_configs(a, seen, mins):
    free = a.free
    work_cap = max(WORK_CAP, 4 * math.prod(seen.values()))
    small = [3, 7, 13, 5, 11, 17, 19, 23]
    cands = [
        {v: mins[v] for v in free},
        {v: next_prime(max(small[i % len(small)], mins[v])) for i, v in enumerate(free)},
        {v: 997 if seen[v] >= 500 else 97 if seen[v] >= 50 else next_prime(seen[v] + 1) for v in free},
        {v: odd(seen[v] // 3) for v in free},
        {v: odd(seen[v] + seen[v] // 2 + 1) for v in free},
    ]
    if len(free) >= 2:
        cands.append({v: odd(seen[v] * 8 + 1) if i == 0 else odd(seen[v] // 16) for i, v in enumerate(free)})
    else:
        cands.append({free[0]: 65537})
    unseen = []
    for k in itertools.count():
        if k < len(cands):
            c = cands[k]
        elif len(unseen) < 5 and k < 40:
            c = {v: next_prime(mins[v] + 6 * (k - len(cands)) + 2 * i + 1) for i, v in enumerate(free)}
        else:
            break
        c = cap(a, {v: max(mins[v], c[v]) for v in free}, mins, work_cap)
        if c != seen and c not in unseen:
            unseen.append(c)
    ranges = {v: [mins[v], max(mins[v], 2 * seen[v])] for v in free}
    # One bound per tensor size, leaving out sizes another bound covers (all variables are >= 1).
    terms = []
    for t in a.tensors():
        term = t.numel()
        if not term.is_const() and term not in terms:
            terms.append(term)
    require = [f"{prod_text(t, free)} <= {MAX_ELEMS}" for t in terms if not any(o.covers(t) for o in terms)]
    return unseen, {"count": 3, "ranges": ranges, "require": require}
