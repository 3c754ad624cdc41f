"""The Numba-CUDA kernel language to pydev IR, through `pydev.ir` only.

One `Compiler` turns one Python function (its source, parsed with `ast`)
and one tuple of Numba argument types into a `func.func` of an
`ir.Module`, typing with Numba's rules. Locals are SSA values; at the
joins of `if`/loops the live ones pass as block arguments (memory would not
survive a barrier on the host target). A variable's type is the
unification of what it is assigned: when it widens, the function is
compiled again with the wider type. Every op carries `loc(file:line:col)`
of the user's code."""

from .. import ir
from . import types as T
from ._calls import CallsMixin
from ._control_flow import ControlFlowMixin
from ._expressions import ExpressionsMixin
from ._source import NumbaError, Src, render
from ._statements import StatementsMixin
from ._subscripts import SubscriptsMixin
from ._typing import (
    CompileTimeValue,
    TypedValue,
    _describe,
    _from_literal,
    _is_num,
    literal_of,
)
from ._values import ValuesMixin
from ._variables import Retype, VariablesMixin

# Names other modules read here: NumbaError, Src, render (pydev.numba._source),
# TypedValue, CompileTimeValue, _describe, _is_num (pydev.numba._typing).
__all__ = [
    "CompileTimeValue",
    "literal_of",
    "Compiler",
    "ModuleBuilder",
    "NumbaError",
    "Src",
    "TypedValue",
    "_describe",
    "_is_num",
    "compile_device",
    "compile_kernel",
    "render",
]


# --- the compiler --------------------------------------------------------------------------


def launch_bounds_attributes(bounds):
    """The kernel attributes of cuda.jit(launch_bounds=...) (checked by
    cuda.jit): the NVVM dialect's, which the cuda pipeline carries to the
    PTX directives `.maxntid`, `.minnctapersm`, `.maxclusterrank` (and the
    host runtime's launch check, pydev-lower-simt-host); as numba-cuda, the
    thread bound is on x alone (the driver checks the block's total)."""
    if bounds is None:
        return {}
    if isinstance(bounds, int):
        bounds = (bounds,)
    out = {"nvvm.maxntid": f"array<i32: {bounds[0]}, 1, 1>"}
    # A 0 sets no bound (as CUDA C's __launch_bounds__).
    if len(bounds) > 1 and bounds[1]:
        out["nvvm.minctasm"] = f"{bounds[1]} : i32"
    if len(bounds) > 2 and bounds[2]:
        out["nvvm.cluster_max_blocks"] = f"{bounds[2]} : i32"
    return out


class ModuleBuilder:
    """One ir.Module: the kernel and the device functions it calls."""

    def __init__(self, options):
        self.module = ir.Module()
        self.funcs = {}  # (dispatcher id, arg types) -> (Function, return type)
        self.compiling = {}  # the same keys -> the Compiler of a device function being compiled (recursion)
        self.options = options
        self.names = set()
        self.links = []  # link files of the device functions and external functions reached
        self.externs = {}  # name -> (ir.Declaration, signature) of declare_device functions called
        self.lineinfo = False  # some device function reached asked for lineinfo
        # Device arrays that functions read from globals or closures, passed
        # as hidden trailing parameters: id(ir.Function) -> the arrays.
        self.captures = {}
        self.kernel_captures = ()
        self.grid_sync = False  # it synchronizes its grid (cuda.cg.this_grid().sync()): a cooperative launch

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
    c = Compiler(mb, dispatcher, argtypes, kernel=True, name=name)
    c.run()
    mb.kernel_captures = tuple(c.captures)
    # Each variable's Numba type (compile-time values, which have none, left out).
    mb.kernel_typemap = {n: t for n, t in c.var_types.items() if not isinstance(t, str)}
    return mb.module, name, mb


class _Callee:
    """A device function being compiled, as its recursive calls see it: its
    symbol and result types."""

    def __init__(self, name, results):
        self.name, self.results = name, results


def compile_device(mb, dispatcher, argtypes, node_for_errors=None):
    key = (id(dispatcher), tuple(argtypes))
    hit = mb.funcs.get(key)
    if hit is None:
        if key in mb.funcs:
            # A recursive call: typed with the return type known so far (the
            # signature's, or that of the returns compiled before the call,
            # as Numba's type inference of recursion).
            c = mb.compiling[key]
            rtype = c.ret_type or c.ret_seen
            if rtype is None:
                raise NumbaError(
                    node_for_errors,
                    f"cannot type infer runaway recursion: '{dispatcher.py_func.__name__}' calls itself before "
                    "any of its returns gives its return type",
                )
            return _Callee(c.name, [] if isinstance(rtype, T.NoneType) else c._flat_types(rtype)), rtype
        mb.funcs[key] = None
        c = Compiler(mb, dispatcher, argtypes, kernel=False, name=mb.name(dispatcher.py_func.__name__))
        mb.compiling[key] = c
        try:
            c.run()
        except BaseException:
            del mb.funcs[key]  # not compiled: a caller may try other argument types (literals)
            raise
        finally:
            del mb.compiling[key]
        hit = mb.funcs[key] = (c.f, c.ret_type)
        mb.captures[id(c.f)] = tuple(c.captures)
    return hit


