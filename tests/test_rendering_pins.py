"""The snapshots are drawn by exactly the Textual and Rich the test extra pins, and CI
installs that extra the way README.md tells a newcomer to: a new Textual release changes
nothing CI installs until the pins are bumped on purpose (README: Updating snapshots)."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version

import pytest

from tests.helpers import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def pins() -> dict[str, str]:
    """name -> version of every exact (==) pin of the test extra."""
    found = (re.fullmatch(r"([\w.-]+)==([\w.]+)", r) for r in the_test_extra())
    return {m[1]: m[2] for m in found if m}


def the_test_extra() -> list[str]:
    return PYPROJECT["project"]["optional-dependencies"]["test"]


@pytest.mark.parametrize("name", ["textual", "rich"])
def test_the_snapshots_renderers_are_pinned_and_installed(name: str) -> None:
    pinned = pins().get(name)
    assert pinned, f"the test extra must pin {name} exactly (the snapshots depend on it)"
    assert version(name) == pinned, (
        f"the snapshots were drawn with {name} {pinned}, this environment has {version(name)}: "
        "reinstall with pip install -e '.[test]', or update the snapshots on purpose "
        "(README.md, Updating snapshots)"
    )


def test_the_runtime_range_admits_the_pins() -> None:
    deps = {
        re.split(r"[<>=!~ ]", d, maxsplit=1)[0]: d for d in PYPROJECT["project"]["dependencies"]
    }
    assert deps["textual"] == "textual>=8.0,<9" and pins()["textual"].startswith("8.")


def test_ci_runs_the_readme_commands() -> None:
    """README's second line installs the test extra and runs the suite; .ci/run does
    exactly that, in a fresh venv."""
    readme = (REPO / "README.md").read_text(encoding="utf-8").split("\n")
    install_and_test = readme[readme.index("```sh") + 2]
    assert ".[test]" in install_and_test and install_and_test.endswith(".venv/bin/pytest")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").split("\n")
    assert install_and_test in ci
    assert "rm -rf .venv" in ci[: ci.index(install_and_test)]
