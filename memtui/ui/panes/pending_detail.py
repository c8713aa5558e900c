"""What the pending pane's preview says: the highlighted item's detail (or the
selection's), then the engine's preview of approving it (a diff per file, the gauges,
or the refusal). Store text is shown literally, long lines and diffs cut short."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from memtui.engine.queue import FileChange, Gauge, QueueFace, QueueItem, QueuePreview
from memtui.ui.panes.pending_rows import StyleOf, kind
from memtui.ui.safe import literal

BODY_LINES = 40  # body lines (and selected items) shown
DIFF_LINES = 400  # diff lines shown (all files together)
LINE_MAX = 2000  # characters of one preview line


def detail(item: QueueItem, face: QueueFace, style: StyleOf) -> Text:
    """The preview's head: the id, what it changes, its fields and body, why it would be
    refused."""
    muted = style("muted")
    text = Text(end="")
    text.append_text(literal(item.id, style="bold"))
    text.append("  ")
    text.append_text(kind(item))
    text.append("\n")
    where = item.file if item.line is None else f"{item.file}:{item.line}"
    shown = [(face.summary, item.summary or "—")]
    if face.origin:
        shown.append((face.origin, item.origin or "—"))
    shown += [("created", item.created or "—"), ("file", where), *item.fields]
    for label, value in shown:
        text.append(f"{label:<9} ", style=muted)
        text.append_text(literal(value))
        text.append("\n")
    if item.body is not None:
        _body(text, item.body, style)
    said = None
    if item.read_only:
        said = "read-only here: never approved or rejected"
    elif item.problem:
        said = item.note or f"{face.doing} is refused now: {item.problem}"
    if said:
        line = literal(f"{said}\n")
        line.style = style("broken" if item.read_only or item.broken else "refused")
        text.append_text(line)
    text.append(f"\n{face.doing} would change\n", style=style("heading"))
    return text


def _body(text: Text, body: str, style: StyleOf) -> None:
    lines = body.strip("\r\n").split("\n") if body.strip("\r\n") else []
    text.append("body\n", style=style("heading"))
    for line in lines[:BODY_LINES]:
        text.append_text(literal("  " + clip(line.rstrip("\r"))))
        text.append("\n")
    if len(lines) > BODY_LINES:
        text.append(f"  … {len(lines) - BODY_LINES:,} more lines\n", style=style("muted"))
    if not lines:
        text.append("  (empty)\n", style=style("muted"))


def selection(
    chosen: Sequence[QueueItem], left: int, others: str, face: QueueFace, style: StyleOf
) -> Text:
    """The head of a selection's preview: what `a` does to the whole of it (`left`: how
    many selected it refuses; `others`: the selected items previewed on their own rows)."""
    text = Text(end="")
    text.append(f"{len(chosen):,} selected", style="bold")
    if left:
        text.append(f" (and {left} that cannot be accepted)", style=style("refused"))
    text.append("\n")
    for item in chosen[:BODY_LINES]:
        text.append_text(literal(f"  {item.id}  "))
        text.append_text(kind(item))
        text.append("\n")
    if len(chosen) > BODY_LINES:
        text.append(f"  … {len(chosen) - BODY_LINES:,} more\n", style=style("muted"))
    if others:  # their previews are their own rows'
        text.append(f"  and {others}, each previewed on its row\n")
    text.append(f"\n{face.doing} them (a) would change\n", style=style("heading"))
    return text


def preview(result: QueuePreview, doing: str, style: StyleOf) -> Text:
    """The engine's preview: what it would do, each file's diff or move; or the refusal."""
    text = Text(end="")
    if result.error is not None:
        text.append_text(literal(f"nothing: {doing} is refused — {result.error}"))
        text.style = style("refused")
        return text
    styles = {"+": style("added"), "-": style("removed"), "@": style("hunk"), "\\": style("muted")}
    said = "\n".join(
        [*([result.summary] if result.summary else []), *map(gauge_said, result.gauges)]
    )
    if said:
        text.append_text(_styled(said + "\n", style("muted")))
    changes = result.changes or (
        (FileChange("write", "", None, result.diff),) if result.diff else ()
    )
    shown = 0
    for change in changes:
        if change.action == "move":
            text.append_text(literal(f"moves {change.source} → {change.path}\n"))
            continue
        if change.action == "remove":
            text.append_text(literal(f"removes {change.path}\n"))
            continue
        lines = change.diff.splitlines()
        if shown >= DIFF_LINES:
            text.append_text(literal(f"{change.path}: {len(lines):,} diff lines not shown\n"))
            continue
        text.append("\n")
        for line in lines[: DIFF_LINES - shown]:
            heading = line.startswith(("--- ", "+++ "))
            line_style = style("heading") if heading else styles.get(line[:1], Style())
            text.append_text(_styled(clip(line) + "\n", line_style))
        if len(lines) > DIFF_LINES - shown:
            text.append(f"… {len(lines) - DIFF_LINES + shown:,} more lines\n")
        shown += len(lines)
    return text


def gauge_said(gauge: Gauge) -> str:
    """`memories/MEMORY.md: 1,204 → 1,391 / 2,200 chars` (over the limit said)."""
    over = "  over the limit" if gauge.after > gauge.limit else ""
    return f"{gauge.file}: {gauge.before:,} → {gauge.after:,} / {gauge.limit:,} {gauge.unit}{over}"


def clip(line: str) -> str:
    """One line of the preview, cut short when huge (a minified blob stays cheap)."""
    return line if len(line) <= LINE_MAX else f"{line[:LINE_MAX]} … ({len(line):,} chars)"


def _styled(value: str, style: Style) -> Text:
    text = literal(value)
    text.stylize(style)
    return text
