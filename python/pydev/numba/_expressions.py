"""Expressions in the compiler: constants, names, tuples, attributes,
arithmetic and bitwise operators, unary operators, comparisons, `and` /
`or` and conditional expressions."""

import ast
import operator

from .. import ir
from . import _exceptions
from . import types as T
from ._typing import (
    CompileTimeValue,
    _Method,
    TypedValue,
    _complex_part,
    _describe,
    _is_num,
    _tname,
    arith_type,
    bitwise_type,
    pow_type,
    unify,
)


class ExpressionsMixin:
    def expr(self, node):
        m = getattr(self, "e_" + type(node).__name__, None)
        if m is None:
            raise self.err(node, f"{type(node).__name__} expressions are not supported in pydev.numba device code")
        self.at(node)
        return m(node)

    def e_Constant(self, n):
        if n.value is None:
            return CompileTimeValue(None)
        if isinstance(n.value, str):
            return CompileTimeValue(n.value)
        return self.lit(n.value, n)

    def e_Name(self, n):
        return self.lookup(n.id, n)

    def e_Tuple(self, n):
        items = self.starred_items(n.elts)
        if any(isinstance(i, CompileTimeValue) for i in items):
            return CompileTimeValue(tuple(i.obj if isinstance(i, CompileTimeValue) else i for i in items))
        return self._tuple(items)

    e_List = e_Tuple

    def starred_items(self, elts):
        """The values of a tuple display or a call's arguments, `*t` spread
        (Numba's tuple unpacking: t a tuple)."""
        items = []
        for e in elts:
            if not isinstance(e, ast.Starred):
                items.append(self.expr(e))
                continue
            v = self.expr(e.value)
            if isinstance(v, TypedValue) and v.items is not None:
                items += v.items
            elif isinstance(v, CompileTimeValue) and isinstance(v.obj, tuple):
                items += [x if isinstance(x, TypedValue) else CompileTimeValue(x) for x in v.obj]
            else:
                raise self.err(
                    e, f"*{v.t if isinstance(v, TypedValue) else _describe(v.obj)}: only tuples can be unpacked with *"
                )
        return items

    def e_Lambda(self, n):
        from ._nested import define

        return define(self, n)

    def e_Starred(self, n):
        raise self.err(n, "a starred expression is only supported in a tuple or a call's arguments")

    def e_Attribute(self, n):
        base = self.expr(n.value)
        self.at(n)
        if isinstance(base, CompileTimeValue):
            obj = base.obj
            hook = getattr(obj, "_pydev_numba_attr", None)
            if hook is not None:
                return hook(self, n.attr, n)
            try:
                attr = getattr(obj, n.attr)
            except AttributeError:
                raise self.err(n, f"{_describe(obj)} has no attribute '{n.attr}'") from None
            return self.pyobj(attr, n)
        t = base.t
        if isinstance(t, (T.NamedUniTuple, T.NamedTuple)) and n.attr in t.fields:
            return self._items(base, n)[t.fields.index(n.attr)]
        if isinstance(t, T.Array):
            if n.attr == "shape":
                return self._tuple([self.extent(base, d, n) for d in range(t.ndim)])
            if n.attr == "size":
                if base.v is None and base.const is not None:
                    return self.lit(int(base.const.size), n)
                return TypedValue(self.f.ops.array_size(self.val(base, n)), T.int64)
            if n.attr == "ndim":
                return self.lit(t.ndim, n)
            if n.attr == "strides":
                st = self.f.ops.array_strides(self.val(base, n), result=ir.tuple_type(*[ir.si64] * t.ndim))
                return self._tuple(
                    [TypedValue(self.f.ops.tuple_extract(st, index=d, result=ir.si64), T.int64) for d in range(t.ndim)]
                )
            if n.attr == "dtype":
                return CompileTimeValue(t.dtype)
            from . import _arraymethods

            got = _arraymethods.attr(self, base, n.attr, n)
            if got is not None:
                return got
            raise self.err(
                n, f"an array has no attribute '{n.attr}' in pydev.numba (shape, size, ndim, strides, dtype)"
            )
        if isinstance(t, T.Record):
            return self.load_field(base, n.attr, n)
        if isinstance(t, T.Number) and t.kind == "c":
            ft = _complex_part(t)
            if n.attr in ("real", "imag"):
                return TypedValue(
                    self.f.emit("complex.re" if n.attr == "real" else "complex.im", [self.val(base, n)], [ft.ir]), ft
                )
            if n.attr == "conjugate":
                return CompileTimeValue(
                    _Method(
                        "conjugate",
                        lambda c, a, k, nd: TypedValue(c.f.emit("complex.conj", [c.val(base, nd)], [t.ir]), t),
                    )
                )
            raise self.err(n, f"a {t} has no attribute '{n.attr}' (real, imag, conjugate)")
        if isinstance(t, T.Bfloat16Raw) and n.attr == "x":  # __nv_bfloat16_raw's bits
            return TypedValue(self.val(base, n), T.uint16)
        if isinstance(t, (T.Number, T.Boolean)):
            if n.attr == "conjugate":
                return CompileTimeValue(_Method("conjugate", lambda c, a, k, nd: base))
            if n.attr == "real":
                return base
            if n.attr == "imag":
                return self.cast(self.lit(0, n), t, n)
            if n.attr == "bit_count" and t.is_int:
                from ._builtins import bit_count

                return CompileTimeValue(_Method("bit_count", lambda c, a, k, nd: bit_count(c, base, nd)))
        hook = getattr(t, "value_attr", None)  # types with attributes of their own (cuda's vector types)
        if hook is not None:
            return hook(self, base, n.attr, n)
        raise self.err(n, f"a {t} has no attribute '{n.attr}'")

    def e_BinOp(self, n):
        a, b = self.expr(n.left), self.expr(n.right)
        self.at(n)
        return self.binop(n.op, a, b, n)

    _OPS = {
        ast.Add: "add",
        ast.Sub: "sub",
        ast.Mult: "mul",
        ast.Div: "truediv",
        ast.FloorDiv: "floordiv",
        ast.Mod: "mod",
        ast.Pow: "pow",
        ast.BitAnd: "and",
        ast.BitOr: "or",
        ast.BitXor: "xor",
        ast.LShift: "lshift",
        ast.RShift: "rshift",
    }

    _PY = {
        "add": operator.add,
        "sub": operator.sub,
        "mul": operator.mul,
        "truediv": operator.truediv,
        "floordiv": operator.floordiv,
        "mod": operator.mod,
        "pow": operator.pow,
        "and": operator.and_,
        "or": operator.or_,
        "xor": operator.xor,
        "lshift": operator.lshift,
        "rshift": operator.rshift,
    }

    def binop(self, op, a, b, node):
        name = self._OPS.get(type(op))
        if name is None:
            raise self.err(node, f"operator {type(op).__name__} is not supported")
        if any(isinstance(x, TypedValue) and isinstance(x.t, T.NPDatetime) for x in (a, b)):
            from . import _datetime

            return _datetime.binop(self, name, a, b, node, _opsym(op))
        for x in (a, b):
            if isinstance(x, CompileTimeValue) or not _is_num(x.t):
                if isinstance(x, TypedValue) and x.items is not None and name in ("add", "mul"):
                    if (
                        name == "add"
                        and isinstance(a, TypedValue)
                        and a.items is not None
                        and isinstance(b, TypedValue)
                        and b.items is not None
                    ):
                        return self._tuple(a.items + b.items)
                raise self.err(node, f"unsupported operand types for {_opsym(op)}: {_tname(a)} and {_tname(b)}")
        _no_float8_arith(self, a.t, b.t, _opsym(op), node)
        if (a.t.kind == "c" or b.t.kind == "c") and name not in ("add", "sub", "mul", "truediv", "pow"):
            raise self.err(node, f"unsupported operand types for {_opsym(op)}: {a.t} and {b.t}")
        if name in ("and", "or", "xor", "lshift", "rshift"):
            rt = bitwise_type(a.t, b.t) if name in ("and", "or", "xor") else bitwise_type(a.t, b.t)
            if rt is None:
                raise self.err(node, f"unsupported operand types for {_opsym(op)}: {a.t} and {b.t}")
            if name in ("lshift", "rshift"):
                rt = T.int64 if a.t.signed or isinstance(a.t, T.Boolean) else T.uint64
            ct = rt
        elif name == "truediv":
            rt = arith_type(a.t, b.t)
            if not rt.is_float and rt.kind != "c":
                rt = T.float64
            ct = rt
        else:
            # int ** int is an integer even for a negative exponent (2 ** -1 == 0), as in Numba
            rt = ct = arith_type(a.t, b.t) if name != "pow" else pow_type(a.t, b.t)
        # fold literals
        if (
            a.v is None
            and b.v is None
            and a.const is not None
            and b.const is not None
            and name not in ("truediv",)
            and not rt.is_float
            and rt.kind != "c"
        ):
            try:
                if name == "pow" and int(b.const) < 0:
                    raise ValueError  # emitted: integer power with a negative exponent
                r = self._PY[name](int(a.const), int(b.const))
                return (
                    self.cast(TypedValue(None, T.int64 if rt.signed else T.uint64, r), rt, node)
                    if rt.is_int
                    else TypedValue(None, rt, r)
                )
            except (ZeroDivisionError, ValueError, OverflowError):
                pass
        # Before val(): it gives a literal its emitted constant.
        nonzero_literal = b.v is None and bool(b.const)
        av = self.val(self.cast(a, ct, node), node)
        bv = self.val(self.cast(b, ct, node), node)
        self.at(node)
        if name in ("truediv", "floordiv", "mod") and self.mb.options.get("debug") and not nonzero_literal:
            # Numba-CUDA's Python error model (debug=True): a zero divisor raises
            _exceptions.zero_division(self, name, ct, bv, node)
        if name == "truediv":
            return TypedValue(self.f.ops.truediv(av, bv, result=rt.ir), rt)
        if name in ("floordiv", "mod") and rt.is_int and not self.mb.options.get("debug") and not nonzero_literal:
            # Numba-CUDA's NumPy error model (without debug=True): x // 0 and x % 0 are 0
            zero = self.iconst(0, ct.ir)
            is_zero = bv == zero
            safe = self.f.select(is_zero, self.iconst(1, ct.ir), bv)
            return TypedValue(self.f.select(is_zero, zero, getattr(self.f.ops, name)(av, safe)), rt)
        return TypedValue(getattr(self.f.ops, name)(av, bv), rt)

    def e_UnaryOp(self, n):
        a = self.expr(n.operand)
        self.at(n)
        if isinstance(n.op, ast.Not):
            c = self.truth(a, n.operand)
            if c.v is None:
                return TypedValue(None, T.boolean, not c.const)
            return TypedValue(self.f.ops.not_(c.v, result=ir.i1), T.boolean)
        if isinstance(a, TypedValue) and isinstance(a.t, T.NPDatetime) and isinstance(n.op, (ast.UAdd, ast.USub)):
            from . import _datetime

            return a if isinstance(n.op, ast.UAdd) and a.t.kind == "m" else _datetime.negate(self, a, n)
        if isinstance(a, CompileTimeValue) or not _is_num(a.t):
            raise self.err(n, f"bad operand type for unary {_opsym(n.op)}: {_tname(a)}")
        _no_float8_arith(self, a.t, a.t, _opsym(n.op), n)
        if isinstance(n.op, ast.UAdd):
            return a
        t = a.t
        if isinstance(n.op, ast.USub):
            rt = T.int64 if isinstance(t, T.Boolean) or (t.is_int and t.signed) else (T.uint64 if t.is_int else t)
            if a.v is None and a.const is not None:
                return self.cast(TypedValue(None, T.int64 if rt.is_int else rt, -a.const), rt, n)
            return TypedValue(self.f.ops.neg(self.val(self.cast(a, rt, n), n)), rt)
        if isinstance(n.op, ast.Invert):
            if isinstance(t, T.Boolean):
                return (
                    TypedValue(self.f.ops.not_(self.val(a, n), result=ir.i1), T.boolean)
                    if a.v is not None or a.const is None
                    else TypedValue(None, T.boolean, not a.const)
                )
            if t.is_int:
                rt = T.int64 if t.signed else T.uint64
            else:
                raise self.err(n, f"bad operand type for unary ~: {t}")
            if a.v is None and a.const is not None:
                return self.cast(TypedValue(None, T.int64, ~int(a.const)), rt, n)
            return TypedValue(self.f.ops.invert(self.val(self.cast(a, rt, n), n)), rt)
        raise self.err(n, "unsupported unary operator")

    _CMP = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}

    def compare(self, op, a, b, node):
        if isinstance(op, (ast.Is, ast.IsNot)):
            if isinstance(a, TypedValue) and isinstance(b, TypedValue) and _is_num(a.t) and a.t == b.t:
                # Numba's `is` on two values of one immutable type is `==` (`pred is True`)
                return self.compare(ast.Eq() if isinstance(op, ast.Is) else ast.NotEq(), a, b, node)
            same = isinstance(a, CompileTimeValue) and isinstance(b, CompileTimeValue) and a.obj is b.obj
            if isinstance(a, CompileTimeValue) != isinstance(b, CompileTimeValue):
                same = False
            return TypedValue(None, T.boolean, same if isinstance(op, ast.Is) else not same)
        pred = self._CMP.get(type(op))
        if pred is None:
            raise self.err(node, f"comparison {type(op).__name__} is not supported")
        if isinstance(a, CompileTimeValue) and isinstance(b, CompileTimeValue) and pred in ("eq", "ne"):
            # Compile-time objects (string literals as Numba's literal strings,
            # enum members, types, functions) compare now.
            return TypedValue(None, T.boolean, (a.obj == b.obj) == (pred == "eq"))
        if any(isinstance(x, TypedValue) and isinstance(x.t, T.NPDatetime) for x in (a, b)):
            from . import _datetime

            return _datetime.compare(self, pred, a, b, node)
        if isinstance(a, CompileTimeValue) or isinstance(b, CompileTimeValue) or not _is_num(a.t) or not _is_num(b.t):
            raise self.err(node, f"cannot compare {_tname(a)} and {_tname(b)}")
        _no_float8_arith(
            self, a.t, b.t, {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}[pred], node
        )
        ct = T.boolean if isinstance(a.t, T.Boolean) and isinstance(b.t, T.Boolean) else arith_type(a.t, b.t)
        if ct.kind == "c" and pred not in ("eq", "ne"):
            raise self.err(node, f"complex numbers are not ordered ({_tname(a)} and {_tname(b)})")
        if a.v is None and b.v is None and a.const is not None and b.const is not None:
            return TypedValue(
                None,
                T.boolean,
                {
                    "lt": operator.lt,
                    "le": operator.le,
                    "gt": operator.gt,
                    "ge": operator.ge,
                    "eq": operator.eq,
                    "ne": operator.ne,
                }[pred](a.const, b.const),
            )
        av, bv = self.val(self.cast(a, ct, node), node), self.val(self.cast(b, ct, node), node)
        self.at(node)
        return TypedValue(self.f.ops.cmp(av, bv, predicate=pred), T.boolean)

    def e_Compare(self, n):
        if len(n.ops) == 1:
            a, b = self.expr(n.left), self.expr(n.comparators[0])
            self.at(n)
            return self.compare(n.ops[0], a, b, n)
        # chained: a < b < c as (a < b) and (b < c), each operand evaluated once
        vals = [self.expr(n.left)] + [self.expr(c) for c in n.comparators]
        res = None
        for op, a, b in zip(n.ops, vals, vals[1:]):
            c = self.compare(op, a, b, n)
            res = c if res is None else self._and(res, c, n)
        return res

    def _and(self, a, b, n):
        if a.v is None:
            return b if a.const else a
        if b.v is None:
            return a if b.const else b
        return TypedValue(self.f.ops.and_(a.v, b.v), T.boolean)

    def e_BoolOp(self, n):
        # Numba types `a and b` as the unified type of the operands; short-circuit
        vals = n.values
        is_and = isinstance(n.op, ast.And)
        first = self.expr(vals[0])
        if len(vals) > 2:
            rest = ast.copy_location(ast.BoolOp(n.op, vals[1:]), vals[1])
            rest.end_lineno, rest.end_col_offset = n.end_lineno, n.end_col_offset
        else:
            rest = vals[1]
        ft = self.truth(first, vals[0])
        if ft.v is None:
            if ft.const == is_and:
                return self.expr(rest)
            return first
        f = self.f
        other = f.new_block()
        # evaluate the right side's type without emitting: compile it in its block
        cur = f.block
        f.set_block(other)
        second = self.expr(rest)
        if (
            isinstance(second, CompileTimeValue)
            or isinstance(first, CompileTimeValue)
            or not _is_num(first.t)
            or not _is_num(second.t)
        ):
            raise self.err(n, f"'{'and' if is_and else 'or'}' of {_tname(first)} and {_tname(second)} is not supported")
        t = unify(first.t, second.t)
        sv = self.val(self.cast(second, t, n), n)
        after = f.new_block(t.ir)
        f.br(after, sv)
        f.set_block(cur)
        fv = self.val(self.cast(first, t, n), n)
        self.at(n)
        if is_and:
            f.cond_br(ft.v, other, after, else_args=(fv,))
        else:
            f.cond_br(ft.v, after, other, then_args=(fv,))
        f.set_block(after)
        return TypedValue(after.args[0], t)

    def e_IfExp(self, n):
        c = self.truth(self.expr(n.test), n.test)
        if c.v is None:
            return self.expr(n.body if c.const else n.orelse)
        f = self.f
        cur = f.block
        bt, bf = f.new_block(), f.new_block()
        f.set_block(bt)
        a = self.expr(n.body)
        end_a = f.block
        f.set_block(bf)
        b = self.expr(n.orelse)
        end_b = f.block
        if isinstance(a, CompileTimeValue) or isinstance(b, CompileTimeValue):
            raise self.err(n, "a conditional expression of non-values")
        t = unify(a.t, b.t)
        if t is None:
            raise self.err(n, f"the branches of the conditional expression have types {a.t} and {b.t}")
        if isinstance(t, (T.UniTuple, T.Tuple)) or not _is_num(t):
            raise self.err(n, "conditional expressions of tuples or arrays are not supported")
        after = f.new_block(t.ir)
        f.set_block(end_a)
        f.br(after, self.val(self.cast(a, t, n), n))
        f.set_block(end_b)
        f.br(after, self.val(self.cast(b, t, n), n))
        f.set_block(cur)
        self.at(n)
        f.cond_br(c.v, bt, bf)
        f.set_block(after)
        return TypedValue(after.args[0], t)


def _no_float8_arith(c, a, b, sym, node):
    """numba-cuda's float8 types are storage formats: no operators."""
    for t in (a, b):
        if isinstance(t, T.LowFloat) and not t.arith:
            raise c.err(
                node,
                f"unsupported operand types for {sym}: {a} and {b} ({t} has no arithmetic: convert it to float32 first)",
            )


def _opsym(op):
    return {
        ast.Add: "+",
        ast.Sub: "-",
        ast.Mult: "*",
        ast.Div: "/",
        ast.FloorDiv: "//",
        ast.Mod: "%",
        ast.Pow: "**",
        ast.BitAnd: "&",
        ast.BitOr: "|",
        ast.BitXor: "^",
        ast.LShift: "<<",
        ast.RShift: ">>",
        ast.USub: "-",
        ast.UAdd: "+",
        ast.Invert: "~",
        ast.Not: "not",
    }.get(type(op), type(op).__name__)
