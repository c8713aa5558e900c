"""The build compiles the message catalogues: each memtui/locale/<lang>/LC_MESSAGES/
memtui.po becomes its .mo with Babel (the .mo is never committed). A wheel gets them
from a temporary folder; an editable install (`pip install -e`) gets them in the source
tree's memtui/locale (gitignored), where the running package looks."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LOCALE = Path("memtui", "locale")


def compile_catalogues(root: Path, out: Path | None = None) -> list[Path]:
    """Every .po under root's memtui/locale compiled (fuzzy entries left out, as msgfmt
    does) to its .mo, beside it or under `out` at the same relative path; the paths
    written, relative to their base. Written whole then renamed: no reader sees half."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    base = root if out is None else out
    written = []
    for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po")):
        rel = po.relative_to(root).with_suffix(".mo")
        with po.open("rb") as f:
            catalog = read_po(f)
        target = base / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        part = target.with_name(target.name + f".{os.getpid()}.part")
        with part.open("wb") as f:
            write_mo(f, catalog)
        part.replace(target)
        written.append(rel)
    return written


class CatalogueHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return  # the sdist ships the .po; its wheel compiles them
        root = Path(self.root)
        if version == "editable":  # the package runs from the source tree
            compile_catalogues(root)
            return
        self._temp = Path(tempfile.mkdtemp(prefix="memtui-mo-"))
        for rel in compile_catalogues(root, self._temp):
            build_data["force_include"][str(self._temp / rel)] = rel.as_posix()

    def finalize(self, version: str, build_data: dict[str, Any], artifact: str) -> None:
        temp = getattr(self, "_temp", None)
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
