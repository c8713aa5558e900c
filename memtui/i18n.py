"""The language a person reads memtui in: gettext catalogues under memtui/locale
(`<lang>/LC_MESSAGES/memtui.mo`, compiled from the `.po` by Babel when the package is
built). English is the source text and the fallback.

Two kinds of text:
- a face's own words (a label, a toast, a help line): `_("…")` translates at once;
- text the engine makes that machines also read (a finding's message, a refusal):
  `msg("… {n} …", n=3)` is a `Msg`, a str holding the English text (what JSON, SARIF
  and GitHub print) that also remembers its template, so `tr(m)` gives it in the
  reader's language when a face shows it.

The language comes from `--lang`, then LC_ALL, LC_MESSAGES, LANG, then English
(`choose`); `use(lang)` sets it for the process before any face draws.
"""

from __future__ import annotations

import gettext
import os
from typing import Any

DOMAIN = "memtui"
_LOCALE = os.path.join(os.path.dirname(__file__), "locale")
# the languages memtui has a catalogue for, besides English (the source text)
LANGUAGES = ("zh_CN",)

_catalogue: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def __getattr__(name: str) -> Any:
    """LOCALE_DIR, the catalogues' folder as a Path, made when asked for: importing
    pathlib would cost every `memtui search` a few milliseconds."""
    if name == "LOCALE_DIR":
        from pathlib import Path

        return Path(_LOCALE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _locale_dir() -> str:
    return str(globals().get("LOCALE_DIR", _LOCALE))  # a test may set LOCALE_DIR


def choose(lang: str | None = None, environ: Any = None) -> str:
    """The language to use: `lang` if given, else the first of LC_ALL, LC_MESSAGES, LANG
    that is set and not empty (POSIX order); a known catalogue's name or "en"."""
    env = os.environ if environ is None else environ
    wanted = lang or next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    return _known(wanted)


def base(wanted: str) -> str:
    """A language's name without encoding or modifier, lower case: "zh_CN.UTF-8",
    "zh_CN@x", "zh-CN" -> "zh_cn"."""
    return wanted.split(".")[0].split("@")[0].replace("-", "_").lower()


def _known(wanted: str) -> str:
    # "zh_CN.UTF-8", "zh_CN@x", "zh-CN", "zh" -> "zh_CN"; anything else -> English
    name = base(wanted)
    for lang in LANGUAGES:
        if name == lang.lower() or name == lang.split("_")[0].lower():
            return lang
    return "en"


def use(lang: str) -> None:
    """Translate into `lang` from now on ("en": the source text)."""
    global _catalogue, _language
    _language = _known(lang)
    if _language == "en":
        _catalogue = gettext.NullTranslations()
        return
    _catalogue = gettext.translation(
        DOMAIN, localedir=_locale_dir(), languages=[_language], fallback=True
    )


def compiled(lang: str) -> bool:
    """Whether `lang`'s catalogue is compiled (the build makes the .mo from the .po; a
    source tree that was never installed has none, and speaks English)."""
    lang = _known(lang)
    return lang == "en" or os.path.isfile(
        os.path.join(_locale_dir(), lang, "LC_MESSAGES", f"{DOMAIN}.mo")
    )


def language() -> str:
    """The language in use ("en" or one of LANGUAGES)."""
    return _language


def _(text: str) -> str:
    """`text` in the reader's language (a face's own words)."""
    return _catalogue.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for `n`, in the reader's language."""
    return _catalogue.ngettext(singular, plural, n)


def N_(text: str) -> str:
    """Marks `text` for the catalogue without translating it (translated where shown)."""
    return text


class Msg(str):
    """English text that keeps its template and values, so a face can show it in the
    reader's language (`tr`) while JSON keeps the English."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, **values: Any) -> Msg:
        self = super().__new__(cls, template.format(**values) if values else template)
        self.template = template
        self.values = values
        return self

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # made again by its class (pickle's NEWOBJ_EX): the warm-open cache's unpickler
        # takes memtui's classes only, never a function
        import copyreg

        return (copyreg.__newobj_ex__, (Msg, (self.template,), self.values))


def msg(template: str, **values: Any) -> Msg:
    """Engine text: English now, the reader's language through `tr`."""
    return Msg(template, **values)


def tr(text: str) -> str:
    """`text` in the reader's language: a Msg by its template, values translated too
    when they are Msgs; other text by the catalogue if it holds it, else as it is."""
    if _language == "en":
        return str(text)
    if isinstance(text, Msg):
        values = {k: tr(v) if isinstance(v, Msg) else v for k, v in text.values.items()}
        return _(text.template).format(**values) if values else _(text.template)
    return _(text)


def shown(text: str) -> str:
    """Text that may be the store's own (a heading, a file name) in the reader's
    language only when the engine made it with msg(), never translated by chance."""
    return tr(text) if isinstance(text, Msg) else text


def error_text(exc: BaseException) -> str:
    """An error's message in the reader's language: the engine's Msg by its template,
    any other as str() gives it."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return tr(first) if isinstance(first, Msg) else str(exc)
