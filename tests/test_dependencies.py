"""No declared package stays unused: every requirement `pip show memtui` lists (and the
web extra's) is imported somewhere in memtui/, and the installed metadata is this
checkout's pyproject.toml."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib.metadata import packages_distributions, requires

from tests.helpers import REPO


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def imported_modules() -> set[str]:
    """Top-level names of every import in memtui/, in-function ones included."""
    found: set[str] = set()
    for path in (REPO / "memtui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return found


def distributions_imported() -> set[str]:
    by_module = packages_distributions()
    return {_name(dist) for module in imported_modules() for dist in by_module.get(module, ())}


def declared(extra: str | None = None) -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    reqs = project["dependencies"] if extra is None else project["optional-dependencies"][extra]
    return {_name(r) for r in reqs}


def test_the_installed_metadata_is_this_checkouts():
    installed = {_name(r) for r in requires("memtui") or () if "extra ==" not in r}
    assert installed == declared(), "reinstall: pip install -e '.[test]'"


def test_every_dependency_is_imported():
    assert declared() - distributions_imported() == set()


def test_the_web_extra_is_imported():
    assert declared("web") - distributions_imported() == set()
