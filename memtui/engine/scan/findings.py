"""The `secret` and `entry-injection` findings of every layout, made once by the engine
over every file the layouts' parses read (their loaded files, topic files and queued
writes alike) but the archives their agents never read (StoreReader.read_archive): no
layout restates them. Each names its file and line and the kind of
thing found, never the text found."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memtui.engine.model import ERROR
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.textfile import TextFile

SECRET = "secret"
INJECTION = "entry-injection"
# An invisible character as JSON writes it (ensure_ascii): a queued write's record.
_ESCAPED = re.compile(
    r"\\u(?:200[b-dB-D]|206[0-4]|[fF][eE][fF][fF]|202[a-eA-E]|206[6-9]|[dD][bB]40\\u[dD][cC][0-7])"
)


# Each message a template for each article English puts before the kind (a/an).
_SECRET_SAID = (
    N_(
        "a {kind} on line {line}: memory goes to the model provider at the start of every "
        "session; redact it here, then revoke it where it was issued"
    ),
    N_(
        "an {kind} on line {line}: memory goes to the model provider at the start of every "
        "session; redact it here, then revoke it where it was issued"
    ),
)
_INJECTION_SAID = (
    N_(
        "a {kind} on line {line}: the agent takes this file's text as its own notes, so a "
        "planted instruction steers every later session; remove it unless you wrote it"
    ),
    N_(
        "an {kind} on line {line}: the agent takes this file's text as its own notes, so a "
        "planted instruction steers every later session; remove it unless you wrote it"
    ),
)


def secret_said(kind: str, line: int) -> str:
    return msg(_SECRET_SAID[_an(kind)], kind=msg(kind), line=line)


def injection_said(kind: str, line: int) -> str:
    return msg(_INJECTION_SAID[_an(kind)], kind=msg(kind), line=line)


def a_kind(kind: str) -> str:
    """`a GitHub token`, `an AWS access key`: the kind (N_ where it is named) with its
    article, in the reader's language through tr()."""
    return msg("an {kind}", kind=msg(kind)) if _an(kind) else msg("a {kind}", kind=msg(kind))


def _an(kind: str) -> bool:
    return kind[0].lower() in "aeiou"


def scan_store(reader: StoreReader) -> None:
    """Add the findings of every file read: those of a file unchanged since the last
    snapshot are its previous ones (reader.parsed); of the others, only those the
    prefilter picks out in one pass over them all are scanned (prefilter.py). A line a
    layout already reported an injection on (Hermes' own scan) is not reported twice."""
    from memtui.engine.scan.prefilter import suspects_in

    said = {(f.file, f.line) for f in reader.findings.items if f.code == INJECTION and f.file}
    files = [tf for rel, tf in reader.texts.items() if rel not in reader.archives]
    fresh = [tf for tf in files if not reader.kept("scan", tf)]
    # the bytes read (reader.raw: the usual file), else the text encoded again; given up
    # before the exact scan, as the reader keeps them no longer
    raw, reader.raw = reader.raw, {}
    hits = sorted(
        suspects_in([raw.get(tf.path) or tf.text.encode("utf-8", "surrogatepass") for tf in fresh])
    )
    del raw
    read = {id(fresh[i]) for i in hits}
    # A file the prefilter spares holds no hit: its scan finds nothing, recorded only
    # where the snapshot keeps what each file gave (reader.memo: the app, the cache).
    for tf in files if reader.memo is not None else [fresh[i] for i in hits]:
        scan = (lambda tf=tf: _scan(reader, tf, said)) if id(tf) in read else _nothing
        reader.parsed("scan", tf, scan)  # type: ignore[misc]


def _nothing() -> None:
    return None


def _scan(reader: StoreReader, tf: TextFile, said: set[tuple[str, int | None]]) -> None:
    from memtui.engine.scan.injection import find_injections
    from memtui.engine.scan.redact import secrets_in

    text = tf.text
    add = reader.findings.add
    for s in secrets_in(text):  # a private key block: one finding, at its first line
        add(SECRET, tf.path, s.first, secret_said(s.kind, s.first), ERROR)
    hits = find_injections(text)
    if tf.path.endswith((".json", ".jsonl")):
        hits += _escaped(text)
    lines: set[int] = set()
    for hit in hits:
        if {(tf.path, hit.line), (tf.path, None)} & said or hit.line in lines:
            continue  # one finding a line, naming the first kind found on it
        lines.add(hit.line)
        add(INJECTION, tf.path, hit.line, injection_said(hit.kind, hit.line), ERROR)


def _escaped(text: str) -> list:  # type: ignore[type-arg]
    from memtui.engine.scan.injection import InjectionHit
    from memtui.engine.scan.lines import Lines

    lines = Lines(text)
    out = []
    for match in _ESCAPED.finditer(text):
        line, start, stop = lines.span(*match.span())
        out.append(InjectionHit(line, start, stop, N_("invisible character (JSON-escaped)")))
    return out
