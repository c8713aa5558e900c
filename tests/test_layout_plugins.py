"""A third party's layout, installed beside memtui with no memtui file changed: found
through its `memtui.layouts` entry point alone, and every face works on its store; a
broken one is named in a warning and skipped, the others still open (issue 24).

The packages under tests/plugin_layout/ are built offline (hatchling from the test
extra, no index, no build isolation) and installed into a temporary venv that sees
memtui through a .pth file: the command line, the app and the conformance suite run
there, in subprocesses."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtui.engine.layouts.base import Detection, Layout, Listing
from memtui.engine.model import Entry, OutlineItem
from tests.conftest import TODAY, memory_digest, write_tree

REPO = Path(__file__).resolve().parent.parent
PLUGINS = REPO / "tests" / "plugin_layout"
DSH = {"index.txt": "[RULES] x\n", "facts.md": "## A\n- a\n"}  # a store beside a plugin's


def builtins() -> set[str]:
    """memtui's own layouts, as installed here."""
    from memtui.engine.layouts import builtin, names

    return {name for name in names() if builtin(name)}


def _pip(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", *args, "--no-deps", "--no-index", "-q"],
        check=True,
        capture_output=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The two plugin packages as wheels, built offline."""
    out = tmp_path_factory.mktemp("wheels")
    for name in ("notes", "broken"):
        source = tmp_path_factory.mktemp(f"src-{name}")  # a copy: the build leaves no trace
        shutil.copytree(PLUGINS / name, source, dirs_exist_ok=True)
        _pip("wheel", "--no-build-isolation", "-w", str(out), str(source))
    return {
        "notes": next(out.glob("memtui_notes-*.whl")),
        "broken": next(out.glob("memtui_broken_layouts-*.whl")),
    }


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, wheels: dict[str, Path]) -> Path:
    """A venv holding the notes layout; memtui (and the test tools) from this one."""
    home = tmp_path_factory.mktemp("venv")
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(home)], check=True, timeout=120
    )
    python = home / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # This environment's packages (memtui's metadata, its dependencies, the test tools:
    # each site folder on sys.path, as a .pth in them is not read from here) and the repo.
    here = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    seen = [sysconfig.get_path("purelib"), *here, str(REPO)]
    pth = "".join(f"{p}\n" for p in dict.fromkeys(seen) if os.path.isdir(p))
    Path(purelib, "memtui-under-test.pth").write_text(pth, encoding="utf-8")
    _pip("install", "--target", purelib, str(wheels["notes"]))
    return python


@pytest.fixture(scope="module")
def broken_site(tmp_path_factory: pytest.TempPathFactory, wheels: dict[str, Path]) -> Path:
    """The broken layouts, installed apart: on PYTHONPATH only where a test puts them."""
    site = tmp_path_factory.mktemp("broken-site")
    _pip("install", "--target", str(site), str(wheels["broken"]))
    return site


def run(python: Path, *args: str, extra: Path | None = None, cwd: Path = REPO):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MEMTUI_DEBUG")}
    env["MEMTUI_TODAY"] = TODAY
    if extra is not None:
        env["PYTHONPATH"] = str(extra)
    return subprocess.run(
        [str(python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def memtui(python: Path, root: Path, *args: str, extra: Path | None = None):
    return run(python, "-m", "memtui", *args, "--store", str(root), extra=extra)


@pytest.fixture(scope="module")
def demo(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`memtui demo` in the venv: the plugin's part (notes/) is written with the rest."""
    where = tmp_path_factory.mktemp("demo") / "store"
    done = run(venv, "-m", "memtui", "demo", "--no-ui", "--dir", str(where))
    assert done.returncode == 0, done.stderr
    return where / "notes"


@pytest.fixture
def notes(demo: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(demo, tmp_path / "notes"))


def sane(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done


# --- found through its entry point, with no memtui file changed --------------------------


def test_the_venv_finds_memtuis_layouts_and_the_plugins(venv: Path) -> None:
    probe = (
        "import json, memtui; from importlib.metadata import entry_points\n"
        "print(json.dumps({e.name: e.dist.name for e in entry_points(group='memtui.layouts')}))"
    )
    done = run(venv, "-c", probe)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found == {**dict.fromkeys(builtins(), "memtui"), "notes": "memtui-notes"}


def test_the_plugin_uses_only_memtuis_public_names() -> None:
    """Its imports of memtui name no private module or name (`_x`): the protocol in
    engine.layouts.base and the public helpers are enough to write a layout."""
    private = []
    for path in sorted((PLUGINS / "notes").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memtui."):
                parts = [*node.module.split("."), *(a.name for a in node.names)]
                private += [f"{path.name}: {node.module}" for p in parts if p.startswith("_")]
    assert private == []


def test_check_list_show_and_context_read_its_store(venv: Path, demo: Path) -> None:
    checked = sane(memtui(venv, demo, "check", "--json"))
    assert checked.returncode == 0, checked.stderr  # a warning and an info: no error
    report = json.loads(checked.stdout)
    assert report["layouts"] == ["notes"]
    assert {(f["code"], f["line"]) for f in report["findings"]} == {
        ("note-duplicate", 24),
        ("note-empty", 24),
    }
    assert sane(memtui(venv, demo, "check")).returncode == 0
    listed = json.loads(sane(memtui(venv, demo, "list", "--json")).stdout)["entries"]
    ids = [e["id"] for e in listed if e["layout"] == "notes"]
    assert ids[:3] == ["note:deploy-checklist", "note:ideas", "note:people"]
    shown = json.loads(sane(memtui(venv, demo, "show", "--json", "note:people")).stdout)
    assert shown["text"].startswith("## People\n") and shown["line"] == 14
    context = json.loads(sane(memtui(venv, demo, "context", "--json")).stdout)
    [files] = [lay["files"] for lay in context["layouts"] if lay["layout"] == "notes"]
    assert [f["file"] for f in files] == ["NOTES.md"]
    assert files[0]["text"] == (demo / "NOTES.md").read_text(encoding="utf-8")


def test_archive_then_restore_leave_its_folder_byte_for_byte(venv: Path, notes: Path) -> None:
    before = memory_digest(notes)
    done = sane(memtui(venv, notes, "archive", "note:deploy-checklist"))
    assert done.returncode == 0, done.stderr
    assert "## Deploy checklist" not in (notes / "NOTES.md").read_text(encoding="utf-8")
    assert "## Deploy checklist" in (notes / "archive" / "NOTES.md").read_text(encoding="utf-8")
    listed = json.loads(memtui(venv, notes, "list", "--json").stdout)["entries"]
    assert "archived-note:deploy-checklist" in [e["id"] for e in listed]
    done = sane(memtui(venv, notes, "restore", "note:deploy-checklist"))
    assert done.returncode == 0, done.stderr
    assert memory_digest(notes) == before


def test_an_agents_write_refuses_the_archive_the_user_did_not_see(venv: Path, notes: Path) -> None:
    listed = json.loads(memtui(venv, notes, "list", "--json").stdout)["entries"]
    [people] = [e for e in listed if e["id"] == "note:people"]
    path = notes / "NOTES.md"
    path.write_text(path.read_text(encoding="utf-8").replace("- Bo", "- Bo (agent)"), "utf-8")
    agents = memory_digest(notes)
    done = sane(memtui(venv, notes, "archive", "note:people", "--expect", people["fingerprint"]))
    assert done.returncode == 1 and "changed since it was shown" in done.stderr
    assert memory_digest(notes) == agents


def test_edit_replaces_a_note_through_the_layout(venv: Path, notes: Path, tmp_path: Path) -> None:
    new = tmp_path / "people.md"
    new.write_text("## People\n- Bo owns the release\n- Cy joins in May\n", encoding="utf-8")
    before = (notes / "NOTES.md").read_text(encoding="utf-8")
    done = sane(memtui(venv, notes, "edit", "note:people", "--text-file", str(new)))
    assert done.returncode == 0, done.stderr
    old = "## People\n- Ana reviews the parser\n- Bo owns the release\n"
    assert old in before
    want = before.replace(old, new.read_text(encoding="utf-8"))
    assert (notes / "NOTES.md").read_text(encoding="utf-8") == want


# The app on a store, headless: its tree, what it said, and `x` on one row (archive).
APP = r"""
import asyncio, json, sys
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.index_tree import IndexPane
from tests.ui_helpers import answer_confirm, until

root, archive = sys.argv[1], sys.argv[2]
said = []

class Recording(MemtuiApp):
    def say(self, text, *, severity="information", title=""):
        said.append(text)
        super().say(text, severity=severity, title=title)

def walk(tree):
    todo = list(tree.root.children)
    while todo:
        node = todo.pop(0)
        yield node
        todo[:0] = list(node.children)

async def main():
    app = Recording(root, watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: app.store is not None, what="the store")
        await pilot.pause()
        tree = app.query_one(IndexPane).index_tree
        for _ in range(4):  # rows are made when their parent opens
            tree.root.expand_all()
            await pilot.pause()
        labels = [n.label.plain for n in walk(tree)]
        if archive:
            row = next(n for n in walk(tree) if n.data and n.data.toggle == ("archive", archive))
            tree.focus()
            tree.move_cursor(row)
            await pilot.pause()
            await pilot.press("x")
            await answer_confirm(pilot, app, "y")
            await until(pilot, lambda: "archive/NOTES.md" in app.store.files, what="the archive")
        print(json.dumps({"layouts": list(app.store.layouts), "labels": labels, "said": said}))

asyncio.run(main())
"""


def app_on(python: Path, root: Path, archive: str = "", extra: Path | None = None) -> dict:
    done = run(python, "-c", APP, str(root), archive, extra=extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_apps_tree_shows_its_notes_and_x_archives_one(venv: Path, notes: Path) -> None:
    shown = app_on(venv, notes, archive="note:reading-list")
    assert shown["layouts"] == ["notes"]
    labels = [label.split("  ")[0] for label in shown["labels"]]
    assert labels[:2] == ["Notes", "NOTES.md"]
    assert {"Deploy checklist", "People", "Reading list", "Open questions"} <= set(labels)
    assert shown["said"] == [] or not any("skipped" in s for s in shown["said"])
    assert "## Reading list\n" in (notes / "archive" / "NOTES.md").read_text("utf-8")


# --- a broken third-party layout: named, skipped, the others still work --------------------


def test_a_broken_layout_is_named_once_and_the_store_opens_without_it(
    venv: Path, notes: Path, broken_site: Path
) -> None:
    (notes / "RAISING.md").write_text("a file the raising layout detects\n", encoding="utf-8")
    checked = sane(memtui(venv, notes, "check", "--json", extra=broken_site))
    assert checked.returncode == 0, checked.stderr  # as if the raising layout were absent
    report = json.loads(checked.stdout)
    assert report["layouts"] == ["notes"]
    assert "raising-half" not in {f["code"] for f in report["findings"]}
    warned = checked.stderr.splitlines()
    assert len([w for w in warned if "'broken-import'" in w]) == 1, warned
    assert len([w for w in warned if "'raising'" in w]) == 1, warned
    assert any("ModuleNotFoundError" in w and "memtui_not_installed" in w for w in warned)
    assert any("failed in parse()" in w and "always fails" in w for w in warned)
    listed = sane(memtui(venv, notes, "list", extra=broken_site))
    assert listed.returncode == 0 and "note:people" in listed.stdout
    context = sane(memtui(venv, notes, "context", "--json", extra=broken_site))
    assert [lay["layout"] for lay in json.loads(context.stdout)["layouts"]] == ["notes"]


def test_a_store_of_a_broken_layout_alone_is_no_store_and_says_why(
    venv: Path, broken_site: Path, tmp_path: Path
) -> None:
    root = write_tree(tmp_path / "raising", {"RAISING.md": "only this\n"})
    done = sane(memtui(venv, root, "check", extra=broken_site))
    assert done.returncode == 2
    assert "failed in parse()" in done.stderr and "holds no memory store" in done.stderr


def test_the_app_names_a_broken_layout_and_shows_the_others(
    venv: Path, notes: Path, broken_site: Path
) -> None:
    (notes / "RAISING.md").write_text("a file the raising layout detects\n", encoding="utf-8")
    shown = app_on(venv, notes, extra=broken_site)
    assert shown["layouts"] == ["notes"]
    assert "People" in [label.split("  ")[0] for label in shown["labels"]]
    skipped = [s for s in shown["said"] if "skipped" in s]
    assert len(skipped) == 2 and any("'raising'" in s for s in skipped), shown["said"]


# --- held to the conformance suite like memtui's own ----------------------------------------


def test_the_plugin_passes_the_conformance_suite(venv: Path) -> None:
    suite = ("tests/test_layout_conformance.py", "-k", "notes", "-p", "no:cacheprovider")
    done = run(venv, "-m", "pytest", *suite, "-o", "addopts=-rfEs")
    assert done.returncode == 0, done.stdout[-3000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) >= 11, done.stdout[-500:]  # each of its tests
    assert "failed" not in done.stdout and "skipped" not in done.stdout


# --- the registry, in-process: what a broken package can be, each named and skipped --------


class NotADetection:
    name = "not-a-detection"


class Unordered(Detection):
    name = "unordered"
    full = "nowhere:Layout"
    order = "first"  # type: ignore[assignment]


class RaisingDetect(Detection):
    name = "raising-detect"
    full = "nowhere:Layout"

    def detect(self, top: Listing) -> bool:
        raise RuntimeError("cannot look")


class Shadow(Detection):
    name = "dsh"
    full = "nowhere:Layout"


class ThirdParty:
    """An entry point of a package that is not memtui (what the registry reads of one)."""

    dist = ""

    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value

    def load(self) -> Any:
        module, _, attr = self.value.partition(":")
        return getattr(importlib.import_module(module), attr)


@pytest.fixture
def registry_with(monkeypatch: pytest.MonkeyPatch):
    """The registry reading the installed entry points plus `extra` ones (a third
    party's), from a clean slate; as it was afterwards."""
    from memtui.engine import layouts
    from memtui.engine.layouts import guard

    cached = (layouts._entry_points, layouts.detectors, layouts._layout, layouts.builtin)

    def reset() -> None:
        for fn in cached:
            fn.cache_clear()
        guard._broken.clear()
        guard._said.clear()

    reset()
    installed = layouts._entry_points()
    try:  # what the registry reads them with: its own reader, where it has one
        reader: Any = importlib.import_module("memtui.engine.layouts.entry_points")
    except ImportError:
        reader = importlib.import_module("importlib.metadata")

    def use(*extra: tuple[str, str], builtins: bool = True) -> None:
        found = [*(installed if builtins else ()), *(ThirdParty(n, v) for n, v in extra)]
        monkeypatch.setattr(reader, "entry_points", lambda *_a, **_k: found)
        reset()

    yield use
    monkeypatch.undo()
    reset()


def test_a_package_that_is_no_layout_is_named_and_the_others_load(registry_with) -> None:
    from memtui.engine.layouts import broken, names, newly_broken

    own = builtins()
    registry_with(
        ("not-a-detection", f"{__name__}:NotADetection"),
        ("unordered", f"{__name__}:Unordered"),
        ("dsh", f"{__name__}:Shadow"),
    )
    assert set(names()) == own  # and none of the three
    why = broken()
    assert "no memtui Detection" in why["not-a-detection"]
    assert "order ('first') is not a number" in why["unordered"]
    [shadowed] = [k for k in why if k.startswith("dsh ")]
    assert "memtui registers a layout of that name" in why[shadowed]
    assert len(newly_broken()) == 3 and newly_broken() == []  # said once a run


def test_a_detection_that_raises_is_skipped_and_the_store_still_opens(
    registry_with, tmp_path: Path
) -> None:
    from memtui.engine.layouts import broken, detectors
    from memtui.engine.store import open_store

    registry_with(("raising-detect", f"{__name__}:RaisingDetect"))
    root = write_tree(tmp_path / "s", DSH)
    assert open_store(root).layouts == ("dsh",)
    assert "failed in detect(): RuntimeError: cannot look" in broken()["raising-detect"]
    assert "raising-detect" in detectors()  # skipped, not forgotten: it answers no more
    assert open_store(root).layouts == ("dsh",)


def test_memtuis_own_layouts_missing_are_named_with_what_to_do(registry_with) -> None:
    from memtui.engine.layouts import broken, names

    registry_with(builtins=False)
    assert names() == ()
    assert "pip install -e ." in broken()["memtui"]


class FlakyDetection(Detection):
    name = "flaky"
    full = f"{__name__}:Flaky"

    def detect(self, top: Listing) -> bool:
        return "FLAKY.md" in top.root_files


class Flaky(FlakyDetection, Layout):
    kinds = ("flaky",)

    def parse(self, reader: Any, top: Listing) -> Any:
        return reader.read("FLAKY.md")

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        yield Entry("flaky:one", "flaky", self.name, "one", "FLAKY.md")
        raise LookupError("lost the second")

    def outline(self, store: Any, data: Any) -> list[OutlineItem]:
        raise ValueError("no outline today")

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Any:
        raise OSError("disk says no")


def test_a_third_partys_member_that_raises_is_named_and_answers_nothing_more(
    registry_with, tmp_path: Path
) -> None:
    from memtui.engine import ops
    from memtui.engine.entries import iter_entries
    from memtui.engine.errors import MemtuiError
    from memtui.engine.layouts import broken
    from memtui.engine.outline import store_outline
    from memtui.engine.store import open_store

    registry_with(("flaky", f"{__name__}:FlakyDetection"))
    root = write_tree(tmp_path / "s", {"FLAKY.md": "one\n", **DSH})
    with pytest.raises(MemtuiError, match=r"'flaky' .* failed in archive\(\): OSError: disk"):
        ops.archive(str(root), "flaky:one")  # refused with its error named, no traceback
    store = open_store(root)
    assert store.layouts == ("dsh", "flaky")
    ids = [e.id for e in iter_entries(store) if e.layout == "flaky"]
    assert ids == ["flaky:one"]  # what it gave before it failed
    assert "failed in entries(): LookupError" in broken()["flaky"]
    [group] = [row for row in store_outline(store) if row.key == "flaky"]
    assert group.children is not None and group.children() == ()  # it answers no more
    assert open_store(root).layouts == ("dsh",)  # skipped from now on, the others open
