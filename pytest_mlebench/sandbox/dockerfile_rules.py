"""What the harness's image builder refuses in a Dockerfile, read before the engine sees it.

The builder (:mod:`~pytest_mlebench.sandbox.docker.image_builder`) builds an agent's Dockerfile on
the host's engine, which would pull any image it does not have and fetch any URL an ``ADD``
names: both must never happen. :func:`dockerfile_refusals` reads the instructions (line
continuations, comments and parser directives handled; ``ARG`` defaults substituted the way the
engine does, since the agent can pass no build argument) and returns one line per refusal:

- a ``FROM`` that names neither an allowed local tag nor an earlier stage (multi-stage builds
  included; ``scratch`` is always allowed: it is no image);
- ``COPY --from`` / ``RUN --mount ...from=`` naming an image instead of an earlier stage;
- ``ADD`` of a URL or a git repository;
- ``RUN --mount`` of type ``bind``, ``ssh`` or ``secret`` and ``RUN --network`` / ``--security``
  (the BuildKit flags that reach past the context or the sandbox);
- ``ONBUILD`` (a trigger that would run when a later stage starts from this one).

``ENV`` values count in the substitution too: the engine substitutes them in ``ADD``.

Pure functions over text; no engine.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Collection, Mapping
from dataclasses import dataclass

DIRECTIVE = re.compile(r"^#\s*([a-zA-Z]+)\s*=\s*(\S+)\s*$")
VARIABLE = re.compile(
    r"\$(?:\{(?P<braced>[A-Za-z_]\w*)(?::(?P<op>[-+])(?P<word>[^}]*))?\}|(?P<bare>[A-Za-z_]\w*))"
)
URL = re.compile(r"^(https?|ftp|git|ssh)://|^git@", re.IGNORECASE)
REFUSED_MOUNTS = ("bind", "ssh", "secret")
REFUSED_RUN_FLAGS = ("--network", "--security")


@dataclass(frozen=True)
class Instruction:
    """One instruction: its keyword (upper case), its text after the keyword, its line."""

    keyword: str
    text: str
    line: int


def instructions(text: str) -> list[Instruction]:
    """The Dockerfile's instructions, continuation lines joined and comments dropped."""
    escape = "\\"
    found: list[Instruction] = []
    pending: list[str] = []
    start = 0
    in_directives = True
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if in_directives:
            directive = DIRECTIVE.match(stripped)
            if directive and directive.group(1).lower() == "escape":
                escape = directive.group(2)[0]
                continue
            if not directive:
                in_directives = False
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if not pending:
            start = number
        if stripped.endswith(escape):
            pending.append(stripped[: -len(escape)])
            continue
        pending.append(stripped)
        joined = " ".join(part for part in pending if part)
        pending = []
        keyword, _, rest = joined.partition(" ")
        found.append(Instruction(keyword.upper(), rest.strip(), start))
    if pending:
        joined = " ".join(pending)
        keyword, _, rest = joined.partition(" ")
        found.append(Instruction(keyword.upper(), rest.strip(), start))
    return found


def substitute(value: str, args: Mapping[str, str]) -> str:
    """``value`` with ``$NAME``, ``${NAME}``, ``${NAME:-word}`` and ``${NAME:+word}`` replaced."""

    def replace(match: re.Match[str]) -> str:
        current = args.get(match.group("braced") or match.group("bare"), "")
        if match.group("op") == "-":
            return current or match.group("word")
        if match.group("op") == "+":
            return match.group("word") if current else ""
        return current

    return VARIABLE.sub(replace, value)


def _normal(reference: str) -> str:
    """``name`` and ``name:latest`` are one reference; a digest stays as written."""
    if "@" in reference:
        return reference
    last = reference.rsplit("/", 1)[-1]
    return reference if ":" in last else f"{reference}:latest"


