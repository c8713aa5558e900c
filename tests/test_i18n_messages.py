"""The engine's and the layouts' texts in the reader's language (issue 28): a finding's
message is a Msg whose English is what JSON prints, unchanged, and whose template the
zh_CN catalogue translates with the same values; every code's meaning is translated."""

from __future__ import annotations

import gettext
import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from memtui import i18n
from memtui.engine.findings import all_codes
from memtui.engine.store import open_store
from memtui.i18n import Msg, tr
from tests.helpers import TODAY_DATE, demo_template, fresh_copy

PO = Path(i18n.__file__).parent / "locale" / "zh_CN" / "LC_MESSAGES" / "memtui.po"
CJK = re.compile(r"[\u4e00-\u9fff]")
# every layout's demo folder ("" holds workspace, companion and dsh)
FOLDERS = ["", "claude", "cline", "codex", "gemini", "hermes", "letta", "memory-tool", "openclaw"]


def compile_catalogue(po: Path, out: Path) -> None:
    """The .mo the build will make, compiled here (msgfmt, else Babel)."""
    out.parent.mkdir(parents=True)
    if shutil.which("msgfmt"):
        subprocess.run(["msgfmt", "-o", str(out), str(po)], check=True)
        return
    babel = pytest.importorskip("babel.messages.mofile")
    from babel.messages.pofile import read_po

    with po.open("rb") as src, out.open("wb") as dst:
        babel.write_mo(dst, read_po(src))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_template(tmp_path_factory, "i18n-demo")


def shown_values(m: Msg) -> list[str]:
    """Each value as the template prints it (`{n:,}` -> "1,234"), to find in a translation;
    a value that is a Msg itself (a reason, a state) in the reader's language."""
    f = string.Formatter()
    out = []
    for _text, field, spec, conv in f.parse(m.template):
        if field is not None:
            value = m.values[field]
            value = tr(value) if isinstance(value, Msg) else value
            out.append(f.format_field(f.convert_field(value, conv), spec or ""))
    return out


def messages(root: Path) -> list[Msg]:
    return [f.message for f in open_store(root, today=TODAY_DATE).findings]


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_finding_of_a_demo_store_is_chinese_with_its_values(demo, chinese, folder):
    found = messages(demo / folder)
    assert found
    for m in found:
        assert isinstance(m, Msg), m
        chinese = tr(m)
        assert CJK.search(chinese), (m.template, chinese)
        for value in shown_values(m):
            assert value in chinese, (value, chinese)


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_finding_in_english_is_the_text_json_prints(demo, folder):
    for m in messages(demo / folder):
        assert tr(m) == str(m) == json.loads(json.dumps(m))


@pytest.mark.parametrize("folder", FOLDERS)
def test_check_json_is_the_same_bytes_in_chinese(demo, tmp_path, monkeypatch, capsys, folder):
    from memtui.cli import main

    outputs = []
    for lang in ("en_US.UTF-8", "zh_CN.UTF-8"):
        monkeypatch.setenv("LANG", lang)
        i18n.use(lang)
        main(["check", "--store", str(demo / folder), "--format", "json"])
        outputs.append(capsys.readouterr().out)
    i18n.use("en")
    assert '"message"' in outputs[0]
    assert outputs[0] == outputs[1]


def test_every_code_meaning_is_translated(chinese):
    for code, (_level, meaning) in all_codes().items():
        assert CJK.search(tr(meaning)), (code, meaning)


def test_every_translation_keeps_its_placeholders(tmp_path):
    def fields(text: str) -> list[tuple[str, str, str]]:
        return sorted((f, s, c or "") for _t, f, s, c in string.Formatter().parse(text) if f)

    mo = tmp_path / "zh_CN" / "LC_MESSAGES" / "memtui.mo"
    compile_catalogue(PO, mo)
    with mo.open("rb") as fh:
        catalogue = gettext.GNUTranslations(fh)._catalog  # msgid -> msgstr
    checked = {k: v for k, v in catalogue.items() if isinstance(k, str) and k}
    assert checked
    for english, chinese in checked.items():
        assert fields(english) == fields(chinese), english


def test_a_refusal_is_a_msg_that_reads_in_chinese(demo, tmp_path, chinese):
    from memtui.engine.errors import MemtuiError
    from memtui.engine.ops.undo import undo

    root = fresh_copy(demo, tmp_path)
    with pytest.raises(MemtuiError) as got:
        undo(root, "op-none")
    said = str(got.value)
    assert isinstance(said, Msg)
    assert said == "no operation 'op-none' in the log (see `memtui log`); nothing was changed"
    assert tr(said) == "日志中没有操作 'op-none'（见 `memtui log`）；未做任何修改"


def test_an_empty_undo_says_so_in_either_language(demo, tmp_path, chinese):
    from memtui.engine.errors import MemtuiError
    from memtui.engine.ops.undo import undo

    root = fresh_copy(demo, tmp_path)
    with pytest.raises(MemtuiError) as got:
        undo(root)  # a fresh demo store: nothing done yet
    said = str(got.value)
    assert said == "nothing to undo: the operation log is empty"
    assert tr(said) == "没有可撤销的操作：操作日志为空"
    i18n.use("en")
    assert tr(said) == said


def test_a_receipts_summary_reads_in_chinese_and_stays_english_in_json(demo, tmp_path, chinese):
    from memtui.layouts.dsh.maintain import maintain

    summary = maintain(fresh_copy(demo, tmp_path)).details["summary"]  # a dry run
    assert isinstance(summary, Msg)
    assert "exact duplicate fact(s) found (apply removes them); " in json.dumps(summary)
    chinese = tr(summary)
    assert "完全重复的事实（应用后会删除）；" in chinese
    assert "near-duplicate" not in chinese and "index" not in chinese  # every clause


def walk(items, depth=3):
    """The outline's rows, and their children's to `depth` levels."""
    for item in items:
        yield item
        kids = item.children() if callable(item.children) else item.children
        if kids and depth > 1:
            yield from walk(kids, depth - 1)


@pytest.mark.parametrize("folder", ["", "claude", "hermes", "openclaw"])
def test_the_outlines_words_are_chinese_and_its_data_as_written(demo, chinese, folder):
    from memtui.engine.outline import store_outline

    items = list(walk(store_outline(open_store(demo / folder, today=TODAY_DATE))))
    worded = [i for i in items if isinstance(i.label, Msg)]
    badges = [b[0] for i in items for b in i.badges if isinstance(b[0], Msg)]
    assert worded or badges
    for text in [i.label for i in worded] + badges:
        chinese = tr(text)
        assert chinese != str(text), text  # translated ("sops" keeps its name: its parens)
        for value in shown_values(text):
            assert value in chinese
    for item in items:
        if not isinstance(item.label, Msg):  # a file name: data, shown as written
            assert tr(item.label) == item.label


def test_a_dsh_accepts_preview_summary_reads_in_chinese(demo, chinese):
    from memtui.engine.queue import queues
    from memtui.layouts.dsh.queue import preview

    ids = [i.id for i in queues(open_store(str(demo))).items if i.layout == "dsh" and not i.problem]
    summary = preview(str(demo), ids[:2]).summary  # a dry run: the demo stays as it is
    assert summary.startswith("accepted 2 candidate(s)")
    assert tr(summary).startswith("接受了 2 个候选")
