"""A text-to-ids pipeline whose vocabulary is fitted once per process and kept."""

from datakit.vocab import build_vocab, tokenize

_STATE = {}


def fit(texts, k=20):
    """Fit the vocabulary on ``texts`` (the ``k`` top tokens) and keep it."""
    _STATE["vocab"] = build_vocab(texts, k)
    return _STATE["vocab"]


def transform(text):
    """The ids of ``text``'s tokens under the fitted vocabulary (0 for unknown tokens)."""
    if "vocab" not in _STATE:
        raise RuntimeError("fit() the pipeline before transform()")
    vocab = _STATE["vocab"]
    return [vocab.get(token, 0) for token in tokenize(text)]


def reset():
    """Forget the fitted vocabulary."""
    _STATE.clear()
