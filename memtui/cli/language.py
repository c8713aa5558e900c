"""The language the command line speaks, chosen once before any text is made: `--lang`
anywhere on the line (before `--`), else LC_ALL, LC_MESSAGES, LANG, else English
(memtui.i18n.choose). The app, started by this same process, speaks it too; argparse's
own words come from memtui's catalogue (memtui.cli.argparse_words)."""

from __future__ import annotations

import argparse

from memtui import i18n
from memtui.cli import CallError

OPTION = "--lang"
SPOKEN = ("en", *i18n.LANGUAGES)


def take(args: list[str]) -> tuple[str | None, list[str]]:
    """The value of `--lang X` / `--lang=X` (the last one given) and the line without
    it ("" for a `--lang` with nothing after it); words after `--` are arguments."""
    lang, rest, i = None, [], 0
    while i < len(args):
        word = args[i]
        if word == "--":
            rest += args[i:]
            break
        if word == OPTION:
            lang, i = (args[i + 1] if i + 1 < len(args) else ""), i + 2
            continue
        if word.startswith(OPTION + "="):
            lang = word.partition("=")[2]
        else:
            rest.append(word)
        i += 1
    return lang, rest


def known(lang: str) -> bool:
    """A language memtui has, by any of its usual spellings (zh_CN.UTF-8, zh-CN, en_US, C)."""
    name = i18n.base(lang)
    return i18n.choose(lang) != "en" or name in ("en", "c", "posix") or name.startswith("en_")


def start(args: list[str]) -> list[str]:
    """Speak the language asked for from now on; the line without `--lang`."""
    lang, rest = take(args)
    bad = lang is not None and not (lang and known(lang))
    i18n.use(i18n.choose(None if bad else lang))  # a refusal in the environment's language
    if bad:
        said = i18n._("--lang {lang}: memtui speaks {languages}") if lang else None
        raise CallError(
            (said or i18n._("--lang needs a language: {languages}")).format(
                lang=lang, languages=", ".join(SPOKEN)
            )
        )
    if not i18n.compiled(i18n.language()):  # English it is, but not silently
        from memtui.cli.output import warn

        warn(
            i18n._(
                "no compiled catalogue for {lang} in {folder}: speaking English "
                "(pip install -e . or scripts/catalogue.py compile makes it)"
            ).format(lang=i18n.language(), folder=i18n.LOCALE_DIR)
        )
    # argparse looks its words up through these two names of its module, at each use
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
    return rest


def add_option(parser: argparse.ArgumentParser) -> None:
    """`--lang` in `memtui --help` (main() takes it off the line before argparse)."""
    parser.add_argument(
        OPTION,
        metavar="LANG",
        help=i18n._("the language to speak: en or zh_CN (default: LC_ALL, LC_MESSAGES, LANG)"),
    )
