"""Regenerate screenshots/*.svg: each pane of the app on the demo store.

    .venv/bin/python scripts/screenshots.py

The store is the deterministic demo (--size 1) with "today" pinned, so the
pictures only change when the UI does. The CHINESE ones are drawn in zh_CN (from the
compiled catalogue, memtui/locale/zh_CN/LC_MESSAGES/memtui.mo: `pip install -e .`
or the tests make it).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import shutil
import tempfile
from pathlib import Path

from memtui import i18n
from memtui.demo import write_demo
from memtui.ui.app import MemtuiApp

OUT = Path(__file__).resolve().parent.parent / "screenshots"
TODAY = dt.date(2026, 11, 29)
SHOTS = (  # (file name, the demo's folder it opens, keys pressed before the picture)
    ("index-and-file", "", ("1", "down", "enter")),
    ("events", "", ("3",)),
    ("mood", "", ("4",)),
    ("pending", "", ("5",)),
    ("warnings", "", ("6",)),
    ("search", "", ("slash", *"deploy")),
    ("help", "", ("question_mark",)),
    ("context", "", ("c",)),
    ("hermes-queue", "hermes", ("5", "down", "down")),  # a staged replace: its diff and gauge
    ("claude-context", "claude", ("c",)),  # Claude's 200-line cut
)
CHINESE = (("zh-cn-events", "", ("3", "down", "down")),)  # the README's Chinese screen


async def shoot(root: Path, name: str, keys: tuple[str, ...]) -> None:
    app = MemtuiApp(str(root), watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        while app.store is None:
            await pilot.pause(0.01)
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause(0.5)  # debounced previews and searches
        app.save_screenshot(filename=f"{name}.svg", path=str(OUT))


def main() -> None:
    os.environ["MEMTUI_TODAY"] = TODAY.isoformat()
    root = Path(tempfile.gettempdir()) / "memtui-demo"  # a fixed path: the header shows it
    shutil.rmtree(root, ignore_errors=True)
    write_demo(root, size=1, today=TODAY)
    OUT.mkdir(exist_ok=True)
    for name, folder, keys in SHOTS:
        asyncio.run(shoot(root / folder if folder else root, name, keys))
        print(f"screenshots/{name}.svg")
    if not (i18n.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "memtui.mo").exists():
        raise SystemExit("no compiled zh_CN catalogue: pip install -e . (or run the tests) first")
    i18n.use("zh_CN")
    for name, folder, keys in CHINESE:
        asyncio.run(shoot(root / folder if folder else root, name, keys))
        print(f"screenshots/{name}.svg")
    i18n.use("en")


if __name__ == "__main__":
    main()
