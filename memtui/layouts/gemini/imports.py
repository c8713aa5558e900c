"""Gemini CLI's `@path` imports, inlined as its tree format does (google-gemini/gemini-cli
`packages/core/src/utils/memoryImportProcessor.ts`, processImports, the default
`context.importFormat`): the same scan, the same checks in the same order, the same
comments around each import, so `context` gives the text the model gets.

- An import is `@` at the text's start or after a space, tab or line break, up to the
  next one, whose path starts with `.`, `/` or an ASCII letter (findImports).
- One inside a code span or block (a run of backticks to the same run: findCodeRegions)
  stays as written.
- The path must resolve (links followed) inside the project root: the nearest folder
  above the importing context file that holds a boundary marker (`.git`, settings
  `context.memoryBoundaryMarkers`), else that file's own folder (findProjectRoot's
  fallback): `<!-- Import failed: P - Path traversal attempt -->`. A URL likewise.
- A file already on this import chain: `<!-- File already processed: P -->` (the
  context file itself is not on it: it is inlined once into itself).
- Depth: the context file is depth 0; the imports of a file at depth 5 stay as written
  (maxDepth 5).
- A file that cannot be read: `<!-- Import failed: P - <Node's error message> -->`.

memtui reads nothing outside the store (SPEC §0): an import Gemini would read there is
named in the text by a comment of memtui's own, and a finding says so. Nor does it open
what is no regular file (a FIFO would hang Gemini CLI's read, and ours).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from memtui.engine.paths import is_inside
from memtui.engine.textfile import TextFile, read_file
from memtui.i18n import Msg, msg

MAX_DEPTH = 5  # processImports' importState.maxDepth
CODE = re.compile(r"(`+)([\s\S]*?)\1")  # findCodeRegions
URL = re.compile(r"^(file|https?)://")  # validateImportPath
SPACE = " \t\n\r"  # isWhitespace


@dataclass(frozen=True, slots=True)
class Problem:
    code: str  # one of rules.CODES, or the shared path-escape / unreadable
    file: str  # from the store root: the file the import is in (or the target, unreadable)
    line: int | None
    message: str


@dataclass(slots=True)
class Importer:
    """Inlines the imports of one store's context files, reading through `read`."""

    root: str  # the store root, real
    limit: int  # the store's max file size
    # A store file's text, or why it cannot be read (the reader said so); None: the store's
    # listing does not hold it (read here, as safely).
    lookup: Callable[[str], TextFile | str | None]
    markers: tuple[str, ...] = (".git",)
    problems: list[Problem] = field(default_factory=list)
    texts: dict[str, TextFile | str] = field(default_factory=dict)  # abs path -> text or why
    read_files: set[str] = field(default_factory=set)  # store paths inlined somewhere

    def inline(self, text: str, path: str) -> str:
        """The context file at absolute `path` (its text as Node reads it) with its
        imports inlined."""
        base = os.path.dirname(path)
        return self._process(text, base, self.project_root(base), frozenset(), 0, path)

    def project_root(self, start: str) -> str:
        """findProjectRoot: the nearest folder from `start` up holding a marker, else
        `start` (only whether the marker exists is asked, above the root too)."""
        here = os.path.abspath(start)
        if not self.markers:
            return here
        while True:
            if self.markers_at(here):
                return here
            up = os.path.dirname(here)
            if up == here:
                return os.path.abspath(start)
            here = up

    def markers_at(self, folder: str) -> bool:
        return any(os.path.lexists(os.path.join(folder, m)) for m in self.markers)

    def _process(
        self, text: str, base: str, proot: str, chain: frozenset[str], depth: int, path: str
    ) -> str:
        if depth >= MAX_DEPTH:
            for imp in find_imports(text):
                if not in_code(imp[0], code_regions(text)):
                    self._problem("import-depth", path, text, imp[0], imp[2], _depth_said(imp[2]))
                    break
            return text
        regions = code_regions(text)
        out, last = [], 0
        for start, end, ref in find_imports(text):
            out.append(text[last:start])
            last = end
            if in_code(start, regions):
                out.append(f"@{ref}")
                continue
            if not valid(ref, base, proot):
                out.append(f"<!-- Import failed: {ref} - Path traversal attempt -->")
                self._refused(path, text, start, ref, proot)
                continue
            full = os.path.normpath(os.path.join(base, ref))
            if full in chain:
                out.append(f"<!-- File already processed: {ref} -->")
                said = msg(
                    "@{ref} imports a file already on its import chain (a cycle): Gemini CLI "
                    "inlines it once",
                    ref=ref,
                )
                self._problem("import-cycle", path, text, start, ref, said)
                continue
            got, failed = self._read(full, path, text, start, ref)
            if failed:
                out.append(f"<!-- Import failed: {ref} - {failed} -->")
                continue
            inner = self._process(
                got, os.path.dirname(full), proot, chain | {full}, depth + 1, full
            )
            out.append(
                f"<!-- Imported from: {ref} -->\n{inner}\n<!-- End of import from: {ref} -->"
            )
        out.append(text[last:])
        return "".join(out)

    def _read(self, full: str, path: str, text: str, at: int, ref: str) -> tuple[str, str]:
        """(the imported file's text as Node's readFile gives it, a BOM kept, "") or
        ("", the failure comment's message)."""
        rel = self.rel(full)
        real = os.path.realpath(full)
        if rel is None or not is_inside(self.root, real):
            said = msg(
                "@{ref} imports {path}, outside this store: Gemini CLI inlines it, memtui "
                "does not read it (nothing outside the store is read)",
                ref=ref,
                path=full,
            )
            self._problem("import-outside", path, text, at, ref, said)
            return "", "memtui: not read, outside the store"
        if not os.path.lexists(full):
            self._problem(
                "import-missing", path, text, at, ref,
                msg("@{ref} imports {file}, which does not exist: the model is given an "
                    "\"Import failed\" comment in its place", ref=ref, file=rel),
            )  # fmt: skip
            return "", f"ENOENT: no such file or directory, access '{full}'"
        got = self.texts.get(full) or self.lookup(rel)
        if got is None:
            read = read_file(full, rel, self.limit)
            got = self.texts[full] = read if isinstance(read, TextFile) else read.reason
            if isinstance(got, str):
                who = self.rel(path) or path
                self.problems.append(
                    Problem("unreadable", rel, None, msg(
                        "{file} (imported by {by}) is {reason}; never shown as text, never "
                        "written", file=rel, by=who, reason=got))
                )  # fmt: skip
        if isinstance(got, str):
            if got.startswith("a folder"):
                return "", "EISDIR: illegal operation on a directory, read"
            return "", f"memtui: not read, {got}"
        self.read_files.add(rel)
        return ("\ufeff" if got.bom else "") + got.text, ""

    def _refused(self, path: str, text: str, at: int, ref: str, proot: str) -> None:
        if URL.match(ref):
            said = msg(
                "@{ref} is a URL; Gemini CLI refuses the import: the model is given "
                '"Import failed: … Path traversal attempt" in its place',
                ref=ref,
            )
            self._problem("import-refused", path, text, at, ref, said)
            return
        if self.markers_at(proot):
            said = msg(
                "@{ref} leads outside the project root, {root}: Gemini CLI refuses the "
                'import: the model is given "Import failed: … Path traversal attempt" in '
                "its place",
                ref=ref,
                root=proot,
            )
        else:
            said = msg(
                "@{ref} leads outside its file's folder (no .git at or above it), {root}: "
                'Gemini CLI refuses the import: the model is given "Import failed: … Path '
                'traversal attempt" in its place',
                ref=ref,
                root=proot,
            )
        self._problem("path-escape", path, text, at, ref, said)

    def _problem(self, code: str, path: str, text: str, at: int, ref: str, message: str) -> None:
        rel = self.rel(path)
        if rel is None:
            return
        line = text.count("\n", 0, at) + 1
        self.problems.append(Problem(code, rel, line, message))

    def rel(self, full: str) -> str | None:
        """`full` from the store root, or None when it is not below it (by its path)."""
        if not is_inside(self.root, full) or full == self.root:
            return None
        return os.path.relpath(full, self.root).replace(os.sep, "/")


