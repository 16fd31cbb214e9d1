"""How long a test waits for something that must happen (a line, an event, a sync, a thread's end).

Long on purpose: a passing test stops waiting the moment the condition holds, so only a failing
one ever waits this out, and a loaded or emulated machine never fails a test for being slow.
Speed is measured by ``codenames-board bench``, never asserted in a test.
"""

PATIENCE_S = 60.0
