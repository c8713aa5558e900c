"""Layouts that fail, for memtui's tests of a broken third-party layout."""
