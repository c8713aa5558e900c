"""The workspace layout (SPEC §1) as a `Layout` over its parser."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import op_options
from memtui.engine.model import Entry, OutlineItem
from memtui.i18n import msg
from memtui.layouts.workspace import parse as workspace
from memtui.layouts.workspace.codes import CODES
from memtui.layouts.workspace.detect import WorkspaceDetection

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt


class Workspace(WorkspaceDetection, Layout):
    kinds = ("topic",)
    codes = CODES
    # the seed: soul/user/agent.md are injected by the bootstrap, memory.md up to its
    # 200-line bootstrap limit
    loads = (("soul.md", None), ("user.md", None), ("agent.md", None), (workspace.INDEX, 200))

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.workspace.demo import build_workspace

        return build_workspace(sink, rng, size, today)

    def fixes(self) -> Mapping[str, Any]:
        from memtui.layouts.workspace.fixes import FIXES  # late: the write path's

        return FIXES

    def parse(self, reader: StoreReader, top: Listing) -> Any:
        return workspace.parse(reader, list(top.root_files))

    def knows(self, rel: str) -> bool:
        return rel in (workspace.INDEX, *workspace.COMPANIONS) or (
            "/" not in rel and workspace.TOPIC_LIKE.fullmatch(rel) is not None
        )

    def file_of(self, kind: str, name: str) -> str | None:
        return f"memory_{name}.md"

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.workspace.outline import outline

        return outline(store, data)

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        # reversed: with several pointers to one file, the first one's description wins
        described = {p.target: p.description for p in reversed(data.pointers)}
        for name in data.topics:
            title = described.get(name, name)
            yield Entry(f"topic:{workspace.topic_id(name)}", "topic", self.name, title, name)

    def summary(self, data: Any) -> list[str]:
        return [
            msg(
                "memory.md {index_lines:,} lines, {count:,} topic files",
                index_lines=data.index_lines,
                count=len(data.topics),
            )
        ]

    def restorable(self, rel: str) -> tuple[str, str] | None:
        """An archived topic file (archive/memory_<name>.md)."""
        name = rel.removeprefix("archive/")
        if name != rel and "/" not in name and workspace.TOPIC_LIKE.fullmatch(name):
            return "restore", f"topic:{workspace.topic_id(name)}"
        return None

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        from memtui.layouts.workspace.edit import edit

        return edit(root, kind, name, new_text, **shown)

    def check_edit(self, change: Any) -> None:
        from memtui.layouts.workspace.edit import check_edit

        check_edit(change)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.workspace.ops import archive_topic

        return archive_topic(root, name, **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.workspace.ops import restore_topic

        return restore_topic(root, name, **op_options(shown))
