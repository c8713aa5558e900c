"""`memtui check --format`: the findings where CI reads them.

github: workflow commands, one annotation per finding (GitHub's own escaping rules).
sarif:  a SARIF 2.1.0 log, every finding code a rule carrying its help text.
"""

from __future__ import annotations

import os
from typing import Any

from memtui.sanitize import printable

FORMATS = ("text", "json", "github", "sarif")

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
ROOT_ID = "STOREROOT"  # the uriBaseId every result's file is relative to

_GITHUB_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


# --- github ------------------------------------------------------------------


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github_lines(root: str, findings: list[Any]) -> list[str]:
    """`::error file=…,line=…,title=<code>::<message>` per finding. Files are given
    relative to the current folder (where CI runs, the repository's root) when the store
    lies inside it, so the annotation lands on the right file of the pull request."""
    out = []
    for f in findings:
        props = []
        if f.file is not None:
            props.append(f"file={_gh_property(_from_cwd(root, f.file))}")
            if f.line:
                props.append(f"line={f.line}")
        props.append(f"title={_gh_property(f.code)}")
        command = _GITHUB_COMMAND.get(f.level, "notice")
        # printable() first: no byte of the store reaches the runner's log raw
        out.append(f"::{command} {','.join(props)}::{_gh_data(printable(f.message))}")
    return out


def _from_cwd(root: str, file: str) -> str:
    full = os.path.realpath(os.path.join(root, file))
    rel = os.path.relpath(full, os.getcwd())
    return file if rel.startswith(os.pardir) else rel


# --- sarif -------------------------------------------------------------------


def sarif_log(root: str, findings: list[Any], version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run: the catalogue of codes as rules (with the codes
    of these findings that it lacks, so every ruleIndex resolves), each finding a result
    whose file is a URI relative to the store root (uriBaseId STOREROOT)."""
    from memtui.engine.findings import CODES, HELP

    catalogue = dict(CODES)
    for f in findings:
        catalogue.setdefault(f.code, (f.level, f.code))
    index = {code: i for i, code in enumerate(catalogue)}
    rules = [
        {
            "id": code,
            "shortDescription": {"text": help_text},
            "fullDescription": {"text": help_text},
            "help": {"text": HELP.get(code, help_text)},
            "defaultConfiguration": {"level": _SARIF_LEVEL.get(level, "note")},
        }
        for code, (level, help_text) in catalogue.items()
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memtui",
                        "version": version,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {ROOT_ID: {"uri": _dir_uri(root)}},
                "results": [_result(f, index[f.code]) for f in findings],
            }
        ],
    }


def _result(f: Any, rule_index: int) -> dict[str, Any]:
    from urllib.parse import quote  # here: `search` imports this module, and pays no URL code

    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVEL.get(f.level, "note"),
        "message": {"text": f.message},
    }
    if f.file is not None:
        physical: dict[str, Any] = {
            "artifactLocation": {"uri": quote(f.file), "uriBaseId": ROOT_ID}
        }
        if f.line:
            physical["region"] = {"startLine": f.line}
        result["locations"] = [{"physicalLocation": physical}]
    return result


def _dir_uri(root: str) -> str:
    from pathlib import Path

    uri = Path(os.path.realpath(root)).as_uri()
    return uri if uri.endswith("/") else uri + "/"
