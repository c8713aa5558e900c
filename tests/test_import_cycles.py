"""No import cycle in memtui/engine with the layout packages, nor in memtui/ui, counting
the imports inside functions (a late import is still a dependency: it hides a cycle
from Python, not from a reader) and leaving out `if TYPE_CHECKING:` ones. An AST walk
of the source: nothing is imported."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "memtui"

# Cycles someone is removing, by the modules in them, and who: the integrator removes
# an allowance once its cycle is gone.
ALLOWED: dict[frozenset[str], str] = {}  # a cycle allowed for now, with who removes it


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(REPO).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, but those under `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            for other in node.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _imports(node)


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def edges(known: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the memtui modules it imports (a name imported from a package is the
    submodule when there is one, else the package)."""

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        out: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out.update(r for a in node.names if (r := resolve(a.name)))
                continue
            base = node.module or ""
            if node.level:
                package = _package_of(name, path)
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                got = resolve(f"{base}.{alias.name}") or resolve(base)
                if got:
                    out.add(got)
        out.discard(name)
        graph[name] = out
    return graph


def cycles(graph: dict[str, set[str]], within: tuple[str, ...]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module among those `within`."""
    chosen = {m for m in graph if m.startswith(within)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v] & chosen):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for v in sorted(chosen):
        if v not in index:
            visit(v)
    return found


def _said(groups: list[frozenset[str]], graph: dict[str, set[str]]) -> list[str]:
    return [
        "; ".join(f"{m} -> {', '.join(sorted(graph[m] & g))}" for m in sorted(g)) for g in groups
    ]


def _unallowed(groups: list[frozenset[str]]) -> list[frozenset[str]]:
    return [g for g in groups if not any(g <= allowed for allowed in ALLOWED)]


def test_the_engine_and_the_layouts_import_no_cycle() -> None:
    graph = edges(modules())
    found = _unallowed(cycles(graph, ("memtui.engine", "memtui.layouts")))
    assert found == [], _said(found, graph)


def test_the_app_imports_no_cycle() -> None:
    graph = edges(modules())
    found = cycles(graph, ("memtui.ui",))
    assert found == [], _said(found, graph)


def test_a_late_import_is_counted_and_a_type_checking_one_is_not() -> None:
    code = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from memtui.b import x\n"
        "def f():\n    from memtui.c import y\n"
    )
    tree = ast.parse(code)
    got = [n.module for n in _imports(tree) if isinstance(n, ast.ImportFrom)]
    assert got == ["typing", "memtui.c"]
    graph = {"memtui.a": {"memtui.b"}, "memtui.b": {"memtui.a"}, "memtui.c": set()}
    assert cycles(graph, ("memtui",)) == [frozenset({"memtui.a", "memtui.b"})]
