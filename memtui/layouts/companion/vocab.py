"""The companion layout's fixed words (SPEC §2), in a module light enough for the
command line to build its parser without importing the layout's parser."""

from __future__ import annotations

EVENT_TYPES = ("情绪事件", "约定", "用户Todo", "重要事件")  # the seed's 类型 values
EMOTIONAL, PROMISE = "情绪事件", "约定"  # the types with rules: stars only, a due date needed
