"""Where Claude Code keeps auto memory on this machine (`memtui stores`), as
src/memdir/paths.ts getAutoMemPath resolves it (2.1.88 source; 2.1.332 bundle):

1. `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE` (a full path, no `~` expansion);
2. `autoMemoryDirectory` from the first settings source that sets it, in this order:
   policy (managed-settings.json, then its managed-settings.d/*.json drop-ins), local
   `.claude/settings.local.json` and project `.claude/settings.json` (2.1.332 reads
   these two only in a trusted folder; the 2.1.88 source never reads the project one),
   then user `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR`); `~/` is expanded, and a
   relative, near-root or NUL-holding path is refused, as validateMemoryPath does;
3. else `<config home>/projects/<project>/memory` (`$CLAUDE_CODE_REMOTE_MEMORY_DIR`
   replaces the config home).

Team memory stores: `CLAUDE_MEMORY_STORES`, a JSON list of memory-service paths or of
`{"path", "mount", ...}` objects (memdir's memory-stores parser). Each is synced into
`<auto memory folder>/team/<mount>/` (mount: the path's last segment, `[^A-Za-z0-9_-]`
made `-`), where recall reads it with the rest; each such folder that exists is listed
too, and detection decides whether it has a Claude folder's shape.

A settings file that is missing, unreadable, over 2 MiB or not a JSON object is
skipped, as Claude skips it; nothing here raises.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from typing import Any

from memtui.engine.paths import subfolders

MANAGED = {  # managed settings folder per platform (settings/managedPath.ts)
    "darwin": "/Library/Application Support/ClaudeCode",
    "win32": "C:\\Program Files\\ClaudeCode",
}
MANAGED_DEFAULT = "/etc/claude-code"
MOUNT = re.compile(r"[A-Za-z0-9_-]+")
SETTINGS_MAX = 2 * 1024 * 1024  # CHANGELOG 2.1.214: oversized (>2 MiB) settings fail


def config_home(home: str, env: Mapping[str, str]) -> str:
    return env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")


def memory_places(home: str, env: Mapping[str, str], cwd: str | None = None) -> list[str]:
    """Every project's memory folder, the moved one (override or setting) and the
    team stores, in that order."""
    base = env.get("CLAUDE_CODE_REMOTE_MEMORY_DIR") or config_home(home, env)
    found = [os.path.join(p, "memory") for p in subfolders(os.path.join(base, "projects"))]
    moved = memory_dir_setting(home, env, cwd)
    if moved:
        found.append(moved)
    mounts = team_mounts(env)
    found += [os.path.join(p, "team", m) for p in list(found) for m in mounts]
    return list(dict.fromkeys(p for p in found if os.path.isdir(p)))


def memory_dir_setting(home: str, env: Mapping[str, str], cwd: str | None = None) -> str | None:
    override = _valid(env.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"), home, tilde=False)
    if override:
        return override
    for settings in _sources(home, env, cwd if cwd is not None else _cwd()):
        value = settings.get("autoMemoryDirectory")
        if value is not None:  # the first source that sets it wins, valid or not
            return _valid(value if isinstance(value, str) else None, home, tilde=True)
    return None


def team_mounts(env: Mapping[str, str]) -> list[str]:
    """The mount folder of each store CLAUDE_MEMORY_STORES names; none when Claude would
    refuse the variable (not a JSON list, an entry without an absolute path, a bad or
    twice-used mount)."""
    raw = (env.get("CLAUDE_MEMORY_STORES") or "").strip()
    try:
        entries = json.loads(raw) if raw else []
    except ValueError:
        return []
    mounts: list[str] = []
    for entry in entries if isinstance(entries, list) else [None]:
        given = entry.get("mount") if isinstance(entry, dict) else None
        path = entry.get("path") if isinstance(entry, dict) else entry
        if not (isinstance(path, str) and path.startswith("/")):
            return []
        mount = given if given is not None else _mount_of(path)
        if not (isinstance(mount, str) and MOUNT.fullmatch(mount)) or mount in mounts:
            return []
        mounts.append(mount)
    return mounts


def _mount_of(path: object) -> str | None:
    """memory-stores' mount name from a store path: its last segment, made safe."""
    if not isinstance(path, str):
        return None
    last = path.rstrip("/").rpartition("/")[2]
    return re.sub(r"[^A-Za-z0-9_-]", "-", last) or None


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def _sources(home: str, env: Mapping[str, str], cwd: str | None) -> list[dict[str, Any]]:
    managed = MANAGED.get(sys.platform, MANAGED_DEFAULT)
    policy = _read(os.path.join(managed, "managed-settings.json"))
    try:
        drop_ins = sorted(f for f in os.listdir(os.path.join(managed, "managed-settings.d"))
                          if f.endswith(".json") and not f.startswith("."))  # fmt: skip
    except OSError:
        drop_ins = []
    for name in drop_ins:  # later drop-ins override earlier ones and the base file
        policy |= _read(os.path.join(managed, "managed-settings.d", name))
    project = [] if cwd is None else [
        _read(os.path.join(cwd, ".claude", "settings.local.json")),
        _read(os.path.join(cwd, ".claude", "settings.json")),
    ]  # fmt: skip
    user = _read(os.path.join(config_home(home, env), "settings.json"))
    return [policy, *project, user]


def _read(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            data = fh.read(SETTINGS_MAX + 1)
        if len(data) > SETTINGS_MAX:
            return {}
        got = json.loads(data.decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return {}
    return got if isinstance(got, dict) else {}


def _valid(raw: str | None, home: str, *, tilde: bool) -> str | None:
    """validateMemoryPath: `~/` expanded (not a bare `~`, nor one that leads to home
    or above it), normalized, refused when relative, shorter than 3, a drive root, a
    UNC path or holding a NUL."""
    if not raw:
        return None
    candidate = raw
    if tilde and raw.startswith(("~/", "~\\")):
        rest = os.path.normpath(raw[2:] or ".")
        if rest in (".", "..") or rest.startswith(("../", "..\\")):
            return None
        candidate = os.path.join(home, raw[2:])
    normalized = os.path.normpath(candidate).rstrip("/\\")
    if (
        not os.path.isabs(normalized)
        or len(normalized) < 3
        or normalized.startswith(("\\\\", "//"))
        or "\0" in normalized
    ):
        return None
    return normalized
