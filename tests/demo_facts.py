"""What the smallest demo store (`write_demo(root, 1, today=TODAY_DATE)`) holds, as the UI
and CLI tests expect it: one place to change when the demo changes.

test_demo_generator.py::test_the_demo_facts_other_tests_rely_on checks every value here
against open_store of a fresh demo, so a demo change fails there, by name, and not in
unrelated tests.
"""

from __future__ import annotations

# memory/events.md (sentinels are not events)
EVENTS = 40
OPEN = 4  # events still 待跟进
OVERDUE = ("E026", "E020")  # open promises past their due date, newest first
NEWEST = "E039"  # the first row (newest first): open, the highest number
SECOND_NEWEST = "E038"  # the second row: archiving it does not lower the highest number
THIRD_NEWEST = "E037"  # done
OLDEST = "E001"
STARS_EVENT, STARS = "E007", 6  # an emotional event whose stars are out of range
LAST_ACTIVE = "2026-11-28T22:47"  # the newest sentinel

# the workspace index and the dsh L1 index
INDEX_LINES = 158  # memory.md: a warning, under the 180-line block
L1_LINES = 27  # index.txt (its cap is 30); its automatic segment is stale
L1_HEAT = 77  # index.txt's read heat in memory_stats.json
SOPS = 10

# pending/, in the pane's order (file name order)
CANDIDATES = 20
FIRST, SECOND, THIRD = "20261115-0001", "20261116-0001", "20261116-0002"
NO_EVIDENCE = "20261118-0002"  # the one candidate without evidence
FIRST_BODY = "- billing 的 Postgres 版本 1.9.29，升级前先 pg_upgrade --check"

# every finding of `memtui check`
ERRORS, WARNINGS, INFOS = 3, 15, 0

# memory/user_profile.md
RELATIONS = "重要关系"
FATHER = "爸爸：话少，喜欢钓鱼"  # its third item
