"""memtui: browse and curate the long-term memory LLM agents keep as files."""

from importlib.metadata import PackageNotFoundError, version

try:  # one source of truth: pyproject.toml's version, as installed
    __version__ = version("memtui")
except PackageNotFoundError:  # a checkout on PYTHONPATH that was never installed
    __version__ = "0+unknown"
