"""The zh_CN catalogue kept in step with the source, by Babel's own extraction.

    .venv/bin/python scripts/catalogue.py update   # new msgids added (empty), unused dropped
    .venv/bin/python scripts/catalogue.py compile  # the .mo now, as the build makes it
    .venv/bin/python scripts/catalogue.py check    # what tests/test_i18n_catalogue.py fails on

Extraction follows babel.cfg (keywords _, N_, ngettext:1,2, msg); then translate the
empty msgstr in memtui/locale/zh_CN/LC_MESSAGES/memtui.po, then compile (or reinstall:
the build compiles the .mo; the tests compile it afresh too).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

REPO = Path(__file__).resolve().parent.parent
PO = REPO / "memtui" / "locale" / "zh_CN" / "LC_MESSAGES" / "memtui.po"


def extract() -> Catalog:
    """Every marked string of memtui/, as `pybabel extract -F babel.cfg` finds them."""
    with (REPO / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    template = Catalog(project="memtui", charset="utf-8")
    for file, line, message, comments, context in extract_from_dir(REPO, method_map, options_map):
        template.add(message, None, [(file, line)], auto_comments=comments, context=context)
    return template


def read() -> Catalog:
    with PO.open("rb") as f:
        return read_po(f, locale="zh_CN")


def write(catalog: Catalog) -> None:
    with PO.open("wb") as f:
        write_po(f, catalog, ignore_obsolete=True, include_previous=False)


def update() -> None:
    catalog = read()
    template = extract()
    template.creation_date = catalog.creation_date  # no header churn on each update
    catalog.update(template, no_fuzzy_matching=True)
    write(catalog)


def problems(catalog: Catalog, template: Catalog) -> list[str]:
    """What keeps the catalogue from matching the source: a msgid with no translation
    (or a fuzzy one), an entry no source marks, a placeholder not in both."""
    said = []
    for message in template:
        if not message.id:
            continue
        ours = catalog.get(message.id, context=message.context)
        if ours is None or not _translated(ours) or ours.fuzzy:
            said.append(f"untranslated: {message.id!r} ({_where(message)})")
    for message in catalog:
        if message.id and template.get(message.id, context=message.context) is None:
            said.append(f"unused: {message.id!r}")
    return said


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return all(strings)


def _where(message) -> str:
    return ", ".join(f"{f}:{n}" for f, n in message.locations[:2])


def compile_mo() -> None:
    """The build's own compilation (hatch_build.py), into the source tree."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("hatch_build", REPO / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    for mo in build.compile_catalogues(REPO):
        print(f"compiled {mo}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        update()
        return 0
    if argv[:1] == ["compile"]:
        compile_mo()
        return 0
    if argv[:1] == ["check"]:
        found = problems(read(), extract())
        print("\n".join(found) or "the catalogue matches the source")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
