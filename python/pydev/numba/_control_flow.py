"""Control flow in the compiler: `if`, `while` and `for` loops, `break` and
`continue`, and the merging of variables at their joins (the live ones
pass as block arguments)."""

import ast
import copy

from . import types as T
from ._typing import (
    CompileTimeValue,
    TypedValue,
    _describe,
    _is_num,
    arith_type,
    unify,
)
from ._variables import Retype, Unjoined, Var, _fresh, _is_const


def _holds_array(var):
    """Whether a variable holds an array value here (arrays join as block
    arguments when they have one on the way in)."""
    return var is not None and isinstance(var.t, T.Array) and isinstance(var.bound, TypedValue)


def _holds_record(var):
    """Whether a variable holds a record (a reference into an array: records
    do not join, so one that a branch or loop rebinds is not read after it)."""
    return var is not None and isinstance(var.t, T.Record) and isinstance(var.bound, TypedValue)


class ControlFlowMixin:
    def _mergeable(self, t):
        return t is not None and (
            _is_num(t) or isinstance(t, (T.UniTuple, T.Tuple)) and all(_is_num(x) for x in self._leaf_types(t))
        )

    def _merge_names(self, stmts):
        """The variables the statements assign, which the join merges: those
        defined now, and those typed on an earlier pass. A variable they do
        not assign keeps its value, which dominates the join: it is not a
        block argument (fewer block arguments, less IR for the pipeline)."""
        assigned = _assigned(stmts)
        single = self._single_assigned()
        names = [
            n
            for n in assigned
            if n in self.vars
            and (
                self._mergeable(self.vars[n].t)
                and not (n in single and _is_const(self.vars[n].bound))
                or _holds_array(self.vars[n])
            )
        ]
        for n in assigned:
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

    def _merge_values(self, names, node, arrays=None):
        """The values of `names` passed to a join; `arrays` (a loop's join) maps
        the array variables to their type where the loop begins, which a path
        back or out must keep."""
        vals = []
        for n in names:
            v = self.vars.get(n)
            t = v.t if v is not None else self.var_types[n]
            if arrays and n in arrays and v.t != arrays[n]:
                raise self.err(
                    node,
                    f"variable '{n}' holds a {v.t} here and a {arrays[n]} where the loop begins: pydev.numba "
                    "needs one array type per variable around a loop",
                )
            if v is None or v.bound is None:
                vals += [self._zero_val(x.ir) for x in self._leaf_types(t)]
            else:
                vals += self._flatten(_fresh(v.bound) if _is_const(v.bound) else v.bound, node)
        return vals

    def _bind_merged(self, names, args):
        args = list(args)
        for n in names:
            t = self.vars[n].t if n in self.vars else self.var_types[n]
            k = len(self._leaf_types(t))
            self.vars[n] = Var(t, bound=self._unflatten(t, args[:k]))
            del args[:k]

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
        then, other = f.new_block(), f.new_block()
        f.cond_br(cond.v, then, other)
        dead, ends = [], []
        for blk, body in ((then, s.body), (other, s.orelse)):
            f.set_block(blk)
            self.vars = dict(before)
            self.dead = False
            self.branches += 1
            try:
                self.block(body)
            finally:
                self.branches -= 1
            dead.append(self.dead)
            if not f.terminated:
                ends.append((f.block, self.vars))
        joined, unjoined = self._arrays_of_every_path(names, before, [e for _, e in ends])
        for n in [n for n in names if _holds_array(before[n])]:
            types = list(dict.fromkeys(e[n].t for _, e in ends))
            if len(types) > 1:  # a path rebinds it to another array type
                names.remove(n)
                unjoined[n] = types[:2]
        for n, var in before.items():
            if _holds_record(var) and any(n in e and e[n].bound is not var.bound for _, e in ends):
                unjoined[n] = None
        names += joined
        after = f.new_block(*self._merge_types(names))
        for blk, end in ends:  # the paths' values are known now: pass them
            f.set_block(blk)
            self.vars = end
            self.at(s)
            f.br(after, *self._merge_values(names, s))
        self.vars = dict(before)
        f.set_block(after)
        self._bind_merged(names, after.args)
        for n, types in unjoined.items():
            self.vars[n] = Var(types[0] if types else before[n].t, bound=Unjoined(types))
        self.dead = all(dead)

    def _arrays_of_every_path(self, names, before, ends):
        """The array variables that every path into a join assigns (`if c:
        x = a else: x = b`) but that had no value before it: they join too
        (the first list), unless their types differ (the second, a dict of
        their two types). One that only some paths assign stays unassigned
        after the join."""
        joined, unjoined = [], {}
        for n in ends[0] if ends else ():
            if n in names or _holds_array(before.get(n)):
                continue
            if all(n in e and _holds_array(e[n]) for e in ends):
                types = list(dict.fromkeys(e[n].t for e in ends))
                if len(types) == 1:
                    joined.append(n)
                else:
                    unjoined[n] = types[:2]
        return joined, unjoined

    def _loop(self, node, head_fn, body_fn, step_fn, extra=()):
        f = self.f
        names = self._merge_names(node.body + node.orelse) + list(extra)
        names = list(dict.fromkeys(names))
        for n in names:
            if n not in self.vars:
                self.vars[n] = Var(self.var_types[n], bound=None)
        types = self._merge_types(names)
        head, body, cont, after = f.new_block(*types), f.new_block(), f.new_block(*types), f.new_block(*types)
        # the loop's else runs when the condition ends it (not after a break)
        done = f.new_block(*types) if node.orelse else after
        f.br(head, *self._merge_values(names, node))
        f.set_block(head)
        self._bind_merged(names, head.args)
        for n in _assigned(node.body + node.orelse):
            if _holds_record(self.vars.get(n)):  # the previous iteration's or the one before the loop
                self.vars[n] = Var(self.vars[n].t, bound=Unjoined(None))
        at_head = dict(self.vars)
        arrays = {n: self.vars[n].t for n in names if _holds_array(self.vars[n])}
        cond = head_fn()
        self.at(node)
        if cond.v is None:
            if cond.const:
                f.br(body)
            else:
                f.br(done, *self._merge_values(names, node))
        else:
            f.cond_br(cond.v, body, done, else_args=self._merge_values(names, node))
        f.set_block(body)
        self.dead = False
        self.loops.append((cont, after, names, arrays))
        body_fn()
        self.loops.pop()
        if not f.terminated:
            f.br(cont, *self._merge_values(names, node, arrays))
        f.set_block(cont)
        self.vars = dict(at_head)
        self._bind_merged(names, cont.args)
        self.dead = False
        step_fn()
        self.at(node)
        f.br(head, *self._merge_values(names, node, arrays))
        if node.orelse:
            f.set_block(done)
            self.vars = dict(at_head)
            self._bind_merged(names, done.args)
            self.dead = False
            self.block(node.orelse)
            if not f.terminated:
                self.at(node)
                f.br(after, *self._merge_values(names, node, arrays))
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
            lowered = self._lower_for(s)
            if lowered is not None:
                self.s_For(lowered)
                return
            itv = self.expr(it)
            if isinstance(itv, TypedValue) and itv.items is not None:  # a tuple: unrolled
                jump = _jumps(s.body)
                if jump is not None:
                    if itv.items and isinstance(itv.t, T.UniTuple) and _is_num(itv.t.items[0]):
                        self.s_For(self._lower_for(s, force=True))  # a loop over an index
                        return
                    raise self.err(
                        jump,
                        f"'{'break' if isinstance(jump, ast.Break) else 'continue'}' in a loop over a "
                        f"{itv.t} (unrolled: its items differ in type) is not supported in pydev.numba",
                    )
                # items of several types (literal_unroll), or of another type than the target
                # variable already has (a second loop reusing its name): one variable per item,
                # and the target is unbound after the loop (reading it then is an error)
                mixed = isinstance(s.target, ast.Name) and (
                    len({str(i.t) for i in itv.items}) > 1
                    or any(self.var_types.get(s.target.id, i.t) != i.t for i in itv.items)
                )
                for k, item in enumerate(itv.items):
                    target, body = s.target, s.body
                    if mixed:
                        target, body = _renamed(s.target, s.body, f"{s.target.id}.unroll{id(s)}.{k}")
                    self.store(target, item, s)
                    self.block(body)
                if mixed:
                    self.vars.pop(s.target.id, None)
                self.block(s.orelse)  # no break: the else always runs
                return
            raise self.err(
                it,
                "pydev.numba loops iterate over range(...), an array, zip(...), enumerate(...) or a tuple, "
                f"not {itv.t if isinstance(itv, TypedValue) else _describe(itv.obj)}",
            )
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

    def _hidden(self, value, node, stmts):
        """A name for a value computed once before a lowered loop."""
        self.nloop = getattr(self, "nloop", 0) + 1
        name = f".iter{self.nloop}"
        self.store(ast.Name(name, ast.Store()), value, node)
        return ast.Name(name, ast.Load())

    def _iterable(self, node, stmts):
        """(length, item) for an iterable in a lowered loop: `length` an AST
        expression, `item(i)` the AST of its i-th item."""
        if isinstance(node, ast.Call):
            fn = self.expr(node.func)
            obj = fn.obj if isinstance(fn, CompileTimeValue) else None
            if obj is zip:
                if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
                    raise self.err(node, "zip() takes positional iterables in pydev.numba")
                if not node.args:
                    return ast.Constant(0), lambda i: ast.Tuple([], ast.Load())
                parts = [self._iterable(a, stmts) for a in node.args]
                n = parts[0][0]
                if len(parts) > 1:
                    n = ast.Call(ast.Name("min", ast.Load()), [p[0] for p in parts], [])
                return n, lambda i: ast.Tuple([p[1](i) for p in parts], ast.Load())
            if obj is enumerate:
                args = list(node.args)
                kw = {k.arg: k.value for k in node.keywords}
                if set(kw) - {"start"} or not 1 <= len(args) + len(kw) <= 2 or not args:
                    raise self.err(node, "enumerate() takes an iterable and a start")
                start = args[1] if len(args) == 2 else kw.get("start", ast.copy_location(ast.Constant(0), node))
                start_v = self.expr(start)
                if isinstance(start_v, CompileTimeValue) or not (start_v.t.is_int or isinstance(start_v.t, T.Boolean)):
                    raise self.err(start, "enumerate()'s start must be an integer")
                start_n = self._hidden(self.cast(start_v, T.int64, start), start, stmts)
                n, item = self._iterable(args[0], stmts)
                return n, lambda i: ast.Tuple([ast.BinOp(i, ast.Add(), start_n), item(i)], ast.Load())
            if obj is range:
                if node.keywords or not 1 <= len(node.args) <= 3:
                    raise self.err(node, "range() takes 1 to 3 positional arguments")
                args = list(node.args)
                if len(args) == 1:
                    args = [ast.copy_location(ast.Constant(0), node)] + args
                step = self.expr(args[2]) if len(args) == 3 else self.lit(1, node)
                if not (
                    isinstance(step, TypedValue) and step.v is None and isinstance(step.const, int) and step.const != 0
                ):
                    raise self.err(
                        node, "a range() inside zip() or enumerate() takes a constant nonzero step in pydev.numba"
                    )
                lo = self._hidden(self.expr(args[0]), args[0], stmts)
                hi = self._hidden(self.expr(args[1]), args[1], stmts)
                k = step.const
                n = ast.Call(
                    ast.Name("max", ast.Load()),
                    [
                        ast.Constant(0),
                        ast.BinOp(
                            # len(range(lo, hi, k)), Python's floor division: k - 1 rounds up for k > 0, k + 1 for k < 0
                            ast.BinOp(ast.BinOp(hi, ast.Sub(), lo), ast.Add(), ast.Constant(k - 1 if k > 0 else k + 1)),
                            ast.FloorDiv(),
                            ast.Constant(k),
                        ),
                    ],
                    [],
                )
                return n, lambda i: ast.BinOp(lo, ast.Add(), ast.BinOp(i, ast.Mult(), ast.Constant(k)))
        v = self.expr(node)
        if isinstance(v, TypedValue) and isinstance(v.t, T.Array) and v.items is None:
            if v.t.ndim == 0:
                raise self.err(node, "a 0-d array is not iterable")
            arr = self._hidden(v, node, stmts)
            return ast.Call(ast.Name("len", ast.Load()), [arr], []), lambda i: ast.Subscript(arr, i, ast.Load())
        if isinstance(v, TypedValue) and v.items is not None:
            arr = self._hidden(v, node, stmts)
            return ast.Constant(len(v.items)), lambda i: ast.Subscript(arr, i, ast.Load())
        raise self.err(
            node,
            "zip() and enumerate() in pydev.numba take arrays, range(...), tuples, zip(...) or enumerate(...), "
            f"not {v.t if isinstance(v, TypedValue) else _describe(v.obj)}",
        )

    def _lower_for(self, s, force=False):
        """`for x in array`, zip(...), enumerate(...): a range loop over an
        index, its items assigned to the target (None: not such a loop)."""
        it = s.iter
        if force:
            pass
        elif isinstance(it, ast.Call):
            fn = self.expr(it.func)
            if not (isinstance(fn, CompileTimeValue) and fn.obj in (zip, enumerate)):
                return None
        else:
            v = self.expr(it)
            if not (isinstance(v, TypedValue) and isinstance(v.t, T.Array) and v.items is None):
                return None
        n, item = self._iterable(it, [])
        self.nloop = getattr(self, "nloop", 0) + 1
        idx = f".idx{self.nloop}"
        load = ast.Name(idx, ast.Load())
        assign = ast.Assign([s.target], item(load))
        loop = ast.For(
            ast.Name(idx, ast.Store()),
            ast.Call(ast.Name("range", ast.Load()), [n], []),
            [assign] + s.body,
            s.orelse,
        )
        for m in ast.walk(loop):
            if not hasattr(m, "lineno") or m is loop or m is assign:
                ast.copy_location(m, it if m is not assign else s.target)
            if isinstance(m, ast.Name) and m.id in ("range", "len", "min", "max"):
                m.id = {"range": ".range", "len": ".len", "min": ".min", "max": ".max"}[m.id]
        ast.copy_location(loop, s)
        return loop

    def s_Break(self, s):
        if not self.loops:
            raise self.err(s, "'break' outside a loop")
        self.f.br(self.loops[-1][1], *self._merge_values(self.loops[-1][2], s, self.loops[-1][3]))
        self.f.set_block(self.f.new_block())
        self.dead = True

    def s_Continue(self, s):
        if not self.loops:
            raise self.err(s, "'continue' outside a loop")
        self.f.br(self.loops[-1][0], *self._merge_values(self.loops[-1][2], s, self.loops[-1][3]))
        self.f.set_block(self.f.new_block())
        self.dead = True


def _jumps(stmts):
    """The first break or continue of these statements' own loop (not of loops inside them)."""
    for st in stmts:
        if isinstance(st, (ast.Break, ast.Continue)):
            return st
        if isinstance(st, (ast.For, ast.While)):
            found = _jumps(st.orelse)
        elif isinstance(st, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            found = None
        else:
            found = _jumps([c for c in ast.iter_child_nodes(st) if isinstance(c, ast.stmt)])
        if found is not None:
            return found
    return None


def _assigned(stmts):
    out = []
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.append(n.id)
    return list(dict.fromkeys(out))


def _renamed(target, body, name):
    """The loop target and a copy of the body with the target's name replaced by `name`."""
    old = target.id

    class _Rename(ast.NodeTransformer):
        def visit_Name(self, n):
            return ast.copy_location(ast.Name(name, n.ctx), n) if n.id == old else n

    new_body = [_Rename().visit(copy.deepcopy(st)) for st in body]
    return ast.copy_location(ast.Name(name, ast.Store()), target), new_body
