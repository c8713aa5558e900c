"""Gemini CLI's memory rules as memtui keeps them: the finding codes, the section its old
`save_memory` tool wrote, and how a context file is given to the model.

Sources (google-gemini/gemini-cli): `packages/core/src/utils/memoryDiscovery.ts`
(concatenateInstructions: each file trimmed, between `--- Context from: <path> ---` and
`--- End of Context from: <path> ---`, an empty one left out, blocks joined by a blank
line), `packages/core/src/prompts/snippets.ts` (renderUserMemory: the global files in
`<global_context>`, the private project memory in `<user_project_memory>`, in the system
instruction; the project's in `<project_context>`, `config.ts` getSessionMemory: the
first user message), `packages/core/src/tools/memoryTool.ts` before 7504259d72 (May 2026,
"clean up launched memory features", which removed `save_memory`: it appended `- fact`
lines under `## Gemini Added Memories`).

Gemini CLI cuts no context file, at any size: there is no size finding (no invented limit).
"""

from __future__ import annotations

from memtui.engine.layouts.common import JS_SPACE
from memtui.engine.model import INFO, WARNING
from memtui.i18n import N_

ADDED = "Gemini Added Memories"  # memoryTool.ts MEMORY_SECTION_HEADER, without its `## `

CODES: dict[str, tuple[str, str]] = {
    "import-missing": (WARNING, N_("an @import names a file that does not exist")),
    "import-cycle": (WARNING, N_("an @import of a file already on its import chain")),
    "import-depth": (WARNING, N_("an @import past the fifth level, left as written")),
    "import-refused": (WARNING, N_("an @import of a URL, which Gemini CLI refuses")),
    "import-outside": (INFO, N_("an @import Gemini CLI reads outside the store, memtui does not")),
    "settings-invalid": (WARNING, N_("settings.json does not parse: the context file names")),
    "gemini-heading-duplicate": (INFO, N_("two `## ` sections of one file share a heading")),
}


def block(path: str, text: str) -> str:
    """One file as concatenateInstructions gives it ("" when it is empty once trimmed)."""
    trimmed = text.strip(JS_SPACE)  # JavaScript's trim()
    if not trimmed:
        return ""
    return f"--- Context from: {path} ---\n{trimmed}\n--- End of Context from: {path} ---"
