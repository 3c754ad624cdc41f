# RUN: python3 %s %S/../../dialect/pydev.td %S
"""Every pydev op has a round-trip test, and every op with a verifier a
negative one.

Reads each op definition of pydev.td (`def X : Pydev_Op<"mnemonic", ...>`, and
defs through op classes such as `Pydev_BinaryOp<"add", "+">`, whose mnemonic
is the first string argument), then requires `pydev.<mnemonic>` in the code
(not the comments) of some round-trip .mlir file of this directory (one not
named `*-invalid.mlir` whose RUN line does not start with `not`), and, for
ops with `hasVerifier = 1` in their def or one of their classes, of some
`*-invalid.mlir` file. Exits 1 listing what is missing.
"""

import os
import re
import sys


def skip_string(text, i):
    """Index after the string literal starting at text[i] == '"'."""
    i += 1
    while text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def skip_code(text, i):
    """Index after the code block starting at text[i:i+2] == '[{'."""
    end = text.index("}]", i + 2)
    return end + 2


def strip_comments(text):
    """TableGen text without // and /* */ comments (strings and code kept)."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        elif text[i] == '"':
            j = skip_string(text, i)
            out.append(text[i:j])
            i = j
        elif text.startswith("[{", i):
            j = skip_code(text, i)
            out.append(text[i:j])
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse_record(text, i):
    """Parses `Base<args>` or `Base` from i; returns (base, args text, end)."""
    m = re.compile(r"\s*(\w+)").match(text, i)
    base, i = m.group(1), m.end()
    args = ""
    if text[i] == "<":
        depth, start = 0, i
        while True:
            c = text[i]
            if c == '"':
                i = skip_string(text, i)
                continue
            if text.startswith("[{", i):
                i = skip_code(text, i)
                continue
            if c == "<":
                depth += 1
            elif c == ">":
                depth -= 1
                if depth == 0:
                    i += 1
                    break
            i += 1
        args = text[start + 1 : i - 1]
    return base, args, i


def parse_body(text, i):
    """The body `{ ... }` after a record header (empty for `;`); returns (body, end)."""
    while text[i].isspace():
        i += 1
    if text[i] == ";":
        return "", i + 1
    # Further parent classes: `def X : A<...>, B<...> {`.
    while text[i] == ",":
        _, _, i = parse_record(text, i + 1)
        while text[i].isspace():
            i += 1
    if text[i] == ";":
        return "", i + 1
    assert text[i] == "{", f"unexpected {text[i:i + 40]!r}"
    depth, start = 0, i
    while True:
        if text[i] == '"':
            i = skip_string(text, i)
            continue
        if text.startswith("[{", i):
            i = skip_code(text, i)
            continue
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1], i + 1
        i += 1


HAS_VERIFIER = re.compile(r"\blet\s+hasVerifier\s*=\s*1\s*;")


def read_ops(td_path):
    """{mnemonic: has verifier} for every op of the dialect."""
    text = strip_comments(open(td_path).read())
    classes = {}  # name -> (base, has verifier)
    defs = []  # (name, base, args, has verifier)
    header = re.compile(r"\b(class|def)\s+(\w+)\s*(<[^:{;]*>)?\s*:")
    i = 0
    while True:
        m = header.search(text, i)
        if not m:
            break
        kind, name = m.group(1), m.group(2)
        base, args, j = parse_record(text, m.end())
        body, i = parse_body(text, j)
        verifier = bool(HAS_VERIFIER.search(body))
        if kind == "class":
            classes[name] = (base, verifier)
        else:
            defs.append((name, base, args, verifier))

    def op_chain(base):
        """The class chain from base up to Pydev_Op, or None if not an op."""
        chain = []
        while base is not None:
            chain.append(base)
            if base == "Pydev_Op":
                return chain
            base = classes.get(base, (None, False))[0]
        return None

    ops = {}
    for name, base, args, verifier in defs:
        chain = op_chain(base)
        if chain is None:
            continue
        first = re.search(r'"((?:[^"\\]|\\.)*)"', args)
        if not first:
            sys.exit(f"op-coverage: cannot find the mnemonic of {name}")
        verifier = verifier or any(classes.get(c, (None, False))[1] for c in chain)
        mnemonic = first.group(1)
        if mnemonic in ops:
            sys.exit(f"op-coverage: mnemonic '{mnemonic}' is defined twice")
        ops[mnemonic] = verifier
    return ops


def code_of(path):
    """The .mlir file without its // comments (CHECK lines, expected-*)."""
    return "\n".join(line.split("//", 1)[0] for line in open(path).read().splitlines())


RUN_NOT = re.compile(r"//\s*RUN" + r":\s*not\b")  # split so that lit does not read it


def expects_failure(path):
    return any(RUN_NOT.match(line) for line in open(path))


def mentions(code, mnemonic):
    return re.search(r"(?<![\w#!.])pydev\." + re.escape(mnemonic) + r"(?![\w.])", code) is not None


def main():
    td_path, test_dir = sys.argv[1], sys.argv[2]
    ops = read_ops(td_path)
    if len(ops) < 50:
        sys.exit(f"op-coverage: only {len(ops)} ops found in {td_path}: is the parser broken?")
    files = sorted(f for f in os.listdir(test_dir) if f.endswith(".mlir"))
    # Round-trip files: not *-invalid.mlir, and not expected to fail (`not pydev-opt`).
    positive = [code_of(os.path.join(test_dir, f)) for f in files
                if not f.endswith("-invalid.mlir") and not expects_failure(os.path.join(test_dir, f))]
    negative = [code_of(os.path.join(test_dir, f)) for f in files if f.endswith("-invalid.mlir")]
    missing = []
    for mnemonic, verifier in sorted(ops.items()):
        if not any(mentions(code, mnemonic) for code in positive):
            missing.append(f"pydev.{mnemonic}: no round-trip test (a .mlir file not named *-invalid.mlir)")
        if verifier and not any(mentions(code, mnemonic) for code in negative):
            missing.append(f"pydev.{mnemonic}: has a verifier but no *-invalid.mlir test")
    if missing:
        print(f"op-coverage: {len(missing)} gaps in {test_dir}:")
        for line in missing:
            print("  " + line)
        sys.exit(1)
    verified = sum(ops.values())
    print(f"op-coverage: all {len(ops)} pydev ops have round-trip tests; "
          f"all {verified} with verifiers have negative tests")


if __name__ == "__main__":
    main()
