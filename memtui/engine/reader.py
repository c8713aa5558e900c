"""What a layout parser may use: safe reads inside the root, and the findings sink."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field

from memtui.engine.config import Thresholds
from memtui.engine.findings import Findings
from memtui.engine.paths import LAYOUT_DIRS, is_inside
from memtui.engine.textfile import TextFile, Unreadable, read_file

SCANNED_DIRS = frozenset(["", *(name for name, _ in LAYOUT_DIRS)])


@dataclass(slots=True)
class StoreReader:
    root: str
    files: frozenset[str]  # every regular file found under the root (relative paths)
    escaped: frozenset[str]  # links found under the root that lead out of it
    thresholds: Thresholds
    today: dt.date
    findings: Findings = field(default_factory=Findings)
    texts: dict[str, TextFile] = field(default_factory=dict)
    unreadable: dict[str, str] = field(default_factory=dict)

    def exists(self, rel: str) -> bool:
        return rel in self.files

    def read(self, rel: str) -> TextFile | None:
        """The file's text, or None (reported as `unreadable` once) when it can't be used."""
        if rel in self.texts:
            return self.texts[rel]
        if rel not in self.files or rel in self.unreadable:
            return None
        got = read_file(os.path.join(self.root, rel), rel, self.thresholds.max_file_bytes)
        if isinstance(got, Unreadable):
            self.unreadable[rel] = got.reason
            self.findings.add(
                "unreadable", rel, None, f"{rel} is {got.reason}; shown raw, never written"
            )
            return None
        self.texts[rel] = got
        return got

    def escapes(self, base_dir: str, ref: str) -> bool:
        """Whether a reference written in a file leads outside the root."""
        if not ref or ref.startswith(("/", "~", "\\")) or "\x00" in ref or ":" in ref[:3]:
            return True
        joined = os.path.normpath(os.path.join(base_dir, ref))
        if joined == ".." or joined.startswith(("../", "/")):
            return True
        if joined in self.escaped:
            return True
        parent = os.path.dirname(joined)
        if joined in self.files or parent in SCANNED_DIRS:
            return False  # the scan already vetted every link in these folders
        return not is_inside(self.root, os.path.realpath(os.path.join(self.root, joined)))
