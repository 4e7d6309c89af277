"""Tensor sizes as products of variables and affine factors, read off observed sizes
(pure Python: no PyTorch)."""
import math


# A size is c * f1 * f2 * ..., each factor one of
#   ("pow", v, e)             v ** e
#   ("aff", v, a, b, s)       (a * v + b) / s, integer division (a convolution's or a pool's
#                             output length: (v - 2), (v - 4) / 2, 2 * v + 1, ...)
#   ("lin", ((v, a), ...), b) a1 * v1 + a2 * v2 + ... + b (a concatenation's length)
# The expression language of task.json (and Python's // on the non-negative numerators of valid
# configurations) evaluates each of them the same way.

class Size:
    def __init__(self, c=1, factors=()):
        pows, rest = {}, []
        for f in factors:
            if f[0] == "pow":
                pows[f[1]] = pows.get(f[1], 0) + f[2]
            else:
                rest.append(f)
        self.c = c
        self.factors = tuple(sorted([("pow", v, e) for v, e in pows.items() if e], key=repr) + sorted(rest, key=repr))

    def __eq__(self, other):
        return isinstance(other, Size) and (self.c, self.factors) == (other.c, other.factors)

    def __hash__(self):
        return hash((self.c, self.factors))

    def __repr__(self):
        return f"Size({self.c}, {self.factors})"

    def is_const(self):
        return not self.factors

    def vars(self):
        out = set()
        for f in self.factors:
            out.update([f[1]] if f[0] != "lin" else [v for v, _ in f[1]])
        return out

    def value(self, values):
        return self.c * math.prod(factor_value(f, values) for f in self.factors)

    def text(self, order, alone=True):
        rank = {v: i for i, v in enumerate(order)}
        fs = sorted(self.factors, key=lambda f: (min(rank.get(v, 1 << 20) for v in factor_vars(f)), f[0] != "pow", repr(f)))
        parts = [] if self.c == 1 and fs else [str(self.c)]
        single = alone and self.c == 1 and len(fs) == 1
        for f in fs:
            if f[0] == "pow":
                parts += [f[1]] * f[2]
            else:
                parts.append(factor_text(f, bare=single))
        return " * ".join(parts)

    def entry(self, order):
        """A shape entry: an integer for a constant, else an expression string."""
        return self.c if not self.factors else self.text(order)

    def covers(self, small):
        """Whether self >= small for every configuration because it holds all of small's factors."""
        if self == small or self.c < small.c:
            return False
        mine = list(self.factors)
        for f in small.factors:
            if f[0] == "pow":
                hit = next((g for g in mine if g[0] == "pow" and g[1] == f[1] and g[2] >= f[2]), None)
            else:
                hit = f if f in mine else None
            if hit is None:
                return False
            mine.remove(hit)
        return True

    def key(self):
        """The size without its constant: sizes with equal keys add up into one term."""
        return self.factors


def factor_vars(f):
    return [v for v, _ in f[1]] if f[0] == "lin" else [f[1]]


def factor_value(f, values):
    if f[0] == "pow":
        return values[f[1]] ** f[2]
    if f[0] == "aff":
        _, v, a, b, s = f
        return (a * values[v] + b) // s
    return sum(a * values[v] for v, a in f[1]) + f[2]


def _affine_text(terms, b):
    text = ""
    for v, a in terms:
        coef = v if abs(a) == 1 else f"{abs(a)} * {v}"
        text += (coef if not text and a > 0 else f"-{coef}" if not text else f" {'+' if a > 0 else '-'} {coef}")
    if b:
        text += f" {'+' if b > 0 else '-'} {abs(b)}"
    return text


def factor_text(f, bare=False):
    if f[0] == "pow":
        return " * ".join([f[1]] * f[2])
    if f[0] == "aff":
        _, v, a, b, s = f
        inner = _affine_text([(v, a)], b)
        if s == 1:
            return inner if bare or (a == 1 and not b) else f"({inner})"
        num = inner if (a == 1 and not b) else f"({inner})"
        return f"{num} / {s}" if bare else f"({num} / {s})"
    inner = _affine_text(list(f[1]), f[2])
    return inner if bare else f"({inner})"


def size_mul(sizes):
    c, factors = 1, []
    for s in sizes:
        c *= s.c
        factors += list(s.factors)
    return Size(c, factors)


def python_expr(text):
    """A size expression as Python evaluates it (torch.init): integer division."""
    return text.replace(" / ", " // ")


def prod_value(term, values):
    return term.value(values)


def prod_text(term, order):
    return term.text(order)


