"""`memtui demo [--dir D] [--size N] [--no-ui]` from the command line: the real CLI in a
subprocess writes the same bytes as the generator, where it is told, at the size it is
told, and opens it (a summary, with no terminal) unless --no-ui."""

from __future__ import annotations

import re
from pathlib import Path

from memtui.demo import write_demo
from tests import demo_facts as facts
from tests.conftest import run_cli, tree_digest
from tests.helpers import ENV, TODAY_DATE


def demo_cli(*args: str, env: dict[str, str] | None = None):
    res = run_cli("demo", *args, env={**ENV, **(env or {})})
    assert "Traceback" not in res.stdout + res.stderr, res.stderr
    return res


def test_demo_dir_no_ui_writes_the_generators_store_and_says_how_to_open_it(tmp_path: Path):
    target = tmp_path / "demo"
    res = demo_cli("--dir", str(target), "--no-ui")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0] == f"wrote a demo store in {target}"
    assert f"{facts.EVENTS} events" in res.stdout and f"{facts.CANDIDATES} pending" in res.stdout
    assert res.stdout.rstrip().endswith(f"open it with: memtui {target}")
    assert "findings:" not in res.stdout  # --no-ui: not opened
    expected = write_demo(tmp_path / "generator", size=1, today=TODAY_DATE)
    assert tree_digest(target) == tree_digest(tmp_path / "generator")  # MEMTUI_TODAY pinned
    said = res.stdout.splitlines()[1]  # `292,673 bytes`: counts as people write them
    counts = {k: int(v.replace(",", "")) for v, k in re.findall(r"(\d[\d,]*) (\w+)", said)}
    assert counts == expected


def test_demo_size_scales_the_store(tmp_path: Path):
    res = demo_cli("--dir", str(tmp_path / "demo"), "--size", "2", "--no-ui")
    assert res.returncode == 0, res.stderr
    assert f"{2 * facts.EVENTS} events" in res.stdout
    assert f"{2 * facts.CANDIDATES} pending" in res.stdout


def test_demo_without_dir_writes_a_new_temp_folder_and_opens_it(tmp_path: Path):
    """No --dir: a new folder under $TMPDIR; no --no-ui: the app opens it, which with no
    terminal (as here) is the one-screen summary."""
    res = demo_cli(env={"TMPDIR": str(tmp_path)})
    assert res.returncode == 0, res.stderr
    made = [p for p in tmp_path.iterdir() if p.name.startswith("memtui-demo-")]
    assert len(made) == 1
    assert res.stdout.splitlines()[0] == f"wrote a demo store in {made[0]}"
    assert f"{made[0]}  (workspace, companion, dsh)" in res.stdout  # the summary
    assert f"findings: {facts.ERRORS} errors, {facts.WARNINGS} warnings" in res.stdout


def test_demo_refuses_a_folder_that_is_not_empty_and_a_bad_size(tmp_path: Path):
    target = tmp_path / "taken"
    target.mkdir()
    (target / "notes.md").write_text("mine\n", encoding="utf-8")
    before = tree_digest(target)
    res = demo_cli("--dir", str(target), "--no-ui")
    assert res.returncode == 2 and "not empty" in res.stderr and res.stdout == ""
    assert tree_digest(target) == before
    for size in ("0", "-3"):
        res = demo_cli("--dir", str(tmp_path / f"s{size}"), "--size", size, "--no-ui")
        assert res.returncode == 2 and "--size must be 1 or more" in res.stderr
        assert not (tmp_path / f"s{size}").exists()


def test_the_demos_help_names_every_layout_it_writes() -> None:
    from memtui.engine.layouts import detectors

    verbs = " ".join(run_cli("--help").stdout.split())
    assert "demo write a sample store holding every layout" in verbs
    described = " ".join(run_cli("demo", "--help").stdout.split())
    assert "every layout" in described
    for name, detection in detectors().items():  # in its own words: a new one says its own
        assert detection.title and f"{name} ({detection.title})" in described
