"""The dsh layout's finding codes (SPEC §5): code -> (default level, meaning).
json-invalid and path-escape are the engine's shared ones (engine.findings)."""

from memtui.engine.model import ERROR, WARNING
from memtui.i18n import N_

CODES: dict[str, tuple[str, str]] = {
    "l1-size": (WARNING, N_("index.txt line count (error over the cap)")),
    "index-stale": (WARNING, N_("the automatic segment differs from what exists in L2/L3")),
    "pending-no-evidence": (WARNING, N_("a candidate without evidence (cannot be accepted)")),
    "pending-bad-frontmatter": (
        ERROR,
        N_("a candidate whose front matter is broken or incomplete"),
    ),
    "sop-bad-frontmatter": (WARNING, N_("a sop whose front matter does not parse")),
    "fact-duplicate": (WARNING, N_("the same fact twice")),
}
