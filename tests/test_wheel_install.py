"""The wheel, installed non-editable, carries the app's styles and runs headless, and
its build compiled the zh_CN catalogue into it (hatch_build.py).

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


def test_wheel_ships_the_catalogue_compiled_from_the_po(wheel: Path):
    from babel.messages.mofile import read_mo

    mo = "memtui/locale/zh_CN/LC_MESSAGES/memtui.mo"
    with zipfile.ZipFile(wheel) as whl:
        assert mo in whl.namelist()
        catalog = read_mo(whl.open(mo))
    assert catalog.get("usage: ").string == "用法："


@pytest.fixture(scope="module")
def site(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed into a folder of its own (PYTHONPATH), not the checkout."""
    target = tmp_path_factory.mktemp("site")
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
    return target


def test_installed_wheel_speaks_chinese_from_its_own_catalogue(site: Path, tmp_path: Path):
    probe = (
        "import sys, memtui.i18n as i; print(i.LOCALE_DIR, flush=True);"
        "from memtui.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "--lang", "zh_CN", "--help"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    where, help_text = done.stdout.split("\n", 1)
    assert where == str(site / "memtui" / "locale")
    assert help_text.startswith("用法：memtui")
    assert "归档一个条目" in help_text


def test_installed_wheel_runs_the_app_headless_with_its_styles(site: Path, tmp_path: Path):
    target = site
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
