# RUN: python3 %s %S/../conformance/MATRIX.md %S/../conformance/cuda-device-spec.md
"""Checks test/conformance/MATRIX.md against the spec and the test tree.

    python3 test/tools/conformance-matrix.py MATRIX.md cuda-device-spec.md

The matrix is one markdown table with the columns in COLUMNS, one row per
entity or requirement of the spec, in the spec's order. It fails (exit 1,
one line per problem, naming the row) when

- a row's `spec` cell is not a heading of the spec, or rows leave the
  spec's order;
- a status cell does not start with one of STATUSES (`status` or
  `status: detail`);
- a cell names a file (`dir/file.py`, `.mlir`, `.rs`, `.md`; globs allowed)
  that exists neither under test/ nor under the repository root;
- `path (a, b)` names identifiers that do not occur in that file (for
  gpu/run.py: in test/gpu/kernels.py), or a `GPU (H100)` cell
  (`PASS: k1, k2`) names a kernel that test/gpu/kernels.py does not define;
- a name the spec defines (headings, tables of types, memory orders and
  scopes, `device.xxx` in its text and code) has no row whose
  `entity / requirement` cell mentions it.

It prints a one-line summary: rows, and per column the count of `ok`
(`PASS` for the GPU and host-target columns).
"""
import glob
import os
import re
import sys

COLUMNS = ["spec", "entity / requirement", "frontend", "cuda lowering", "ptxas sm_70/80/90", "GPU (H100)",
           "host target", "host Python", "notes"]
STATUS_COLUMNS = COLUMNS[2:8]
STATUSES = ["ok", "partial", "missing", "n/a", "pending", "not run", "PASS", "FAIL"]
STATUS_RE = re.compile(r"^(%s)(?::\s*(\S.*))?$" % "|".join(re.escape(s) for s in STATUSES))
PATH_RE = re.compile(r"(?<![\w/.*-])((?:[\w.*-]+/)+[\w.*-]+\.(?:py|mlir|rs|md))(?:\s+\(([^()]*)\))?")
IDENT_RE = re.compile(r"^[A-Za-z_][\w-]*$")


def split_row(line):
    cells = re.split(r"(?<!\\)\|", line.strip())
    if cells and cells[0] == "":
        cells = cells[1:]
    if cells and cells[-1] == "":
        cells = cells[:-1]
    return [c.strip().replace("\\|", "|") for c in cells]


def read_table(path):
    """The first table whose header is COLUMNS: (header, [(line number, cells)])."""
    lines = open(path, encoding="utf-8").read().splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("|") and split_row(line)[:2] == COLUMNS[:2]:
            header = split_row(line)
            rows = []
            for j in range(i + 2, len(lines)):
                if not lines[j].lstrip().startswith("|"):
                    break
                rows.append((j + 1, split_row(lines[j])))
            return header, rows
    return None, []


def normalise_title(text):
    return re.sub(r"\s+", " ", text.replace("`", "").replace("*", "")).strip()


def spec_headings(spec_text):
    """[(normalised title, position)] of every heading, in order."""
    out = []
    in_code = False
    for n, line in enumerate(spec_text.splitlines()):
        if line.startswith("```"):
            in_code = not in_code
            continue
        m = None if in_code else re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if m:
            out.append((normalise_title(m.group(2)), n))
    return out


def spec_names(spec_text):
    """The names the spec defines, as they must appear in an entity cell."""
    names = set()
    lines = spec_text.splitlines()
    in_code = False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        heading = re.match(r"^#{1,6}\s+(.*)$", line)
        pseudo = re.match(r"^(`[^`]+`)\s+(?:Function|Class|Object|Objects|Attribute)\s*$", line.strip())
        text = heading.group(1) if heading else (pseudo.group(1) if pseudo else None)
        if text is not None:
            for seg in re.findall(r"`([^`]+)`", text):
                m = re.match(r"@?([A-Za-z_][\w.]*)", seg)
                if m:
                    names.add(m.group(1))
        cell = re.match(r"^\|\s*`('?)([A-Za-z_]\w*)\1`\s*\|", line)
        if cell:
            names.add(("'%s'" % cell.group(2)) if cell.group(1) else cell.group(2))
    for m in re.finditer(r"\bdevice\.([A-Za-z_]\w*)", spec_text):
        names.add(m.group(1))
    return sorted(names)


def mentions(text, name):
    if name.startswith("'"):
        return name in text
    return re.search(r"(?<!\w)%s(?!\w)" % re.escape(name), text) is not None


def kernel_names(test_dir):
    path = os.path.join(test_dir, "gpu", "kernels.py")
    return set(re.findall(r"@device\.kernel\s*\ndef\s+(\w+)\s*\(", open(path, encoding="utf-8").read()))