def prod_entry(term, order):
    return term.entry(order)


def prod_mul(terms):
    return size_mul(terms)


def infer_product(observed, probes, n_candidates):
    """The product of variable powers that gives `observed[k]` on `probes[k]` for every k, or
    None. Candidates come from factoring the observations on the first n_candidates probes
    (distinct primes); the others only check."""
    if any(not isinstance(d, int) or d < 1 for d in observed):
        return None
    for d, values in list(zip(observed, probes))[:n_candidates]:
        c, factors = d, []
        for v, p in values.items():
            e = 0
            while p > 1 and c % p == 0:
                c //= p
                e += 1
            if e:
                factors.append(("pow", v, e))
        term = Size(c, factors)
        if all(term.value(vals) == o for o, vals in zip(observed, probes)):
            return term
    return None


def _divisors(n):
    small = [d for d in range(1, int(math.isqrt(n)) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


MAX_STRIDE = 16  # the largest divisor s of an affine factor (a pool of 16); sweeps cover 2 * s values
MAX_SLOPE = 4    # the largest multiplier a (a transposed convolution's stride)


def fit_factor(points):
    """One variable's factor from (value, observed size) pairs where only that variable changes:
    None when the size does not depend on it, else (factor, K) with size = K * factor(value).
    Powers first, then (a * v + b) / s with the smallest s and a."""
    xs = [x for x, _ in points]
    ds = [d for _, d in points]
    if all(d == ds[0] for d in ds):
        return None
    v = "_"
    for e in (1, 2, 3):
        k = ds[0] // xs[0] ** e if ds[0] % xs[0] ** e == 0 else None
        if k and all(d == k * x ** e for x, d in points):
            return ("pow", v, e), k
    g = 0
    for d in ds:
        g = math.gcd(g, d)
    for s in range(1, MAX_STRIDE + 1):
        for a in range(1, MAX_SLOPE + 1):
            if s > 1 and math.gcd(a, s) != 1:
                continue
            for k in reversed(_divisors(g)):  # the largest K: the factor's own content is 1
                lo, hi = -(1 << 60), 1 << 60
                for x, d in points:  # (a x + b) // s == d / k  <=>  s*f - a*x <= b <= s*f - a*x + s - 1
                    f = d // k
                    lo, hi = max(lo, s * f - a * x), min(hi, s * f - a * x + s - 1)
                    if lo > hi:
                        break
                if lo > hi:
                    continue
                b = min(range(lo, hi + 1), key=lambda z: (abs(z), z)) if hi - lo < 64 else lo
                if s == 1 and math.gcd(a, abs(b)) != 1:
                    continue  # K would not be the largest
                return ("aff", v, a, b, s), k
    return None


def infer_size(observed, values, base, sweeps, order):
    """The size that gives observed[k] on values[k] for every run k, or None. Runs in
    sweeps[v] change only v from the base run (index 0). A power product first, then a product
    of one factor per variable (fitted on its sweep), then a sum of variables."""
    if any(not isinstance(d, int) or d < 1 for d in observed):
        return None
    d0 = observed[0]
    factors, denom = [], 1
    for v in order:
        pts = [(values[0][v], d0)] + [(values[k][v], observed[k]) for k in sweeps.get(v, [])]
        fit = fit_factor(pts)
        if fit is None:
            continue
        f, _ = fit
        f = (f[0], v) + f[2:]
        factors.append(f)
        denom *= factor_value(f, values[0])
    if denom > 0 and d0 % denom == 0:
        size = Size(d0 // denom, factors)
        if all(size.value(vals) == o for o, vals in zip(observed, values)):
            return size
    # a1 * v1 + a2 * v2 + ... + b: constant steps along every sweep.
    terms = []
    for v in order:
        ks = sweeps.get(v, [])
        if not ks:
            continue
        dx = [values[k][v] - values[0][v] for k in ks]
        dd = [observed[k] - d0 for k in ks]
        if any(x == 0 for x in dx) or any(d * dx[0] != dd[0] * x for d, x in zip(dd, dx)) or dd[0] % dx[0]:
            return None
        if dd[0]:
            terms.append((v, dd[0] // dx[0]))
    if len(terms) < 2:
        return None
    b = d0 - sum(a * values[0][v] for v, a in terms)
    g = 0
    for x in [a for _, a in terms] + [b]:
        g = math.gcd(g, x)
    size = Size(g, [("lin", tuple((v, a // g) for v, a in terms), b // g)])
    if all(size.value(vals) == o for o, vals in zip(observed, values)):
        return size
    return None
