"""How Gemini CLI's memory (SPEC §3b "More agents": gemini) is recognised, without its
parser: listing and searching a store import only this (layouts.detectors()).

Two kinds of store, both read as the agent reads them (google-gemini/gemini-cli
`packages/core/src/utils/memoryDiscovery.ts`, `tools/memoryTool.ts`, `config/storage.ts`):
- a Gemini home (`~/.gemini`, or `$GEMINI_CLI_HOME/.gemini`): its global context files
  (`GEMINI.md`, or the names `settings.json` gives in `context.fileName`, GEMINI.md
  after them) and each project's private memory, `tmp/<project-id>/memory/MEMORY.md`
  (a legacy `GEMINI.md` there when MEMORY.md is absent; getUserProjectMemoryPaths);
  known by its own files (`projects.json`, `installation_id`, ...) or its name;
- a project folder holding a context file at its root (Gemini CLI started there loads
  it; its `.gemini/settings.json` may name others). A folder another layout also reads
  (a Claude, OpenClaw or Cline folder) that holds a GEMINI.md is a Gemini project as
  well, side by side: Gemini CLI started there does load it.
Either way the store is only the memory (`home`): the context files, the private
memory folders, the subfolders' context files (loaded just in time, when a tool
touches their folder), and memtui's archive book. `settings.json` is read for the
names, never shown (it may hold MCP servers' tokens).
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Mapping
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

GEMINI_DIR = ".gemini"  # paths.ts GEMINI_DIR
DEFAULT = "GEMINI.md"  # memoryTool.ts DEFAULT_CONTEXT_FILENAME
INDEX = "MEMORY.md"  # memoryTool.ts PROJECT_MEMORY_INDEX_FILENAME
TMP = "tmp"  # storage.ts getGlobalTempDir: <home>/tmp/<project-id>/memory
MEMORY_DIR = "memory"  # storage.ts getProjectMemoryTempDir
OWNER = ".project_root"  # projectRegistry.ts PROJECT_ROOT_FILE: the project's path
SETTINGS = "settings.json"  # storage.ts getGlobalSettingsPath
PROJECT_SETTINGS = f"{GEMINI_DIR}/settings.json"  # storage.ts getWorkspaceSettingsPath
# Files only a Gemini home holds (storage.ts): a folder with one of these is a home.
HOME_FILES = ("projects.json", "installation_id", "google_accounts.json", "oauth_creds.json")
# Archived sections and memories, one JSON line each with where they were (ops): a root
# dotfile Gemini CLI never reads (it reads only the context file names).
BOOK = ".gemini-memory-archive.jsonl"
SETTINGS_LIMIT = 1 << 20  # a settings.json larger than this is no one's settings
# Subfolders looked through for their context files, as the discovery's old breadth-first
# search did (settingsSchema.ts context.discoveryMaxDirs, default 200); hidden folders
# and node_modules aside.
MAX_DIRS = 200
SKIP_DIRS = frozenset({"node_modules"})

THRESHOLDS: dict[str, int | float] = {}  # Gemini CLI cuts no context file: no size cap


def is_home(root: str) -> bool:
    """Whether `root` is a Gemini home rather than a project (a few stats: the store's
    listing keeps none of these files)."""
    if os.path.basename(os.path.abspath(root)) == GEMINI_DIR:
        return True
    return any(os.path.isfile(os.path.join(root, name)) for name in HOME_FILES)


def settings_of(root: str, home: bool) -> Mapping[str, object] | str | None:
    """The settings that name the context files: the home's settings.json, a project's
    .gemini/settings.json; None when there is none, a reason when it does not parse."""
    from memtui.engine.rawfile import read_bytes

    got = read_bytes(os.path.join(root, SETTINGS if home else PROJECT_SETTINGS), SETTINGS_LIMIT)
    if isinstance(got, str):
        return None if "No such file" in got or "Not a directory" in got else got
    try:
        data = json.loads(strip_comments(got.decode("utf-8-sig")))
    except (ValueError, RecursionError) as exc:
        return msg("not JSON ({error})", error=str(exc))
    return data if isinstance(data, dict) else msg("not a JSON object")


def strip_comments(text: str) -> str:
    """settings.json as Gemini CLI reads it (strip-json-comments): `//` and `/* */`
    comments outside strings dropped."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def names_in(settings: Mapping[str, object] | str | None) -> tuple[str, ...]:
    """The context file names, in the order Gemini CLI looks for them in a folder: the
    configured ones (`context.fileName`, a string or a list; the v1 `contextFileName`),
    then GEMINI.md, which setGeminiMdFilename keeps after them (memoryTool.ts, since
    "made context files append instead of replace", #26950)."""
    wanted: object = None
    if isinstance(settings, Mapping):
        context = settings.get("context")
        if isinstance(context, Mapping):
            wanted = context.get("fileName")
        if wanted is None:
            wanted = settings.get("contextFileName")
    given = [wanted] if isinstance(wanted, str) else wanted if isinstance(wanted, list) else []
    names = []
    for name in given:
        if isinstance(name, str) and name.strip():
            norm = posixpath.normpath(name.strip())
            if not norm.startswith(("/", "../")) and norm != "..":
                names.append(norm)
    return tuple(dict.fromkeys([*names, DEFAULT]))


