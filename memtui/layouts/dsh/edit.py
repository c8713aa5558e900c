"""Editing a dsh entry (Layout.edit): a fact section of facts.md, a sop or a candidate
file whole, through the engine's replace_entry; a candidate and a sop keep their
structure (structure.py), and the L0 meta-rules are read-only unless the user insists."""

from __future__ import annotations

import os
from typing import Any

from memtui.engine import frontmatter
from memtui.engine.ops.common import Refused
from memtui.engine.ops.replace import EditedText, Target, replace_entry, section, whole
from memtui.engine.textfile import TextFile, decode
from memtui.engine.write.files import read_or_none
from memtui.engine.write.transaction import Receipt
from memtui.i18n import msg
from memtui.layouts.dsh.parse import FACTS
from memtui.layouts.dsh.parse import INDEX as DSH_INDEX
from memtui.layouts.dsh.structure import check_structure
from memtui.layouts.workspace.detect import DSH_L0


def edit(root: str, kind: str, name: str, new_text: str, **options: Any) -> Receipt:
    def target(tx_root: str, expect: str | None, _seen: bool) -> Target:
        if kind == "fact":
            return FACTS, section(FACTS, name, expect), 2
        if kind == "sop":
            return in_folder(tx_root, "sops", name), whole, 0
        return candidate_file(tx_root, name), whole, 0

    return replace_entry(root, kind, new_text, target, **options)


def check_edit(change: EditedText) -> None:
    check_structure(change.rel, change.old, change.new)


def read_only(root: str, rel: str) -> str | None:
    """The L0 meta-rules (in a store with index.txt): memtui keeps them read-only."""
    if rel == DSH_L0 and os.path.isfile(os.path.join(root, DSH_INDEX)):
        return f"{rel} holds the dsh layout's L0 meta-rules, which the agent lives by"
    return None


def in_folder(root: str, folder: str, name: str) -> str:
    rel = f"{folder}/{name}.md"
    if "/" in name or "\\" in name or name in (".", "..") or "\x00" in name:
        raise Refused(msg("{name!r} is not a name in {folder}/", name=name, folder=folder))
    if not os.path.isfile(os.path.join(root, rel)):
        raise Refused(
            msg(
                "no entry {folder}:{name} ({rel} does not exist)",
                folder=folder[:-1],
                name=name,
                rel=rel,
            )
        )
    return rel


def candidate_file(root: str, cid: str) -> str:
    """pending/<id>.md, or the candidate whose front matter says `id: <id>`."""
    if "/" not in cid and "\\" not in cid and cid not in (".", "..") and "\x00" not in cid:
        rel = f"pending/{cid}.md"
        if os.path.isfile(os.path.join(root, rel)):
            return rel
    folder = os.path.join(root, "pending")
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".md"))
    except OSError:
        names = []
    for file in names:
        raw = read_or_none(os.path.join(folder, file))
        got = decode(file, raw) if raw is not None else None
        if not isinstance(got, TextFile):
            continue
        try:
            split = frontmatter.split(got.text)
            meta = frontmatter.load(split.yaml_text) if split.yaml_text else {}
        except frontmatter.FrontMatterError:
            continue
        if str(meta.get("id")) == cid:
            return f"pending/{file}"
    raise Refused(msg("no entry pending:{cid} (no such candidate in pending/)", cid=cid))
