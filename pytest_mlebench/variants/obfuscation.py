"""The obfuscated description of a competition: the same task, its identity taken out. Pure.

The original benchmark asked whether a model wins because it has seen the competition before; it
reran every competition with a description that no longer names it. Ours are made by one
procedure from each ``description.md``, written to ``description_obfuscated.md`` by
``tools/obfuscate_descriptions.py`` and reviewed before they are committed:

1. the title line becomes ``# Task``;
2. the competition's identifying strings are replaced, longest first and case-insensitively:
   its name and id from ``config.yaml`` (the id also with spaces for dashes) become
   ``this competition``; the hosts, sponsors, named data sets and places of
   ``variants/identity.yaml`` (reviewed by hand per competition) become the neutral words
   written there;
3. generic patterns: links (a Markdown link keeps its text), ``Kaggle`` in any spelling, and
   dates in prose (``15 April 1912``, ``December 2010``, ``2001-01-22``, a year such as
   ``2013``) become ``[date]``/``[year]``. Indented example lines (code) keep their dates:
   they show the format of a data column.

:func:`surviving_identity` is what ``tests/unit/test_description_variants.py`` proves absent from
every committed variant.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.yaml_text import load_yaml

TITLE = "# Task"
NAME_REPLACEMENT = "this competition"
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_LINK = re.compile(r"\[([^\]]*)\]\((?:https?://|www\.)[^)]*\)")
_URL = re.compile(r"(?:https?://|www\.)[^\s)`>\]]*[^\s)`>\].,;:!?]", re.IGNORECASE)
_KAGGLE = (
    (re.compile(r"\boriginal kaggle\b", re.IGNORECASE), "original"),
    (re.compile(r"\bkaggle's\b", re.IGNORECASE), "the original"),
    (re.compile(r"kaggle", re.IGNORECASE), "the original platform"),
)
_DAY_MONTH_YEAR = re.compile(rf"\b\d{{1,2}} (?:{MONTHS}),? \d{{4}}\b")
_MONTH_DAY_YEAR = re.compile(rf"\b(?:{MONTHS}) \d{{1,2}},? \d{{4}}\b")
_MONTH_YEAR = re.compile(rf"\b(?:{MONTHS}) \d{{4}}\b")
_ISO_DATE = re.compile(r"\b(?:19|20)\d{2}-\d{2}-\d{2}\b")
_DATES = (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR, _MONTH_YEAR, _ISO_DATE)
_ARTICLES = re.compile(r"\b(the|a|an) (the|a|an)\b", re.IGNORECASE)
_REPEATED = re.compile(r"\b([a-z]{4,}) \1\b")
_SENTENCE_END = re.compile(r"(?:^|\n\n|[.!?][ \n]+)$")
# A year in prose; not one right after an upper-case word (JPEG 2000, PASCAL VOC 2010, FVC 2000
# are names and values, not dates) and not inside a longer number or identifier.
_YEAR = re.compile(r"(?<![A-Z]{2} )(?<![A-Z]{2}` )(?<![\w.,-])(?:19[5-9]\d|20[0-3]\d)(?![\w-])")


@dataclass(frozen=True)
class Identity:
    """What names one competition: its id, its name and the reviewed extra strings.

    Attributes:
        competition_id: ``config.yaml``'s ``id``.
        name: ``config.yaml``'s ``name``.
        extra: Identifying string → the neutral words that replace it (``identity.yaml``).
    """

    competition_id: str
    name: str
    extra: Mapping[str, str]

    def replacements(self) -> list[tuple[str, str]]:
        """Every identifying string and its replacement, longest first."""
        pairs = {self.name: NAME_REPLACEMENT}
        for spelling in (self.competition_id, self.competition_id.replace("-", " ")):
            pairs.setdefault(spelling, NAME_REPLACEMENT)
        pairs.update(self.extra)
        return sorted(pairs.items(), key=lambda pair: -len(pair[0]))


GENERIC_MARKS = ("kaggle", "http://", "https://", "www.")


def surviving_identity(text: str, identity: Identity) -> list[str]:
    """The identifying strings still in ``text``: any case, as whole words (``Ames`` is not
    found in ``names``, nor ``ISIC`` in the image id ``ISIC_0052212``, which is data), and the
    generic marks (``kaggle``, links) anywhere, even inside a word."""
    found = [needle for needle, _ in identity.replacements() if _word(needle).search(text)]
    lowered = text.lower()
    return found + [mark for mark in GENERIC_MARKS if mark in lowered]


def obfuscate(description: str, identity: Identity) -> str:
    """``description`` with the competition's identity taken out (see the module docstring)."""
    lines = description.splitlines()
    if lines and lines[0].startswith("# "):
        lines[0] = TITLE
    text = _LINK.sub(r"\1", "\n".join(lines))
    text = _URL.sub("a public source", text)
    text = _replace_all(text, identity.replacements())
    for pattern, replacement in _KAGGLE:
        text = pattern.sub(functools.partial(_fitted, words=replacement), text)
    text = "\n".join(_tidy(line) if prose else line for line, prose in _lines(text))
    return text.rstrip("\n") + "\n"


