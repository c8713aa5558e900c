"""What the memory tool's `view` returns for a directory, as the SDK's own backend
renders it (anthropic-sdk-python `src/anthropic/lib/tools/_beta_builtin_memory_tool.py`,
BetaLocalFilesystemMemoryTool.view and _format_file_size): a header line, then the
directory's own size and path, then each item up to two levels deep, sorted by name
within its folder, hidden names (a leading ".") and what cannot be stat'ed left out,
a folder with a trailing "/", each row `SIZE<TAB>/memories/PATH`. Sizes are the
filesystem's (a folder's is its entry's size, 4K on most), in 1024 steps.
Read from the disk as the tool reads it, at the moment `context` asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEPTH = 2  # collect_items: `if depth > 2: return`; folders below the second not entered
HEADER = "Here're the files and directories up to 2 levels deep in {path}, excluding hidden items:"
UNITS = ("B", "K", "M", "G")


@dataclass(frozen=True, slots=True)
class Row:
    size: str
    path: str  # from /memories; a folder's ends with "/"

    @property
    def is_dir(self) -> bool:
        return self.path.endswith("/")


def size_text(n: int) -> str:
    """_format_file_size: 0B, 512B, 1.5K, 4K, 2.0M (one decimal unless whole)."""
    if n == 0:
        return "0B"
    i = min((n.bit_length() - 1) // 10, len(UNITS) - 1)
    size = n / (1024**i)
    return f"{int(size)}{UNITS[i]}" if size == int(size) else f"{size:.1f}{UNITS[i]}"


def rows(folder: str) -> list[Row]:
    """The items `view` lists under `folder`, in its order."""
    out: list[Row] = []
    _collect(Path(folder), "", 1, out)
    return out


def _collect(folder: Path, rel: str, depth: int, out: list[Row]) -> None:
    if depth > DEPTH:
        return
    try:
        items = sorted(folder.iterdir(), key=lambda p: p.name)
    except Exception:  # the SDK's own `except Exception: return`
        return
    for item in items:
        if item.name.startswith("."):
            continue
        path = f"{rel}/{item.name}" if rel else item.name
        try:
            size = item.stat().st_size
        except Exception:
            continue
        if item.is_dir():
            out.append(Row(size_text(size), f"{path}/"))
            if depth < DEPTH:
                _collect(item, path, depth + 1, out)
        elif item.is_file():
            out.append(Row(size_text(size), path))


def head(folder: str, path: str = "/memories") -> list[str]:
    """The header and the directory's own row; [] when it cannot be stat'ed."""
    try:
        size = Path(folder).resolve().stat().st_size
    except OSError:
        return []
    return [HEADER.format(path=path), f"{size_text(size)}\t{path}"]


def line(row: Row, path: str = "/memories") -> str:
    return f"{row.size}\t{path}/{row.path}"
