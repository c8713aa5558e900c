"""Worker: accept every pending dsh candidate in chunks, as a real process.

    python bulk_accept.py ROOT [CHUNK_SIZE]

Calls ``memtui.layouts.dsh.ops.accept(root, all_pending=True, chunk_size=N)``; the crash
tests set MEMTUI_CRASH_AT to kill it in the middle of one chunk's transaction.
"""

from __future__ import annotations

import sys

from memtui.layouts.dsh.ops import accept


def main(root: str, chunk_size: int) -> int:
    result = accept(root, all_pending=True, chunk_size=chunk_size)
    print(repr(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10))
