"""What the pending pane's preview says: the highlighted item's detail (or the
selection's), then the engine's preview of approving it (a diff per file, the gauges,
or the refusal). Store text is shown literally, long lines and diffs cut short."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from memtui import i18n
from memtui.cells import padded
from memtui.engine.queue import FileChange, Gauge, QueueFace, QueueItem, QueuePreview
from memtui.i18n import _, tr
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
    shown = [(tr(face.summary), i18n.shown(item.summary) or "—")]  # the agent's words
    if face.origin:
        shown.append((tr(face.origin), item.origin or "—"))
    shown += [(_("created"), item.created or "—"), (_("file"), where)]
    # a layout's labels are its words (marked N_); a value is the store's unless a Msg
    shown += [(tr(label), i18n.shown(value)) for label, value in item.fields]
    for label, value in shown:
        text.append(padded(label, 9) + " ", style=muted)
        text.append_text(literal(value))
        text.append("\n")
    if item.body is not None:
        _body(text, item.body, style)
    said = None
    if item.read_only:
        said = _("read-only here: never approved or rejected")
    elif item.problem:
        said = (
            tr(item.note)
            if item.note
            else _("{doing} is refused now: {why}").format(
                doing=tr(face.doing), why=tr(item.problem)
            )
        )
    if said:
        line = literal(f"{said}\n")
        line.style = style("broken" if item.read_only or item.broken else "refused")
        text.append_text(line)
    text.append(
        "\n" + _("{doing} would change").format(doing=tr(face.doing)) + "\n", style=style("heading")
    )
    return text


def _body(text: Text, body: str, style: StyleOf) -> None:
    lines = body.strip("\r\n").split("\n") if body.strip("\r\n") else []
    text.append(_("body") + "\n", style=style("heading"))
    for line in lines[:BODY_LINES]:
        text.append_text(literal("  " + clip(line.rstrip("\r"))))
        text.append("\n")
    if len(lines) > BODY_LINES:
        more = _("… {n} more lines").format(n=f"{len(lines) - BODY_LINES:,}")
        text.append(f"  {more}\n", style=style("muted"))
    if not lines:
        text.append("  " + _("(empty)") + "\n", style=style("muted"))


def selection(
    chosen: Sequence[QueueItem], left: int, others: str, face: QueueFace, style: StyleOf
) -> Text:
    """The head of a selection's preview: what `a` does to the whole of it (`left`: how
    many selected it refuses; `others`: the selected items previewed on their own rows)."""
    text = Text(end="")
    text.append(_("{n} selected").format(n=f"{len(chosen):,}"), style="bold")
    if left:
        text.append(
            " " + _("(and {n} that cannot be accepted)").format(n=left), style=style("refused")
        )
    text.append("\n")
    for item in chosen[:BODY_LINES]:
        text.append_text(literal(f"  {item.id}  "))
        text.append_text(kind(item))
        text.append("\n")
    if len(chosen) > BODY_LINES:
        more = _("… and {n} more").format(n=f"{len(chosen) - BODY_LINES:,}")
        text.append(f"  {more}\n", style=style("muted"))
    if others:  # their previews are their own rows'
        text.append(
            "  " + _("and {others}, each previewed on its row").format(others=others) + "\n"
        )
    doing = _("{doing} them (a) would change").format(doing=tr(face.doing))
    text.append(f"\n{doing}\n", style=style("heading"))
    return text


def preview(result: QueuePreview, doing: str, style: StyleOf) -> Text:
    """The engine's preview: what it would do, each file's diff or move; or the refusal."""
    text = Text(end="")
    if result.error is not None:
        text.append_text(
            literal(
                _("nothing: {doing} is refused — {why}").format(doing=doing, why=tr(result.error))
            )
        )
        text.style = style("refused")
        return text
    styles = {"+": style("added"), "-": style("removed"), "@": style("hunk"), "\\": style("muted")}
    said = "\n".join(
        [*([tr(result.summary)] if result.summary else []), *map(gauge_said, result.gauges)]
    )
    if said:
        text.append_text(_styled(said + "\n", style("muted")))
    changes = result.changes or (
        (FileChange("write", "", None, result.diff),) if result.diff else ()
    )
    shown = 0
    for change in changes:
        if change.action == "move":
            moves = _("moves {source} → {path}").format(source=change.source, path=change.path)
            text.append_text(literal(moves + "\n"))
            continue
        if change.action == "remove":
            text.append_text(literal(_("removes {path}").format(path=change.path) + "\n"))
            continue
        lines = change.diff.splitlines()
        if shown >= DIFF_LINES:
            hidden = _("{path}: {n} diff lines not shown").format(
                path=change.path, n=f"{len(lines):,}"
            )
            text.append_text(literal(hidden + "\n"))
            continue
        text.append("\n")
        for line in lines[: DIFF_LINES - shown]:
            heading = line.startswith(("--- ", "+++ "))
            line_style = style("heading") if heading else styles.get(line[:1], Style())
            text.append_text(_styled(clip(line) + "\n", line_style))
        if len(lines) > DIFF_LINES - shown:
            text.append(
                _("… {n} more lines").format(n=f"{len(lines) - DIFF_LINES + shown:,}") + "\n"
            )
        shown += len(lines)
    return text


def gauge_said(gauge: Gauge) -> str:
    """`memories/MEMORY.md: 1,204 → 1,391 / 2,200 chars` (over the limit said)."""
    over = "  " + _("over the limit") if gauge.after > gauge.limit else ""
    unit = tr(gauge.unit)
    return f"{gauge.file}: {gauge.before:,} → {gauge.after:,} / {gauge.limit:,} {unit}{over}"


def clip(line: str) -> str:
    """One line of the preview, cut short when huge (a minified blob stays cheap)."""
    if len(line) <= LINE_MAX:
        return line
    return f"{line[:LINE_MAX]} … " + _("({n} chars)").format(n=f"{len(line):,}")


def _styled(value: str, style: Style) -> Text:
    text = literal(value)
    text.stylize(style)
    return text
