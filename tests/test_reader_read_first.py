"""StoreReader.read_first reads the usual file its own quick way (reader.plain_text) and
hands any other to `read`: both ways give the same texts, stamps, unreadable files and
findings, in the same order."""

from __future__ import annotations

import datetime as dt
import os

from memtui.engine import rawfile
from memtui.engine.config import Thresholds
from memtui.engine.reader import StoreReader, plain_text
from tests.conftest import write_tree

LIMIT = 64
FILES: dict[str, str | bytes] = {
    "plain.md": "# plain\n",
    "cjk.md": "周末 ⭐ 记忆\n",
    "empty.md": "",
    "bom.md": b"\xef\xbb\xbf# with a BOM\n",
    "nul.md": b"a\x00b\n",
    "latin1.md": b"caf\xe9\n",
    "big.md": "x" * (LIMIT + 1),
    "crlf.md": "a\r\nb\r\n",
}


def reader(root, files) -> StoreReader:
    limits = Thresholds()._replace(max_file_bytes=LIMIT)
    return StoreReader(str(root), frozenset(files), frozenset(), limits, dt.date(2026, 11, 29))


def outcome(r: StoreReader, got):
    texts = [None if tf is None else (tf, tf.stamp) for tf in got]
    findings = [(f.code, f.file, f.message) for f in r.findings.items]
    return texts, dict(r.texts), dict(r.unreadable), findings


def test_read_first_gives_what_read_gives(tmp_path, monkeypatch):
    monkeypatch.setattr(rawfile, "RACY_NS", -1)  # no file too new to stamp
    root = write_tree(tmp_path / "s", FILES)
    os.mkfifo(root / "fifo.md")  # a FIFO must not hang the quick way either
    (root / "dir.md").mkdir()
    rels = [*FILES, "fifo.md", "dir.md", "gone.md", "plain.md", "nul.md"]  # some twice
    listed = set(rels) - {"gone.md"}
    one = reader(root, listed)
    by_read = [one.read(rel) for rel in rels]
    other = reader(root, listed)
    by_first = other.read_first(rels)
    assert outcome(other, by_first) == outcome(one, by_read)
    assert other.texts["plain.md"].stamp is not None
    assert {rel for rel, tf in zip(rels, by_first, strict=True) if tf is None} == {
        "nul.md",
        "latin1.md",
        "big.md",
        "fifo.md",
        "dir.md",
        "gone.md",
    }


def test_plain_text_leaves_every_other_file_to_read(tmp_path):
    root = write_tree(tmp_path / "s", FILES)
    quick = {name for name in FILES if plain_text(str(root / name), name, LIMIT) is not None}
    assert quick == {"plain.md", "cjk.md", "empty.md", "crlf.md"}


def test_a_text_from_the_previous_snapshot_is_reused_as_read_reuses_it(tmp_path, monkeypatch):
    monkeypatch.setattr(rawfile, "RACY_NS", -1)
    root = write_tree(tmp_path / "s", {"a.md": "a\n", "b.md": "b\n"})
    first = reader(root, {"a.md", "b.md"})
    before = first.read_first(["a.md", "b.md"])
    again = reader(root, {"a.md", "b.md"})
    again.previous_texts = first.texts
    (root / "b.md").write_text("changed\n")
    after = again.read_first(["a.md", "b.md"])
    assert after[0] is before[0]
    assert after[1].text == "changed\n"
