"""`memtui check --format text|json|github|sarif`: the findings where CI reads them.

Every format is compared finding by finding with `--json` on the demo store (all three
layouts, errors, warnings and info), and the SARIF log is validated against the
SARIF 2.1.0 schema vendored in tests/data (from github.com/oasis-tcs/sarif-spec).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import unquote

import jsonschema
import pytest
from conftest import run_cli

from memtui import __version__
from memtui.cli.formats import github_lines
from memtui.engine.findings import CODES, HELP
from memtui.engine.model import Finding

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
GH = re.compile(
    r"^::(error|warning|notice) (?:(file=[^,:]*)(?:,line=(\d+))?,)?title=([^,:]*)::(.*)$"
)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("formats") / "demo"
    assert run_cli("demo", "--dir", str(root), "--no-ui").returncode == 0
    # without its [E000] last_active line: an info finding (sentinel-missing) too
    events = root / "memory" / "events.md"
    kept = [t for t in events.read_text("utf-8").splitlines(True) if "· last_active" not in t]
    events.write_text("".join(kept), "utf-8")
    return root


def findings_of(root: Path) -> list[dict]:
    res = run_cli("check", "--json", "--store", str(root))
    return json.loads(res.stdout)["findings"]


def test_github_one_annotation_per_finding(demo):
    expected = findings_of(demo)
    assert {f["level"] for f in expected} == {"error", "warning", "info"}
    res = run_cli("check", "--format", "github", cwd=demo)
    assert res.returncode == 1  # the demo has errors: the same exit status as text
    lines = res.stdout.splitlines()
    assert len(lines) == len(expected)
    command = {"error": "error", "warning": "warning", "info": "notice"}
    for text, f in zip(lines, expected, strict=True):
        m = GH.match(text)
        assert m, text
        kind, file_prop, line_no, title, _message = m.groups()
        assert kind == command[f["level"]]
        assert title == f["code"]
        assert file_prop == (f"file={f['file']}" if f["file"] else None)
        assert (int(line_no) if line_no else None) == (f["line"] if f["file"] else None)


def test_github_files_are_relative_to_the_folder_ci_runs_in(demo):
    """Run from the repository's root (the store's parent here), the annotation names the
    file as the repository does: <store folder>/<file>."""
    res = run_cli("check", "--format", "github", "--store", "demo", cwd=demo.parent)
    files = {m.group(1) for m in re.finditer(r"file=([^,:]*)", res.stdout)}
    assert files and all(f.startswith("demo/") and (demo.parent / f).is_file() for f in files)


def test_github_escaping_follows_githubs_rules(store):
    root = store({"memory.md": "# 索引\n", "memory_a,b:c%d.md": "# x\n"})
    res = run_cli("check", "--format", "github", "--store", str(root))
    assert "file=memory_a%2Cb%3Ac%25d.md" in res.stdout  # in a property: also , and :
    bad = Finding("x-code", "warning", "a.md", 3, "50% done\r\nnext: a, b\x1b[31m")
    (out,) = github_lines(str(root), [bad])
    # in the message: %, CR and LF only; an escape byte is shown, never sent raw
    assert out == "::warning file=a.md,line=3,title=x-code::50%25 done%0D%0Anext: a, b\\x1b[31m"


def test_sarif_is_valid_2_1_0_with_one_result_per_finding(demo):
    expected = findings_of(demo)
    res = run_cli("check", "--format", "sarif", "--store", str(demo))
    assert res.returncode == 1
    log = json.loads(res.stdout)
    jsonschema.validate(log, json.loads(SCHEMA.read_text(encoding="utf-8")))
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "memtui" and driver["version"] == __version__
    rules = driver["rules"]
    assert [r["id"] for r in rules][: len(CODES)] == list(CODES)
    for rule in rules[: len(CODES)]:
        assert rule["shortDescription"]["text"] == CODES[rule["id"]][1]
        assert rule["help"]["text"] == HELP.get(rule["id"], CODES[rule["id"]][1])
    base = run["originalUriBaseIds"]["STOREROOT"]["uri"]
    assert base == Path(os.path.realpath(demo)).as_uri() + "/"
    level = {"error": "error", "warning": "warning", "info": "note"}
    assert len(run["results"]) == len(expected)
    for r, f in zip(run["results"], expected, strict=True):
        assert r["ruleId"] == f["code"] and rules[r["ruleIndex"]]["id"] == f["code"]
        assert r["level"] == level[f["level"]] and r["message"]["text"] == f["message"]
        if f["file"] is None:
            assert "locations" not in r
            continue
        (loc,) = r["locations"]
        art = loc["physicalLocation"]["artifactLocation"]
        assert art["uriBaseId"] == "STOREROOT" and unquote(art["uri"]) == f["file"]
        assert loc["physicalLocation"].get("region", {}).get("startLine") == f["line"]


def test_sarif_uris_are_percent_encoded(store):
    root = store({"memory.md": "# 索引\n", "memory_话题 1.md": "# x\n"})
    log = json.loads(run_cli("check", "--format", "sarif", "--store", str(root)).stdout)
    jsonschema.validate(log, json.loads(SCHEMA.read_text(encoding="utf-8")))
    uris = {
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
        for loc in r.get("locations", ())
    }
    assert "memory_%E8%AF%9D%E9%A2%98%201.md" in uris


def test_clean_store_gives_no_annotation_and_an_empty_sarif_run(store):
    root = store(
        {
            "memory.md": "# 索引\n\n## 工作\n- 笔记 → memory_notes.md\n",
            "memory_notes.md": "# 笔记\n",
        }
    )
    res = run_cli("check", "--format", "github", "--store", str(root))
    assert (res.returncode, res.stdout) == (0, "")
    log = json.loads(run_cli("check", "--format", "sarif", "--store", str(root)).stdout)
    assert log["runs"][0]["results"] == []


def test_json_is_a_shorthand_and_cannot_contradict_format(demo):
    as_json = run_cli("check", "--json", "--store", str(demo))
    as_format = run_cli("check", "--format", "json", "--store", str(demo))
    assert as_json.stdout == as_format.stdout and as_json.returncode == as_format.returncode
    res = run_cli("check", "--json", "--format", "sarif", "--store", str(demo))
    assert res.returncode == 2 and "--json is --format json" in res.stderr
    res = run_cli("check", "--format", "xml", "--store", str(demo))
    assert res.returncode == 2 and "invalid choice" in res.stderr
