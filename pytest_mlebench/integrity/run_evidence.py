"""The integrity evidence of one run as a typed value, and its file ``integrity/evidence.json``.

:class:`Evidence` is what the watch in the sandbox phase hands back
(:mod:`pytest_mlebench.integrity.watch`), what the run adds the host's own facts to
(:meth:`~pytest_mlebench.integrity.monitor.IntegrityRun.check`) and what every check, the
disclosure block and the engineering run's harness checks read: named fields instead of string
keys. Its JSON is the file's format as it has always been: the same keys, in the order they were
collected, ``null`` where a collector was asked and found nothing, absent where it never ran.

Reading a saved file keeps its key order and any key this version does not know (``extra``), so
:func:`load_evidence` followed by :func:`save_evidence` writes the same bytes back. The
sub-values come from their collectors as JSON objects (the inventory's answer, the process audit,
the egress proxy's account, the copy-out's account, the GPU sampler's summary); each keeps its
collector's shape, read through the accessors below.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

EVIDENCE_FILE = Path("integrity") / "evidence.json"

# The keys of the JSON file in the order a run collects them (a new key goes where its collector
# runs; an old file's own order is kept as read).
KEY_ORDER = (
    "nonce",
    "sandbox_started",
    "sandbox_started_at",
    "backend",
    "copy_out",
    "agent_finished",
    "process_audit",
    "validator",
    "egress",
    "egress_error",
    "inventory",
    "outside_contract",
    "outside_contract_error",
    "gpu_usage",
    "build_calls",
    "build_refused",
    "copied_in",
    "validation_calls",
)

JSONObject = dict[str, Any]


@dataclass(frozen=True)
class Evidence:
    """What was collected around one run; every field is ``None`` until its collector ran.

    Attributes:
        nonce: The run's watermark nonce (:class:`~pytest_mlebench.integrity.nonce.Watermark`).
        sandbox_started: When the watch began, epoch seconds (the watermark's time window).
        sandbox_started_at: The same moment as a UTC timestamp.
        backend: The sandbox backend's name.
        copy_out: The copy-out's account
            (:meth:`~pytest_mlebench.sandbox.copy_budget.CopyBudget.summary`).
        agent_finished: When the agent's time ended, epoch seconds.
        process_audit: The process audit (:meth:`~.processes.ProcessAudit.evidence`) and its
            ``source``; ``None``: no audit for this backend.
        validator_refused: Validator requests the rate limit refused (JSON ``validator.refused``).
        egress: The egress proxy's account (``None``: no proxy, or it could not be read).
        egress_error: Why the proxy's account could not be read.
        inventory: The inventory's answer (:func:`~.inventory.take_inventory`), or
            ``{"error": …}``.
        outside_contract: Files written outside the contract (``None``: no diff on this backend).
        outside_contract_error: Why the file-system diff could not be taken.
        gpu_usage: The GPU sampler's summary (the record's ``gpu_usage``).
        build_calls: The agent's calls of ``build_image.sh`` (an engineering task with a builder).
        build_refused: Builder requests refused by its rate limit.
        copied_in: The host's search for the submission among the agent's own files.
        validation_calls: The validator's call log.
        nulls: Keys written as ``null`` though their value is ``None`` (asked, found nothing).
        keys: The JSON keys in their order (kept from a file; extended as facts are added).
        extra: Keys of a saved file this version does not know, kept as read.
    """

    nonce: str | None = None
    sandbox_started: float | None = None
    sandbox_started_at: str | None = None
    backend: str | None = None
    copy_out: JSONObject | None = None
    agent_finished: float | None = None
    process_audit: JSONObject | None = None
    validator_refused: int | None = None
    egress: JSONObject | None = None
    egress_error: str | None = None
    inventory: JSONObject | None = None
    outside_contract: JSONObject | None = None
    outside_contract_error: str | None = None
    gpu_usage: JSONObject | None = None
    build_calls: tuple[JSONObject, ...] | None = None
    build_refused: int | None = None
    copied_in: JSONObject | None = None
    validation_calls: tuple[JSONObject, ...] | None = None
    nulls: frozenset[str] = field(default=frozenset(), compare=False)
    keys: tuple[str, ...] = field(default=(), compare=False)
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        present = [key for key in KEY_ORDER if key in self.nulls or self._value(key) is not None]
        kept = [key for key in self.keys if key in present or key in self.extra]
        order = (*kept, *(key for key in present if key not in kept))
        object.__setattr__(self, "keys", order)

    # -- JSON -----------------------------------------------------------------------------------

    def to_dict(self) -> JSONObject:
        """The JSON object of ``evidence.json``."""
        return {
            key: self.extra[key] if key in self.extra else self._json_value(key)
            for key in self.keys
        }

    def to_json(self) -> str:
        """The text of ``evidence.json`` (without its final newline)."""
        return json.dumps(self.to_dict(), indent=1, default=str)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evidence:
        """The evidence of a saved ``evidence.json`` object (of any version: unknown keys are
        kept in ``extra``, missing ones are ``None``)."""
        known = set(KEY_ORDER)
        values: dict[str, Any] = {name: data.get(name) for name in _SAME_NAME if name in data}
        validator = data.get("validator")
        if isinstance(validator, Mapping):
            values["validator_refused"] = validator.get("refused", 0)
        for name in ("build_calls", "validation_calls"):
            if isinstance(data.get(name), list):
                values[name] = tuple(data[name])
        return cls(
            **values,
            nulls=frozenset(key for key in known if key in data and data[key] is None),
            keys=tuple(data),
            extra={key: value for key, value in data.items() if key not in known},
        )

    @classmethod
    def from_json(cls, text: str) -> Evidence:
        """The evidence of an ``evidence.json`` text."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("evidence.json holds no JSON object")
        return cls.from_dict(data)

    def _value(self, key: str) -> Any:
        if key == "validator":
            return self.validator_refused
        return getattr(self, key, None)

    def _json_value(self, key: str) -> Any:
        if key == "validator":
            return None if self.validator_refused is None else {"refused": self.validator_refused}
        value = self._value(key)
        return list(value) if isinstance(value, tuple) else value

    # -- what the checks read -------------------------------------------------------------------

    @property
    def audited_processes(self) -> list[JSONObject]:
        """The process audit's distinct command lines (empty without an audit)."""
        return list((self.process_audit or {}).get("processes") or [])

    @property
    def agent_sources(self) -> list[Path]:
        """The host files and folders copied in with the agent (searched for the submission)."""
        return [Path(p) for p in (self.copied_in or {}).get("sources") or []]

    @property
    def identical_agent_files(self) -> list[str]:
        """The agent's own files identical to the submission."""
        return [str(p) for p in (self.copied_in or {}).get("matches") or []]


# Fields whose JSON key is their name (all but ``validator``, read as ``validator_refused``).
_SAME_NAME = frozenset(
    f.name for f in fields(Evidence) if f.name in KEY_ORDER and f.name != "validator"
)


def save_evidence(run_dir: Path, evidence: Evidence) -> Path:
    """Write ``evidence`` to ``<run_dir>/integrity/evidence.json``; the path."""
    path = run_dir / EVIDENCE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(evidence.to_json() + "\n", "utf-8")
    return path


def load_evidence(run_dir: Path) -> Evidence | None:
    """The evidence saved in ``run_dir`` (``None``: none was saved)."""
    path = run_dir / EVIDENCE_FILE
    if not path.is_file():
        return None
    return Evidence.from_json(path.read_text("utf-8"))


def calls_of(evidence: Evidence | None, fallback: Sequence[JSONObject]) -> list[JSONObject]:
    """The validator's calls from the evidence, else ``fallback`` (the record's)."""
    if evidence is None or evidence.validation_calls is None:
        return list(fallback)
    return list(evidence.validation_calls)
