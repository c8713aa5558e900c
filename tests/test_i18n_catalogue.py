"""The zh_CN catalogue matches the source: Babel's real extraction (babel.cfg, through
scripts/catalogue.py) finds every marked string, and each has a Chinese translation
(none fuzzy), each catalogue entry is still marked somewhere, the placeholders agree,
store words stay as written, and the build's compilation gives a working .mo."""

from __future__ import annotations

import gettext
import importlib.util
import re
import subprocess
from types import ModuleType

import pytest

from tests.helpers import REPO

PO = REPO / "memtui" / "locale" / "zh_CN" / "LC_MESSAGES" / "memtui.po"
BRACES = re.compile(r"\{(\w*)[^{}]*\}")
PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdrif%]")
HAN = re.compile(r"[\u3400-\u9fff]+")


def _load(name: str, path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


catalogue = _load("catalogue", "scripts/catalogue.py")


@pytest.fixture(scope="module")
def extracted():
    return catalogue.extract()


@pytest.fixture(scope="module")
def po():
    return catalogue.read()


def _pairs(message) -> list[tuple[str, str]]:
    """(source, translation) of each form. Chinese has one form for every count: its
    source is the English plural (`These {n} files`, not `This file`)."""
    ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return [
        (ids[-1] if len(strings) == 1 else ids[min(i, len(ids) - 1)], s)
        for i, s in enumerate(strings)
    ]


def test_every_marked_string_has_a_chinese_translation_and_every_entry_is_used(extracted, po):
    assert len(extracted) > 150  # the extraction ran over the real source
    assert catalogue.problems(po, extracted) == []


def test_the_check_names_an_untranslated_a_fuzzy_and_an_unused_entry(extracted, po):
    from babel.messages.catalog import Catalog

    source = Catalog()
    for text in ("one", "two", "three"):
        source.add(text, locations=[("memtui/x.py", 1)])
    ours = Catalog(locale="zh_CN")
    ours.add("one", "一")
    ours.add("two", "二", flags=["fuzzy"])
    ours.add("gone", "去")
    assert catalogue.problems(ours, source) == [
        "untranslated: 'two' (memtui/x.py:1)",
        "untranslated: 'three' (memtui/x.py:1)",
        "unused: 'gone'",
    ]


def test_placeholders_are_the_same_in_the_translation(po):
    wrong = []
    for message in po:
        for source, said in _pairs(message) if message.id else ():
            if sorted(BRACES.findall(source)) != sorted(BRACES.findall(said)) or sorted(
                PERCENT.findall(source)
            ) != sorted(PERCENT.findall(said)):
                wrong.append(f"{source!r} -> {said!r}")
    assert wrong == []


def test_store_words_in_a_message_stay_as_written(po):
    """待跟进, 已完成 in a help text are the store's own words: kept byte for byte."""
    lost = [
        (source, said)
        for message in po
        if message.id
        for source, said in _pairs(message)
        for word in HAN.findall(source)
        if word not in said
    ]
    assert lost == []
    assert po.get("only open events (状态 待跟进)").string.endswith("（状态 待跟进）")


def test_the_header_is_one_and_says_chinese_has_one_plural_form(po):
    """A merge of catalogues by plain msgcat marks a header that differs fuzzy: the .mo
    then has no Plural-Forms and `2 errors` falls back to English (merge with
    `msgcat --use-first`)."""
    assert not po.fuzzy
    assert po.plural_forms == "nplurals=1; plural=0;"
    assert "#-#-#-#" not in PO.read_text("utf-8")


def test_the_header_keeps_the_glossary(po):
    header = PO.read_text("utf-8").split('msgid ""', 1)[0]
    for term in ("记忆库", "候选", "待审", "归档", "快照", "问题", "条目", "撤销", "Agent"):
        assert term in header


def test_the_build_compiles_a_catalogue_gettext_reads(tmp_path):
    build = _load("hatch_build", "hatch_build.py")
    written = build.compile_catalogues(REPO, tmp_path)
    assert [p.as_posix() for p in written] == ["memtui/locale/zh_CN/LC_MESSAGES/memtui.mo"]
    zh = gettext.translation("memtui", tmp_path / "memtui" / "locale", languages=["zh_CN"])
    assert zh.gettext("usage: ") == "用法："
    assert zh.ngettext("{n} entry", "{n} entries", 2) == "{n} 个条目"
    assert zh.gettext("not in the catalogue") == "not in the catalogue"


def test_no_compiled_catalogue_or_template_is_committed():
    tracked = subprocess.run(
        ["git", "ls-files", "memtui/locale"], cwd=REPO, capture_output=True, text=True
    )
    if tracked.returncode != 0:
        pytest.skip(f"not a git checkout: {tracked.stderr.strip()}")
    assert tracked.stdout.split() == ["memtui/locale/zh_CN/LC_MESSAGES/memtui.po"]


# argparse's words that only a programmer sees (a parser built wrong): left English
PROGRAMMERS = {
    ".__call__() not defined",
    "conflicting subparser: %s",
    "conflicting subparser alias: %s",
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments",
    "%r is not callable",
    ("conflicting option string: %s", "conflicting option strings: %s"),
}


def test_every_word_argparse_says_to_a_user_is_in_the_catalogue(po):
    import argparse

    from babel.messages.extract import DEFAULT_KEYWORDS, extract

    with open(argparse.__file__, "rb") as f:
        said = {m[1] for m in extract("python", f, DEFAULT_KEYWORDS)}
    for message in said - PROGRAMMERS:
        key = message[0] if isinstance(message, tuple) else message
        assert po.get(key) is not None, f"argparse says {message!r}: add it to argparse_words"