def resolve(ref, test_dir, root):
    for base in (test_dir, root):
        hits = sorted(p for p in glob.glob(os.path.join(base, ref)) if os.path.isfile(p))
        if hits:
            return hits
    return []


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    matrix, spec = argv[1], argv[2]
    test_dir = os.path.dirname(os.path.dirname(os.path.abspath(matrix)))
    root = os.path.dirname(test_dir)
    spec_text = open(spec, encoding="utf-8").read()
    # The spec is snapshotted beside the matrix so that a clone checks alone;
    # say so when the shared spec beside the checkout has moved on.
    shared = os.path.join(os.path.dirname(root), "shared", "spec", "cuda-device-spec.md")
    if os.path.exists(shared) and open(shared, encoding="utf-8").read() != spec_text:
        print(f"note: {shared} differs from the snapshot {spec}: update the snapshot and the matrix", file=sys.stderr)
    errors = []

    header, rows = read_table(matrix)
    if header is None:
        print(f"{matrix}: no table with the columns {' | '.join(COLUMNS)}", file=sys.stderr)
        return 1
    if header != COLUMNS:
        errors.append(f"{matrix}: the columns are {header}, expected {COLUMNS}")
    if not rows:
        errors.append(f"{matrix}: the table has no rows")

    headings = spec_headings(spec_text)
    kernels = kernel_names(test_dir)
    file_cache = {}

    def file_text(path):
        if path not in file_cache:
            file_cache[path] = open(path, encoding="utf-8", errors="replace").read()
        return file_cache[path]

    counts = {c: 0 for c in STATUS_COLUMNS}
    last_pos = (-1, None)
    for line_no, cells in rows:
        where = f"{os.path.basename(matrix)}:{line_no}"
        if len(cells) != len(COLUMNS):
            errors.append(f"{where}: {len(cells)} cells, expected {len(COLUMNS)}: {' | '.join(cells)[:100]}")
            continue
        row = dict(zip(COLUMNS, cells))
        name = f"{where} [{row['spec']} / {row['entity / requirement'][:60]}]"

        # The spec column is a heading of the spec; rows follow the spec's order.
        title = normalise_title(row["spec"])
        positions = [pos for t, pos in headings if t == title]
        if not positions:
            errors.append(f"{name}: spec section '{row['spec']}' is not a heading of the spec")
        else:
            later = [p for p in positions if p >= last_pos[0]]
            if not later:
                errors.append(f"{name}: out of the spec's order: section '{row['spec']}' comes before "
                              f"'{last_pos[1]}' of the row above")
            pos = later[0] if later else positions[0]
            last_pos = (pos, row["spec"])

        # Status words.
        for col in STATUS_COLUMNS:
            m = STATUS_RE.match(row[col])
            if not m:
                errors.append(f"{name}: column '{col}': '{row[col]}' does not start with one of {', '.join(STATUSES)}")
                continue
            status, detail = m.group(1), m.group(2)
            if status in ("ok", "PASS"):
                counts[col] += 1
            if col == "GPU (H100)" and status in ("PASS", "FAIL", "not run") and detail:
                for k in re.split(r"[,\s]+", detail.strip()):
                    if k and k not in kernels:
                        errors.append(f"{name}: GPU kernel '{k}' is not a kernel of test/gpu/kernels.py")

        # File references, and the identifiers named after them.
        for col in COLUMNS[2:]:
            for m in PATH_RE.finditer(row[col]):
                ref, idents = m.group(1), m.group(2)
                hits = resolve(ref, test_dir, root)
                if not hits:
                    errors.append(f"{name}: column '{col}': '{ref}' exists neither under test/ nor in the repository")
                    continue
                if idents is None:
                    continue
                items = [s.strip() for s in idents.split(",")]
                if not all(IDENT_RE.match(s) for s in items):
                    continue
                if ref.endswith("gpu/run.py"):
                    hits = hits + [os.path.join(test_dir, "gpu", "kernels.py")]
                texts = "\n".join(file_text(h) for h in hits)
                for s in items:
                    if s not in texts:
                        errors.append(f"{name}: column '{col}': '{s}' does not occur in {ref}")

    # Every name the spec defines has a row.
    entity_cells = [dict(zip(COLUMNS, cells))["entity / requirement"] for _, cells in rows if len(cells) == len(COLUMNS)]
    names = spec_names(spec_text)
    for n in names:
        if not any(mentions(cell, n) for cell in entity_cells):
            errors.append(f"{os.path.basename(matrix)}: the spec's '{n}' has no row (no entity cell mentions it)")

    for e in errors:
        print(e, file=sys.stderr)
    summary = ", ".join(f"{c} {counts[c]}" for c in STATUS_COLUMNS)
    print(f"conformance matrix: {len(rows)} rows, {len(names)} spec names checked; "
          f"ok/PASS per column: {summary}; {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
