"""memtui: browse and curate the long-term memory LLM agents keep as files."""


def __getattr__(name: str) -> str:
    """`__version__`, looked up on first use: importlib.metadata costs every CLI
    call ~0.15 s (its email and zipfile imports), as much as grep's whole search."""
    if name != "__version__":
        raise AttributeError(f"module 'memtui' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:  # one source of truth: pyproject.toml's version, as installed
        found = version("memtui")
    except PackageNotFoundError:  # a checkout on PYTHONPATH that was never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found
