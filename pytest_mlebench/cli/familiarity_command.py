"""``mlebench familiarity --model MODEL``: how well a model knows each competition's description.

Measures by prompt log-probabilities through the LLM gateway (vLLM) or by forcing the text's
tokens on llama.cpp's server (:mod:`pytest_mlebench.familiarity.measure`) and, with
``--summary``, sets the numbers against each competition's medal rate and mean leaderboard
percentile in that summary with Pearson's r and its interval
(:mod:`pytest_mlebench.familiarity.correlation`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_mlebench.cli.common import common, registry, say
from pytest_mlebench.settings import add_cli_options, cli_value

if TYPE_CHECKING:
    from pytest_mlebench.familiarity.correlation import Correlation


def add_familiarity(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "familiarity",
        help="measure a model's familiarity with each competition's description (its mean "
        "log-probability per token, from a vLLM or llama.cpp server; docs/integrity.md)",
    )
    parser.add_argument("--model", required=True, help="the model, as the server names it")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("-c", "--competition", action="append", help="competition id (repeatable)")
    which.add_argument("--split", default="embedded", help="a split (default: embedded)")
    parser.add_argument(
        "--variant",
        choices=("standard", "obfuscated"),
        default="standard",
        help="which description to score (default: standard)",
    )
    parser.add_argument(
        "--summary",
        type=Path,
        metavar="FILE",
        help="a summary.json: correlate with its medal rates and percentiles",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    parser.add_argument(
        "--transcript",
        type=Path,
        default=Path("familiarity-gateway.jsonl"),
        metavar="FILE",
        help="the gateway's transcript (keys removed; default: familiarity-gateway.jsonl)",
    )
    add_cli_options(parser, "gateway-upstream", "price-table")
    common(parser)
    parser.set_defaults(handler=cmd_familiarity)


def cmd_familiarity(args: argparse.Namespace) -> int:
    from pytest_mlebench.familiarity.correlation import Results, report_lines
    from pytest_mlebench.familiarity.measure import measure
    from pytest_mlebench.integrity.judge import judge_setup
    from pytest_mlebench.report.summary_json import load_summary
    from pytest_mlebench.variants.public_view import variant_description

    known = registry(args)
    chosen = (
        [known.get(c) for c in args.competition] if args.competition else known.split(args.split)
    )
    setup = judge_setup(
        args.model, None, dict(cli_value(args, "gateway-upstream")), cli_value(args, "price-table")
    )
    texts = {c.id: variant_description(c.folder, args.variant).read_text("utf-8") for c in chosen}
    result = measure(setup, texts, args.transcript)
    results = Results.of(load_summary(args.summary)) if args.summary else None
    lines, correlations = report_lines(result.familiarity, results)
    say(
        f"familiarity of {args.model} ({args.variant} descriptions, mean log-prob per token, "
        f"by {result.method}):"
    )
    for line in lines:
        say(line)
    if args.json is not None:
        figures = result.to_dict() | {"variant": args.variant}
        if results is not None:
            figures["correlation"] = _figures(correlations["medal_rate"])
            figures["correlation"]["medal_rates"] = results.medal_rates
            figures["percentile_correlation"] = _figures(correlations["percentile"])
            figures["percentile_correlation"]["percentiles"] = results.percentiles
        args.json.write_text(json.dumps(figures, indent=1) + "\n", "utf-8")
    return 0


def _figures(correlation: Correlation) -> dict[str, Any]:
    return {
        "r": correlation.r,
        "low": correlation.low,
        "high": correlation.high,
        "n": correlation.n,
    }
