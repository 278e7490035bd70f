"""Engineering tasks made from a repository's own pull request (``mlebench eng from-pr``).

Given a base and a head commit, the repository's pytest suite runs at both (offline: the local
Python, or the ``eng`` image with ``--network none`` and a wheelhouse); the tests that pass at base
and fail at head become the task's fail-to-pass checks, those passing at both its pass-to-pass
checks. The task's workspace is head's tree with a two-commit history rebuilt from base; its
oracle reverts the change's code. Modules: :mod:`.pr_repo` (read the repository),
:mod:`.suite_runner` (run the tests), :mod:`.suite_results` (junit outcomes, shared with the
verifier), :mod:`.pr_split`, :mod:`.task_files`, :mod:`.pr_task`; ``verify_template`` and
``prepare_template`` are copied into every task folder.
"""
