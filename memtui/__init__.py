"""memtui: browse and curate the long-term memory LLM agents keep as files."""

__version__ = "0.1.0"
