"""The user's source of a function: its lines and `loc(file:line:col)`
locations (Src), and errors shown at their place in it (NumbaError,
render)."""

import ast
import inspect
import linecache

from .. import _exec_source, ir

_exec_source.install()


class NumbaError(Exception):
    """A compile error at `node`; `kind`: the pydev.numba.core.errors class
    the dispatcher raises it as (None: TypingError)."""

    def __init__(self, node, message, help=None, kind=None):
        super().__init__(message)
        self.node, self.message, self.help, self.kind = node, message, help, kind


class Src:
    """A function's source: the AST of its def and where its lines are."""

    def __init__(self, fn):
        code = fn.__code__
        self.file = code.co_filename
        self.lines = None  # the text's lines when it came from a string (linecache has none)
        # Fast path: the def's block from linecache by indentation (no tokenizing);
        # inspect.getsourcelines when that does not parse.
        tree = None
        all_lines = linecache.getlines(self.file, fn.__globals__)
        if not all_lines:
            text = _exec_source.source_of(code)
            if text is not None:
                all_lines = self.lines = text.splitlines(True)
        start = code.co_firstlineno
        if fn.__name__ == "<lambda>":
            self.node = self._lambda(all_lines, code)
            return
        if all_lines and 0 < start <= len(all_lines):
            lines = _def_block(all_lines, start - 1)
            tree = self._parse(lines, start, code.co_name)
        if tree is None:
            try:
                lines, start = inspect.getsourcelines(fn)
            except (OSError, TypeError):
                raise OSError(
                    f"cannot find the source of {fn.__qualname__} ({self.file}): no file or linecache entry holds it, "
                    "and no text compiled from a string since pydev.numba was imported defines it"
                ) from None
            tree = self._parse(lines, max(start, 1), code.co_name)
            if tree is None:
                raise OSError(f"cannot find the def of {fn.__qualname__} in its source")
        self.node = tree

    def _parse(self, lines, start, name):
        if not lines:
            return None
        first = lines[0]
        self.indent = len(first) - len(first.lstrip())
        # A blank line shorter than the indent stays a line (the AST's line
        # numbers index the file from `start`).
        text = "".join(
            "\n" if not ln.strip() else ln[self.indent :] if ln[: self.indent].strip() == "" else ln.lstrip()
            for ln in lines
        )
        self.start = start
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return None
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
        return defs[0] if defs else None

    def _lambda(self, all_lines, code):
        """A lambda as the def `def <lambda>(args): return body`: the lambda
        of its line with its parameter names, in the file's own AST."""
        self.indent, self.start = 0, 1
        try:
            tree = ast.parse("".join(all_lines))
        except SyntaxError:
            tree = None
        params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        found = [
            n
            for n in (ast.walk(tree) if tree is not None else ())
            if isinstance(n, ast.Lambda)
            and n.lineno == code.co_firstlineno
            and tuple(a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs) == params
        ]
        if len(found) != 1:
            why = "no lambda with its parameters" if not found else "several lambdas with its parameters"
            raise OSError(f"cannot find the source of a lambda ({why} on line {code.co_firstlineno} of {self.file})")
        lam = found[0]
        ret = ast.copy_location(ast.Return(lam.body), lam.body)
        fdef = ast.FunctionDef("<lambda>", lam.args, [ret], [], None, type_params=[])
        return ast.fix_missing_locations(ast.copy_location(fdef, lam))

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
    lines = getattr(src, "lines", None)
    if lines is not None:
        text = lines[line - 1].rstrip("\n") if 0 < line <= len(lines) else ""
    else:
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