class Compiler(
    StatementsMixin,
    ControlFlowMixin,
    ExpressionsMixin,
    SubscriptsMixin,
    CallsMixin,
    VariablesMixin,
    ValuesMixin,
):
    """Compiles one Python function for one tuple of argument types: the
    driver (typing again while a variable's type widens), the parameters,
    locations and errors; the mixins compile statements, control flow,
    expressions, subscripts, calls, variables and values."""

    def __init__(self, mb, dispatcher, argtypes, kernel, name):
        self.mb, self.disp, self.argtypes, self.kernel, self.name = mb, dispatcher, list(argtypes), kernel, name
        self.src = dispatcher.source()
        self.py = dispatcher.py_func
        self.var_types = {}
        self.ret_type = None
        self.ret_seen = None
        self.captures = []  # device arrays of globals and closures read here (trailing parameters)

    def run(self):
        tries = 0
        while tries < 8 + len(self.captures):  # each captured array may cost a try
            tries += 1
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
        # *args: a device function's extra arguments as a tuple (Numba's star args).
        vararg = fn.args.vararg.arg if fn.args.vararg is not None and not self.kernel else None
        if (fn.args.vararg and not vararg) or fn.args.kwarg or fn.args.kwonlyargs or fn.args.posonlyargs:
            raise NumbaError(
                fn,
                "pydev.numba functions take plain positional parameters (no **kwargs or keyword-only; "
                "*args in device functions only)",
            )
        defaults = fn.args.defaults
        too_many = len(self.argtypes) > len(params) and vararg is None
        if too_many or len(self.argtypes) < len(params) - len(defaults):
            raise NumbaError(fn, f"'{self.py.__name__}' takes {len(params)} arguments, got {len(self.argtypes)}")
        for t in self.argtypes:
            if getattr(t, "ir", None) is None and not isinstance(t, (T.UniTuple, T.Tuple, T.Constant)):
                raise NumbaError(fn, f"an argument of type {t} cannot be passed to '{self.py.__name__}'")
        flat = []
        for t in self.argtypes:
            flat += self._param_types(t)
        captured_types = [T.typeof(a) for a in self.captures]
        flat += [t.ir for t in captured_types]
        self.tmp_module = self.mb.module
        if self.kernel:
            # GPU semantics for early returns (`if i >= n: return` before a
            # barrier): threads that returned do not hold up later barriers.
            self.f = ir.Function(self.mb.module, self.name, flat, (), True, self.src.loc(fn), exited_skip_barriers=True)
            self.f._attributes.update(launch_bounds_attributes(self.mb.options.get("launch_bounds")))
            if self.mb.options.get("max_registers"):
                # `.maxnreg N` in the PTX: ptxas allocates at most N registers
                # a thread, as numba-cuda's max_registers (CU_JIT_MAX_REGISTERS).
                self.f._attributes["nvvm.maxnreg"] = f"{self.mb.options['max_registers']} : i32"
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
        self.branches = 0  # the open ifs (with a run-time condition): 0 where code runs on every path
        self.vars = {}
        self.consts_cache = {}
        # ir.Values known to be >= 0 (thread positions, cuda.grid, their
        # widenings): an index among them needs no negative wrap-around.
        self.nonneg = set()
        self.extents = {}
        self.entry_values = set()
        at = 0
        for i, (p, t) in enumerate(zip(params, self.argtypes)):
            n = len(self._param_types(t))
            vals = f.args[at : at + n]
            at += n
            self._bind_param(p, t, vals)
        if vararg is not None:
            rest = self.argtypes[len(params) :]
            n_rest = sum(len(self._param_types(t)) for t in rest)
            items = self._unflatten(T.Tuple(rest), list(f.args[at : at + n_rest])).items
            at += n_rest
            if any(isinstance(i, CompileTimeValue) for i in items):
                self._assign_name(vararg, CompileTimeValue(tuple(getattr(i, "obj", i) for i in items)), fn)
            else:
                self._assign_name(vararg, TypedValue(None, T.Tuple(rest), items=items), fn)
        # the captured device arrays: the trailing parameters
        self.capture_vals = {
            id(a): TypedValue(f.args[at + k], t) for k, (a, t) in enumerate(zip(self.captures, captured_types))
        }
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
        if isinstance(t, (T.NoneType, T.Constant)):
            return []
        return [t.ir]

    def _param_types(self, t):
        # A kernel's record parameter is a 1-element array: records pass by
        # reference, as in Numba (the launch copies the record back).
        if self.kernel and isinstance(t, T.Record):
            return [T.Array(t, 1, "C").ir]
        return self._flat_types(t)

    def _bind_param(self, name, t, vals):
        if self.kernel and isinstance(t, T.Record):
            arr = TypedValue(vals[0], T.Array(t, 1, "C"))
            tv = self.load_item(arr, [self.iconst(0)], self.src.node)
        else:
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
        if isinstance(t, T.Constant):
            return CompileTimeValue(t.obj) if t.literal is None else _from_literal(t.literal)
        return TypedValue(vals[0], t)

    def _flatten(self, tv, node):
        if isinstance(tv, CompileTimeValue):  # a T.Constant argument: no run-time value
            return []
        if isinstance(tv.t, (T.UniTuple, T.Tuple)):
            out = []
            for it in self._items(tv, node):
                out += self._flatten(it, node)
            return out
        return [self.val(tv, node)]

    def at(self, node):
        self.node = node
        self.f.location = self.src.loc(node)

    def err(self, node, msg, help=None, kind=None):
        return NumbaError(node, msg, help, kind)

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