def _flags(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The ``--name=value`` flags at the start of an instruction's text, and the other words."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        words = text.split()
    flags: list[tuple[str, str]] = []
    while words and words[0].startswith("--"):
        name, _, value = words.pop(0).partition("=")
        flags.append((name.lower(), value))
    return flags, words


def dockerfile_refusals(text: str, allowed: Collection[str]) -> list[str]:
    """One line per thing the builder refuses in ``text``; an empty list builds.

    Args:
        text: The Dockerfile.
        allowed: The local tags a ``FROM`` (or ``COPY --from``) may name.
    """
    return read_dockerfile(text, allowed)[0]


def read_dockerfile(text: str, allowed: Collection[str]) -> tuple[list[str], list[str]]:
    """The refusals of :func:`dockerfile_refusals` and the allowed images the file names (the
    builder checks that those exist on the engine: a missing one would be pulled)."""
    used: list[str] = []
    allowed_refs = {_normal(tag) for tag in allowed}
    global_args: dict[str, str] = {}  # a FROM sees only the ARGs declared before the first one
    args = global_args
    stages: list[str] = []
    refusals: list[str] = []
    found = instructions(text)
    if not any(item.keyword == "FROM" for item in found):
        return ["the Dockerfile has no FROM instruction"], used
    for item in found:
        where = f"line {item.line}"
        if item.keyword == "ARG":
            name, equals, default = item.text.partition("=")
            name = name.strip()
            if equals:
                args[name] = substitute(default.strip().strip('"').strip("'"), args)
            else:  # a stage's bare ARG takes the global default, as in the engine
                args[name] = global_args.get(name, args.get(name, ""))
        elif item.keyword == "ENV":
            args.update(_env_values(item.text, args))  # ENV values are substituted in ADD
        elif item.keyword == "ONBUILD":
            refusals.append(f"line {item.line}: ONBUILD is refused (a trigger runs unread)")
        elif item.keyword == "FROM":
            refusals += _check_from(item, global_args, stages, allowed_refs, where, used)
            args = dict(global_args)
        elif item.keyword in ("COPY", "ADD"):
            refusals += _check_copy(item, args, stages, allowed_refs, where, used)
        elif item.keyword == "RUN":
            refusals += _check_run(item, args, stages, allowed_refs, where, used)
    return refusals, sorted(set(used))


def _env_values(text: str, args: Mapping[str, str]) -> dict[str, str]:
    """``ENV k=v k2=v2`` or the legacy ``ENV k v``, values substituted."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        words = text.split()
    if words and "=" not in words[0]:
        return {words[0]: substitute(" ".join(words[1:]), args)}
    values = {}
    for word in words:
        name, _, value = word.partition("=")
        values[name] = substitute(value, args)
    return values


def _check_from(
    item: Instruction,
    args: dict[str, str],
    stages: list[str],
    allowed: set[str],
    where: str,
    used: list[str],
) -> list[str]:
    _, words = _flags(item.text)
    if not words:
        return [f"{where}: FROM names no image"]
    image = substitute(words[0], args)
    if len(words) >= 3 and words[1].lower() == "as":
        stages.append(words[2].lower())
    else:
        stages.append(f"#{len(stages)}")
    return _check_image(image, stages[:-1], allowed, where, "FROM", used)


def _check_image(
    image: str, stages: list[str], allowed: set[str], where: str, what: str, used: list[str]
) -> list[str]:
    if not image:
        return [f"{where}: {what} names an empty image (an ARG without a default?)"]
    if image.lower() == "scratch" or image.lower() in stages:
        return []
    if image.isdigit() and int(image) < len(stages):
        return []
    if _normal(image) in allowed:
        used.append(_normal(image))
        return []
    names = ", ".join(sorted(allowed)) or "(none)"
    return [
        f"{where}: {what} {image} is not an allowed local image (allowed: {names}); "
        "the builder never pulls from a registry"
    ]


def _check_copy(
    item: Instruction,
    args: dict[str, str],
    stages: list[str],
    allowed: set[str],
    where: str,
    used: list[str],
) -> list[str]:
    flags, words = _flags(item.text)
    refusals = []
    for name, source in flags:
        if name == "--from":
            image = substitute(source, args)
            refusals += _check_image(image, stages, allowed, where, f"{item.keyword} --from", used)
    if item.keyword == "ADD":
        sources = words[:-1] if not item.text.lstrip().startswith("[") else _json_words(item.text)
        for word in sources:
            if URL.search(substitute(word, args)):
                refusals.append(f"{where}: ADD {word}: a URL is fetched from the network, refused")
    return refusals


def _json_words(text: str) -> list[str]:
    try:
        words = json.loads(text)
    except ValueError:
        return []
    return [str(word) for word in words[:-1]] if isinstance(words, list) else []


def _check_run(
    item: Instruction,
    args: dict[str, str],
    stages: list[str],
    allowed: set[str],
    where: str,
    used: list[str],
) -> list[str]:
    flags, _words = _flags(item.text)
    refusals = [f"{where}: RUN {name} is refused" for name, _ in flags if name in REFUSED_RUN_FLAGS]
    for name, value in flags:
        if name != "--mount":
            continue
        options = dict(part.partition("=")[::2] for part in value.split(",") if part)
        kind = options.get("type", "bind")
        if kind in REFUSED_MOUNTS:
            refusals.append(f"{where}: RUN --mount=type={kind} is refused")
        if options.get("from"):
            image = substitute(options["from"], args)
            refusals += _check_image(image, stages, allowed, where, "RUN --mount from", used)
    return refusals
