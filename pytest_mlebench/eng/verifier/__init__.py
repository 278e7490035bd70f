"""Files that run inside a task's verifier (no import of pytest-mlebench from here on)."""
