"""How a Hermes home (SPEC §3b hermes) is recognised and which of its files are
memory, without its parser: listing and searching a store import only this
(layouts.detectors())."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection
from memtui.engine.paths import LOCK_NAME, subfolders
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memtui.engine.layouts.listing import Listing

MEMORY = "memories/MEMORY.md"
USER = "memories/USER.md"
ARCHIVE = "memories/archived.jsonl"  # Hermes reads only MEMORY.md and USER.md
CONFIG = "config.yaml"
SOUL = "SOUL.md"  # prompt_builder.load_soul_md: get_hermes_home() / "SOUL.md"
QUEUE = "pending/memory"
SKILLS = "pending/skills"
PENDING = "hermes-pending"  # hermes-pending:<record id>, hermes-pending:skills/<id>
HOME_FILES = frozenset([MEMORY, USER, ARCHIVE, CONFIG, SOUL])
SEPARATOR = "\n§\n"  # tools/memory_tool.py ENTRY_DELIMITER
PEEK = 65_536  # how much of a memory file detection reads for a separator


class HermesDetection(Detection):
    name = "hermes"
    looks_for = N_("memories/MEMORY.md, memories/USER.md or pending/memory/*.json (hermes)")
    title = msg("a Hermes Agent home")
    full = "memtui.layouts.hermes.layout:Hermes"
    commands_at = "memtui.layouts.hermes.commands:COMMANDS"
    order = 50
    home = True  # ~/.hermes is the agent's whole home: is_memory() says what is memory
    keeps_queue = True
    looked_in = "~/.hermes (HERMES_HOME) and its profiles"

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        """A Hermes home, then its profiles: ~/.hermes, then HERMES_HOME."""
        roots = [os.path.join(home, ".hermes")]
        if env.get("HERMES_HOME"):
            roots.append(os.path.abspath(os.path.expanduser(env["HERMES_HOME"])))
        return [p for root in roots for p in (root, *subfolders(os.path.join(root, "profiles")))]

    def detect(self, top: Listing) -> bool:
        if any(os.path.isfile(os.path.join(top.root, rel)) for rel in (MEMORY, USER)):
            # A folder holding memories/ alone is Anthropic's memory tool's too (the SDK's
            # base folder: layouts.memory_tool): there, Hermes' only by its home or shape
            mem = os.path.join(top.root, "memories")
            return not bare_memories(top.root) or hermes_home(top.root) or hermes_shaped(mem)
        try:
            if any(n.endswith(".json") for n in os.listdir(os.path.join(top.root, QUEUE))):
                return True
        except OSError:
            pass
        # A home memtui wrote in stays Hermes' when its last staged write is settled:
        # .history/ keeps snapshots of the queue's or the memory files' old versions.
        kept = (os.path.join(top.root, ".history", d) for d in (QUEUE, "memories"))
        return any(os.path.isdir(k) for k in kept)

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        return [("memories", False), (QUEUE, False), (SKILLS, False)]

    def queued(self, root: str, names: list[str]) -> list[tuple[str, str]]:
        """(name, full id) of each of `names` that is a staged write's record id (its file
        name, as `/memory pending` shows it), or a staged skill's."""
        return [
            (n, f"{PENDING}:{kind}{n}")
            for folder, kind in ((QUEUE, ""), (SKILLS, "skills/"))
            for n in names
            if os.path.lexists(os.path.join(root, folder, f"{n}.json"))
        ]

    def history_of(self, root: str, rel: str) -> list[tuple[str, int]]:
        """The snapshots Hermes' drift guard takes of MEMORY.md / USER.md before it
        refuses a replace or remove of a file it could not write back whole
        (tools/memory_tool.py _detect_external_drift): `<file>.bak.<int(time.time())>`
        beside the file. Hermes never reads them: they are the file's history."""
        if rel not in (MEMORY, USER):
            return []
        folder, _, base = rel.rpartition("/")
        found = []
        for name in _names(os.path.join(root, folder)):
            stamp = name.removeprefix(f"{base}.bak.")
            if stamp != name and stamp.isascii() and stamp.isdigit() and len(stamp) <= 11:
                path = f"{folder}/{name}"
                if os.path.isfile(os.path.join(root, path)):
                    found.append((path, int(stamp)))
        return found

    def locks(self, rel: str) -> list[str]:
        """memtui's own lock, and Hermes' per-file lock for its memory files."""
        return [LOCK_NAME, f"{rel}.lock"] if rel in (MEMORY, USER) else [LOCK_NAME]

    def is_memory(self, rel: str) -> bool:
        """The root is Hermes' whole home (engine.home): its memory is the two files,
        their archive, the staged writes, config.yaml (the limits) and SOUL.md (the
        identity Hermes puts first in its prompt); never .env, auth.json, state.db,
        sessions/, logs/, the per-file locks or Hermes' own temp files."""
        if rel in HOME_FILES:
            return True
        folder, _, name = rel.rpartition("/")
        return folder in (QUEUE, SKILLS) and name.endswith(".json") and name[:1] != "."


def bare_memories(root: str) -> bool:
    """A folder holding memories/ and nothing else visible (memtui.toml aside): what
    the memory tool SDK's base folder (`./memory`) is."""
    names = {n for n in _names(root) if n[:1] != "."}
    return names - {"memtui.toml"} == {"memories"}


def hermes_home(folder: str) -> bool:
    """A Hermes home by what Hermes keeps beside memories/: SOUL.md, state.db, the
    staged writes (pending/), or config.yaml with skills/ or sessions/."""
    there = set(_names(folder))
    if there & {SOUL, "state.db", "pending"}:
        return True
    return CONFIG in there and bool(there & {"skills", "sessions"})


def hermes_shaped(folder: str, names: list[str] | None = None) -> bool:
    """A memories/ folder as Hermes keeps it (tools/memory_tool.py): MEMORY.md or
    USER.md with entries joined by "\\n§\\n", or nothing visible in it but Hermes' own
    names (the two files, their `.lock`, the drift guard's `.bak.<ts>`, memtui's
    archived.jsonl)."""
    names = [n for n in _names(folder) if n[:1] != "."] if names is None else names
    mine = [n for n in names if n in ("MEMORY.md", "USER.md")]
    if not mine:
        return False
    if all(_hermes_name(n) for n in names):
        return True
    return any(SEPARATOR in _head(os.path.join(folder, n)) for n in mine)


def _hermes_name(name: str) -> bool:
    base, _, rest = name.partition(".md")
    if base not in ("MEMORY", "USER"):
        return name == "archived.jsonl"
    return not rest or rest == ".lock" or (rest.startswith(".bak.") and rest[5:].isdigit())


def _names(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _head(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read(PEEK).decode("utf-8", "replace")
    except OSError:
        return ""
