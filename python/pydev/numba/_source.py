"""The user's source of a function: its lines and `loc(file:line:col)`
locations (Src), and errors shown at their place in it (NumbaError,
render)."""

import ast
import inspect
import linecache

from .. import ir


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
        if fn.__name__ == "<lambda>":
            self.node = self._lambda(fn, all_lines)
            return
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

    def _lambda(self, fn, all_lines):
        """A lambda as the def it stands for (`def <lambda>(args): return
        body`), found in its whole file by line and parameter names."""
        code = fn.__code__
        self.start, self.indent = 1, 0
        try:
            tree = ast.parse("".join(all_lines))
        except SyntaxError:
            tree = None
        names = list(code.co_varnames[: code.co_argcount])
        found = [
            n
            for n in (ast.walk(tree) if tree is not None else ())
            if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno and [a.arg for a in n.args.args] == names
        ]
        if len(found) != 1:
            raise OSError(f"cannot find the lambda of {fn.__qualname__} in its source")
        lam = found[0]
        ret = ast.copy_location(ast.Return(value=lam.body), lam.body)
        node = ast.FunctionDef(name="<lambda>", args=lam.args, body=[ret], decorator_list=[], returns=None)
        return ast.fix_missing_locations(ast.copy_location(node, lam))

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
