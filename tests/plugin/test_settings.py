"""The settings table: every entry's precedence (CLI > env > ini > default) and its bad values.

Parametrised over :data:`SETTINGS`, so a new entry is tested as soon as it has a line in
:data:`SAMPLES`; ``test_every_setting_has_samples`` fails until it does. Options are parsed by
pytest itself (``pytester.parseconfig``, in process) and the session is configured by the plugin's
own ``pytest_configure``, so the agent (checked there, not in the table) is covered too.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from types import UnionType
from typing import Any, Literal

import pytest

from pytest_mlebench import plugin
from pytest_mlebench.errors import SettingError
from pytest_mlebench.settings import SETTINGS, Setting, Settings, resolve_settings, setting


@dataclass(frozen=True)
class Sample:
    """Raw values of one setting: two valid ones (``a`` differs from ``b`` and the default), a bad
    one, and options its partner setting needs. ``{tmp}`` is the example project's folder."""

    a: str
    b: str
    bad: str
    partner: tuple[str, ...] = ()


SAMPLES: dict[str, Sample] = {
    "agent": Sample("baseline", "dummy", "nobody"),
    "sandbox": Sample("local", "docker", "vm"),
    "data-dir": Sample("{tmp}/data-a", "{tmp}/data-b", "{tmp}/a.json"),
    "competitions-dir": Sample("{tmp}/defs-a", "{tmp}/defs-b", "{tmp}/missing"),
    "engineering-dir": Sample("{tmp}/defs-a", "{tmp}/defs-b", "{tmp}/missing"),
    "seeds": Sample("3", "2", "0"),
    "time-limit": Sample("30", "60", "-5"),
    "sandbox-grace": Sample("30", "600", "0"),
    "require": Sample("gold", "none", "platinum"),
    "require-score": Sample("0.5", "0.95", "2"),
    "results": Sample("{tmp}/a.jsonl", "{tmp}/b.jsonl", "{tmp}/defs-a"),
    "network": Sample("bridge", "allow:api.openai.com,10.0.0.7", "allow:http://x.org"),
    "cpus": Sample("2", "0.5", "zero"),
    "memory": Sample("8g", "512m", "lots"),
    "shm": Sample("2g", "64m", "-1"),
    "pids": Sample("256", "64", "0"),
    "gpus": Sample("all", "2", "some"),
    "gpus-per-sandbox": Sample("2", "3", "0"),
    "privileged": Sample("yes", "no", "maybe"),
    "baseline": Sample("{tmp}/a.json", "{tmp}/b.json", "{tmp}/missing.json"),
    "max-drop": Sample("5", "2.5", "-1"),
    "gate": Sample("paired", "rate-drop", "strict"),
    "gate-alpha": Sample("0.01", "0.1", "1"),
    "max-cost-increase": Sample("0.2", "$0.05", "a lot"),
    "rerun": Sample("failed", "error,timeout", "flaky", ("--mle-from", "{tmp}/a.json")),
    "from": Sample("{tmp}/a.json", "{tmp}/b.json", "{tmp}/missing.json", ("--mle-rerun", "failed")),
    "progress": Sample("0", "5", "soon"),
    "clean-alluredir": Sample("yes", "no", "maybe"),
    "token-budget": Sample("1000", "50000", "lots"),
    "cost-budget": Sample("2.5", "0.1", "-1"),
    "price-table": Sample("{tmp}/a.json", "{tmp}/b.json", "{tmp}/missing.yaml"),
    "gateway-upstream": Sample(
        "openai=http://localhost:8000/v1",
        "openai=https://proxy.example/v1,anthropic=https://claude.example",
        "gemini=https://x.example",
    ),
    "integrity": Sample("strict", "report", "lenient"),
    "integrity-policy": Sample("{tmp}/a.json", "{tmp}/b.json", "{tmp}/missing.yaml"),
    "references": Sample("{tmp}/defs-a", "{tmp}/defs-b", "{tmp}/missing"),
    "similarity": Sample("0.8", "0.3", "2"),
    "judge": Sample("provider/model-a", "provider/model-b", "two words"),
    "description": Sample("obfuscated", "standard", "hidden"),
    "wheelhouse": Sample("{tmp}/defs-a", "{tmp}/defs-b", "{tmp}/a.json"),
    "ray": Sample("auto", "10.0.0.5:6379", "nowhere"),
    "ray-retries": Sample("0", "5", "-1"),
    "ray-data-dir": Sample("{tmp}/defs-a", "{tmp}/defs-b", "{tmp}/missing"),
    "allow-different": Sample("time_limit", "gpu", "colour"),
    "retries": Sample("2", "1", "-1"),
    "summarize": Sample("provider/model-a", "provider/model-b", "two words"),
    "checkpoint-every": Sample("10s", "2h", "soon"),
    "checkpoint-cap": Sample("500m", "4g", "lots"),
    "resume": Sample("{tmp}/defs-a", "{tmp}/a.json", "{tmp}/missing"),
    "marks": Sample("1h,6h", "30m", "soon"),
    "submission-copies": Sample("8", "100", "many"),
    "submission-poll": Sample("5s", "1m", "often"),
}


