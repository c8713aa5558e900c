"""How a Cline Memory Bank (SPEC §3b "More agents") is recognised, without its parser:
listing and searching a store import only this (layouts.detectors()).

A bank is a folder holding at least one of the six core files, looked for in turn:
- `<root>/memory-bank/`: where Cline's Memory Bank instructions put it
  (cline/cline docs/best-practices/memory-bank.mdx);
- `<root>/.clinerules/memory-bank/`: some keep it under the rules folder, which Cline
  itself loads into every prompt (rule-helpers.ts reads `.clinerules/**`);
- the root itself when it is named `memory-bank` (a bank opened directly).
One bank a store: `memory-bank/` wins over `.clinerules/memory-bank/`. The store root
is the project folder, where Cline runs: memtui's lock, `.history/` and the archive sit
beside the bank, never in it, so the model never reads them as bank files (opened
directly, they are hidden paths in it, which the bank's reading leaves aside). A bank
folder that is a link out of the root is not followed (SPEC §0), so not found.
Ids name a file from the bank (`cline:activeContext.md`), whichever of these it is.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection
from memtui.engine.paths import LAYOUT_DIRS, is_inside
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

BANK = "memory-bank"
RULES_BANK = f".clinerules/{BANK}"
# The six core files in the instructions' hierarchy: what the model reads first.
CORE = (
    "projectbrief.md",
    "productContext.md",
    "systemPatterns.md",
    "techContext.md",
    "activeContext.md",
    "progress.md",
)
# Archived sections, one JSON line each with where it was (layouts.cline.ops): beside
# the bank, hidden, one file (an undo of the first archive leaves no folder behind).
BOOK = ".memory-bank-archive.jsonl"


def bank_of(root: str) -> str | None:
    """The bank's folder from the root ("" when the root is the bank), or None."""
    for rel in (BANK, RULES_BANK):
        folder = os.path.join(root, rel)
        if not os.path.isdir(folder):  # the usual answer, and a cheap one: every open asks
            continue
        if is_inside(os.path.realpath(root), os.path.realpath(folder)) and _holds_core(folder):
            return rel
    if os.path.basename(os.path.abspath(root)) == BANK and _holds_core(root):
        return ""
    return None


def _holds_core(folder: str) -> bool:
    try:
        return not set(os.listdir(folder)).isdisjoint(CORE)
    except OSError:  # no such folder, or not one
        return False


def in_bank(bank: str, rel: str) -> str | None:
    """`rel` (from the root) as a path from the bank when it is a bank file the model
    reads (`**/*.md`, hidden paths aside), else None."""
    if bank:
        if not rel.startswith(bank + "/"):
            return None
        rel = rel[len(bank) + 1 :]
    if not rel.endswith(".md") or any(part.startswith(".") for part in rel.split("/")):
        return None
    return rel


# What the bank costs the model. Cline gives a model whose window it does not know
# 128,000 tokens, and keeps a task within 128,000 - 30,000 = 98,000 of them before it
# truncates the conversation (getContextWindowInfo). The bank is read whole at the start
# of every task, so it is spent before any work: a quarter of those 98,000 (24,500) is
# worth a warning; all of them means the task starts truncated. A file's share is the
# quarter over the six core files (about 4,000 tokens, 16 KB).
USABLE_TOKENS = 128_000 - 30_000
THRESHOLDS: dict[str, int | float] = {
    "cline_bank_warn_tokens": USABLE_TOKENS // 4,
    "cline_bank_max_tokens": USABLE_TOKENS,
    "cline_file_tokens": USABLE_TOKENS // 4 // len(CORE),
    # activeContext.md older than progress.md by this many days (0: by any) is stale
    "cline_stale_days": 1,
}


class ClineDetection(Detection):
    name = "cline"
    looks_for = N_("memory-bank/ holding projectbrief.md, activeContext.md, progress.md, … (cline)")
    title = msg("a Cline Memory Bank")  # what it holds, in words (`memtui demo --help`)
    full = "memtui.layouts.cline.layout:Cline"
    order = 70
    dotfiles = (BOOK,)  # the archive book at the root: no other root dotfile is shown
    thresholds = THRESHOLDS

    def detect(self, top: Listing) -> bool:
        return bank_of(top.root) is not None

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """The bank, walked whole."""
        bank = bank_of(top.root)
        if bank is None:
            return []
        return [(bank, True)] if bank else _below(top.root)


def _below(root: str) -> list[tuple[str, bool]]:
    """A bank opened directly: every folder in it (the shared layout folders are listed
    already, the flat ones without their subfolders: those are added)."""
    shared = dict(LAYOUT_DIRS)
    found = []
    for name in _folders(root, ""):
        if name not in shared:
            found.append((name, True))
        elif not shared[name]:
            found += [(f"{name}/{sub}", True) for sub in _folders(root, name)]
    return found


def _folders(root: str, rel: str) -> list[str]:
    try:
        with os.scandir(os.path.join(root, rel)) as entries:
            return sorted(e.name for e in entries if not e.name.startswith(".") and is_folder(e))
    except OSError:
        return []


def is_folder(entry: os.DirEntry[str]) -> bool:
    """A folder, not a link to one (from the listing's own type: no stat)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False
