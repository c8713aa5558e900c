"""The command line in its reader's language: `--lang` (anywhere before `--`), then
LC_ALL, LC_MESSAGES, LANG, then English; `check`'s text follows it while JSON, SARIF
and GitHub stay English; argparse's own words and the help's layout too."""

from __future__ import annotations

import pytest

from memtui import i18n
from memtui.cli import main
from memtui.cli.language import take
from tests.conftest import write_tree

LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def dsh(tmp_path):
    """A dsh store with two warnings (a duplicate fact, a stale index)."""
    return write_tree(
        tmp_path / "store",
        {
            "index.txt": "[RULES] be brief\n# --- auto ---\n[FACTS] A\n[FACTS] B\n"
            "# --- end auto ---\n",
            "facts.md": "# Facts\n\n## A\n- one\n- one\n",
        },
    )


@pytest.fixture
def locale(monkeypatch):
    """Set the locale variables a test names; the others unset."""
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)

    def set_(**values: str) -> None:
        for var, value in values.items():
            monkeypatch.setenv(var, value)

    return set_


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_lang_makes_the_help_chinese_argparse_words_included(capsys, locale):
    with pytest.raises(SystemExit) as done:
        main(["--lang", "zh_CN", "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert out.startswith("用法：memtui ")
    assert "位置参数" in out and "显示此帮助信息并退出" in out
    assert "归档一个条目" in out  # archive's help
    assert "--lang LANG" in out


def test_lang_after_the_verb_and_as_lang_equals(capsys, locale, dsh):
    assert run(capsys, "check", str(dsh), "--lang", "zh_CN")[1].splitlines()[-1] == (
        "0 个错误, 2 个警告, 0 个提示"
    )
    assert run(capsys, "check", "--lang=zh-CN", str(dsh))[1].splitlines()[1].startswith("警告 ")


def test_a_lang_after_double_dash_is_an_argument():
    assert take(["search", "--", "--lang", "zh_CN"]) == (None, ["search", "--", "--lang", "zh_CN"])
    assert take(["--lang", "zh_CN", "check"]) == ("zh_CN", ["check"])
    assert take(["check", "--lang"]) == ("", ["check"])


@pytest.mark.parametrize(
    ("env", "speaks"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
        ({"LC_ALL": "C.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "en"),
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
        ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh_CN"),  # set but empty: not chosen
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # no catalogue: the source text
    ],
)
def test_the_language_comes_from_the_environment_in_posix_order(capsys, locale, dsh, env, speaks):
    locale(**env)
    out = run(capsys, "check", str(dsh))[1]
    assert i18n.language() == speaks
    assert ("个警告" in out) == (speaks == "zh_CN")


def test_lang_beats_the_environment(capsys, locale, dsh):
    locale(LC_ALL="zh_CN.UTF-8")
    out = run(capsys, "--lang", "en", "check", str(dsh))[1]
    assert out.splitlines()[-1] == "0 errors, 2 warnings, 0 info"


def test_an_unknown_lang_is_a_wrong_call_said_in_the_environments_language(capsys, locale):
    assert run(capsys, "--lang", "fr", "check") == (
        2,
        "",
        "memtui: --lang fr: memtui speaks en, zh_CN\n",
    )
    locale(LANG="zh_CN.UTF-8")
    code, _out, err = run(capsys, "check", "--lang")
    assert (code, err) == (2, "memtui: --lang 需要指定语言：en, zh_CN\n")


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_machine_formats_are_the_same_bytes_in_chinese(capsys, locale, dsh, fmt):
    english = run(capsys, "check", "--format", fmt, str(dsh))
    chinese = run(capsys, "--lang", "zh_CN", "check", "--format", fmt, str(dsh))
    assert chinese == english
    assert "the same fact is already on line 4" in english[1]


def test_check_text_is_chinese_with_codes_files_and_store_words_as_they_are(capsys, dsh):
    code, out, _err = run(capsys, "--lang", "zh_CN", "check", str(dsh))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == f"{dsh}  (dsh)"
    assert lines[1].startswith("警告     facts.md:5  fact-duplicate  ")
    assert lines[-1] == "0 个错误, 2 个警告, 0 个提示"


def test_check_text_is_english_as_before(capsys, dsh):
    lines = run(capsys, "check", str(dsh))[1].splitlines()
    assert lines[1].startswith("warning  facts.md:5  fact-duplicate  the same fact")
    assert lines[-1] == "0 errors, 2 warnings, 0 info"


def test_argparse_errors_are_chinese(capsys, dsh):
    with pytest.raises(SystemExit) as done:
        main(["--lang", "zh_CN", "check", "--format", "nope", str(dsh)])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert "memtui check：错误：参数 --format：无效的选择：'nope'" in err
    assert err.startswith("用法：memtui check")


def test_a_verbs_refusal_is_chinese(capsys, tmp_path):
    code, _out, err = run(capsys, "--lang", "zh_CN", "check", str(tmp_path / "nowhere"))
    assert (code, err) == (2, f"memtui: {tmp_path / 'nowhere'}：目录不存在\n")


def test_chinese_help_fits_80_columns_by_cells(capsys, monkeypatch):
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "80")
    for verb in ("fix", "accept", "check", "demo", "stores", "edit"):
        with pytest.raises(SystemExit):
            main(["--lang", "zh_CN", verb, "--help"])
        out = capsys.readouterr().out
        too_wide = [row for row in out.splitlines() if cell_len(row) > 80]
        assert too_wide == [], verb
    usage = out.splitlines()
    assert usage[0].startswith("用法：memtui edit [-h]")
    assert usage[1].startswith(" " * cell_len("用法：memtui edit ") + "[")  # under the first


def test_english_help_is_laid_out_by_argparse_as_before(capsys, monkeypatch):
    import argparse

    from memtui.cli import build_parser

    monkeypatch.setenv("COLUMNS", "80")
    top = build_parser()
    verbs = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    for parser in [top, *verbs.choices.values()]:
        ours = parser.format_help()
        parser.formatter_class = argparse.HelpFormatter
        assert ours == parser.format_help()


def test_level_words_are_padded_by_cells(monkeypatch):
    from rich.cells import cell_len

    from memtui.cli.output import level_word

    monkeypatch.setenv("NO_COLOR", "1")
    i18n.use("zh_CN")
    words = [level_word(level) for level in ("error", "warning", "info")]
    assert words == ["错误     ", "警告     ", "提示     "]
    assert {cell_len(w) for w in words} == {9}
    i18n.use("en")
    assert level_word("warning") == "warning  "


def test_argparse_counts_arguments_in_chinese():
    from memtui.cli.argparse_words import expected

    i18n.use("zh_CN")
    assert expected(2) % 2 == "需要 2 个参数值"


def test_serve_starts_each_tabs_app_in_the_language_it_speaks(capsys, monkeypatch, dsh):
    import textual_serve.server

    started: list[str] = []

    class Server:
        def __init__(self, command: str, **_options: object) -> None:
            started.append(command)

        def serve(self) -> None:
            pass

    monkeypatch.setattr(textual_serve.server, "Server", Server)
    assert main(["--lang", "zh_CN", "serve", "--store", str(dsh)]) == 0
    assert started[0].endswith(f"{dsh} --lang zh_CN")
    assert capsys.readouterr().out == f"正在 http://127.0.0.1:8000 上提供 {dsh}（按 Ctrl+C 停止）\n"


def test_the_editors_failure_is_said_in_chinese(capsys, monkeypatch, dsh):
    monkeypatch.setenv("EDITOR", "false")
    monkeypatch.delenv("VISUAL", raising=False)
    code, _out, err = run(capsys, "--lang", "zh_CN", "edit", "--store", str(dsh), "fact:A")
    assert (code, err) == (1, "memtui: 编辑器以状态 1 退出；未做任何修改\n")
    assert run(capsys, "edit", "--store", str(dsh), "fact:A")[2] == (
        "memtui: the editor exited with status 1; nothing changed\n"
    )


def test_a_missing_compiled_catalogue_is_said_and_english_spoken(
    capsys, monkeypatch, dsh, tmp_path
):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "no-locale")
    code, out, err = run(capsys, "--lang", "zh_CN", "check", str(dsh))
    assert code == 0 and out.splitlines()[-1] == "0 errors, 2 warnings, 0 info"
    assert err.startswith("memtui: no compiled catalogue for zh_CN in ")


def test_the_stores_table_aligns_a_chinese_path_by_cells():
    from rich.cells import cell_len

    from memtui.engine.stores import FoundStore
    from memtui.stores_table import table

    found = [
        FoundStore("/m/项目/memory", "/m/项目/memory", ("dsh",), 2, 900, 0, 1),
        FoundStore("/m/notes/memory", "/m/notes/memory", ("claude",), 12, 2048, 1, 0),
    ]
    rows = table(found)
    # each column ends in the same cell on every row (numbers right-aligned)
    assert len({cell_len(row) for row in rows}) == 1
    assert [cell_len(row.split("  dsh")[0]) for row in rows[1:2]] == [
        cell_len(rows[2].split("  claude")[0])
    ]


def test_chinese_wraps_between_characters_never_before_a_closing_mark():
    from rich.cells import cell_len

    from memtui.cli.help_format import wrap

    text = "修复所需的选择：要归档的项（可重复给出多个），悬空指针用 remove|create"
    for width in range(6, 40):
        rows = wrap(text, width)
        assert "".join(rows).replace(" ", "") == text.replace(" ", "")
        assert all(cell_len(row) <= width or row == "remove|create" for row in rows)
        assert not any(row[0] in "，。：）" or row[-1] == "（" for row in rows)