def _depth_said(ref: str) -> Msg:
    return msg(
        "@{ref} is {depth} imports deep: Gemini CLI stops there and gives the model "
        "the line as written",
        ref=ref,
        depth=MAX_DEPTH,
    )


def find_imports(text: str) -> list[tuple[int, int, str]]:
    """findImports: (start, end, path) of each `@path`."""
    found, i, n = [], 0, len(text)
    while i < n:
        i = text.find("@", i)
        if i < 0:
            break
        if i > 0 and text[i - 1] not in SPACE:
            i += 1
            continue
        j = i + 1
        while j < n and text[j] not in SPACE:
            j += 1
        ref = text[i + 1 : j]
        if ref and (ref[0] in "./" or ("a" <= ref[0].lower() <= "z" and ref[0].isascii())):
            found.append((i, j, ref))
        i = j + 1
    return found


def code_regions(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in CODE.finditer(text)]


def in_code(at: int, regions: list[tuple[int, int]]) -> bool:
    return any(s <= at < e for s, e in regions)


def valid(ref: str, base: str, proot: str) -> bool:
    """validateImportPath: no URL; the path, links followed, inside the project root."""
    if URL.match(ref):
        return False
    from urllib.parse import unquote

    try:
        resolved = os.path.realpath(os.path.join(base, unquote(ref)))
    except (OSError, ValueError):
        return False
    allowed = os.path.realpath(proot)
    return resolved == allowed or is_inside(allowed, resolved)
