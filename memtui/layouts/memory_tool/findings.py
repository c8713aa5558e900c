"""The memory-tool layout's findings (SPEC §3b, §5), each at the file it is about, each
one a thing the SDK's own backend does (rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.i18n import msg
from memtui.layouts.memory_tool import rules
from memtui.layouts.memory_tool.detect import VIRTUAL

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.layouts.memory_tool.parse import ToolData


def check(reader: StoreReader, data: ToolData) -> None:
    def add(code: str, file: str, message: str) -> None:
        reader.findings.add(code, file, None, message, rules.CODES[code][0])

    for f in data.files:
        shown = f"{VIRTUAL}/{f.name}"  # the path the model names it by
        if rules.deep(f.name):
            folder = f"{VIRTUAL}/{f.name.rsplit('/', 1)[0]}"
            add(
                "memtool-deep",
                f.rel,
                msg(
                    "{file} is below the two levels `view {root}` lists at the start of a "
                    "session: the model sees it only when it views {folder}",
                    file=shown,
                    root=VIRTUAL,
                    folder=folder,
                ),
            )
        if f.tf is not None and (n := rules.lines_of(f.tf.text)) > rules.MAX_LINES:
            add(
                "memtool-lines",
                f.rel,
                msg(
                    "{file} has {n:,} lines: the tool's `view` refuses a file past {max:,} "
                    "lines, so the model cannot read it",
                    file=shown,
                    n=n,
                    max=rules.MAX_LINES,
                ),
            )
