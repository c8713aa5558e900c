"""How a Letta Code memory repository (MemFS, SPEC §3b "More agents") is recognised,
without its parser: listing and searching a store import only this.

Letta Code keeps an agent's memory as a git repository of Markdown files with front
matter: `~/.letta/agents/<agent-id>/memory` (letta-ai/letta-code
`src/agent/memory-filesystem.ts` getMemoryFilesystemRoot), with the local backend
`~/.letta/lc-local-backend/memfs/<agent-id>/memory` (`$LETTA_LOCAL_BACKEND_DIR`:
`src/backend/local/paths.ts`), or the folder `$LETTA_MEMORY_DIR` / `$MEMORY_DIR` names
(resolveScopedMemoryDir). Its `system/` holds the blocks compiled into every prompt.
A store is a folder whose `system/` holds a `.md` file with front matter (place.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection
from memtui.engine.paths import LAYOUT_DIRS, subfolders
from memtui.i18n import N_, msg
from memtui.layouts.letta.place import THRESHOLDS, repo_at

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.write.transaction import Receipt


class LettaDetection(Detection):
    name = "letta"
    looks_for = N_("a git repository whose system/ holds .md files with front matter (letta)")
    title = msg("a Letta Code memory repository (MemFS)")
    full = "memtui.layouts.letta.layout:Letta"
    order = 90
    thresholds = THRESHOLDS
    looked_in = "~/.letta/agents/*/memory, $LETTA_MEMORY_DIR, $MEMORY_DIR"

    def detect(self, top: Listing) -> bool:
        return repo_at(top.root)

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """Every folder of the repository but git's own and hidden ones, walked whole:
        the agent lists every committed file (its external memory) by path."""
        shared = dict(LAYOUT_DIRS)
        out = []
        for name in _folders(top.root):
            if name not in shared:
                out.append((name, True))
            elif not shared[name]:
                out += [(f"{name}/{sub}", True) for sub in _folders(os.path.join(top.root, name))]
        return out

    def after_change(self, root: str, receipt: Receipt) -> None:
        """Every change memtui makes here (an edit, an archive, an undo, a rollback) is
        committed, so that the agent loads it: what it does is said in the receipt."""
        if not repo_at(root):
            return
        from memtui.layouts.letta.ops import commit_change

        commit_change(root, receipt)

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        found = [*subfolders(os.path.join(home, ".letta", "agents"))]
        local = env.get("LETTA_LOCAL_BACKEND_DIR") or os.path.join(
            home, ".letta", "lc-local-backend"
        )
        found += subfolders(os.path.join(local, "memfs"))
        found = [os.path.join(p, "memory") for p in found]
        found += [env[k] for k in ("LETTA_MEMORY_DIR", "MEMORY_DIR") if env.get(k, "").strip()]
        return list(dict.fromkeys(found))


def _folders(path: str) -> list[str]:
    """The folder's subfolders by name, hidden ones and links to folders aside."""
    return [
        os.path.basename(p) for p in subfolders(path) if os.path.isdir(p) and not os.path.islink(p)
    ]
