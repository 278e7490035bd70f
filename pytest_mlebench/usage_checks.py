"""Usage errors for command lines that pytest's own parsing gets wrong in silence or explains badly.

- An ``--mle-*`` option written as two words (``--mle-agent /path/outside``) whose value is an
  existing path outside the folder pytest runs in. pytest looks for its root folder before it
  knows this plugin's options, takes that word for a test path, and so silently changes the root
  folder: the project's ini settings and ``testpaths`` are lost and other tests are collected. The
  session stops with the ``--mle-agent=PATH`` form. A value inside the folder cannot move the
  root folder and is accepted in either form; so is one in the ini file's ``addopts``, which
  pytest reads only after it has chosen the root folder (``PYTEST_ADDOPTS`` is read before).
- A mistyped ``--mle-*`` option: pytest only says "unrecognized arguments"; here the closest
  option names are offered.
- An unknown mark in ``-m`` under ``--strict-markers``: pytest's error gets the closest mark names,
  and the ``-k`` form when the word is a competition id.
- An agent of one kind on a selection of only the other kind: ``oracle`` (``noop``,
  ``cheat:NAME``) on competitions, or ``dummy`` (``baseline``) on engineering tasks, whose
  workspace they never touch. In a mixed selection each wrong pairing is an ``error`` run that
  says so (the agent refuses), never a scored failure.

Loaded with the plugin (``pytest_plugins`` of :mod:`pytest_mlebench.plugin`), so for every pytest
session: it imports the registry and the session only when pytest reports an unknown mark; the
checks are pure functions of the arguments, the hooks only raise what they return.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Generator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.activation import is_active
from pytest_mlebench.settings import SETTINGS
from pytest_mlebench.suggest import closest, did_you_mean

PREFIX = "--mle-"


def option_table() -> dict[str, bool]:
    """Every ``--mle-*`` option, and whether it takes a value (a flag does not)."""
    return {entry.option: entry.kind != "flag" for entry in SETTINGS}


def command_line_problem(
    args: Sequence[str],
    here: Path,
    options: Mapping[str, bool],
    root_args: Sequence[str] | None = None,
) -> str | None:
    """What is wrong with the ``--mle-*`` words of ``args`` (run in folder ``here``), or ``None``.

    Args:
        options: ``--mle-*`` option → whether it takes a value (:func:`option_table`).
        root_args: The words pytest reads when it picks its root folder (the command line and
            ``PYTEST_ADDOPTS``, not the ini file's ``addopts``); default: ``args``.
    """
    for name, _value in _mle_words(args):
        if name not in options:
            return unknown_option_message(name, options)
    for name, value in _mle_words(args if root_args is None else root_args):
        if options.get(name) and value is not None and moves_root_folder(value, here):
            return two_words_message(name, value)
    return None


def _mle_words(args: Sequence[str]) -> list[tuple[str, str | None]]:
    """Each ``--mle-*`` option of ``args`` with the word after it when written apart (``None``
    for the ``--mle-x=value`` form and at the end), up to a ``--``."""
    found: list[tuple[str, str | None]] = []
    for index, word in enumerate(args):
        if word == "--":
            break
        if word.startswith(PREFIX):
            name, equals, _ = word.partition("=")
            apart = not equals and index + 1 < len(args)
            found.append((name, args[index + 1] if apart else None))
    return found


def moves_root_folder(word: str, here: Path) -> bool:
    """Whether pytest, taking ``word`` for a test path, would look for its root folder elsewhere:
    ``word`` is an existing path outside ``here``."""
    base = here.resolve()
    try:
        path = (base / word).resolve()
        exists = path.exists()
    except (OSError, ValueError):
        return False
    return exists and path != base and base not in path.parents


def two_words_message(name: str, value: str) -> str:
    return (
        f"{name} {value}: written as two words, pytest takes {value!r} for a test path while it "
        "looks for the project's root folder (before it knows this option), so the ini settings "
        f"and testpaths of the project would be lost; write it as one word: {name}={value}"
    )


def unknown_option_message(name: str, options: Iterable[str]) -> str:
    bare = [option.removeprefix(PREFIX) for option in options]
    offered = [PREFIX + match for match in closest(name.removeprefix(PREFIX), bare)]
    return (
        f"unrecognized option {name}{did_you_mean(offered)} "
        "(`pytest --help` lists the --mle-* options under pytest-mlebench)"
    )


def unknown_marks_message(markexpr: str, marks: Iterable[str], ids: Iterable[str]) -> str | None:
    """Why ``-m markexpr`` names marks that do not exist, with the closest ones; ``None`` when
    every word of it is a mark."""
    from pytest_mlebench.selection import expression_words  # imports the registry: on error only

    known = set(marks)
    unknown = [word for word in expression_words(markexpr) if word not in known]
    if not unknown:
        return None
    competition_ids = set(ids)
    offered = [name for word in unknown for name in closest(word, known)]
    lines = [
        f"unknown mark(s) {', '.join(unknown)} in -m {markexpr!r}{did_you_mean(offered)} "
        "(`pytest --markers` lists the marks)"
    ]
    lines += [
        f"{word!r} is a competition id, not a mark: select it with -k {word}"
        for word in unknown
        if word in competition_ids
    ]
    return "; ".join(lines)


def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> None:
    """Stop before pytest settles its root folder on a misread ``--mle-*`` value."""
    root_args = [*shlex.split(os.environ.get("PYTEST_ADDOPTS", "")),
                 *early_config.invocation_params.args]  # fmt: skip
    here = early_config.invocation_params.dir
    problem = command_line_problem(args, here, option_table(), root_args)
    if problem is not None:
        raise pytest.UsageError(problem)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> Generator[None, Any, Any]:
    """Give pytest's "Unknown marker(s) in '-m'" error the closest mark names; refuse an agent
    of one kind on a selection of only the other kind (:func:`agent_kind_problem`)."""
    try:
        result = yield
    except pytest.UsageError as exc:
        if "Unknown marker" not in str(exc):  # pytest's wording; anything else passes unchanged
            raise
        # Imported here: this module loads with the entry point of every pytest session.
        from pytest_mlebench.selection import marker_names
        from pytest_mlebench.session import SESSION_KEY

        markexpr = config.getoption("markexpr", "") or ""
        session = config.stash.get(SESSION_KEY, None)
        ids = session.registry.competitions if session is not None else ()
        message = unknown_marks_message(markexpr, marker_names(config.getini("markers")), ids)
        if message is None:
            raise
        raise pytest.UsageError(message) from None
    if not is_active(config):  # a session that uses nothing of the plugin has no agent
        return result
    from pytest_mlebench.session import SESSION_KEY

    session = config.stash.get(SESSION_KEY, None)
    if session is not None:
        problem = agent_kind_problem(
            session.agent,
            competitions=sum(1 for item in items if item.get_closest_marker("mlebench")),
            tasks=sum(1 for item in items if item.get_closest_marker("engineering")),
        )
        if problem is not None:
            raise pytest.UsageError(problem)
    return result


def agent_kind_problem(agent: object, *, competitions: int, tasks: int) -> str | None:
    """Why ``agent`` cannot run a selection of ``competitions`` and ``tasks`` (``None``: it can)."""
    from pytest_mlebench.agents import ScriptAgent
    from pytest_mlebench.agents.task_scripts import TaskScriptAgent

    name = getattr(agent, "name", "?")
    if isinstance(agent, TaskScriptAgent) and competitions and not tasks:
        return (
            f"agent {name!r} runs only on engineering tasks, and only competitions are selected: "
            "select tasks with -m engineering, or name a competition agent with --mle-agent "
            "(dummy, baseline, an agent folder; 'mlebench agents' lists them)"
        )
    if isinstance(agent, ScriptAgent) and tasks and not competitions:
        return (
            f"agent {name!r} works on competitions only (it hands in a submission.csv and never "
            "touches an engineering task's workspace), and only engineering tasks are selected: "
            "name an agent for them with --mle-agent (oracle, noop, cheat:NAME, mini-swe:MODEL or "
            "an agent folder; docs/engineering.md)"
        )
    return None
