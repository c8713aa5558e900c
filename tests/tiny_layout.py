"""A third party's layout in one module, for tests: a root holding TINY.md. It declares
its own finding codes, a threshold, usual places, a bare id, an edit and a generated
file, none of which any memtui file names (tests/test_layout_declarations.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from memtui.engine.layouts.base import Detection, Layout, Listing, there
from memtui.engine.model import WARNING, Entry

FILE = "TINY.md"
GENERATED = "TINY.count"


class TinyDetection(Detection):
    name = "tiny"
    looks_for = "TINY.md (tiny)"
    full = "tests.tiny_layout:Tiny"
    order = 25  # before dsh, which claims every other bare id as a candidate's
    thresholds = {"tiny_max_lines": 3}
    looked_in = "~/.tiny"

    def detect(self, top: Listing) -> bool:
        return there(top, FILE)

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        return [os.path.join(home, ".tiny")]

    def bare_kind(self, ref: str) -> str | None:
        return "tiny" if ref.startswith("tiny-") else None


class Tiny(TinyDetection, Layout):
    kinds = ("tiny",)
    codes = {"tiny-long": (WARNING, "TINY.md over its line threshold")}
    generates = "TINY.count"

    def parse(self, reader: Any, top: Listing) -> Any:
        tf = reader.read(FILE)
        lines = tf.text.splitlines() if tf else []
        if len(lines) > reader.thresholds.tiny_max_lines:
            reader.findings.add("tiny-long", FILE, None, f"{FILE} has {len(lines)} lines")
        if any("oops" in line for line in lines):
            reader.findings.add("tiny-oops", FILE, None, "a code this layout forgot to declare")
        return lines

    def knows(self, rel: str) -> bool:
        return rel == FILE

    def file_of(self, kind: str, name: str) -> str | None:
        return FILE

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        yield Entry("tiny:note", "tiny", self.name, "the note", FILE)

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Any:
        from memtui.engine.ops.replace import replace_entry, whole

        return replace_entry(root, kind, new_text, lambda r, fp, s: (FILE, whole, 0), **shown)

    def plan_generated(self, tx: Any) -> bool:
        count = str(len((tx.read(FILE) or b"").splitlines())).encode()
        if tx.read(GENERATED) == count:
            return False
        tx.write(GENERATED, count)
        return True
