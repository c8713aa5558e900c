"""The Textual face of memtui. It reads and writes only through memtui.engine."""
