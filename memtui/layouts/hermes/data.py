"""Reading a Hermes home (SPEC §3b hermes): MEMORY.md and USER.md as §-entries with
their places, the limits from config.yaml, the approval queue, the archived entries."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memtui.engine.rawfile import not_readable
from memtui.engine.textfile import TextFile
from memtui.i18n import msg
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.detect import ARCHIVE
from memtui.layouts.hermes.replay import QUEUE, SKILLS, Record, parse_record, replay
from memtui.layouts.hermes.replay import ReplayRefused as Refusal

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader

BOM_CHAR = "\ufeff"


@dataclass(frozen=True, slots=True)
class MemoryFile:
    rel: str
    target: str  # memory | user
    tf: TextFile
    pieces: tuple[rules.Piece, ...]  # every entry as written (duplicates too)
    entries: tuple[str, ...]  # what Hermes loads: deduped
    limit: int
    drift: str | None  # why Hermes would refuse to rewrite it

    @property
    def chars(self) -> int:
        return rules.char_count(list(self.entries))


@dataclass(frozen=True, slots=True)
class Staged:
    """One file of the queue: its record, or why it is not one; and, for a memory write,
    why approving it would be refused now (None: it applies)."""

    rel: str
    text: str
    record: Record | None
    error: str | None  # not a record
    problem: str | None = None
    kind: str | None = None  # the refusal's kind (replay.ReplayRefused.kind)
    skill: bool = False

    @property
    def fingerprint(self) -> str:
        from memtui.engine.identity import fingerprint  # late: opening needs no write path

        return fingerprint(self.text)


@dataclass(frozen=True, slots=True)
class Archived:
    id: str
    target: str
    index: int  # 1-based place it had
    text: str
    line: int  # in ARCHIVE
    start: int = 0  # char offsets of its line
    stop: int = 0


@dataclass(frozen=True, slots=True)
class Loading:
    """What config.yaml's `memory:` says Hermes loads (hermes_cli/config.py's defaults:
    both files on, no provider): a file whose flag is off is in no prompt
    (agent/system_prompt.py: `if agent._memory_enabled:` / `_user_profile_enabled`);
    `provider` names the one external memory provider Hermes runs alongside the files
    (agent/agent_init.py: "external — one at a time, alongside built-in"), "" for none."""

    provider: str = ""
    off: frozenset[str] = frozenset()  # targets not loaded: memory | user

    def loaded(self, target: str) -> bool:
        return target not in self.off


@dataclass(frozen=True, slots=True)
class HermesData:
    files: tuple[MemoryFile, ...]
    limits: dict[str, int]
    queue: tuple[Staged, ...]  # pending/memory, oldest first
    skills: tuple[Staged, ...]  # pending/skills, shown read-only
    archived: tuple[Archived, ...]
    archive_errors: tuple[tuple[int, str], ...] = ()  # (line, why) of unusable lines
    loading: Loading = Loading()

    def file(self, target: str) -> MemoryFile | None:
        return next((f for f in self.files if f.target == target), None)


def limits_of(reader: StoreReader) -> dict[str, int]:
    """memory.memory_char_limit / memory.user_char_limit from config.yaml, else Hermes'
    defaults; a value Hermes could not use is reported (config-invalid) and defaulted."""
    tf = reader.read(rules.CONFIG)
    if tf is None:
        return dict(rules.DEFAULT_LIMITS)
    limits, problem = configured_limits(tf.text)
    if problem:
        v = {"file": rules.CONFIG, "problem": problem}
        v |= {"memory": rules.DEFAULT_LIMITS["memory"], "user": rules.DEFAULT_LIMITS["user"]}
        said = (
            msg(
                "{file}: {problem}; memtui counts against Hermes' default limits "
                "({memory:,} / {user:,} characters)",
                **v,
            )
            if problem == ALIASES
            else msg(
                "{file}: {problem}; Hermes falls back to its default limits "
                "({memory:,} / {user:,} characters)",
                **v,
            )
        )
        reader.findings.add("config-invalid", rules.CONFIG, None, said)
    return limits


def loading_of(reader: StoreReader) -> Loading:
    """memory.provider, memory.memory_enabled and memory.user_profile_enabled, read as
    Python reads them (truthiness; a provider's name stripped); a config.yaml Hermes
    cannot use leaves the defaults (limits_of reports it)."""
    tf = reader.read(rules.CONFIG)
    _problem, section = _memory_section(tf.text) if tf is not None else (None, None)
    if not section:
        return Loading()
    provider = section.get("provider")
    provider = provider.strip() if isinstance(provider, str) else ""
    off = (t for t, key in rules.ENABLED_KEYS.items() if not section.get(key, True))
    return Loading(provider, frozenset(off))


def configured_limits(text: str) -> tuple[dict[str, int], str | None]:
    """The limits config.yaml's text gives, as load_on_disk_store reads them: both
    `int(...)` in one try, memory's first, so when either fails both stay the defaults.
    And why the text is no usable config (None: it is)."""
    problem, section = _memory_section(text)
    limits = dict(rules.DEFAULT_LIMITS)
    for target, key in rules.LIMIT_KEYS.items():
        value = section.get(key, limits[target]) if section else limits[target]
        try:
            limits[target] = int(value)
        except (TypeError, ValueError, OverflowError):
            why = msg("memory.{key} is {value!r}, not a whole number", key=key, value=value)
            return dict(rules.DEFAULT_LIMITS), problem or why
    return limits, problem


# A few lines of nested aliases stand for gigabytes once expanded (or printed): refused
# before YAML builds anything, as front matter refuses them.
ALIASES = msg("it uses YAML anchors or aliases (&x, *x), which memtui does not expand")


def _memory_section(text: str) -> tuple[str | None, dict[str, Any] | None]:
    import yaml

    from memtui.engine.frontmatter import has_alias

    if has_alias(text):
        return ALIASES, None
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        said = " ".join(str(exc).split())[:200]
        return msg("it does not parse as YAML ({error})", error=said), None
    if data is None:
        return None, None
    section = data.get("memory") if isinstance(data, dict) else None
    if section is not None and not isinstance(section, dict):
        return msg("`memory:` is not a mapping"), None
    return None, section


def memory_file(reader: StoreReader, target: str, limit: int) -> MemoryFile | None:
    rel = rules.FILES[target]
    tf = reader.read(rel)
    if tf is None:
        return None
    found = tuple(rules.pieces(tf.text))
    # Hermes reads with encoding="utf-8": a BOM stays, as U+FEFF heading the first entry
    # (which its threat scan then blocks from the prompt).
    entries = tuple(rules.dedupe(rules.split_entries(with_bom(tf))))
    return MemoryFile(rel, target, tf, found, entries, limit, rules.drift(tf.text, limit))


def with_bom(tf: TextFile) -> str:
    """The text as Hermes reads it (`encoding="utf-8"`): a BOM is its first character."""
    return BOM_CHAR + tf.text if tf.bom else tf.text


def staged(
    reader: StoreReader, rel: str, data: dict[str, MemoryFile | None], limits: dict[str, int]
) -> Staged | None:
    tf = reader.read(rel)
    if tf is None:
        return None
    if rel.startswith(SKILLS + "/"):
        try:
            record = json.loads(tf.text)
            error = None if isinstance(record, dict) else "not a JSON object"
        except (ValueError, RecursionError) as exc:
            error = f"not JSON ({exc})"
        return Staged(rel, tf.text, None, error, skill=True)
    got = parse_record(rel, tf.text)
    if isinstance(got, str):
        return Staged(rel, tf.text, None, got)
    target = data.get(got.target)
    home = rules.FILES[got.target]
    if home in reader.unreadable:  # its file is unknown, not empty: no replay against ""
        return Staged(rel, tf.text, got, None, not_readable(home, reader.unreadable[home]))
    try:
        replay(got, with_bom(target.tf) if target else "", limits[got.target])
    except Refusal as exc:
        return Staged(rel, tf.text, got, None, str(exc), exc.kind)
    return Staged(rel, tf.text, got, None)


def queue_files(files: frozenset[str], folder: str) -> list[str]:
    return sorted(f for f in files if f.startswith(folder + "/") and f.endswith(".json"))


def archived(reader: StoreReader) -> tuple[tuple[Archived, ...], tuple[tuple[int, str], ...]]:
    tf = reader.read_archive(ARCHIVE)
    if tf is None:
        return (), ()
    found, bad = [], []
    pos = 0
    for n, line in enumerate(tf.text.split("\n"), 1):
        start, pos = pos, pos + len(line) + 1
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            item = Archived(
                str(rec["id"]),
                rec["target"],
                int(rec["index"]),
                str(rec["text"]),
                n,
                start,
                start + len(line),
            )
            if item.target not in rules.FILES:
                raise ValueError(item.target)
        except (ValueError, KeyError, TypeError, RecursionError):
            bad.append((n, "not an archived entry memtui wrote (id, target, index, text)"))
            continue
        found.append(item)
    return tuple(found), tuple(bad)


def read_home(reader: StoreReader) -> HermesData:
    limits = limits_of(reader)
    files = {t: memory_file(reader, t, limits[t]) for t in rules.FILES}
    queue = [staged(reader, rel, files, limits) for rel in queue_files(reader.files, QUEUE)]
    skills = [staged(reader, rel, files, limits) for rel in queue_files(reader.files, SKILLS)]
    done = [q for q in queue if q is not None]
    done.sort(key=lambda q: (q.record.created_at or 0) if q.record else 0)  # oldest first
    archived_items, bad = archived(reader)
    return HermesData(
        tuple(f for f in files.values() if f is not None),
        limits,
        tuple(done),
        tuple(s for s in skills if s is not None),
        archived_items,
        bad,
        loading_of(reader),
    )
