"""A realistic, deterministic sample store for trying memtui and benchmarking it."""

from memtui.demo.generator import write_demo

__all__ = ["write_demo"]
