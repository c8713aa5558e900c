"""One parser per memory layout (SPEC §1-3). Each reads through a `StoreReader`."""
