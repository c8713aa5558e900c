"""What a layout is to the engine: every member it may have, the optional ones with
their defaults. A layout package (memtui/layouts/<name>/, or a third party's) subclasses
`Detection` in a light module (what listing and searching a store import) and `Layout`
in its full one; the `memtui.layouts` entry point names the detection class, whose
`full` names the layout class (engine.layouts.registry)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.listing import Listing
from memtui.engine.layouts.queue_spec import QueueFace, QueueOption
from memtui.engine.paths import LOCK_NAME

if TYPE_CHECKING:
    import datetime as dt
    import random

    from memtui.demo.common import Sink
    from memtui.engine.commands import Command
    from memtui.engine.fixes import Planner
    from memtui.engine.model import ContextFile, Entry, Mood, OutlineItem
    from memtui.engine.ops.replace import EditedText
    from memtui.engine.queue import QueueItem, QueuePreview
    from memtui.engine.reader import StoreReader
    from memtui.engine.statements import Statement
    from memtui.engine.store import Store
    from memtui.engine.timeline import Timeline
    from memtui.engine.write.transaction import Receipt, Transaction

__all__ = ["Detection", "Layout", "Listing", "there"]


def there(top: Listing, rel: str) -> bool:
    """A file by that name is there, readable or not: a FIFO for an index is still the
    store's index, reported unreadable (the listing's `others`)."""
    return rel in top.files or rel in top.others


class Detection:
    """A layout's detection alone: importable without its parser."""

    name: str = ""
    looks_for: str = ""  # what detect() looks for, for "holds no memory store"
    title: str = ""  # what it holds, in words (`memtui demo --help`), e.g. "an agent's home"
    full: str = ""  # "module:Class" of its Layout, imported when the store is parsed
    # Detection order, lowest first (entry points come in no order): what a store lists
    # its layouts by. The built-ins take 10-60; a third party without one comes after.
    order: int = 100
    # The root dotfiles it reads (engine.home): no other root dotfile is ever shown (an
    # agent home's .env holds API keys).
    dotfiles: tuple[str, ...] = ()
    # Whether its root is an agent's whole home rather than a memory folder (~/.<agent>): the
    # store is then only the files is_memory() says are memory.
    home: bool = False
    # Whether it keeps an approval queue whose ids `queued` can find from the disk alone.
    keeps_queue: bool = False
    # The options its queue's approve takes beyond the ids, as data: here, on the
    # detection, so the CLI's parsers offer them without importing a parser.
    queue_options: tuple[QueueOption, ...] = ()

    def detect(self, top: Listing) -> bool:
        raise NotImplementedError

    # "module:NAME" of its tuple of Commands, imported when asked (a name, as `full` is:
    # the detection imports nothing of the commands' modules, nor they of it, no cycle)
    commands_at: str = ""

    def commands(self) -> tuple[Command, ...]:
        """What the faces offer for it (engine.commands): `memtui add <name>`, maintain,
        the palette. Data only: declaring them imports nothing of their write path."""
        if not self.commands_at:
            return ()
        from importlib import import_module

        module, _, name = self.commands_at.partition(":")
        return tuple(getattr(import_module(module), name))

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """Folders below the root it reads beyond the shared ones: (folder, recursive)."""
        return []

    def locks(self, rel: str) -> list[str]:
        """The lock files a change to `rel` must hold (asked by every write, which imports
        no parser for it): by default memtui's own, which the seed agents' bash takes."""
        return [LOCK_NAME]

    def held(self, root: str, rel: str) -> str | None:
        """Why the agent holds `rel` right now by a lock of its own that no flock can
        take (a lock file naming a live process), as the refusal's reason; None: free.
        Asked of every detection before a change reads `rel` (a stat, a small read)."""
        return None

    # ---- thresholds, usual places, bare ids, log keys (declared by the engine-core work:
    # on the detection, as memtui.toml, `memtui stores`, a bare id and the log are
    # answered without a parser)

    # Its thresholds: name -> default (an int or a float). memtui.toml's one flat
    # [thresholds] table sets them by these names (engine.config).
    thresholds: dict[str, int | float] = {}
    # The folders below a root whose files its detection needs in a quick look (two
    # folder listings: engine.detection.layouts_at), beside the root's own.
    peeks: tuple[str, ...] = ()
    # Where its stores usually are, in words, for `memtui stores` ("~/.<agent>/memory").
    looked_in: str = ""
    # The store opened when none is given and the current folder is none (SPEC §6),
    # if it exists (a path under ~).
    default_store: str = ""
    # The keys of its own verbs' audit details that name its entries -> the prefix that
    # makes each an id ({"accepted": "<kind>:"}) (engine.oplog).
    log_ids: dict[str, str] = {}

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        """The folders its stores usually are in on this machine (`memtui stores`)."""
        return []

    def bare_kind(self, ref: str) -> str | None:
        """The kind of its own an id given without one means (an event's number, a
        memory's file name), or None; asked in detection order, the first to say wins."""
        return None

    def is_memory(self, rel: str) -> bool:
        """For a `home` layout: whether a file found under the root is memory."""
        return True

    def after_change(self, root: str, receipt: Receipt) -> None:
        """Called after every change memtui makes in any store (written, read back and
        audited, memtui's lock still held), an undo or a rollback included: a layout whose
        agent sees a change only once it is recorded (a commit to its git repository)
        records it here when `root` is its store, checked cheaply, and may say what it did
        in `receipt.details`. Nothing by default; it never raises for what a user or an
        agent can cause."""

    def queued(self, root: str, names: list[str]) -> list[tuple[str, str]]:
        """(name, full id) of each bare id in `names` its queue holds, from the disk alone
        (engine.queue.full_ids)."""
        return []

    def history_of(self, root: str, rel: str) -> list[tuple[str, int]]:
        """The agent's own earlier copies of `rel` (path from the root, when: Unix
        seconds), shown as its history beside memtui's snapshots (`memtui history`,
        `diff`, `rollback`, the app's history screen), never as memory; from the disk
        alone (a listing), asked of every layout: none unless `rel` is its own."""
        return []


