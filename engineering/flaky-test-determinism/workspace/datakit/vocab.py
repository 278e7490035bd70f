"""Tokens and vocabularies."""

import re
from collections import Counter

WORD = re.compile(r"[a-z0-9]+")


def tokenize(text):
    """Lower-cased runs of letters and digits."""
    return WORD.findall(text.lower())


def top_tokens(texts, k):
    """The ``k`` most frequent tokens of ``texts``, most frequent first; tokens of equal count
    come in alphabetical order."""
    counts = Counter(token for text in texts for token in tokenize(text))
    candidates = set(counts)
    return sorted(candidates, key=lambda token: -counts[token])[:k]


def build_vocab(texts, k):
    """Token → id for the ``k`` top tokens (ids 1..k in ``top_tokens`` order; 0 is unknown)."""
    return {token: index for index, token in enumerate(top_tokens(texts, k), start=1)}
