"""The one write path (SPEC §0): lock, conflict check, history, atomic replace,
read-back, audit, with a journal so a change to several files is all or nothing."""


def recover(root: str) -> list[str]:
    """Finish, or undo, a change a crash interrupted; what was done, in words (the
    faces call this rather than opening an empty Transaction)."""
    from memtui.engine.write.transaction import settle_interrupted

    return settle_interrupted(root)
