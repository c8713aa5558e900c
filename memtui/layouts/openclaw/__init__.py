"""The OpenClaw agent workspace layout (SPEC §3b)."""

# The Memory Audit queue: its detection lists it and its audit parses it (a name both
# take from here, so neither imports the other for it).
AUDIT_QUEUE = "memory/audit/suggestions.jsonl"
