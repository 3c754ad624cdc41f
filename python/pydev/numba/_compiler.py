"""The Numba-CUDA kernel language to pydev IR, through `pydev.ir` only.

One `Compiler` turns one Python function (its source, parsed with `ast`)
and one tuple of Numba argument types into a `func.func` of an
`ir.Module`, typing with Numba's rules. Locals are SSA values; at the
joins of `if`/loops the live ones pass as block arguments (memory would not
survive a barrier on the host target). A variable's type is the
unification of what it is assigned: when it widens, the function is
compiled again with the wider type. Every op carries `loc(file:line:col)`
of the user's code."""

import ast
import builtins
import inspect
import linecache
import math
import operator

import numpy as np

from .. import ir
from . import types as T
from ._typing import (
    CompileTimeValue,
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


class NumbaError(Exception):
    def __init__(self, node, message, help=None):
        super().__init__(message)
        self.node, self.message, self.help = node, message, help


class Src:
    """A function's source: the AST of its def and where its lines are."""

    def __init__(self, fn):
        code = fn.__code__
        self.file = code.co_filename
        # Fast path: the def's block from linecache by indentation (no tokenizing);
        # inspect.getsourcelines when that does not parse.
        tree = None
        all_lines = linecache.getlines(self.file, fn.__globals__)
        start = code.co_firstlineno
        if all_lines and 0 < start <= len(all_lines):
            lines = _def_block(all_lines, start - 1)
            tree = self._parse(lines, start, fn.__name__)
        if tree is None:
            try:
                lines, start = inspect.getsourcelines(fn)
            except (OSError, TypeError):
                raise OSError(f"cannot find the source of {fn.__qualname__} ({self.file})") from None
            tree = self._parse(lines, max(start, 1), fn.__name__)
            if tree is None:
                raise OSError(f"cannot find the def of {fn.__qualname__} in its source")
        self.node = tree

    def _parse(self, lines, start, name):
        if not lines:
            return None
        first = lines[0]
        self.indent = len(first) - len(first.lstrip())
        text = "".join(ln[self.indent :] if ln[: self.indent].strip() == "" else ln.lstrip() for ln in lines)
        self.start = start
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return None
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
        return defs[0] if defs else None

    def line(self, node):
        return self.start + node.lineno - 1

    def col(self, node):
        return node.col_offset + self.indent + 1

    def loc(self, node):
        return ir.loc(self.file, self.line(node), self.col(node))


def _def_block(lines, i):
    """The lines of the decorated def starting at index i: its decorators,
    its header and every following line indented deeper (or blank)."""
    first = lines[i]
    base = len(first) - len(first.lstrip())
    out = [first]
    seen_def = first.lstrip().startswith(("def ", "async def "))
    depth = first.count("(") + first.count("[") - first.count(")") - first.count("]")
    for line in lines[i + 1 :]:
        stripped = line.strip()
        ind = len(line) - len(line.lstrip())
        if stripped and ind <= base and depth <= 0:
            if seen_def and not stripped.startswith("#"):
                # a dedent after the def's body began ends the block
                body_started = any(ln.strip() and (len(ln) - len(ln.lstrip())) > base for ln in out[1:])
                if body_started:
                    break
            if stripped.startswith(("def ", "async def ")):
                seen_def = True
        depth += line.count("(") + line.count("[") - line.count(")") - line.count("]")
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


def render(src, node, message, help=None):
    """`file:line:col: error: msg` with the source line and a caret."""
    if src is None or node is None or not hasattr(node, "lineno"):
        return f"error: {message}"
    line, col = src.line(node), src.col(node)
    text = linecache.getline(src.file, line).rstrip("\n")
    width = 1
    if getattr(node, "end_lineno", None) == node.lineno and node.end_col_offset is not None:
        width = max(1, node.end_col_offset - node.col_offset)
    elif text:
        width = max(1, len(text) - (col - 1))
    g = " " * len(str(line))
    out = f"{src.file}:{line}:{col}: error: {message}\n{g} |\n{line} | {text}\n{g} | {' ' * (col - 1)}{'^' * width}"
    if help:
        out += f"\n{g} = help: {help}"
    return out


class _Method:
    """A bound method of a value (z.conjugate)."""

    def __init__(self, name, impl):
        self._pydev_numba_name = f"'.{name}()'"
        self._impl = impl

    def _pydev_numba_call(self, c, args, kwargs, node):
        if args or kwargs:
            raise c.err(node, f"{self._pydev_numba_name} takes no arguments")
        return self._impl(c, args, kwargs, node)


class Var:
    __slots__ = ("t", "slots", "bound")

    def __init__(self, t, slots=None, bound=None):
        self.t, self.slots, self.bound = t, slots, bound


class Retype(Exception):
    """A variable's type widened: compile the function again."""


# --- the compiler --------------------------------------------------------------------------


class ModuleBuilder:
    """One ir.Module: the kernel and the device functions it calls."""

    def __init__(self, options):
        self.module = ir.Module()
        self.funcs = {}  # (dispatcher id, arg types) -> (Function, return type)
        self.options = options
        self.names = set()
        self.links = []  # link files of the device functions and external functions reached
        self.externs = {}  # name -> (ir.Declaration, signature) of declare_device functions called
        self.lineinfo = False  # some device function reached asked for lineinfo

    def add_links(self, paths):
        for p in paths:
            if p not in self.links:
                self.links.append(p)

    def fastmath(self):
        """The `fastmath` attribute for the float ops emitted here (cuda.jit(fastmath=True))."""
        return {"fastmath": "#arith.fastmath<fast>"} if self.options.get("fastmath") else None

    def name(self, base):
        n, i = base, 1
        while n in self.names:
            i += 1
            n = f"{base}_{i}"
        self.names.add(n)
        return n


def compile_kernel(dispatcher, argtypes):
    """(ir.Module, kernel name, ModuleBuilder: its links, externs, lineinfo)."""
    mb = ModuleBuilder(dispatcher.options)
    name = mb.name(dispatcher.py_func.__name__)
    Compiler(mb, dispatcher, argtypes, kernel=True, name=name).run()
    return mb.module, name, mb


def compile_device(mb, dispatcher, argtypes, node_for_errors=None):
    key = (id(dispatcher), tuple(argtypes))
    hit = mb.funcs.get(key)
    if hit is None:
        if key in mb.funcs:
            raise NumbaError(
                node_for_errors, f"recursive device function '{dispatcher.py_func.__name__}' is not supported"
            )
        mb.funcs[key] = None
        c = Compiler(mb, dispatcher, argtypes, kernel=False, name=mb.name(dispatcher.py_func.__name__))
        c.run()
        hit = mb.funcs[key] = (c.f, c.ret_type)
    return hit


class Compiler:
    def __init__(self, mb, dispatcher, argtypes, kernel, name):
        self.mb, self.disp, self.argtypes, self.kernel, self.name = mb, dispatcher, list(argtypes), kernel, name
        self.src = dispatcher.source()
        self.py = dispatcher.py_func
        self.var_types = {}
        self.ret_type = None
        self.ret_seen = None

    # -- driver --
    def run(self):
        for _ in range(8):
            try:
                self._once()
                return
            except Retype:
                continue
            except NumbaError as e:
                if getattr(e, "src", None) is None:
                    e.src = self.src
                raise
            except (TypeError, ValueError, RuntimeError) as e:
                err = NumbaError(getattr(self, "node", self.src.node), f"pydev.numba could not compile this: {e}")
                err.src = self.src
                raise err from e
        raise NumbaError(self.src.node, f"cannot settle the types of the variables of '{self.py.__name__}'")

    def _once(self):
        fn = self.src.node
        params = [a.arg for a in fn.args.args]
        if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs or fn.args.posonlyargs:
            raise NumbaError(
                fn, "pydev.numba functions take plain positional parameters (no *args, **kwargs or keyword-only)"
            )
        defaults = fn.args.defaults
        if len(self.argtypes) > len(params) or len(self.argtypes) < len(params) - len(defaults):
            raise NumbaError(fn, f"'{self.py.__name__}' takes {len(params)} arguments, got {len(self.argtypes)}")
        for t in self.argtypes:
            if getattr(t, "ir", None) is None and not isinstance(t, (T.UniTuple, T.Tuple)):
                raise NumbaError(fn, f"an argument of type {t} cannot be passed to '{self.py.__name__}'")
        flat = []
        for t in self.argtypes:
            flat += self._flat_types(t)
        self.tmp_module = self.mb.module
        if self.kernel:
            self.f = ir.Function(self.mb.module, self.name, flat, (), True, self.src.loc(fn))
        else:
            res = []
            if self.ret_type is not None and not isinstance(self.ret_type, T.NoneType):
                res = self._flat_types(self.ret_type)
            self.f = ir.Function(self.mb.module, self.name, flat, res, False, self.src.loc(fn))
        self.ret_seen = None
        self.need_retype = False
        f = self.f
        self.entry = f.block
        body = f.new_block()
        f.set_block(body)
        self.dead = False
        self.loops = []
        self.vars = {}
        self.consts_cache = {}
        self.extents = {}
        self.entry_values = set()
        at = 0
        for i, (p, t) in enumerate(zip(params, self.argtypes)):
            n = len(self._flat_types(t))
            vals = f.args[at : at + n]
            at += n
            self._bind_param(p, t, vals)
        for p, d in zip(params[len(self.argtypes) :], defaults[len(defaults) - (len(params) - len(self.argtypes)) :]):
            self._assign_name(p, self.expr(d), d)
        self.block(fn.body)
        if not f.terminated:
            void = self.ret_type is None or isinstance(self.ret_type, T.NoneType)
            if not self.kernel and not self.dead and self.ret_seen not in (None, T.void):
                raise NumbaError(
                    fn, f"'{self.py.__name__}' can end without returning a value (Numba would type it Optional)"
                )
            if self.kernel or void:
                f.ret(loc=self.src.loc(fn))
            else:
                f.ret(*[self._zero_val(t) for t in f.results], loc=self.src.loc(fn))
        if self.need_retype:
            raise Retype()
        new_ret = self.ret_seen or T.void
        if not self.kernel and new_ret != (self.ret_type or T.void):
            self.ret_type = new_ret
            raise Retype()
        f.set_block(self.entry)
        f.br(body)
        self.mb.module.functions.append(f)

    def _flat_types(self, t):
        if isinstance(t, (T.UniTuple, T.Tuple)):
            out = []
            for i in t.items:
                out += self._flat_types(i)
            return out
        if isinstance(t, T.NoneType):
            return []
        return [t.ir]

    def _bind_param(self, name, t, vals):
        tv = self._unflatten(t, list(vals))
        self._assign_name(name, tv, self.src.node)

    def _unflatten(self, t, vals):
        if isinstance(t, (T.UniTuple, T.Tuple)):
            items = []
            for it in t.items:
                n = len(self._flat_types(it))
                items.append(self._unflatten(it, vals[:n]))
                del vals[:n]
            return TypedValue(None, t, items=items)
        return TypedValue(vals[0], t)

    def _flatten(self, tv, node):
        if isinstance(tv.t, (T.UniTuple, T.Tuple)):
            out = []
            for it in self._items(tv, node):
                out += self._flatten(it, node)
            return out
        return [self.val(tv, node)]

    # -- locations / errors --
    def at(self, node):
        self.node = node
        self.f.location = self.src.loc(node)

    def err(self, node, msg, help=None):
        return NumbaError(node, msg, help)

    # -- values --
    def val(self, tv, node=None):
        """The ir.Value of a typed value (emitting a literal's constant)."""
        if isinstance(tv, CompileTimeValue):
            raise self.err(node, f"{_describe(tv.obj)} is not a value in device code")
        if tv.v is None:
            if tv.items is not None:
                raise self.err(node, f"a tuple ({tv.t}) is not a single value here")
            if isinstance(tv.t, T.Array):
                raise self.err(
                    node, "a global (constant) array can only have its elements, shape and size read in pydev.numba"
                )
            c = tv.const
            t = tv.t
            if isinstance(t, T.Boolean):
                tv.v = self.f.constant(bool(c), ir.i1)
            elif t.is_float:
                tv.v = self.f.constant(float(c), t.ir)
            elif t.is_int:
                tv.v = self.iconst(c, t.ir)
            elif t.kind == "c":
                ft = _complex_part(t).ir
                c = complex(c)
                tv.v = self.f.emit(
                    "complex.constant", [], [t.ir], {"value": f"[{_flit(c.real, ft)}, {_flit(c.imag, ft)}]"}
                )
            else:
                raise self.err(node, f"no constants of type {t}")
        return tv.v

    def lit(self, value, node):
        if isinstance(value, (bool, np.bool_)):
            return TypedValue(None, T.boolean, bool(value))
        if isinstance(value, (int, np.integer)) and not isinstance(value, np.integer):
            if not -(2**63) <= value < 2**64:
                raise self.err(node, f"the integer {value} does not fit in 64 bits")
            return TypedValue(None, T.int64 if value < 2**63 else T.uint64, int(value))
        if isinstance(value, np.integer):
            return TypedValue(None, T.from_dtype(value.dtype), int(value))
        if isinstance(value, (float, np.floating)):
            return TypedValue(None, T.float64 if isinstance(value, float) else T.from_dtype(value.dtype), float(value))
        if isinstance(value, (complex, np.complexfloating)):
            return TypedValue(
                None, T.complex128 if isinstance(value, complex) else T.from_dtype(value.dtype), complex(value)
            )
        if isinstance(value, tuple):
            items = [self.lit(v, node) if not isinstance(v, TypedValue) else v for v in value]
            return self._tuple(items)
        raise self.err(node, f"a constant of type {type(value).__name__} is not supported in device code")

    def global_array(self, arr, node):
        """A global NumPy array is a constant of the kernel, as in Numba
        (frozen at compile time). Its elements are read through a chain of
        selects over the constants (no memory: nothing to keep across
        barriers; LLVM may make it a lookup table)."""
        arr = np.ascontiguousarray(arr)
        if arr.dtype.names is not None or arr.dtype.kind not in "biuf" or arr.size > 1024 or arr.ndim == 0:
            raise self.err(
                node,
                f"a global array in device code must be a numeric NumPy array of 1 to 1024 elements (got {arr.dtype}, {arr.size} elements)",
            )
        t = T.Array(T.from_dtype(arr.dtype), arr.ndim, "C")
        t.const = True
        return TypedValue(None, t, const=arr)

    def const_load(self, arr, idx, node):
        data = arr.const
        et = arr.t.dtype
        lin = None
        stride = 1
        for d in reversed(range(data.ndim)):
            term = idx[d] if stride == 1 else idx[d] * stride
            lin = term if lin is None else lin + term
            stride *= data.shape[d]
        flat = data.reshape(-1).tolist()
        mk = (
            (lambda x: self.f.constant(bool(x), ir.i1))
            if isinstance(et, T.Boolean)
            else (lambda x: self.f.constant(x, et.ir))
        )
        out = mk(flat[0])
        for k in range(1, len(flat)):
            out = self.f.select(lin == k, mk(flat[k]), out)
        return TypedValue(out, et)

    def _tuple(self, items):
        ts = [i.t for i in items]
        t = T.UniTuple(ts[0], len(ts)) if ts and all(x == ts[0] for x in ts) else T.Tuple(ts)
        return TypedValue(None, t, items=list(items))

    def _items(self, tv, node):
        if tv.items is None:
            raise self.err(node, f"a {tv.t} is not a tuple")
        return tv.items

    def cast(self, tv, t, node=None):
        if isinstance(tv, CompileTimeValue):
            raise self.err(node, f"{_describe(tv.obj)} is not a number")
        if tv.t == t:
            return tv
        if isinstance(t, (T.UniTuple, T.Tuple)):
            items = self._items(tv, node)
            if len(items) != len(t.items):
                raise self.err(node, f"cannot convert {tv.t} to {t}")
            return TypedValue(None, t, items=[self.cast(i, it, node) for i, it in zip(items, t.items)])
        if not (_is_num(tv.t) and _is_num(t)):
            raise self.err(node, f"cannot convert {tv.t} to {t}")
        if tv.v is None and tv.const is not None and (t.kind == "c" or isinstance(tv.const, complex)):
            if t.kind == "c":
                return TypedValue(None, t, complex(tv.const))
            raise self.err(node, f"cannot convert a complex number to {t}")
        if tv.v is None and tv.const is not None:
            c = tv.const
            if isinstance(t, T.Boolean):
                return TypedValue(None, t, bool(c))
            if t.is_int:
                if isinstance(c, float) and not math.isfinite(c):
                    pass
                else:
                    v = int(c)
                    bits = t.bits
                    v &= (1 << bits) - 1
                    if t.signed and v >= 1 << (bits - 1):
                        v -= 1 << bits
                    return TypedValue(None, t, v)
            elif t.is_float:
                return TypedValue(None, t, float(t.dtype.type(c)))
        v = self.val(tv, node)
        if tv.t.kind == "c" and isinstance(t, T.Boolean):
            return TypedValue(self.f.ops.cmp(v, self._zero(tv.t), predicate="ne"), t)
        if tv.t.kind == "c" and t.kind != "c":
            raise self.err(node, f"cannot convert {tv.t} to {t} (take .real)")
        if tv.t.kind == "c" and t.kind == "c":
            ft = _complex_part(t).ir
            re = self.f.cast(self.f.emit("complex.re", [v], [_complex_part(tv.t).ir]), ft)
            im = self.f.cast(self.f.emit("complex.im", [v], [_complex_part(tv.t).ir]), ft)
            return TypedValue(self.f.emit("complex.create", [re, im], [t.ir]), t)
        if isinstance(t, T.Boolean):
            return TypedValue(self.f.ops.cmp(v, self._zero(tv.t), predicate="ne"), t)
        return TypedValue(self.f.cast(v, t.ir), t)

    def _zero(self, t):
        return self._zero_val(t.ir)

    def truth(self, tv, node):
        if isinstance(tv, CompileTimeValue):
            return TypedValue(None, T.boolean, bool(tv.obj))
        if tv.items is not None:
            return TypedValue(None, T.boolean, len(tv.items) > 0)
        if isinstance(tv.t, T.Array):
            return TypedValue(None, T.boolean, True)
        return self.cast(tv, T.boolean, node)

    # -- variables --
    def _assign_name(self, name, tv, node):
        if isinstance(tv, CompileTimeValue):
            self.vars[name] = Var(None, bound=tv)
            self.var_types.setdefault(name, "ct")
            return
        t = tv.t
        if isinstance(t, (T.Array, T.Record)) and tv.items is None:
            old = self.vars.get(name)
            if old is not None and old.t is not None and old.t != t:
                raise self.err(
                    node, f"variable '{name}' holds a {old.t} and a {t}: pydev.numba needs one array type per variable"
                )
            self.vars[name] = Var(t, bound=tv)
            self.var_types.setdefault(name, t)
            return
        known = self.var_types.get(name)
        if known is None:
            want = self.var_types[name] = t
        else:
            want = unify(known, t)
            if want is None:
                raise self.err(
                    node, f"variable '{name}' is assigned a {t} after a {known}: Numba cannot unify these types"
                )
            if want != known:
                self.var_types[name] = want
                raise Retype()
        self.vars[name] = Var(want, bound=self._materialize(self.cast(tv, want, node), node))

    def _materialize(self, tv, node):
        """A value with every leaf an ir.Value (so it can be passed to blocks)."""
        if tv.items is not None:
            return TypedValue(None, tv.t, items=[self._materialize(i, node) for i in tv.items])
        self.val(tv, node)
        return TypedValue(tv.v, tv.t)

    def _leaf_types(self, t):
        if isinstance(t, (T.UniTuple, T.Tuple)):
            out = []
            for i in t.items:
                out += self._leaf_types(i)
            return out
        return [t]

    def _load_var(self, name, node):
        return self.vars[name].bound

    # -- merging variables at control-flow joins (block arguments) --
    def _mergeable(self, t):
        return t is not None and (
            _is_num(t) or isinstance(t, (T.UniTuple, T.Tuple)) and all(_is_num(x) for x in self._leaf_types(t))
        )

    def _merge_names(self, stmts):
        """The variables live across a join: those defined now, and those
        the statements assign (typed on an earlier pass)."""
        names = [n for n, v in self.vars.items() if self._mergeable(v.t)]
        for n in _assigned(stmts):
            if n in names:
                continue
            if n in self.vars:
                continue  # arrays and other bound values are not merged
            t = self.var_types.get(n)
            if t is None:
                self.need_retype = True
            elif self._mergeable(t):
                names.append(n)
        return names

    def _merge_types(self, names):
        out = []
        for n in names:
            out += [x.ir for x in self._leaf_types(self.var_types[n] if n not in self.vars else self.vars[n].t)]
        return out

    def _merge_values(self, names, node):
        vals = []
        for n in names:
            v = self.vars.get(n)
            t = v.t if v is not None else self.var_types[n]
            if v is None or v.bound is None:
                vals += [self._zero_val(x.ir) for x in self._leaf_types(t)]
            else:
                vals += self._flatten(v.bound, node)
        return vals

    def _bind_merged(self, names, args):
        args = list(args)
        for n in names:
            t = self.vars[n].t if n in self.vars else self.var_types[n]
            k = len(self._leaf_types(t))
            self.vars[n] = Var(t, bound=self._unflatten(t, args[:k]))
            del args[:k]

    def lookup(self, name, node):
        if name in self.vars:
            return self._load_var(name, node)
        local_names = self.disp.local_names()
        if name in local_names:
            if self.need_retype and name in self.var_types:
                raise Retype()  # first assigned in a branch or loop: its type is known now
            raise self.err(node, f"variable '{name}' is used before it is assigned")
        code = self.py.__code__
        if name in code.co_freevars and self.py.__closure__:
            try:
                return self.pyobj(self.py.__closure__[code.co_freevars.index(name)].cell_contents, node)
            except ValueError:
                raise self.err(node, f"the closure variable '{name}' is not set") from None
        g = self.py.__globals__
        if name in g:
            return self.pyobj(g[name], node)
        if hasattr(builtins, name):
            return CompileTimeValue(getattr(builtins, name))
        raise self.err(node, f"name '{name}' is not defined")

    def pyobj(self, obj, node):
        """A global or closure value: numbers are compile-time constants as in Numba."""
        if isinstance(obj, (bool, int, float, np.number, np.bool_)):
            return self.lit(obj, node)
        if isinstance(obj, tuple) and all(isinstance(o, (bool, int, float, np.number)) for o in obj):
            return self.lit(obj, node)
        if isinstance(obj, np.ndarray):
            return self.global_array(obj, node)
        make = getattr(obj, "_pydev_numba_value", None)
        if make is not None and not isinstance(obj, type):
            return make(self, node)
        return CompileTimeValue(obj)

    # -- statements --
    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        self.at(s)
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is None:
            raise self.err(s, f"{_stmt_name(s)} is not supported in pydev.numba device code")
        m(s)

    def s_Pass(self, s):
        pass

    def s_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # docstring
        self.expr(s.value)

    def s_Assert(self, s):
        pass  # Numba-CUDA ignores assert unless debug=True and opt=False

    def s_Assign(self, s):
        value = self.expr(s.value)
        for tgt in s.targets:
            self.store(tgt, value, s)

    def s_AnnAssign(self, s):
        if s.value is not None:
            self.store(s.target, self.expr(s.value), s)

    def s_AugAssign(self, s):
        if isinstance(s.target, ast.Subscript):
            arr = self.expr(s.target.value)
            idx = self.index_values(arr, s.target.slice, s.target)
            cur = self.load_item(arr, idx, s.target)
            self.at(s)
            new = self.binop(s.op, cur, self.expr(s.value), s)
            self.store_item(arr, idx, new, s)
            return
        cur = self.expr(
            s.target
            if not isinstance(s.target, ast.Name)
            else ast.copy_location(ast.Name(s.target.id, ast.Load()), s.target)
        )
        self.at(s)
        new = self.binop(s.op, cur, self.expr(s.value), s)
        self.store(s.target, new, s)

    def store(self, tgt, value, node):
        if isinstance(tgt, ast.Name):
            self._assign_name(tgt.id, value, tgt)
        elif isinstance(tgt, (ast.Tuple, ast.List)):
            items = self._items(value, tgt) if not isinstance(value, CompileTimeValue) else None
            if items is None or len(items) != len(tgt.elts):
                raise self.err(
                    tgt,
                    f"cannot unpack {value.t if isinstance(value, TypedValue) else _describe(value.obj)} into {len(tgt.elts)} names",
                )
            for t, v in zip(tgt.elts, items):
                self.store(t, v, node)
        elif isinstance(tgt, ast.Subscript):
            arr = self.expr(tgt.value)
            parts = tgt.slice.elts if isinstance(tgt.slice, ast.Tuple) else [tgt.slice]
            if (
                isinstance(arr, TypedValue)
                and isinstance(arr.t, T.Array)
                and (
                    any(isinstance(p, ast.Slice) for p in parts)
                    or len(parts) < arr.t.ndim
                    and not self._is_tuple_index(tgt.slice)
                )
            ):
                self.fill(self.view(arr, parts, tgt), value, node)
                return
            idx = self.index_values(arr, tgt.slice, tgt)
            self.at(node)
            self.store_item(arr, idx, value, tgt)
        elif isinstance(tgt, ast.Attribute):
            base = self.expr(tgt.value)
            if (
                isinstance(base, TypedValue)
                and isinstance(base.t, T.Record)
                and getattr(base, "const", None) is not None
            ):
                arr, idx = base.const
                self.at(node)
                self.store_field(arr, idx, tgt.attr, value, tgt)
                return
            raise self.err(tgt, "only fields of records in arrays can be assigned (a[i].x = v, or r = a[i]; r.x = v)")
        else:
            raise self.err(tgt, f"cannot assign to {type(tgt).__name__}")

    def s_If(self, s):
        cond = self.truth(self.expr(s.test), s.test)
        self.at(s)
        if cond.v is None:  # constant condition: only one branch exists (as Numba prunes)
            self.block(s.body if cond.const else s.orelse)
            return
        f = self.f
        names = self._merge_names(s.body + s.orelse)
        for n in names:
            if n not in self.vars:
                self.vars[n] = Var(self.var_types[n], bound=None)
        before = dict(self.vars)
        types = self._merge_types(names)
        then, other = f.new_block(), f.new_block()
        after = f.new_block(*types)
        f.cond_br(cond.v, then, other)
        dead = []
        for blk, body in ((then, s.body), (other, s.orelse)):
            f.set_block(blk)
            self.vars = dict(before)
            self.dead = False
            self.block(body)
            dead.append(self.dead)
            if not f.terminated:
                self.at(s)
                f.br(after, *self._merge_values(names, s))
        self.vars = dict(before)
        f.set_block(after)
        self._bind_merged(names, after.args)
        self.dead = all(dead)

    def _loop(self, node, head_fn, body_fn, step_fn, extra=()):
        f = self.f
        if node.orelse:
            raise self.err(node, "a loop's else clause is not supported in pydev.numba")
        names = self._merge_names(node.body) + list(extra)
        names = list(dict.fromkeys(names))
        for n in names:
            if n not in self.vars:
                self.vars[n] = Var(self.var_types[n], bound=None)
        types = self._merge_types(names)
        head, body, cont, after = f.new_block(*types), f.new_block(), f.new_block(*types), f.new_block(*types)
        f.br(head, *self._merge_values(names, node))
        f.set_block(head)
        self._bind_merged(names, head.args)
        at_head = dict(self.vars)
        cond = head_fn()
        self.at(node)
        if cond.v is None:
            if cond.const:
                f.br(body)
            else:
                f.br(after, *self._merge_values(names, node))
        else:
            f.cond_br(cond.v, body, after, else_args=self._merge_values(names, node))
        f.set_block(body)
        self.dead = False
        self.loops.append((cont, after, names))
        body_fn()
        self.loops.pop()
        if not f.terminated:
            f.br(cont, *self._merge_values(names, node))
        f.set_block(cont)
        self.vars = dict(at_head)
        self._bind_merged(names, cont.args)
        self.dead = False
        step_fn()
        self.at(node)
        f.br(head, *self._merge_values(names, node))
        f.set_block(after)
        self.vars = dict(at_head)
        self._bind_merged(names, after.args)
        self.dead = False

    def s_While(self, s):
        self._loop(s, lambda: self.truth(self.expr(s.test), s.test), lambda: self.block(s.body), lambda: None)

    def s_For(self, s):
        it = s.iter
        if not (
            isinstance(it, ast.Call)
            and isinstance(self.expr(it.func), CompileTimeValue)
            and self.expr(it.func).obj in (range,)
        ):
            rng = None
        else:
            rng = it
        if rng is None:
            itv = self.expr(it)
            if isinstance(itv, TypedValue) and itv.items is not None:  # a tuple: unrolled
                for item in itv.items:
                    self.store(s.target, item, s)
                    self.block(s.body)
                return
            raise self.err(it, "pydev.numba loops iterate over range(...) or a tuple")
        if rng.keywords or not 1 <= len(rng.args) <= 3:
            raise self.err(rng, "range() takes 1 to 3 positional arguments")
        args = [self.expr(a) for a in rng.args]
        for a, n in zip(args, rng.args):
            if isinstance(a, CompileTimeValue) or not (a.t.is_int or isinstance(a.t, T.Boolean)):
                raise self.err(
                    n, f"range() takes integers, got {a.t if isinstance(a, TypedValue) else _describe(a.obj)}"
                )
        start, stop, step = (
            (self.lit(0, rng), args[0], self.lit(1, rng))
            if len(args) == 1
            else (args[0], args[1], self.lit(1, rng))
            if len(args) == 2
            else args
        )
        t = start.t
        for x in (stop, step):
            t = arith_type(t, x.t)
        if t.is_float:
            t = T.int64
        self.at(rng)
        start, stop, step = (self.cast(x, t, rng) for x in (start, stop, step))
        stop_v = self.val(stop, rng)
        step_v = self.val(step, rng) if step.v is not None else None
        if not isinstance(s.target, ast.Name):
            raise self.err(s.target, "a range loop's target is one name")
        self.nloop = getattr(self, "nloop", 0) + 1
        cname = f".range{self.nloop}"
        self.var_types[cname] = t
        self.vars[cname] = Var(t, bound=self._materialize(start, rng))
        # the target is live after the loop in Python; give it a type now
        if s.target.id not in self.var_types:
            self.var_types[s.target.id] = t
        elif unify(self.var_types[s.target.id], t) != self.var_types[s.target.id]:
            self.var_types[s.target.id] = unify(self.var_types[s.target.id], t)
            raise Retype()

        def head():
            i = self.val(self.vars[cname].bound, rng)
            if step.v is None:
                if step.const == 0:
                    raise self.err(rng, "range() arg 3 must not be zero")
                return TypedValue(i < stop_v if step.const > 0 else i > stop_v, T.boolean)
            up = (step_v > 0) & (i < stop_v)
            down = (step_v < 0) & (i > stop_v)
            return TypedValue(up | down, T.boolean)

        def body():
            self._assign_name(s.target.id, self.vars[cname].bound, s.target)
            self.block(s.body)

        def stepper():
            i = self.val(self.vars[cname].bound, rng)
            self.vars[cname] = Var(t, bound=TypedValue(i + self.val(step, rng), t))

        self._loop(s, head, body, stepper, extra=[cname, s.target.id])
        del self.vars[cname]

    def s_Break(self, s):
        if not self.loops:
            raise self.err(s, "'break' outside a loop")
        self.f.br(self.loops[-1][1], *self._merge_values(self.loops[-1][2], s))
        self.f.set_block(self.f.new_block())
        self.dead = True

    def s_Continue(self, s):
        if not self.loops:
            raise self.err(s, "'continue' outside a loop")
        self.f.br(self.loops[-1][0], *self._merge_values(self.loops[-1][2], s))
        self.f.set_block(self.f.new_block())
        self.dead = True

    def s_Return(self, s):
        f = self.f
        if self.kernel:
            if s.value is not None and not (isinstance(s.value, ast.Constant) and s.value.value is None):
                raise self.err(s.value, "a kernel cannot return a value")
            f.ret()
        else:
            if s.value is None or isinstance(s.value, ast.Constant) and s.value.value is None:
                tv, t = None, T.void
            else:
                tv = self.expr(s.value)
                if isinstance(tv, CompileTimeValue):
                    raise self.err(s.value, f"cannot return {_describe(tv.obj)}")
                t = tv.t
            if t != T.void and not (_is_num(t) or isinstance(t, (T.UniTuple, T.Tuple))):
                raise self.err(s.value, f"a device function returns numbers or tuples of numbers, not {t}")
            if self.ret_seen is None:
                self.ret_seen = t
            else:
                u = unify(self.ret_seen, t) if T.void not in (t, self.ret_seen) else (t if t == self.ret_seen else None)
                if u is None:
                    raise self.err(
                        s, f"'{self.py.__name__}' returns a {self.ret_seen} and a {t}: Numba cannot unify them"
                    )
                self.ret_seen = u
            self.at(s)
            if self.ret_type is None or isinstance(self.ret_type, T.NoneType) or t == T.void:
                f.ret()  # the first pass learns the return type; no values
            else:
                f.ret(*self._flatten(self.cast(tv, self.ret_type, s), s))
        f.set_block(f.new_block())
        self.dead = True

    def _zero_val(self, irt):
        if irt.kind == "complex":
            ft = irt.element
            return self.f.emit("complex.constant", [], [irt], {"value": f"[{_flit(0.0, ft)}, {_flit(0.0, ft)}]"})
        return self.f.constant(0.0 if irt.is_float else 0, irt) if irt.text != "i1" else self.f.constant(False, ir.i1)

    # -- expressions --
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
        items = [self.expr(e) for e in n.elts]
        if any(isinstance(i, CompileTimeValue) for i in items):
            return CompileTimeValue(tuple(i.obj if isinstance(i, CompileTimeValue) else i for i in items))
        return self._tuple(items)

    e_List = e_Tuple

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
        if isinstance(t, (T.Number, T.Boolean)):
            if n.attr == "conjugate":
                return CompileTimeValue(_Method("conjugate", lambda c, a, k, nd: base))
            if n.attr == "real":
                return base
            if n.attr == "imag":
                return self.cast(self.lit(0, n), t, n)
        raise self.err(n, f"a {t} has no attribute '{n.attr}'")

    def extent(self, arr, d, node):
        t = arr.t
        if arr.v is None and arr.const is not None:
            return TypedValue(self.iconst(arr.const.shape[d]), T.int64)
        v = self.val(arr, node)
        key = (v.name, d)
        hit = self.extents.get(key)
        if hit is not None:
            return TypedValue(hit, T.int64)
        # parameters' and entry-block arrays' extents: once, in the entry block
        in_entry = v.name.startswith("%arg") or v.name in self.entry_values

        def build():
            return self.f.ops.tuple_extract(
                self.f.ops.array_shape(v, result=ir.tuple_type(*[ir.si64] * t.ndim)), index=d, result=ir.si64
            )

        if in_entry:
            e = self.alloc_in_entry(build)
            self.extents[key] = e
            return TypedValue(e, T.int64)
        return TypedValue(build(), T.int64)

    def iconst(self, value, irt=ir.si64):
        """An integer constant, made once in the entry block."""
        key = (int(value), irt.text)
        hit = self.consts_cache.get(key)
        if hit is None:
            hit = self.consts_cache[key] = self.alloc_in_entry(lambda: self.f.constant(int(value), irt))
        return hit

    def e_Subscript(self, n):
        base = self.expr(n.value)
        if isinstance(base, CompileTimeValue):
            obj = base.obj
            if isinstance(obj, (T.Number, T.Boolean)) or isinstance(obj, tuple):
                raise self.err(n, "type expressions are not values in device code")
            raise self.err(n, f"{_describe(obj)} cannot be indexed")
        if base.items is not None:
            idx = self.expr(n.slice)
            if isinstance(idx, TypedValue) and idx.v is None and idx.const is not None and idx.t.is_int:
                i = idx.const
                if not -len(base.items) <= i < len(base.items):
                    raise self.err(n.slice, f"tuple index {i} is out of range for {base.t}")
                return base.items[i]
            if isinstance(n.slice, ast.Slice):
                raise self.err(n.slice, "tuple slices are not supported")
            if isinstance(base.t, T.UniTuple) and isinstance(idx, TypedValue) and idx.t.is_int:
                # a dynamic index into a homogeneous tuple: a chain of selects
                iv = self.val(self.cast(idx, T.int64, n), n)
                out = self.val(base.items[0], n)
                for k, it in enumerate(base.items[1:], 1):
                    out = self.f.select(iv == k, self.val(it, n), out)
                return TypedValue(out, base.t.items[0])
            raise self.err(n.slice, "a tuple index must be a constant integer")
        if not isinstance(base.t, T.Array):
            raise self.err(n, f"a {base.t} cannot be indexed")
        parts = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
        if (
            any(isinstance(p, ast.Slice) for p in parts)
            or len(parts) < base.t.ndim
            and not self._is_tuple_index(n.slice)
        ):
            return self.view(base, parts, n)
        idx = self.index_values(base, n.slice, n)
        self.at(n)
        return self.load_item(base, idx, n)

    def _is_tuple_index(self, sl):
        if isinstance(sl, (ast.Tuple, ast.Slice)):
            return False
        if isinstance(sl, ast.Name) and sl.id in self.vars:
            return (
                self.vars[sl.id].bound is not None
                and isinstance(self.vars[sl.id].bound, TypedValue)
                and self.vars[sl.id].bound.items is not None
            )
        return isinstance(sl, ast.Call)  # cuda.grid(2) and friends

    def _index(self, arr, d, p, node):
        """A wrapped si64 index into dimension d."""
        if isinstance(p, CompileTimeValue) or not (p.t.is_int or isinstance(p.t, T.Boolean)):
            raise self.err(node, f"array indices are integers, got {_tname(p)}")
        if p.v is None:
            return self.iconst(p.const) if p.const >= 0 else self.val(self.extent(arr, d, node), node) + p.const
        if p.t.signed:
            v = self.val(self.cast(p, T.int64, node), node)
            return self.f.select(v < 0, v + self.val(self.extent(arr, d, node), node), v)
        return self.val(self.cast(p, T.int64, node), node)

    def view(self, arr, parts, node):
        """`a[i]` of an n-d array, `a[lo:hi:step, j]`: views (pydev.array_index / array_slice)."""
        t = arr.t
        if len(parts) > t.ndim:
            raise self.err(node, f"too many indices for a {t.ndim}-d array: {len(parts)}")
        parts = list(parts) + [ast.copy_location(ast.Slice(None, None, None), node)] * (t.ndim - len(parts))
        if not any(isinstance(p, ast.Slice) for p in parts):
            idx = [self._index(arr, d, self.expr(p), p) for d, p in enumerate(parts)]
            self.at(node)
            layout = "C" if t.layout == "C" else "A"
            rt = T.Array(t.dtype, t.ndim - len(idx), layout, t.readonly, t.space)
            return TypedValue(self.f.ops.array_index(self.val(arr, node), *idx, result=rt.ir), rt)
        kinds, starts, stops, steps = [], [], [], []
        contiguous, seen_slice, ndim = t.layout == "C", False, 0
        for d, p in enumerate(parts):
            if not isinstance(p, ast.Slice):
                if seen_slice:
                    contiguous = False
                kinds.append(0)
                starts.append(self._index(arr, d, self.expr(p), p))
                continue
            ndim += 1
            full = p.lower is None and p.upper is None and p.step is None
            if seen_slice and not full:
                contiguous = False
            seen_slice = True
            kinds.append(1)
            if p.step is None:
                step, sign = self.iconst(1), 1
            else:
                sv = self.expr(p.step)
                if isinstance(sv, CompileTimeValue) or not sv.t.is_int:
                    raise self.err(p.step, "a slice step is an integer")
                sign = (1 if sv.const > 0 else -1) if sv.v is None and sv.const is not None else 0
                if sv.v is None and sv.const == 0:
                    raise self.err(p.step, "slice step cannot be zero")
                step = self.val(self.cast(sv, T.int64, p.step), p.step)
                if sign != 1:
                    contiguous = False
            if (p.lower is None or p.upper is None) and sign == 0:
                raise self.err(p, "a slice with a variable step needs both bounds in pydev.numba")

            def ext():
                return self.val(self.extent(arr, d, node), node)

            if p.lower is None:
                starts.append(self.iconst(0 if sign > 0 else -1))
            else:
                starts.append(self.val(self.cast(self.num_arg(self.expr(p.lower), p.lower), T.int64, p.lower), p.lower))
            if p.upper is None:
                stops.append(ext() if sign > 0 else -(ext() + 1))
            else:
                stops.append(self.val(self.cast(self.num_arg(self.expr(p.upper), p.upper), T.int64, p.upper), p.upper))
            steps.append(step)
        self.at(node)
        rt = T.Array(t.dtype, ndim, "C" if contiguous else "A", t.readonly, t.space)
        return TypedValue(
            self.f.ops.array_slice(self.val(arr, node), starts, stops, steps, kinds=kinds, result=rt.ir), rt
        )

    def index_values(self, arr, sl, node):
        if isinstance(arr, CompileTimeValue) or not isinstance(arr.t, T.Array):
            raise self.err(
                node, f"{_describe(arr.obj) if isinstance(arr, CompileTimeValue) else arr.t} cannot be indexed"
            )
        if isinstance(sl, ast.Slice) or isinstance(sl, ast.Tuple) and any(isinstance(e, ast.Slice) for e in sl.elts):
            raise self.err(sl, "assigning to an array slice is not supported in pydev.numba: assign each element")
        idx = self.expr(sl)
        parts = idx.items if isinstance(idx, TypedValue) and idx.items is not None else [idx]
        t = arr.t
        if len(parts) != t.ndim:
            raise self.err(
                sl,
                f"a {t.ndim}-d array takes {t.ndim} indices, got {len(parts)}",
                help="pydev.numba does not support partial indexing (views) yet",
            )
        out = []
        for d, p in enumerate(parts):
            if isinstance(p, CompileTimeValue) or not (p.t.is_int or isinstance(p.t, T.Boolean)):
                raise self.err(
                    sl, f"array indices are integers, got {p.t if isinstance(p, TypedValue) else _describe(p.obj)}"
                )
            self.at(node)
            if p.v is None:
                if p.const < 0:
                    out.append(self.val(self.extent(arr, d, node), node) + p.const)
                else:
                    out.append(self.iconst(p.const))
                continue
            if p.t.signed:
                v = self.val(self.cast(p, T.int64, node), node)
                ext = self.val(self.extent(arr, d, node), node)
                out.append(self.f.select(v < 0, v + ext, v))
            else:
                out.append(self.val(self.cast(p, T.uint64 if p.t.bits == 64 else T.int64, node), node))
        return out

    def fill(self, view, value, node):
        """`a[lo:hi] = x` / `a[i] = b` on a view: every element gets the scalar,
        or the element of an array of the same shape (no broadcasting)."""
        t = view.t
        if t.readonly or getattr(t, "const", False):
            raise self.err(node, "cannot write to a read-only (const) array")
        src = None
        if isinstance(value, TypedValue) and isinstance(value.t, T.Array):
            if value.t.ndim != t.ndim:
                raise self.err(
                    node,
                    f"cannot assign a {value.t.ndim}-d array to a {t.ndim}-d slice (no broadcasting in pydev.numba)",
                )
            src = value
        else:
            scalar = self.val(self.cast(self.num_arg(value, node, "the value"), t.dtype, node), node)
        self.at(node)
        exts = [self.val(self.extent(view, d, node), node) for d in range(t.ndim)]
        f = self.f
        idx = []

        def nest(d):
            if d == t.ndim:
                v = self.load_item(src, idx, node).v if src is not None else scalar
                if src is not None and src.t.dtype != t.dtype:
                    v = self.val(self.cast(TypedValue(v, src.t.dtype), t.dtype, node), node)
                f.ops.array_store(v, self.val(view, node), *idx)
                return
            with f.for_range(self.iconst(0), exts[d]) as i:
                idx.append(i)
                nest(d + 1)
                idx.pop()

        nest(0)

    def load_item(self, arr, idx, node):
        t = arr.t
        if arr.v is None and arr.const is not None:
            return self.const_load(arr, idx, node)
        if isinstance(t.dtype, T.Record):
            return TypedValue(self.f.ops.array_load(self.val(arr, node), *idx), t.dtype, const=(arr, idx))
        return TypedValue(self.f.ops.array_load(self.val(arr, node), *idx), t.dtype)

    def store_item(self, arr, idx, value, node):
        t = arr.t
        if t.readonly or getattr(t, "const", False):
            raise self.err(node, "cannot write to a read-only (const) array")
        if isinstance(t.dtype, T.Record):
            if not (isinstance(value, TypedValue) and value.t == t.dtype):
                raise self.err(node, f"a {t.dtype} element takes a record of the same type")
        else:
            value = self.cast(value, t.dtype, node)
        self.f.ops.array_store(self.val(value, node), self.val(arr, node), *idx)

    def load_field(self, rec, field, node):
        rt = rec.t
        if field not in rt.fields:
            raise self.err(node, f"the record has no field '{field}' (fields: {', '.join(rt.fields)})")
        ft = rt.fields[field]
        v = self.val(rec, node)
        if rec.const is not None:  # an element of an array: read it now (fields may have been written)
            arr, idx = rec.const
            v = self.f.ops.array_load(self.val(arr, node), *idx)
        return TypedValue(self.f.ops.struct_extract(v, field=field, result=ft.ir), ft)

    def store_field(self, arr, idx, field, value, node):
        rt = arr.t.dtype
        if field not in rt.fields:
            raise self.err(node, f"the record has no field '{field}' (fields: {', '.join(rt.fields)})")
        cur = self.f.ops.array_load(self.val(arr, node), *idx)
        new = self.f.ops.struct_insert(
            self.val(self.cast(value, rt.fields[field], node), node), cur, field=field, result=rt.ir
        )
        self.f.ops.array_store(new, self.val(arr, node), *idx)

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
        av = self.val(self.cast(a, ct, node), node)
        bv = self.val(self.cast(b, ct, node), node)
        self.at(node)
        if name == "truediv":
            return TypedValue(self.f.ops.truediv(av, bv, result=rt.ir), rt)
        if (
            name in ("floordiv", "mod")
            and rt.is_int
            and not self.mb.options.get("debug")
            and not (b.v is None and b.const)
        ):
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
        if isinstance(a, CompileTimeValue) or not _is_num(a.t):
            raise self.err(n, f"bad operand type for unary {_opsym(n.op)}: {_tname(a)}")
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
            same = isinstance(a, CompileTimeValue) and isinstance(b, CompileTimeValue) and a.obj is b.obj
            if isinstance(a, CompileTimeValue) != isinstance(b, CompileTimeValue):
                same = False
            return TypedValue(None, T.boolean, same if isinstance(op, ast.Is) else not same)
        pred = self._CMP.get(type(op))
        if pred is None:
            raise self.err(node, f"comparison {type(op).__name__} is not supported")
        if isinstance(a, CompileTimeValue) or isinstance(b, CompileTimeValue) or not _is_num(a.t) or not _is_num(b.t):
            raise self.err(node, f"cannot compare {_tname(a)} and {_tname(b)}")
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

    def e_Call(self, n):
        fn = self.expr(n.func)
        args = [self.expr(a) for a in n.args]
        if any(isinstance(a, ast.Starred) for a in n.args):
            raise self.err(n, "*args in calls are not supported")
        kwargs = {k.arg: self.expr(k.value) for k in n.keywords}
        if None in kwargs:
            raise self.err(n, "**kwargs in calls are not supported")
        self.at(n)
        if not isinstance(fn, CompileTimeValue):
            raise self.err(n.func, f"a {fn.t} is not callable")
        obj = fn.obj
        hook = getattr(obj, "_pydev_numba_call", None)
        if hook is not None:
            return hook(self, args, kwargs, n)
        from . import _builtins

        impl = _builtins.lookup(obj)
        if impl is not None:
            return impl(self, args, kwargs, n)
        raise self.err(
            n.func,
            f"{_describe(obj)} cannot be called in pydev.numba device code",
            help="device functions are made with @cuda.jit(device=True)" if callable(obj) else None,
        )

    # -- helpers for the builtins --
    def num_arg(self, tv, node, what="argument"):
        if isinstance(tv, CompileTimeValue) or not _is_num(tv.t):
            raise self.err(node, f"{what} must be a number, got {_tname(tv)}")
        return tv

    def const_int(self, tv, node, what):
        if isinstance(tv, TypedValue) and tv.v is None and tv.const is not None and isinstance(tv.const, int):
            return tv.const
        if isinstance(tv, CompileTimeValue) and isinstance(tv.obj, int):
            return tv.obj
        raise self.err(node, f"{what} must be a constant integer")

    def alloc_in_entry(self, build):
        cur = self.f.block
        self.f.set_block(self.entry)
        try:
            v = build()
            if isinstance(v, ir.Value):
                self.entry_values.add(v.name)
            return v
        finally:
            self.f.set_block(cur)


def _assigned(stmts):
    out = []
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.append(n.id)
    return list(dict.fromkeys(out))


def _flit(x, ft):
    import struct

    if ft.text == "f64":
        return f"0x{struct.unpack('<Q', struct.pack('<d', x))[0]:016X} : f64"
    return f"0x{int(np.float32(x).view(np.uint32)):08X} : f32"


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


def _stmt_name(s):
    return {
        "FunctionDef": "a nested def",
        "ClassDef": "a class definition",
        "With": "a with statement",
        "Try": "try",
        "Raise": "raise",
        "Global": "global",
        "Nonlocal": "nonlocal",
        "Import": "import",
        "ImportFrom": "import",
        "Delete": "del",
        "Lambda": "lambda",
    }.get(type(s).__name__, f"the statement {type(s).__name__}")
