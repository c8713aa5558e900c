"""The one write path (SPEC §0): lock, conflict check, history, atomic replace,
read-back, audit, with a journal so a change to several files is all or nothing."""
