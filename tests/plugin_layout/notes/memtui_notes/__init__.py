"""A memtui layout for a folder holding NOTES.md: each `## ` section is one note,
`note:<slug>`; archived notes go to archive/NOTES.md and come back where they were.

A third party's package: it uses only memtui's public layout protocol
(memtui.engine.layouts.base) and public engine helpers (the reader, the transaction,
fingerprints), and is registered by its entry point alone."""
