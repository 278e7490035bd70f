"""The contract between a competition and the graders library.

A competition describes its submission with a :class:`SubmissionSpec`; grading and the
sandbox validator both call :func:`graders.score_submission` / :func:`graders.validate_submission`
with it, so the two can never disagree about what a valid submission is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

ExtraColumns = Literal["reject", "ignore"]


@dataclass(frozen=True)
class SubmissionSpec:
    """What a submission file must look like and how it is scored.

    Attributes:
        id_column: Column that identifies a row; its values must be exactly the answer ids.
        target_columns: Submission columns besides the id, matched by name in any order.
        metric: Name of a metric in :data:`graders.metrics.METRICS`.
        answer_columns: Columns of the answers file the metric reads (default: ``target_columns``).
        extra_columns: ``"reject"`` makes unknown submission columns invalid; ``"ignore"``
            drops them.
        metric_params: Extra keyword parameters of the metric (for example ``{"k": 10}``).
        original_columns: The target columns of the original MLE-bench's form of this
            submission, where its grader reads fewer than ours (empty otherwise): a file with
            those but not ours is told which columns to add.
        key_columns: Further id columns: with ``id_column`` first, they make the row key (a
            composite key: ``tripId`` then ``UnixTimeMillis``); empty when ``id_column`` alone
            identifies a row (:mod:`graders.composite_keys`).
        pair_repeated_ids: The id may repeat: the k-th submission row of an id pairs with the
            k-th answer row of that id, and the counts per id must agree (the original
            MLE-bench's positional pairing inside a group; for its score only).
    """

    id_column: str
    target_columns: tuple[str, ...]
    metric: str
    answer_columns: tuple[str, ...] | None = None
    extra_columns: ExtraColumns = "reject"
    metric_params: Mapping[str, Any] = field(default_factory=dict)
    original_columns: tuple[str, ...] = ()
    key_columns: tuple[str, ...] = ()
    pair_repeated_ids: bool = False

    @property
    def id_columns(self) -> tuple[str, ...]:
        """The columns of the row key, ``id_column`` first."""
        return (self.id_column, *self.key_columns)

    @property
    def resolved_answer_columns(self) -> tuple[str, ...]:
        return self.answer_columns if self.answer_columns is not None else self.target_columns


@dataclass(frozen=True)
class ScoreResult:
    """Outcome of validating (and possibly scoring) one submission.

    ``valid`` is False exactly when ``reason`` is set; ``score`` is a finite float only for a
    valid, scored submission (validation alone leaves it ``None``).
    """

    valid: bool
    score: float | None = None
    reason: str | None = None

    @classmethod
    def invalid(cls, reason: str) -> ScoreResult:
        return cls(valid=False, score=None, reason=reason)
