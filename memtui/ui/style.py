"""Theme colours for the Rich Text the panes build, and small display formats."""

from __future__ import annotations

from rich.style import Style
from textual.widget import Widget

from memtui.engine.outline import size_text  # the engine's outline shows sizes too

__all__ = ["component_style", "size_text"]


def component_style(widget: Widget, name: str, default: Style | None = None) -> Style:
    """A component class's colours as drawn, for Rich Text inside the widget.

    `partial=True` alone drops alpha (`$text-muted` would come out as plain white);
    the full style has the blended colours but also the widget's own background,
    which would paint over a cursor row. So: blended colours, only those the
    component sets, plus its text style. `default`: for a component the widget
    does not have (else KeyError, as Textual).
    """
    try:
        full = widget.get_component_rich_style(name)
        part = widget.get_component_rich_style(name, partial=True)
    except KeyError:
        if default is None:
            raise
        return default
    colours = Style(
        color=full.color if part.color is not None else None,
        bgcolor=full.bgcolor if part.bgcolor is not None else None,
    )
    return colours + part.without_color
