"""cli.output.lines writes what line() writes for each text, a block at a time (search's
hits), and what it made before a failure."""

from __future__ import annotations

import pytest

from memtui.cli import output


def test_lines_write_what_line_writes(capsys):
    texts = [f"hit {n}: \x1b[31m red \u202e" for n in range(2 * output.BLOCK + 3)]
    for text in texts:
        output.line(text)
    one_by_one = capsys.readouterr().out
    output.lines(iter(texts))
    assert capsys.readouterr().out == one_by_one
    assert "\x1b" not in one_by_one


def test_lines_write_a_block_at_a_time(monkeypatch):
    writes: list[str] = []
    monkeypatch.setattr(output.sys.stdout, "write", writes.append)
    output.lines(str(n) for n in range(output.BLOCK + 1))
    assert [w.count("\n") for w in writes] == [output.BLOCK, 1]


def test_lines_made_before_a_failure_are_written(capsys):
    def texts():
        yield "first"
        raise OSError("gone")

    with pytest.raises(OSError):
        output.lines(texts())
    assert capsys.readouterr().out == "first\n"
