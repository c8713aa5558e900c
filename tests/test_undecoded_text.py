"""A text the cache kept is a TextFile of its UTF-8 bytes, decoded when first read
(textfile.Undecoded, TextFile.utf8): the same text, record and bytes as one read from
the file, whichever thread reads it first."""

from __future__ import annotations

import io
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtui.engine import cache
from memtui.engine.textfile import TextFile, Undecoded, decode

TEXT = "# 记忆\n- likes tea ☕\r\n- \udcff stays as read\n"


def kept(tf: TextFile) -> TextFile:
    """`tf` through the cache's pickling, as a later open gets it."""
    buf = io.BytesIO()
    cache._Pickler(buf, protocol=5).dump(tf)
    return cache._Unpickler(io.BytesIO(buf.getvalue())).load()


@given(st.text(), st.booleans(), st.integers(0, 2**40), st.one_of(st.none(), st.integers()))
def test_a_kept_text_is_the_record_it_was(text: str, bom: bool, size: int, stamp: int | None):
    tf = TextFile("memory/a.md", text, bom, size, stamp)
    again = kept(tf)
    assert type(again) is TextFile
    assert again.utf8 == text.encode("utf-8", "surrogatepass")  # not decoded yet
    assert (again.path, again.bom, again.size, again.stamp) == ("memory/a.md", bom, size, stamp)
    assert again == tf and again.text == text and again.utf8 is None
    assert again.encode() == tf.encode()


def test_a_file_read_and_a_kept_one_give_the_same_bytes_back() -> None:
    read = decode("a.md", b"\xef\xbb\xbf" + "- 喜欢茶\n".encode())
    assert isinstance(read, TextFile)
    again = kept(kept(read))  # kept twice, never read between
    assert again.utf8 is not None
    assert (again.encode(), again.digest()) == (read.encode(), read.digest())


def test_threads_that_read_it_first_at_once_get_the_same_text() -> None:
    for _ in range(50):
        tf = Undecoded("a.md", TEXT.encode("utf-8", "surrogatepass") * 2000, False, 1, None)
        got: list[str] = []
        start = threading.Barrier(4)

        threads = [threading.Thread(target=_read, args=(tf, start, got)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert got == [TEXT * 2000] * 4 and tf.utf8 is None


def _read(tf: TextFile, start: threading.Barrier, got: list[str]) -> None:
    start.wait()
    got.append(tf.text)


def test_no_other_missing_attribute_is_made_up() -> None:
    tf = Undecoded("a.md", b"x", False, 1, None)
    assert not hasattr(tf, "txt")
    with pytest.raises(AttributeError):
        _ = tf.lines_cache  # type: ignore[attr-defined]
    assert tf.lines() == ["x"]