class Layout(Detection):
    """A whole layout: parsing, entries, outline, context and its own operations."""

    kinds: tuple[str, ...] = ()  # the entry-id prefixes it owns (`topic`, `event`, ...)
    loads: tuple[tuple[str, int | None], ...] = ()  # (file, line cap) the agent is given
    # For a face's confirm: where archiving moves an entry, and restoring takes it from.
    archived_to: str = "under archive/ and leaves the index"
    restored_from: str = "from archive/ to where it was"

    def parse(self, reader: StoreReader, top: Listing) -> Any:
        raise NotImplementedError

    def knows(self, rel: str) -> bool:
        """Whether `rel` is one of the files it reads (by name or by its pattern): found
        there as no regular file (a FIFO, a folder), the store reports it unreadable."""
        return False

    def file_of(self, kind: str, name: str) -> str | None:
        """The file an id `kind:name` of its own lives in, from the id alone (no parse):
        a refusal names that file when it could not be read."""
        return None

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        """Its typed entries; `titles=False` may leave costly titles empty, and
        `events=False` leaves out entries known only by their neighbours."""
        return iter(())

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.engine.layouts.common import by_file

        return by_file(list(self.entries(data, titles=True)))

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        """What its agent loads at session start (SPEC §3c): by default each of `loads`."""
        from memtui.engine.layouts.common import whole_or_cut

        got = (whole_or_cut(store, rel, cap) for rel, cap in self.loads)
        return [c for c in got if c is not None]

    def statements(self, store: Store, data: Any, rel: str) -> list[Statement]:
        """What `rel` tells the agent, one statement at a time, in file order: what the
        cut-correction rule compares across the file's cut (engine.cut_correction) and
        moves. By default each line with text (engine.statements.by_line). Made of the
        file's text alone: a reopen gives back the rule's answer for a file whose text
        and cut are unchanged, without asking again."""
        from memtui.engine.statements import by_line

        tf = store.texts.get(rel)
        return by_line(tf.text) if tf is not None else []

    def demo(self, sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
        """Write its part of `memtui demo` through `sink` (its own subfolder unless it
        shares the root with the seeds), deterministic for (rng, size, today); return
        what it wrote, counted ({"events": 40, ...}). Every layout brings one."""
        raise NotImplementedError(f"the {self.name} layout brings no demo")

    # ---- findings, thresholds, fixes, edit, ids (declared by the engine-core work)

    # Every finding code its parse may give: code -> (default level, what it means)
    # (SPEC §5). Codes are a contract: never rename. The shared ones (unreadable,
    # path-escape, ...) are the engine's (engine.findings).
    codes: dict[str, tuple[str, str]] = {}
    # Its thresholds are declared on its detection (Detection.thresholds).

    def fixes(self) -> Mapping[str, Planner]:
        """Its quick fixes: finding code -> planner (engine.fixes); none by default."""
        return {}

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        """Replace the text of its entry `kind:name` through one transaction with read-back
        (most through engine.ops.replace.replace_entry). The engine passes the options
        entry_id (as given, for messages), seen_text, expect, insist and dry_run."""
        from memtui.engine.layouts.common import refused

        raise refused(f"{kind}:{name}: {self.name} entries of this kind are not edited")

    def check_edit(self, change: EditedText) -> None:
        """Refuse (Refused) an edit of one of its files that breaks one of its rules;
        asked of every layout found in the root, whichever owns the entry edited."""

    def read_only(self, root: str, rel: str) -> str | None:
        """Why `rel` is kept read-only unless the user insists (None: it is not)."""
        return None

    # What `memtui index` rebuilds of its own, in words ("": nothing).
    generates: str = ""

    def plan_generated(self, tx: Transaction) -> bool:
        """Plan its generated parts, rebuilt from its memory, into `tx` (`memtui index`,
        one transaction for every layout); whether anything changes."""
        return False

    def find(
        self, store: Store, data: Any, kind: str, name: str, expect: str | None
    ) -> Entry | None:
        """Its entry `kind:name` where the listed ids alone cannot find it (an id that
        depends on its neighbours); None: the lookup by listed id goes on."""
        return None

    def entry_at(self, data: Any, rel: str, line: int) -> str | None:
        """The id of its entry holding `line` of `rel` where the spans alone cannot say
        it (ids by neighbours); None: the narrowest span decides."""
        return None

    def file_history(self, root: str, rel: str) -> list[dict[str, str]]:
        """Its agent's own record of `rel`'s past versions, newest first, each
        {"version", "time", "who", "what"} (a git log, say): `memtui history` lists it
        beside memtui's snapshots. None by default."""
        return []

    def restorable(self, rel: str) -> tuple[str, str] | None:
        """(verb, id) that restores archived file `rel` (an archive/ row's x), or None."""
        return None

    def heat(self, data: Any) -> Mapping[str, int]:
        """How often its agent read each file (a row's 🔥 badge); none by default."""
        return {}

    # ---- queue: one QueueItem model for every layout (declared by the queue work)

    # How the faces speak of its queue and what they offer on it (words, `e`, ...).
    queue_face: QueueFace = QueueFace()

    def queue(self, store: Store, data: Any) -> list[QueueItem]:
        """Its approval queue in this snapshot, in the order shown (engine.queue.items)."""
        return []

    def queue_blocked(self, store: Store, data: Any) -> str | None:
        """What stops every approve of its queue now, in words the faces say first (a
        bookkeeping file that does not parse), or None."""
        return None

    def preview(self, root: str, item_id: str) -> QueuePreview:
        """What approving one item would change now (its diffs, gauges) or why it would be
        refused; writes nothing."""
        from memtui.engine.layouts.common import refused

        raise refused(f"{item_id}: the {self.name} layout keeps no queue")

    def preview_together(self, root: str, ids: list[str]) -> QueuePreview | None:
        """What approving these items at once would change (`queue_face.together`);
        None: each is previewed on its own."""
        return None

    def approve(self, root: str, ids: list[str], **shown: Any) -> list[Receipt]:
        """Approve items of its queue, each as its agent would apply it or refused with the
        reason (options: expect, expected fingerprints as shown, dry_run, and the
        `queue_options` it declares)."""
        from memtui.engine.layouts.common import refused

        raise refused(f"{', '.join(ids)}: the {self.name} layout keeps no queue")

    def reject(self, root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
        """Take items out of its queue unapplied, the reason kept (options as approve's)."""
        from memtui.engine.layouts.common import refused

        raise refused(f"{', '.join(ids)}: the {self.name} layout keeps no queue")

    # ---- commands, timeline, summary for the faces (declared by the faces work)

    def summary(self, data: Any) -> list[str]:
        """Its line(s) of the one-screen summary (`memtui PATH` without a terminal)."""
        return []

    def details(self, store: Store, data: Any, entry: Entry) -> dict[str, Any]:
        """What `show --json` adds for one of its entries (an event's fields, ...)."""
        return {}

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.layouts.common import refused

        raise refused(f"{kind}:{name}: {self.name} entries of this kind are not archived")

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.layouts.common import refused

        raise refused(f"{kind}:{name}: {self.name} entries of this kind are not restored")

    # The faces' own views it feeds: "timeline" (its `timeline`: the Events pane, `memtui
    # events`) and "mood" (its `mood`: the Mood pane, `memtui mood`). A view's tab shows
    # in a store where some layout feeds it.
    views: frozenset[str] = frozenset()
    # The states `mark` sets on its entries, by kind ({"event": ("done", "open")}).
    marks: dict[str, tuple[str, ...]] = {}
    # Where `archive(..., item=)` moves an item of an entry, for a face's confirm.
    item_archived_to: str = "to the archive"

    def timeline(self, store: Store, data: Any) -> Timeline | None:
        """Its dated entries (open or done, due or not), sorted once, newest first, the
        overdue ones marked (engine.timeline); None when it keeps none."""
        return None

    def archived_timeline(self, store: Store, data: Any) -> tuple[Timeline | None, str | None]:
        """What it archived out of its timeline, read on demand (the Events pane's `v`),
        and why there is none if it can't be read."""
        return None, None

    def mark(self, root: str, kind: str, name: str, state: str, **shown: Any) -> Receipt:
        """Set its entry `kind:name` to `state`, one of `marks[kind]` (`memtui done` and
        `reopen` set "done" and "open"; options: expect, dry_run), in one transaction."""
        from memtui.engine.layouts.common import refused

        raise refused(f"{kind}:{name}: {self.name} entries of this kind are not marked {state}")

    def mood(self, data: Any) -> Mood | None:
        """Its agent's mood over time (the Mood pane, `memtui mood`); None: it keeps none."""
        return None

    def items(self, store: Store, data: Any, kind: str, name: str) -> list[str]:
        """The items inside its entry `kind:name` that `archive(..., item=)` moves one of
        (x in the tree asks which first): none by default."""
        return []

    def archived_items(self, store: Store, data: Any) -> tuple[list[tuple[str, str]], str | None]:
        """(entry id, item) of each item it archived out of an entry, read on demand, for
        `restore(..., item=)`; and why there are none if they can't be read."""
        return [], None
