"""The fixture tasks' own files (their hidden verifier, their visible tests) are not tests of this
suite: they run only inside an engineering run."""

collect_ignore = ["tasks"]
