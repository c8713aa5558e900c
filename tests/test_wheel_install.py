"""The wheel, installed non-editable, carries the app's styles and runs headless.

Built and installed offline: no build isolation (hatchling is in the test extra), no index."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import write_tree

REPO = Path(__file__).resolve().parent.parent

RUN_HEADLESS = """
import asyncio, sys, time
import memtui
from memtui.ui.app import MemtuiApp, styles_path

async def main():
    app = MemtuiApp(sys.argv[1], watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        deadline = time.monotonic() + 60
        while app.store is None:
            if time.monotonic() > deadline:
                sys.exit("the store did not load within 60 s")
            await pilot.pause(0.05)
        print("module", memtui.__file__)
        print("styles", styles_path())
        print("css", len(app.stylesheet.rules) > 0)
        print("layouts", ",".join(app.store.layouts))

asyncio.run(main())
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-index",  # offline: hatchling comes from the test extra, not a download
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(REPO),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return next(out.glob("memtui-*.whl"))


def test_wheel_ships_the_styles(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    assert "memtui/styles/memtui.tcss" in names
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_runs_the_app_headless_with_its_styles(wheel: Path, tmp_path: Path):
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    store = write_tree(
        tmp_path / "store",
        {
            "index.txt": "[RULES] be brief\n# --- auto ---\n[FACTS] A\n# --- end auto ---\n",
            "facts.md": "# Facts\n\n## A\n- one\n",
        },
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run(
        [sys.executable, "-c", RUN_HEADLESS, str(store)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines["module"].startswith(str(target))  # the wheel, not the source checkout
    assert lines["styles"] == str(target / "memtui" / "styles" / "memtui.tcss")
    assert lines["css"] == "True"
    assert lines["layouts"] == "dsh"