class Example:
    """A folder to parse options in: environment cleared of every setting, files the samples use."""

    def __init__(self, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pytester = pytester
        self.monkeypatch = monkeypatch
        self.root = pytester.path
        for entry in SETTINGS:
            monkeypatch.delenv(entry.env, raising=False)
        for folder in ("defs-a", "defs-b"):
            (self.root / folder).mkdir()
        for name in ("a.json", "b.json"):
            (self.root / name).write_text("{}")

    def fill(self, raw: str) -> str:
        return raw.replace("{tmp}", str(self.root))

    def cli(self, entry: Setting, raw: str) -> list[str]:
        if entry.kind == "flag":
            assert raw == "yes", "a flag on the command line can only say yes"
            return [entry.option]
        return [entry.option, self.fill(raw)]

    def env(self, entry: Setting, raw: str) -> None:
        self.monkeypatch.setenv(entry.env, self.fill(raw))

    def ini(self, entry: Setting, raw: str) -> None:
        self.pytester.makeini(f"[pytest]\n{entry.ini} = {self.fill(raw)}\n")

    def settings(self, *args: str) -> Settings:
        return resolve_settings(self.parse(*args))

    def parse(self, *args: str) -> pytest.Config:
        return self.pytester.parseconfig(*(self.fill(arg) for arg in args))

    def expected(self, entry: Setting, raw: str | None) -> Any:
        value: Any = raw if raw is None else self.fill(raw)
        if entry.kind == "list":
            value = [] if value is None else [value]
        return entry.convert(value, self.root)


@pytest.fixture
def example(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Example:
    return Example(pytester, monkeypatch)


def by_name(entries: tuple[Setting, ...]) -> list[Any]:
    return [pytest.param(entry, id=entry.name) for entry in entries]


def test_every_setting_has_samples() -> None:
    missing = [entry.name for entry in SETTINGS if entry.name not in SAMPLES]
    assert not missing, f"add a Sample for {missing} to SAMPLES in {__file__}"


def test_the_table_and_the_settings_fields_match_one_to_one() -> None:
    filled = [entry.field for entry in SETTINGS]
    assert sorted(filled) == sorted(f.name for f in fields(Settings))
    assert len({entry.name for entry in SETTINGS}) == len(SETTINGS)
    assert len({entry.env for entry in SETTINGS}) == len(SETTINGS)


@pytest.mark.parametrize("entry", by_name(SETTINGS))
def test_cli_wins_over_the_environment(example: Example, entry: Setting) -> None:
    sample = SAMPLES[entry.name]
    example.env(entry, sample.b)
    got = getattr(example.settings(*example.cli(entry, sample.a), *sample.partner), entry.field)
    assert got == example.expected(entry, sample.a) != example.expected(entry, sample.b)


@pytest.mark.parametrize("entry", by_name(SETTINGS))
def test_environment_wins_over_the_ini_file(example: Example, entry: Setting) -> None:
    sample = SAMPLES[entry.name]
    example.env(entry, sample.a)
    example.ini(entry, sample.b)
    got = getattr(example.settings(*sample.partner), entry.field)
    assert got == example.expected(entry, sample.a) != example.expected(entry, sample.b)


@pytest.mark.parametrize("entry", by_name(SETTINGS))
def test_ini_file_wins_over_the_default(example: Example, entry: Setting) -> None:
    sample = SAMPLES[entry.name]
    example.ini(entry, sample.a)
    got = getattr(example.settings(*sample.partner), entry.field)
    assert got == example.expected(entry, sample.a) != example.expected(entry, entry.default)


def conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` has the (simple) type ``hint`` of a :class:`Settings` field."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, UnionType):
        return any(conforms(value, option) for option in typing.get_args(hint))
    if origin is Literal:
        return value in typing.get_args(hint)
    if origin in (tuple, frozenset):
        item = typing.get_args(hint)[0]
        return isinstance(value, origin) and all(conforms(v, item) for v in value)
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, hint)


@pytest.mark.parametrize("entry", by_name(SETTINGS))
def test_each_value_has_the_type_of_its_field(example: Example, entry: Setting) -> None:
    hint = typing.get_type_hints(Settings)[entry.field]
    sample = SAMPLES[entry.name]
    defaults = example.settings()
    example.env(entry, sample.a)
    given = example.settings(*sample.partner)
    assert conforms(getattr(defaults, entry.field), hint)
    assert conforms(getattr(given, entry.field), hint)


def sources(entries: tuple[Setting, ...]) -> list[Any]:
    """(setting, source) pairs a bad value can come from (a flag's option cannot carry one)."""
    return [
        pytest.param(entry, source, id=f"{entry.name}-{source}")
        for entry in entries
        for source in ("cli", "env", "ini")
        if not (source == "cli" and entry.kind == "flag")
    ]


@pytest.mark.parametrize(("entry", "source"), sources(SETTINGS))
def test_a_bad_value_is_a_usage_error_naming_its_source(
    example: Example, entry: Setting, source: str
) -> None:
    sample = SAMPLES[entry.name]
    raw = example.fill(sample.bad)
    shown = [raw] if entry.kind == "list" else raw
    args = list(sample.partner)
    if source == "cli":
        args += example.cli(entry, sample.bad)
        where = f"option {entry.option}"
    elif source == "env":
        example.env(entry, sample.bad)
        where = f"environment variable {entry.env}"
    else:
        example.ini(entry, sample.bad)
        where = f"ini option {entry.ini}"
    with pytest.raises(pytest.UsageError) as caught:
        plugin.pytest_configure(example.parse(*args))
    if source == "cli" and entry.choices:  # pytest's parser refuses it before we see it
        assert f"argument {entry.option}: invalid choice: {raw!r}" in str(caught.value)
    else:
        assert str(caught.value).startswith(f"invalid {entry.name} {shown!r} from {where}: ")


def test_the_message_says_what_is_allowed(example: Example) -> None:
    example.env(setting("seeds"), "x")
    with pytest.raises(SettingError) as caught:
        example.settings()
    expected = "invalid seeds 'x' from environment variable MLEBENCH_SEEDS: "
    assert str(caught.value) == expected + "expected a positive whole number"


def test_an_unknown_agent_names_the_built_ins_and_the_folder_form(example: Example) -> None:
    with pytest.raises(pytest.UsageError) as caught:
        plugin.pytest_configure(example.parse("--mle-agent", "nobody"))
    message = str(caught.value)
    assert "invalid agent 'nobody' from option --mle-agent: unknown agent 'nobody'" in message
    assert "built-in agents are baseline, dummy, aide:MODEL" in message
    assert "folder with config.yaml" in message


def test_repeated_and_path_separated_folders_keep_their_order(example: Example) -> None:
    a, b = example.root / "defs-a", example.root / "defs-b"
    given = example.settings("--mle-competitions-dir", str(b), "--mle-competitions-dir", str(a))
    assert given.competitions_dirs == (b, a)
    example.monkeypatch.setenv("MLEBENCH_COMPETITIONS_DIRS", f"{a}:{b}")
    assert example.settings().competitions_dirs == (a, b)


def test_relative_files_are_taken_from_where_pytest_starts(example: Example) -> None:
    given = example.settings("--mle-results", "out/r.jsonl", "--mle-baseline", "a.json")
    assert given.results_path == example.root / "out" / "r.jsonl"
    assert given.baseline == example.root / "a.json"


def test_defaults_need_nothing_set(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(example.root / "cache"))
    given = example.settings()
    assert (given.agent, given.sandbox, given.seeds, given.require) == ("dummy", "auto", 1, "valid")
    assert given.data_dir == (example.root / "cache" / "mlebench").resolve()
    assert given.results_path == example.root / "reports" / "results.jsonl"
    assert (given.pids, given.cpus, given.time_limit, given.baseline) == (None, None, None, None)
    assert (given.privileged, given.clean_alluredir, given.rerun) == (False, False, frozenset())


def test_rerun_without_from_is_refused(example: Example) -> None:
    with pytest.raises(SettingError, match="--mle-rerun and --mle-from go together"):
        example.settings("--mle-rerun", "failed")
