"""Random well-typed `cuda.device` kernels with their reference semantics.

`generate(seed)` returns a `Program`: the Python source of a module with one
kernel `k` (and a `@device.struct`), its launch arguments (NumPy arrays,
fixed-seed random, never all zeros; outputs poisoned with NaN / a sentinel)
and `expected`, the outputs as this module's interpreter computes them.

The interpreter is the reference: every expression node carries its pydev
type (the frontend's promotion rules: Array API tables, weak Python scalars,
an integer with a float gives the float, `/` of integers gives float32 or
float64 for 64-bit ones) and an evaluator. Integers are exact Python ints;
a signed result outside its type, a conversion that does not fit, or a
shift beyond the width is undefined behaviour, which raises `UB` and the
program is drawn again. Unsigned arithmetic wraps. Floats are NumPy
float32/float64 scalars (IEEE rounding as the kernel computes them); each
float carries a magnitude bound so the comparison tolerates reassociation.

Kernels run with grid 2 x block 64 and no early exit: warp operations
(shuffles, votes, ballots under the full mask -1) and block barriers over
shared memory sit at the top level, where all threads are converged; the
interpreter runs top-level statements in lockstep over all 128 threads.
Control flow (if/else, for over range, while with break), arrays (1-d and
2-d, slices with steps, reversed views), structs, vectors and atomics
(order-independent: add/max/min with ignored results) are inside.
"""

import math
import random
import re

import numpy as np

GRID, BLOCK = 2, 64
N = GRID * BLOCK
M_ROWS, M_COLS = 8, 6  # the 2-d input

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]
NUMS = INTS + FLOATS


class UB(Exception):
    """The program would have undefined behaviour for these inputs."""


def bits(t):
    return {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}[t]


def signed(t):
    return t.startswith("int")


def is_int(t):
    return t in INTS


def is_float(t):
    return t in FLOATS


def promote(a, b):
    """pydev's promotion of two strong types (frontends/python/src/types.rs)."""
    if a == b:
        return a
    if a == "bool":
        return b
    if b == "bool":
        return a
    if is_int(a) and is_int(b):
        if signed(a) == signed(b):
            return a if bits(a) >= bits(b) else b
        s, u = (a, b) if signed(a) else (b, a)
        if bits(u) < bits(s):
            return s
        if bits(u) < 64:
            return f"int{bits(u) * 2}"
        return None
    if is_int(a) and is_float(b):
        return b
    if is_float(a) and is_int(b):
        return a
    return "float64" if "float64" in (a, b) else "float32"


def fit(t, v):
    """`v` (exact) as a value of integer type `t`: wraps unsigned, UB for signed."""
    n = bits(t)
    if signed(t):
        if not -(1 << (n - 1)) <= v < (1 << (n - 1)):
            raise UB(f"{t} overflow: {v}")
        return v
    return v % (1 << n)


def fl(t, v):
    return np.float32(v) if t == "float32" else np.float64(v)


def conv(to, frm, v):
    """Value `v` of type `frm` converted to `to` (device.<to>(v))."""
    if to == "bool":
        return bool(v)
    if is_int(to):
        if is_float(frm):
            raise UB("float to int")
        v = int(v)
        n = bits(to)
        lo, hi = (-(1 << (n - 1)), 1 << (n - 1)) if signed(to) else (0, 1 << n)
        if not lo <= v < hi:
            raise UB(f"{v} does not fit {to}")
        return v
    if frm == "bool":
        v = int(v)
    if is_int(frm):
        # int to float rounds to nearest, as sitofp/uitofp do
        return fl(to, float(v)) if abs(v) < (1 << 53) else fl(to, np.float64(v))
    return fl(to, v)


class E:
    """An expression: its code, its type, whether it is a weak Python
    literal, a magnitude bound (floats) and an evaluator over a thread's env."""

    def __init__(self, code, ty, ev, mag=0.0, weak=False):
        self.code, self.ty, self.ev, self.mag, self.weak = code, ty, ev, mag, weak


def result_type(a, b):
    if a.weak and not b.weak:
        if a.ty == "float" and is_int(b.ty):
            return "float32"
        return b.ty
    if b.weak and not a.weak:
        if b.ty == "float" and is_int(a.ty):
            return "float32"
        return a.ty
    return promote(a.ty, b.ty)


def as_type(e, t, env):
    """e's value converted to `t` as the frontend's promotion does."""
    v = e.ev(env)
    if e.weak:
        return fl(t, v) if is_float(t) else v
    if e.ty == t:
        return v
    return conv(t, e.ty, v) if not (is_float(t) and is_float(e.ty)) else fl(t, v)


def strong(e, ty):
    """`e` as a strong `ty` value: a weak literal gets `device.<ty>(...)`."""
    if not e.weak:
        return e
    return E(f"device.{ty}({e.code})", ty, lambda env, e=e, t=ty: as_type(e, t, env), e.mag)