def markers_in(settings: Mapping[str, object] | str | None) -> tuple[str, ...]:
    """What marks a project root (settings `context.memoryBoundaryMarkers`, default
    `.git`: config.ts); an empty list stops the upward search at once."""
    context = settings.get("context") if isinstance(settings, Mapping) else None
    given = context.get("memoryBoundaryMarkers") if isinstance(context, Mapping) else None
    if not isinstance(given, list):
        return (".git",)
    return tuple(
        m for m in given if isinstance(m, str) and m and not os.path.isabs(m) and ".." not in m
    )


def context_names(root: str, home: bool) -> tuple[str, ...]:
    return names_in(settings_of(root, home))


def private_dirs(root: str) -> list[str]:
    """`tmp/<project-id>/memory` of each project with private memory (from the root)."""
    tmp = os.path.join(root, TMP)
    try:
        with os.scandir(tmp) as entries:
            ids = sorted(e.name for e in entries if e.name[0] != "." and is_folder(e))
    except OSError:
        return []
    return [
        f"{TMP}/{i}/{MEMORY_DIR}" for i in ids if os.path.isdir(os.path.join(tmp, i, MEMORY_DIR))
    ]


def subfolders_with(root: str, names: tuple[str, ...]) -> list[str]:
    """The folders below a project's root that hold one of its context files, breadth
    first, at most MAX_DIRS folders looked into."""
    plain = [n for n in names if "/" not in n]
    found, todo, seen = [], [""], 0
    while todo and seen < MAX_DIRS:
        parent = todo.pop(0)
        seen += 1
        try:
            with os.scandir(os.path.join(root, parent)) as entries:
                listed = list(entries)
        except OSError:
            continue
        if parent and any(e.name in plain for e in listed):
            found.append(parent)
        below = sorted(e.name for e in listed if is_folder(e) and e.name[0] != ".")
        todo += [f"{parent}/{n}" if parent else n for n in below if n not in SKIP_DIRS]
    return found


def is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


class GeminiDetection(Detection):
    name = "gemini"
    looks_for = N_("GEMINI.md (or settings' context.fileName), ~/.gemini/tmp/*/memory/ (gemini)")
    title = msg("Gemini CLI's GEMINI.md memory")
    full = "memtui.layouts.gemini.layout:Gemini"
    order = 80
    home = True  # only the memory is the store: never a project's code, a home's keys
    dotfiles = (BOOK,)
    thresholds = THRESHOLDS
    looked_in = "~/.gemini"

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        """The Gemini home: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini` (paths.ts homedir)."""
        base = env.get("GEMINI_CLI_HOME") or home
        return [os.path.join(os.path.expanduser(base), GEMINI_DIR)]

    def detect(self, top: Listing) -> bool:
        home = is_home(top.root)
        names = context_names(top.root, home)
        if any(n in top.files or n in top.others for n in names):
            return True
        return home and bool(private_dirs(top.root))

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """A home's private memory folders, walked whole; a project's subfolders that
        hold a context file, and the folders of its configured names' own folders."""
        home = is_home(top.root)
        if home:
            return [(d, True) for d in private_dirs(top.root)]
        names = context_names(top.root, home)
        nested = {posixpath.dirname(n) for n in names if "/" in n}
        return [
            (d, False) for d in dict.fromkeys([*sorted(nested), *subfolders_with(top.root, names)])
        ]

    def is_memory(self, rel: str) -> bool:
        """Markdown in the folders it lists (context files, private memory), the book."""
        if rel == BOOK:
            return True
        return rel.endswith(".md") and not any(p[:1] == "." for p in rel.split("/")[:-1])