def _lines(text: str) -> list[tuple[str, bool]]:
    """Each line and whether it is prose (not inside a fenced block, not indented as code)."""
    marked, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            marked.append((line, False))
            continue
        marked.append((line, not fenced and not line.startswith(("    ", "\t"))))
    return marked


def _tidy(line: str) -> str:
    """Dates out, and the seams of the replacements smoothed (``the a botanical garden``,
    ``the observatory observatory``)."""
    for pattern in _DATES:
        line = pattern.sub("[date]", line)
    line = _YEAR.sub("[year]", line)
    line = _ARTICLES.sub(lambda m: _same_case(m.group(2), m.group(1)), line)
    line = _REPEATED.sub(r"\1", line)
    return re.sub(r"(?<=\S)[ \t]{2,}(?=\S)", " ", line)


def _same_case(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def prose_dates_left(text: str) -> list[str]:
    """The prose lines of ``text`` that still hold a date or a year."""
    return [
        line
        for line, prose in _lines(text)
        if prose and any(p.search(line) for p in (*_DATES, _YEAR))
    ]


def _replace_all(text: str, pairs: Sequence[tuple[str, str]]) -> str:
    for needle, replacement in pairs:
        if not needle:
            continue
        text = _word(needle).sub(functools.partial(_fitted, words=replacement), text)
    return text


def _fitted(match: re.Match[str], words: str) -> str:
    """``words`` capitalised where they open a sentence or a paragraph."""
    before = match.string[max(0, match.start() - 3) : match.start()]
    opens = match.start() == 0 or bool(_SENTENCE_END.search(before))
    return _same_case(words, "A") if opens else words


def _word(needle: str) -> re.Pattern[str]:
    """``needle`` in any case, not as a part of a longer word."""
    start = r"\b" if needle[0].isalnum() else ""
    end = r"\b" if needle[-1].isalnum() else ""
    return re.compile(start + re.escape(needle) + end, re.IGNORECASE)


IDENTITY_TABLE = Path(__file__).with_name("identity.yaml")


def identity_of(competition_folder: Path, table: Mapping[str, Any] | None = None) -> Identity:
    """The :class:`Identity` of the competition in ``competition_folder`` (its ``config.yaml``
    and its entry of ``identity.yaml``; a competition missing there has no extra strings)."""
    config = load_yaml((competition_folder / "config.yaml").read_text("utf-8"))
    extra = (load_identity_table() if table is None else table).get(config["id"]) or {}
    return Identity(
        str(config["id"]), str(config["name"]), {str(k): str(v) for k, v in extra.items()}
    )


def load_identity_table() -> dict[str, Any]:
    """``identity.yaml``: competition id → identifying string → replacement."""
    loaded = load_yaml(IDENTITY_TABLE.read_text("utf-8"))
    return loaded if isinstance(loaded, dict) else {}