def _val(x):
    """An input element as the interpreter holds it: exact ints, NumPy floats."""
    return int(x) if isinstance(x, (np.integer, int)) else x


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.nvars = 0
        self.scopes = [[]]  # [(name, type, mag)] visible locals
        self.features = set()
        self.lowp_vars = set()  # locals whose value went through float32 arithmetic

    def lowp(self, code):
        """Whether `code` may compute in float32 (a float64 output of it is
        compared at float32 precision): float32 values, Python floats (float32
        with integers), int / int, or a local that did."""
        if re.search(r"float32|\blerp\(|/|\d\.\d|\.f\b", code):
            return True
        return any(re.search(rf"\b{v}\b", code) for v in self.lowp_vars)

    # -- helpers ---------------------------------------------------------------------------
    def choice(self, xs):
        return self.r.choice(xs)

    def visible(self, pred=lambda t: True):
        return [v for s in self.scopes for v in s if pred(v[1])]

    def new_var(self, ty, mag=0.0, code=""):
        name = f"v{self.nvars}"
        self.nvars += 1
        if ty in ("float32", "vec", "struct") or self.lowp(code):
            self.lowp_vars.add(name)
        self.scopes[-1].append((name, ty, mag))
        return name

    # -- expressions -----------------------------------------------------------------------
    def leaf(self, ty):
        r = self.r
        opts = []
        vs = self.visible(lambda t: t == ty)
        if vs:
            opts += ["var"] * 3
        opts += ["array", "array", "lit"]
        if ty in ("int32", "float32", "int64", "float64"):
            opts += ["view"]
        if ty == "float32":
            opts += ["matrix", "vec", "struct"]
        if ty == "float64":
            opts += ["fmatrix"]
        if ty == "int32":
            opts += ["tid", "struct"]
        k = r.choice(opts)
        if k == "var":
            name, _, mag = r.choice(vs)
            return E(name, ty, lambda env, n=name: env[n], mag)
        if k == "array":
            name = f"a_{ty}"
            idx = r.choice(["i", "(i + 3) % 128", "127 - i", "i // 2"])
            return E(
                f"{name}[{idx}]",
                ty,
                lambda env, n=name, ix=idx: _val(env["@in"][n][eval(ix, {}, {"i": env["i"]})]),
                4.0,
            )
        if k == "view":
            self.features.add("views")
            name = f"a_{ty}"
            form = r.choice(["[5:][i % 123]", "[::2][i // 2]", "[::-1][i]", "[10:100:3][i % 30]", "[-20:][i % 20]"])

            def ev(env, n=name, f=form):
                return _index(env["@in"][n], f, env["i"])

            return E(f"{name}{form}", ty, ev, 4.0)
        if k == "matrix":
            self.features.add("2d")
            form = r.choice(
                ["[i % 8, i % 6]", "[i % 8][3]", "[:, 2][i % 8]", "[i % 8, ::-1][i % 6]", "[1:7:2, 1:][i % 3, i % 5]"]
            )

            def ev(env, f=form):
                return _index(env["@in"]["m_float32"], f, env["i"])

            return E(f"m_float32{form}", ty, ev, 4.0)
        if k == "fmatrix":
            self.features.add("F-order arrays")
            form = r.choice(["[i % 8, i % 6]", "[:, i % 6][i % 8]", "[i % 8, 1::2][i % 3]", "[::-1, :][i % 8, 5]"])

            def ev(env, f=form):
                return _index(env["@in"]["f_float64"], f, env["i"])

            return E(f"f_float64{form}", ty, ev, 4.0)
        if k == "tid":
            return E("i", ty, lambda env: env["i"])
        if k == "vec":
            vecs = self.visible(lambda t: t == "vec")
            if vecs:
                self.features.add("vectors")
                name = r.choice(vecs)[0]
                comp = r.choice([".x", ".y", ".z", ".w", "[0]", "[2]"])
                j = {".x": 0, ".y": 1, ".z": 2, ".w": 3, "[0]": 0, "[2]": 2}[comp]
                return E(f"{name}{comp}", ty, lambda env, n=name, j=j: env[n][j], 20.0)
        if k == "struct":
            ss = self.visible(lambda t: t == "struct")
            if ss:
                self.features.add("structs")
                name = r.choice(ss)[0]
                if ty == "int32":
                    return E(f"{name}.n", ty, lambda env, n=name: env[n][0])
                return E(f"{name}.f", ty, lambda env, n=name: env[n][1], 20.0)
        # literal
        if is_int(ty):
            lo = 0 if not signed(ty) else -9
            v = r.randint(lo, 12)
            if ty == "int32" and r.random() < 0.5:
                return E(str(v), "int", lambda env, v=v: v, weak=True)
            return E(f"device.{ty}({v})", ty, lambda env, v=v: v)
        v = r.choice([0.5, 1.25, -2.0, 3.0, 0.1, -0.75])
        if r.random() < 0.5:
            return E(repr(v), "float", lambda env, v=v: v, weak=True, mag=abs(v))
        return E(f"device.{ty}({v!r})", ty, lambda env, v=v, t=ty: fl(t, v), abs(v))

    def operand(self, ty, depth):
        """An expression whose type promotes with `ty` to `ty` (or is `ty`)."""
        r = self.r
        if is_int(ty):
            subs = [t for t in INTS if promote(t, ty) == ty]
        else:
            subs = [t for t in NUMS if promote(t, ty) == ty]
        t = ty if r.random() < 0.6 else r.choice(subs)
        return self.expr(t, depth)

    def expr(self, ty, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(ty)
        d = depth - 1
        if ty == "bool":
            return self.cond(d)
        if is_int(ty):
            k = r.choice(
                [
                    "arith",
                    "arith",
                    "arith",
                    "div",
                    "bit",
                    "shift",
                    "unary",
                    "minmax",
                    "conv",
                    "ifexp",
                    "intrinsic",
                    "call",
                ]
            )
            if k == "arith":
                a, b = self.operand(ty, d), self.operand(ty, d)
                a = strong(a, ty) if a.weak and b.weak else a  # literals alone stay weak in the frontend
                if result_type(a, b) != ty:
                    return self.leaf(ty)
                op = r.choice(["+", "-", "*"])
                return E(
                    f"({a.code} {op} {b.code})",
                    ty,
                    lambda env, a=a, b=b, op=op, t=ty: fit(t, _arith(op, as_type(a, t, env), as_type(b, t, env))),
                )
            if k == "div":
                a = strong(self.operand(ty, d), ty)
                if result_type(a, E("", ty, None)) != ty:
                    return self.leaf(ty)
                b = strong(self.expr(ty, d), ty)
                op = r.choice(["//", "%"])
                neg = signed(ty) and r.random() < 0.3
                code = f"({a.code} {op} {'-' if neg else ''}(({b.code} & 7) + 1))"

                def ev(env, a=a, b=b, op=op, neg=neg, t=ty):
                    den = (b.ev(env) & 7) + 1
                    den = -den if neg else den
                    x = as_type(a, t, env)
                    return fit(t, x // den if op == "//" else x % den)

                return E(code, ty, ev)
            if k == "bit":
                a, b = self.operand(ty, d), self.operand(ty, d)
                a = strong(a, ty) if a.weak and b.weak else a
                if result_type(a, b) != ty:
                    return self.leaf(ty)
                op = r.choice(["&", "|", "^"])

                def ev(env, a=a, b=b, op=op, t=ty):
                    x, y = as_type(a, t, env), as_type(b, t, env)
                    return fit(t, x & y if op == "&" else x | y if op == "|" else x ^ y)

                return E(f"({a.code} {op} {b.code})", ty, ev)
            if k == "shift":
                a = strong(self.expr(ty, d), ty)
                s = r.randint(0, 4)
                op = r.choice(["<<", ">>"])
                return E(
                    f"({a.code} {op} {s})",
                    ty,
                    lambda env, a=a, s=s, op=op, t=ty: fit(t, a.ev(env) << s if op == "<<" else a.ev(env) >> s),
                )
            if k == "unary":
                a = strong(self.expr(ty, d), ty)
                if signed(ty):
                    if r.random() < 0.5:
                        return E(f"(-{a.code})", ty, lambda env, a=a, t=ty: fit(t, -a.ev(env)))
                    return E(f"abs({a.code})", ty, lambda env, a=a, t=ty: fit(t, abs(a.ev(env))))
                return E(f"(~{a.code})", ty, lambda env, a=a, t=ty: fit(t, ~a.ev(env)))
            if k == "minmax":
                a, b = strong(self.expr(ty, d), ty), strong(self.expr(ty, d), ty)
                f = r.choice(["min", "max"])
                return E(
                    f"{f}({a.code}, {b.code})",
                    ty,
                    lambda env, a=a, b=b, f=f: (min if f == "min" else max)(a.ev(env), b.ev(env)),
                )
            if k == "conv":
                src = r.choice(INTS)
                a = strong(self.expr(src, d), src)
                if not _constant_fits(a, lambda v, s=src, t=ty: conv(t, s, v)):
                    return self.leaf(ty)  # the frontend folds it and rejects what does not fit
                return E(f"device.{ty}({a.code})", ty, lambda env, a=a, s=src, t=ty: conv(t, s, a.ev(env)))
            if k == "ifexp":
                c, a, b = self.cond(d), strong(self.expr(ty, d), ty), strong(self.expr(ty, d), ty)
                return E(
                    f"({a.code} if {c.code} else {b.code})",
                    ty,
                    lambda env, a=a, b=b, c=c: a.ev(env) if c.ev(env) else b.ev(env),
                )
            if k == "call":
                # @device.func helpers, specialised per argument types
                a, b = strong(self.expr(ty, d), ty), strong(self.expr(ty, d), ty)
                self.features.add("device functions")
                return E(
                    f"mix({a.code}, {b.code})", ty, lambda env, a=a, b=b, t=ty: fit(t, mix_ref(a.ev(env), b.ev(env)))
                )
            if k == "intrinsic" and ty == "int32":
                self.features.add("bit intrinsics")
                src = r.choice(["uint32", "int32", "uint64"])
                a = self.expr(src, d)
                f = r.choice(["popc", "ffs", "clz"])
                return E(f"device.{f}({a.code})", ty, lambda env, a=a, f=f, s=src: _bitfn(f, a.ev(env), bits(s)))
            return self.leaf(ty)
        # floats
        k = r.choice(["arith", "arith", "arith", "div", "intdiv", "math", "minmax", "conv", "ifexp", "neg", "call"])
        if k == "call":
            a, b = strong(self.expr(ty, d), ty), strong(self.expr(ty, d), ty)
            self.features.add("device functions")
            return E(
                f"lerp({a.code}, {b.code})",
                ty,
                lambda env, a=a, b=b, t=ty: fl(t, fl(t, a.ev(env) * fl(t, 0.25)) + fl(t, b.ev(env) * fl(t, 0.75))),
                a.mag + b.mag,
            )
        if k == "arith":
            a, b = self.operand(ty, d), self.operand(ty, d)
            a = strong(a, ty) if a.weak and b.weak else a
            if result_type(a, b) != ty:
                return self.leaf(ty)
            op = r.choice(["+", "-", "*"])
            mag = a.mag + b.mag if op != "*" else a.mag * b.mag
            if mag > 1e6:
                return self.leaf(ty)
            return E(
                f"({a.code} {op} {b.code})",
                ty,
                lambda env, a=a, b=b, op=op, t=ty: fl(t, _arith(op, as_type(a, t, env), as_type(b, t, env))),
                mag,
            )
        if k == "div":
            a, b = strong(self.expr(ty, d), ty), strong(self.expr(ty, d), ty)
            return E(
                f"({a.code} / (abs({b.code}) + 1.0))",
                ty,
                lambda env, a=a, b=b, t=ty: fl(t, a.ev(env) / (fl(t, abs(b.ev(env))) + fl(t, 1.0))),
                a.mag,
            )
        if k == "intdiv":
            src = r.choice(INTS)
            if (bits(src) == 64) != (ty == "float64"):
                return self.leaf(ty)
            a, b = strong(self.expr(src, d), src), strong(self.expr(src, d), src)
            self.features.add("int true division")

            def ev(env, a=a, b=b, t=ty):
                x, y = a.ev(env), (b.ev(env) & 7) + 1
                return fl(t, fl(t, x) / fl(t, y))

            return E(f"({a.code} / (({b.code} & 7) + 1))", ty, ev, 1e3)
        if k == "math":
            a = strong(self.expr(ty, d), ty)
            f = r.choice(["sqrt", "sin", "cos", "fabs"])
            if f == "sqrt":
                return E(
                    f"math.sqrt(abs({a.code}))",
                    ty,
                    lambda env, a=a, t=ty: fl(t, np.sqrt(fl(t, abs(a.ev(env))))),
                    math.sqrt(a.mag) + 1,
                )
            if f == "fabs":
                return E(f"abs({a.code})", ty, lambda env, a=a, t=ty: fl(t, abs(a.ev(env))), a.mag)
            if a.mag > 1e3:
                return self.leaf(ty)
            fn = np.sin if f == "sin" else np.cos
            return E(
                f"math.{f}({a.code})",
                ty,
                lambda env, a=a, t=ty, fn=fn: fl(t, fn(np.float64(a.ev(env)))),
                1.0 + a.mag * 1e-3,
            )
        if k == "minmax":
            a, b = strong(self.expr(ty, d), ty), strong(self.expr(ty, d), ty)
            f = r.choice(["min", "max"])
            return E(
                f"{f}({a.code}, {b.code})",
                ty,
                lambda env, a=a, b=b, f=f: (min if f == "min" else max)(a.ev(env), b.ev(env)),
                max(a.mag, b.mag),
            )
        if k == "conv":
            src = r.choice(NUMS)
            a = strong(self.expr(src, d), src)
            mag = a.mag if is_float(src) else 1e4
            return E(f"device.{ty}({a.code})", ty, lambda env, a=a, s=src, t=ty: conv(t, s, a.ev(env)), mag)
        if k == "ifexp":
            c, a, b = self.cond(d), strong(self.expr(ty, d), ty), strong(self.expr(ty, d), ty)
            return E(
                f"({a.code} if {c.code} else {b.code})",
                ty,
                lambda env, a=a, b=b, c=c: a.ev(env) if c.ev(env) else b.ev(env),
                max(a.mag, b.mag),
            )
        if k == "neg":
            a = strong(self.expr(ty, d), ty)
            return E(f"(-{a.code})", ty, lambda env, a=a: -a.ev(env), a.mag)
        return self.leaf(ty)

    def cond(self, depth):
        """A bool from integer comparisons (floats could flip on rounding)."""
        r = self.r
        k = r.choice(["cmp", "cmp", "cmp", "chain", "and", "or", "not"]) if depth > 0 else "cmp"
        if k in ("cmp", "chain"):
            t = r.choice(["int32", "int32", "int64", "uint32", "int16", "uint8"])
            a, b = self.expr(t, depth - 1), self.operand(t, depth - 1)
            if result_type(a, b) != t:
                b = self.expr(t, depth - 1)
            op = r.choice(["<", "<=", "==", "!=", ">", ">="])
            if k == "chain":
                c = self.expr(t, depth - 1)
                return E(
                    f"({a.code} < {b.code} {op} {c.code})",
                    "bool",
                    lambda env, a=a, b=b, c=c, op=op, t=t: (
                        _cmp("<", a.ev(env), as_type(b, t, env)) and _cmp(op, as_type(b, t, env), c.ev(env))
                    ),
                )
            return E(
                f"({a.code} {op} {b.code})",
                "bool",
                lambda env, a=a, b=b, op=op, t=t: _cmp(op, a.ev(env), as_type(b, t, env)),
            )
        if k == "not":
            a = self.cond(depth - 1)
            return E(f"(not {a.code})", "bool", lambda env, a=a: not a.ev(env))
        a, b = self.cond(depth - 1), self.cond(depth - 1)
        if k == "and":
            return E(f"({a.code} and {b.code})", "bool", lambda env, a=a, b=b: a.ev(env) and b.ev(env))
        return E(f"({a.code} or {b.code})", "bool", lambda env, a=a, b=b: a.ev(env) or b.ev(env))

    # -- statements (per thread) -----------------------------------------------------------
    def block(self, depth, n, in_loop=False):
        """(lines, executor) of `n` statements; executor(env) may raise Break."""
        stmts = [self.stmt(depth, in_loop) for _ in range(n)]
        lines = [ln for s in stmts for ln in s[0]]

        def run(env):
            for s in stmts:
                s[1](env)

        return lines or ["pass"], run

    def stmt(self, depth, in_loop):
        r = self.r
        opts = ["assign", "assign", "assign", "update"]
        if depth > 0:
            opts += ["if", "for", "while"]
        opts += ["struct", "vec", "atomic", "local", "tuple"]
        if in_loop:
            opts += ["break", "continue"]
        k = r.choice(opts)
        if k == "assign":
            ty = r.choice(NUMS + ["int32", "float32"])
            e = strong(self.expr(ty, 3), ty)
            name = self.new_var(ty, e.mag, e.code)
            return [f"{name} = {e.code}"], lambda env, n=name, e=e, t=ty: env.__setitem__(n, as_type(e, t, env))
        if k == "update":
            vs = self.visible(lambda t: t in NUMS)
            if not vs:
                return self.stmt(0, in_loop)
            name, ty, mag = r.choice(vs)
            if is_int(ty) and signed(ty):
                # keep signed updates small so loops cannot overflow (the sum
                # itself may: a ballot is any int32, seed 4547)
                # The modulus fits the type: a Python int outside it is a
                # compile error, as NumPy 2's OverflowError (1000 as an int8).
                e, m = self.expr(ty, 1), 100 if bits(ty) == 8 else 1000
                return [f"{name} = ({name} + {e.code}) % {m}"], lambda env, n=name, e=e, t=ty, m=m: env.__setitem__(
                    n, fit(t, fit(t, env[n] + e.ev(env)) % m)
                )
            e = self.operand(ty, 2)
            if result_type(E("", ty, None), e) != ty:
                return self.stmt(0, in_loop)
            if is_float(ty):
                return [f"{name} = {name} * 0.5 + {e.code}"], lambda env, n=name, e=e, t=ty: env.__setitem__(
                    n, fl(t, fl(t, env[n] * fl(t, 0.5)) + as_type(e, t, env))
                )
            return [f"{name} += {e.code}"], lambda env, n=name, e=e, t=ty: env.__setitem__(
                n, fit(t, env[n] + as_type(e, t, env))
            )
        if k == "if":
            c = self.cond(2)
            self.scopes.append([])
            tl, trun = self.block(depth - 1, r.randint(1, 3), in_loop)
            self.scopes.pop()
            self.scopes.append([])
            el, erun = self.block(depth - 1, r.randint(0, 2), in_loop)
            self.scopes.pop()
            lines = [f"if {c.code}:"] + ["    " + ln for ln in tl]
            if el != ["pass"]:
                lines += ["else:"] + ["    " + ln for ln in el]
            return lines, lambda env, c=c, t=trun, e=erun: t(env) if c.ev(env) else e(env)
        if k == "for":
            self.features.add("loops")
            bound = r.choice(["3", "(i & 3)", "(a_int32[i] & 3) + 1", "0, 7, 2", "5, 0, -2"])
            j = f"j{self.nvars}"
            self.nvars += 1
            self.scopes.append([(j, "int32", 0.0)])
            bl, brun = self.block(depth - 1, r.randint(1, 3), True)
            self.scopes.pop()

            def run(env, bound=bound, j=j, brun=brun):
                rng = eval(f"range({bound})", {}, {"i": env["i"], "a_int32": env["@in"]["a_int32"].tolist()})
                for x in rng:
                    env[j] = x
                    try:
                        brun(env)
                    except Continue:
                        continue
                    except Break:
                        break

            return [f"for {j} in range({bound}):"] + ["    " + ln for ln in bl], run
        if k == "while":
            self.features.add("loops")
            w = f"w{self.nvars}"
            self.nvars += 1
            limit = r.randint(1, 4)
            self.scopes.append([])
            bl, brun = self.block(depth - 1, r.randint(1, 2), True)
            self.scopes.pop()
            lines = [f"{w} = 0", f"while {w} < {limit} + (i & 1):", f"    {w} += 1"] + ["    " + ln for ln in bl]

            def run(env, w=w, limit=limit, brun=brun):
                env[w] = 0
                while env[w] < limit + (env["i"] & 1):
                    env[w] += 1
                    try:
                        brun(env)
                    except Continue:
                        continue
                    except Break:
                        break

            return lines, run
        if k in ("break", "continue"):
            c = self.cond(1)
            exc = Break if k == "break" else Continue

            def run(env, c=c, exc=exc):
                if c.ev(env):
                    raise exc()

            return [f"if {c.code}:", f"    {k}"], run
        if k == "local":
            self.features.add("local arrays")
            ty = r.choice(["int32", "float32", "int64", "float64"])
            e = strong(self.expr(ty, 2), ty)
            la = f"la{self.nvars}"
            self.nvars += 1
            q = f"q{self.nvars}"
            self.nvars += 1
            idx = self.expr("int32", 1)
            name = self.new_var(ty, e.mag + 4, e.code)
            lines = [
                f"{la} = device.local_array(4, device.{ty})",
                f"for {q} in range(4):",
                f"    {la}[{q}] = {e.code} + {q}",
                f"{name} = {la}[({idx.code}) & 3]",
            ]

            def run(env, e=e, idx=idx, name=name, t=ty):
                v = as_type(e, t, env)
                j = idx.ev(env) & 3
                env[name] = fit(t, v + j) if is_int(t) else fl(t, v + fl(t, j))

            return lines, run
        if k == "tuple":
            self.features.add("tuples")
            t1, t2 = r.choice(NUMS), r.choice(NUMS)
            e1, e2 = strong(self.expr(t1, 2), t1), strong(self.expr(t2, 2), t2)
            n1, n2 = self.new_var(t1, e1.mag, e1.code), self.new_var(t2, e2.mag, e2.code)
            if r.random() < 0.5:
                lines = [f"{n1}, {n2} = {e1.code}, {e2.code}"]
            else:
                tp = f"tp{self.nvars}"
                self.nvars += 1
                lines = [f"{tp} = ({e1.code}, {e2.code})", f"{n2} = {tp}[1]", f"{n1} = {tp}[0]"]

            def run(env, e1=e1, e2=e2, n1=n1, n2=n2, t1=t1, t2=t2):
                a, b = as_type(e1, t1, env), as_type(e2, t2, env)
                env[n1], env[n2] = a, b

            return lines, run
        if k == "struct":
            self.features.add("structs")
            a, b = self.expr("int32", 2), self.expr("float32", 2)
            name = self.new_var("struct")
            if r.random() < 0.5:
                code = f"{name} = S({a.code}, {b.code})"
            else:
                code = f"{name} = S(f={b.code}, n={a.code})"
            return [code], lambda env, n=name, a=a, b=b: env.__setitem__(
                n, (as_type(a, "int32", env), as_type(b, "float32", env))
            )
        if k == "vec":
            self.features.add("vectors")
            es = [self.operand("float32", 1) for _ in range(4)]
            if any(result_type(e, E("", "float32", None)) != "float32" for e in es):
                return self.stmt(0, in_loop)
            name = self.new_var("vec")
            lines = [f"{name} = device.float32x4({', '.join(e.code for e in es)})"]
            j = r.randint(0, 3)
            upd = strong(self.expr("float32", 1), "float32")
            lines.append(f"{name}[{j}] = {upd.code}")

            def run(env, n=name, es=es, j=j, upd=upd):
                env[n] = [as_type(e, "float32", env) for e in es]
                v = list(env[n])  # v[j] = x rebinds: the old value stays for reads on the right
                v[j] = upd.ev(env)
                env[n] = v

            return lines, run
        # atomic
        self.features.add("atomics")
        # one operation per array, so the result does not depend on the order
        which = r.choice(list(ACC_OPS))
        ty = str(ACC_TYPES[which])
        op = ACC_OPS[which]
        e = self.expr(ty, 2)
        idx = self.expr("int32", 1)
        code = f"device.atomic_ref({which}, ({idx.code}) & 7).{op}({e.code})"

        def run(env, w=which, e=e, idx=idx, op=op, t=ty):
            env["@atomics"].append((w, idx.ev(env) & 7, op, as_type(e, t, env)))

        return [code], run

    # -- the kernel ------------------------------------------------------------------------
    def top(self):
        """(lines, lockstep executor over all threads' envs) of a top-level
        statement: a per-thread one, or a warp / barrier step."""
        r = self.r
        k = r.choice(["thread"] * 6 + ["shfl", "vote", "shared", "count"])
        if k == "count":
            self.features.add("shared memory + barriers")
            c = self.cond(2)
            name = self.new_var("int32")

            def go(envs, c=c, name=name):
                preds = [bool(c.ev(env)) for env in envs]
                for env in envs:
                    b0 = env["i"] - env["i"] % BLOCK
                    env[name] = sum(preds[b0 : b0 + BLOCK])

            if r.random() < 0.5:
                return [f"{name} = device.syncthreads_count(lambda: {c.code})"], go
            which = r.choice(["and", "or"])

            def go2(envs, c=c, name=name, which=which):
                preds = [bool(c.ev(env)) for env in envs]
                for env in envs:
                    b0 = env["i"] - env["i"] % BLOCK
                    blk = preds[b0 : b0 + BLOCK]
                    env[name] = int(all(blk) if which == "and" else any(blk))

            return [f"{name} = device.int32(1 if device.syncthreads_{which}(lambda: {c.code}) else 0)"], go2
        if k == "thread":
            lines, run = self.stmt(2, False)

            def go(envs, run=run):
                for env in envs:
                    run(env)

            return lines, go
        if k == "shfl":
            self.features.add("warp shuffles")
            ty = r.choice(["int32", "float32", "int64", "float64", "uint32", "int8", "uint16"])
            e = strong(self.expr(ty, 2), ty)
            kind = r.choice(["shfl_sync", "shfl_xor_sync", "shfl_up_sync", "shfl_down_sync"])
            arg = r.randint(0, 31) if kind == "shfl_sync" else r.choice([1, 2, 4, 8, 16, 3])
            name = self.new_var(ty, e.mag, e.code)
            tmp = f"t{self.nvars}"
            self.nvars += 1

            def go(envs, e=e, kind=kind, arg=arg, name=name, tmp=tmp, t=ty):
                vals = [as_type(e, t, env) for env in envs]
                for env in envs:
                    env[tmp] = vals[env["i"]]
                for env in envs:
                    lane = env["i"] % 32
                    base = env["i"] - lane
                    src = {
                        "shfl_sync": arg,
                        "shfl_xor_sync": lane ^ arg,
                        "shfl_up_sync": lane - arg,
                        "shfl_down_sync": lane + arg,
                    }[kind]
                    if not 0 <= src < 32:
                        src = lane
                    env[name] = vals[base + src]

            return [f"{tmp} = {e.code}", f"{name} = device.{kind}(-1, {tmp}, {arg})"], go
        if k == "vote":
            self.features.add("warp votes")
            c = self.cond(2)
            kind = r.choice(["all_sync", "any_sync", "ballot_sync"])
            ty = "int32" if kind == "ballot_sync" else "bool"
            name = self.new_var(ty) if ty == "int32" else f"b{self.nvars}"
            if ty == "bool":
                self.nvars += 1
            # a ballot is a WarpMask: int32 to join ints in loops
            call = f"device.{kind}(-1, lambda: {c.code})"
            code = [f"{name} = device.int32({call})" if kind == "ballot_sync" else f"{name} = {call}"]
            if ty == "bool":
                iv = self.new_var("int32")
                code.append(f"{iv} = device.int32(1 if {name} else 0)")

            def go(envs, c=c, kind=kind, name=name, ty=ty, code=code):
                preds = [bool(c.ev(env)) for env in envs]
                for env in envs:
                    w = preds[env["i"] - env["i"] % 32 : env["i"] - env["i"] % 32 + 32]
                    if kind == "ballot_sync":
                        m = sum(1 << j for j, p in enumerate(w) if p)
                        env[name] = m - (1 << 32) if m >= (1 << 31) else m
                    else:
                        env[name] = all(w) if kind == "all_sync" else any(w)
                        env[code[1].split(" = ")[0]] = 1 if env[name] else 0

            return code, go
        # shared memory through a barrier
        self.features.add("shared memory + barriers")
        ty = r.choice(["float32", "int32", "float64"])
        e = strong(self.expr(ty, 2), ty)
        sh = f"sh{self.nvars}"
        self.nvars += 1
        off = r.randint(1, 63)
        name = self.new_var(ty, e.mag, e.code)
        lines = [
            f"{sh} = device.shared_array({BLOCK}, device.{ty})",
            f"{sh}[device.thread_idx.x] = {e.code}",
            "device.syncthreads()",
            f"{name} = {sh}[(device.thread_idx.x + {off}) % {BLOCK}]",
            "device.syncthreads()",
        ]

        def go(envs, e=e, name=name, off=off, t=ty):
            vals = [as_type(e, t, env) for env in envs]
            for env in envs:
                t_ = env["i"] % BLOCK
                env[name] = vals[env["i"] - t_ + (t_ + off) % BLOCK]

        return lines, go


def mix_ref(a, b):
    return a * 2 + b - (a & 3)


class Break(Exception):
    pass


class Continue(Exception):
    pass


def _constant_fits(e, convert):
    """False when `e` is a constant (it needs no thread) whose conversion is
    undefined: the frontend folds such a conversion and reports it."""
    try:
        v = e.ev({})
    except Exception:  # noqa: BLE001 - it reads the thread's values (or is UB itself)
        return True
    try:
        convert(v)
    except UB:
        return False
    return True


def _arith(op, x, y):
    return x + y if op == "+" else x - y if op == "-" else x * y


def _cmp(op, x, y):
    return {"<": x < y, "<=": x <= y, "==": x == y, "!=": x != y, ">": x > y, ">=": x >= y}[op]


def _bitfn(f, v, n):
    u = v % (1 << n)
    if f == "popc":
        return bin(u).count("1")
    if f == "ffs":
        return (u & -u).bit_length()
    return n - u.bit_length()


def _index(a, form, i):
    return _val(eval(f"a{form}", {}, {"a": a, "i": i}))


def _inputs(rng):
    ins = {}
    for t in INTS:
        lo, hi = (-20, 21) if signed(t) else (0, 41)
        a = rng.integers(lo, hi, N).astype(t)
        a[0] = 7  # never all zeros
        ins[f"a_{t}"] = a
    for t in FLOATS:
        ins[f"a_{t}"] = rng.uniform(-4, 4, N).astype(t)
    ins["m_float32"] = rng.uniform(-4, 4, (M_ROWS, M_COLS)).astype("float32")
    ins["f_float64"] = np.asfortranarray(rng.uniform(-4, 4, (M_ROWS, M_COLS)))
    return ins


ACC_OPS = {
    "acc_int32": "add",
    "acc_uint32": "max",
    "acc_float32": "add",
    "acc_int64": "min",
    "acc_uint64": "add",
    "acc_int32m": "max",
    "acc_float64": "add",
    "acc_uint32n": "min",
}
ACC_TYPES = {
    "acc_int32": "int32",
    "acc_uint32": "uint32",
    "acc_float32": "float32",
    "acc_int64": "int64",
    "acc_uint64": "uint64",
    "acc_int32m": "int32",
    "acc_float64": "float64",
    "acc_uint32n": "uint32",
}
OUT_TYPES = ["int32", "int64", "uint32", "uint8", "int16", "float32", "float64"]


class Program:
    def __init__(self, seed, source, args, names, expected, tolerance, features, lines, lowp=()):
        self.lowp = set(lowp)
        self.seed, self.source, self.args, self.names = seed, source, args, names
        self.expected, self.tolerance, self.features, self.lines = expected, tolerance, features, lines


def generate(seed, tries=50):
    """A program for `seed` (draws again on undefined behaviour)."""
    last = None
    for t in range(tries):
        try:
            return _generate(seed * 1000 + t)
        except UB as e:
            last = e
    raise RuntimeError(f"seed {seed}: every draw had undefined behaviour ({last})")


def _generate(seed):
    g = Gen(seed)
    r = g.r
    rng = np.random.default_rng(seed)
    ins = _inputs(rng)
    body = ["i = device.tid(1)"]
    steps = []
    for _ in range(r.randint(3, 8)):
        lines, go = g.top()
        body += lines
        steps.append(go)
    # one output per type, from a visible local (or an expression)
    outs = {}
    for t in OUT_TYPES:
        e = g.expr(t, 3)
        outs[t] = e
        body.append(f"o_{t}[i] = {e.code}")
    in_names = list(ins)
    acc = {k: np.zeros(8, t) for k, t in ACC_TYPES.items()}
    for a in acc.values():
        a[1] = 3  # not all zeros
    out_names = [f"o_{t}" for t in OUT_TYPES]
    params = in_names + out_names + list(acc)
    src = [
        "import math",
        "",
        "import cuda.device as device",
        "",
        "",
        "@device.func",
        "def mix(a, b):",
        "    return a * 2 + b - (a & 3)",
        "",
        "",
        "@device.func",
        "def lerp(a, b):",
        "    return a * 0.25 + b * 0.75",
        "",
        "",
        "@device.struct",
        "class S:",
        "    n: device.int32",
        "    f: device.float32",
        "",
        "",
        "@device.kernel",
        f"def k({', '.join(params)}):",
    ] + ["    " + ln for ln in body]
    source = "\n".join(src) + "\n"

    # the reference
    envs = [{"i": i, "@in": ins, "@atomics": []} for i in range(N)]
    for go in steps:
        go(envs)
    expected = {}
    tol = {}
    for t in OUT_TYPES:
        vals = [as_type(outs[t], t, env) for env in envs]
        expected[f"o_{t}"] = np.array(vals, dtype=t)
        tol[f"o_{t}"] = outs[t].mag
    accs = {k: [int(v) if a.dtype.kind != "f" else np.float64(v) for v in a] for k, a in acc.items()}
    fmag = {"acc_float32": [0.0] * 8, "acc_float64": [0.0] * 8}
    for env in envs:
        for w, j, op, v in env["@atomics"]:
            cur = accs[w][j]
            accs[w][j] = cur + v if op == "add" else max(cur, v) if op == "max" else min(cur, v)
            if w in ("acc_float32", "acc_float64"):
                fmag[w][j] += abs(float(v))
    for k, a in acc.items():
        t = str(a.dtype)
        if t in FLOATS:
            expected[k] = np.array(accs[k], dtype=t)
            tol[k] = max(fmag[k]) + 3
        else:
            expected[k] = np.array([fit(t, int(v)) for v in accs[k]], dtype=t)
    args = dict(ins)
    for t in OUT_TYPES:
        args[f"o_{t}"] = np.full(N, np.nan, t) if t in FLOATS else np.full(N, _sentinel(t), t)
    args.update({k: v.copy() for k, v in acc.items()})
    lowp = {f"o_{t}" for t in OUT_TYPES if g.lowp(outs[t].code)}
    return Program(seed, source, [args[p] for p in params], params, expected, tol, sorted(g.features), len(src), lowp)


def _sentinel(t):
    return {"int32": -123456789, "int64": -1234567890123, "uint32": 0xDEADBEEF, "uint8": 0xAB, "int16": -12345}[t]


def compare(prog, got):
    """[(name, message)] where the kernel's outputs differ from the reference."""
    bad = []
    for name, want in prog.expected.items():
        have = got[prog.names.index(name)]
        if want.dtype.kind == "f":
            eps = 1e-3 if want.dtype == np.float32 else 1e-6 if name in prog.lowp else 1e-9
            atol = eps * max(1.0, prog.tolerance.get(name, 1.0)) * 16
            ok = np.isclose(have, want, rtol=eps * 16, atol=atol) | (np.isnan(have) & np.isnan(want))
        else:
            ok = have == want
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            bad.append((name, f"{name}[{j}]: kernel {have[j]!r}, reference {want[j]!r} ({int((~ok).sum())} differ)"))
    return bad
