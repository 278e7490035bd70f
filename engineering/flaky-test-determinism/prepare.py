"""Per-seed variant of flaky-test-determinism: the data the suite's tests use.

``suite/fixtures.json`` gets the values the bootstrap test resamples and a tolerance that an
unseeded run misses about one time in five, a corpus whose token counts are all distinct (its
order is well defined), two texts whose two top tokens tie (their order is only defined by the
documented alphabetical tie-break), a probe text with its expected ids, and the name of the
custom tokenizer the registry test adds.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

WORDS = [
    "amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heron", "iris", "juniper",
    "kelp", "lotus", "maple", "nectar", "onyx", "pepper", "quartz", "raven", "sage", "tulip",
]  # fmt: skip
TOKENIZERS = ["chars", "letters", "glyphs", "symbols", "runes"]
RESAMPLES = 200  # as in suite/test_sampling.py
MISS_Z = 1.2816  # P(|Z| > z) = 0.2: an unseeded run fails about 20 % of the time


def _corpus(rng: random.Random, words: list[str]) -> tuple[list[str], list[str]]:
    """Texts in which ``words[i]`` occurs ``len(words) - i`` times, shuffled over 5 lines."""
    tokens = [word for i, word in enumerate(words) for _ in range(len(words) - i)]
    rng.shuffle(tokens)
    lines = [tokens[i::5] for i in range(5)]
    return [
        " ".join(line).title() if i % 2 else " ".join(line) for i, line in enumerate(lines)
    ], words


def _ties(rng: random.Random, words: list[str]) -> tuple[list[str], list[str]]:
    first, second, extra = words
    tokens = [first] * 3 + [second] * 3 + [extra]
    rng.shuffle(tokens)
    return [" ".join(tokens[:4]), " ".join(tokens[4:])], sorted([first, second])


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = random.Random(64_000 + seed)
    picked = rng.sample(WORDS, 9)
    corpus, corpus_top = _corpus(rng, picked[:6])
    tie_texts, tie_top = _ties(rng, picked[6:])
    values = [round(rng.gauss(rng.uniform(5, 50), rng.uniform(1, 6)), 2) for _ in range(20)]
    spread = statistics.pstdev(values) / math.sqrt(len(values) * RESAMPLES)
    probe_words = [*rng.sample(corpus_top, 3), "zzz"]
    rng.shuffle(probe_words)
    ids = {word: index for index, word in enumerate(corpus_top, start=1)}
    fixtures = {
        "values": values,
        "tolerance": round(MISS_Z * spread, 5),
        "corpus": corpus,
        "corpus_top": corpus_top,
        "tie_texts": tie_texts,
        "tie_top": tie_top,
        "probe": " ".join(probe_words),
        "probe_ids": [ids.get(word, 0) for word in probe_words],
        "custom_tokenizer": rng.choice(TOKENIZERS),
    }
    text = json.dumps(fixtures, indent=2) + "\n"
    (workspace / "suite" / "fixtures.json").write_text(text, "utf-8")
    (private / "fixtures.json").write_text(text, "utf-8")
    return {}
