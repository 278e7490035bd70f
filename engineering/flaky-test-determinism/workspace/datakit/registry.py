"""Named tokenizers: the built-in ones and those a caller registers."""

from datakit.vocab import tokenize

_TOKENIZERS = {"words": tokenize}


def register(name, function):
    """Make ``function`` available as the tokenizer ``name``."""
    _TOKENIZERS[name] = function


def unregister(name):
    """Remove the tokenizer ``name`` (a built-in one too)."""
    _TOKENIZERS.pop(name, None)


def available():
    """The names of the tokenizers, sorted."""
    return sorted(_TOKENIZERS)


def get(name):
    return _TOKENIZERS[name]
