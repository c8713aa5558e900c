"""Curation operations. Each plans its change under the store lock and commits
it through one `Transaction`; none writes a file any other way."""
