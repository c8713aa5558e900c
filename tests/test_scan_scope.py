"""What the secret/entry-injection scan reads (issue 27: every layout's loaded files and
queued writes): not the archives the agent never reads, so archiving a planted entry
(its quick fix) clears its finding, and restoring it brings the finding back."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtui.engine.fixes import plan
from memtui.engine.ops import restore
from memtui.engine.store import open_store
from tests.test_secret_fixes import STORES, finding_at, make

CODES = ("entry-injection", "secret")


def scanned(root: Path) -> list[tuple[str, str | None, int | None]]:
    store = open_store(str(root))
    return [(f.code, f.file, f.line) for f in store.findings if f.code in CODES]


@pytest.mark.parametrize("layout", sorted(STORES))
def test_an_archived_planted_entry_leaves_no_finding_and_restore_brings_it_back(
    tmp_path: Path, layout: str
) -> None:
    root = make(tmp_path, layout)
    rel, line = STORES[layout][2]
    found = scanned(root)
    fix = plan(open_store(str(root)), finding_at(root, "entry-injection", rel, line))
    archived = fix.run(False)

    after = scanned(root)
    assert not set(after) - set(found)  # nothing found in the archive
    again = open_store(str(root), previous=open_store(str(root), reopen=True))
    assert [f for f in again.findings if f.code in CODES] == [
        f for f in open_store(str(root)).findings if f.code in CODES
    ]  # as when the app reloads
    assert not [f for f in after if f[:2] == ("entry-injection", rel)]
    restore(str(root), archived.details.get("archived", fix.details["entry"]))
    assert scanned(root) == found
