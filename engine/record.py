"""The transcript frame every game shares: PGN-like tag pairs, then one numbered line per turn.

This is the raw-syntax layer (like sgfmill's): it knows tags, turn numbers, player names, move
tokens with their columns and ``{...}`` comments, and nothing of any game's moves. Each game reads
its moves from the tokens (engine.transcript for MODLINSEQ, the packages engine.yushino,
engine.superwild and engine.holominoes for the others). Format (games.md)::

    [Game "Yushino"]
    [Players "Ana, Bo"]
    1. Ana: 3G8, 4H8 {+7}
    2. Bo: exchange 3

Errors are collected as :class:`engine.errors.TranscriptError` (1-based line and column) and the
reader carries on, like python-chess's PGN reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import TranscriptError
from engine.limits import MAX_NAME

TAG_RE = re.compile(r'\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')
_TURN_RE = re.compile(r"\s*(?:(\d+)\s*\.)?\s*(?:([^:,@]*[^:,@\s])\s*:)?\s*", re.ASCII)

#: Tokens split at commas and white space (MODLINSEQ's ``4B2, 7B1``).
PLAIN_TOKENS = re.compile(r"[^,\s]+")
#: Tokens whose coordinates hold commas (``R7@3,0>3,1``, ``132@1,-1/E``): a comma between a digit
#: and a digit or minus sign stays inside the token.
COORDINATE_TOKENS = re.compile(r"(?:[^,\s]|(?<=\d),(?=-?\d))+")

#: Longest line the reader takes (characters); a longer one is reported and skipped.
MAX_LINE = 10_000


@dataclass(frozen=True, slots=True)
class Tag:
    """One ``[Name "value"]`` pair with its 1-based line."""

    name: str
    value: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Token:
    """One move token and its 1-based column on its line."""

    text: str
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class RecordLine:
    """One turn line, its moves still text.

    Attributes:
        number: the turn's number (as written, or counted when left out).
        player: the player named on the line, None when left out.
        tokens: the move tokens in order (``["3G8", "4H8"]``, ``["exchange", "3"]``).
        comment: the text of the line's ``{...}`` comments, None without one.
        line: 1-based line number.
    """

    number: int
    player: str | None
    tokens: tuple[Token, ...]
    comment: str | None = None
    line: int = field(default=0, compare=False)

    @property
    def words(self) -> list[str]:
        """The tokens' texts."""
        return [t.text for t in self.tokens]


def _strip_comments(text: str, lineno: int, errors: list[TranscriptError]) -> tuple[str, str | None]:
    """The line with ``{...}`` blanked out (columns kept) and the comments' text."""
    out, comments, pos = [], [], 0
    while True:
        start = text.find("{", pos)
        if start < 0:
            out.append(text[pos:])
            break
        end = text.find("}", start)
        out.append(text[pos:start])
        if end < 0:
            errors.append(
                TranscriptError(lineno, start + 1, f"comment {text[start:]!r} is not closed with }}")
            )
            comments.append(text[start + 1 :].strip())
            break
        comments.append(text[start + 1 : end].strip())
        out.append(" " * (end - start + 1))
        pos = end + 1
    return "".join(out), " ".join(c for c in comments if c) or None


def read_record(
    text: str, tokens: re.Pattern[str] = PLAIN_TOKENS
) -> tuple[list[Tag], list[RecordLine], list[TranscriptError]]:
    """Split a transcript into its tags and turn lines.

    Args:
        text: the whole transcript.
        tokens: the pattern of one move token (:data:`PLAIN_TOKENS` or :data:`COORDINATE_TOKENS`).

    Returns:
        The tags (a name given again is reported and left out: the first counts), the turn lines
        (numbered 1, 2, ... in order; a written number out of step is reported and replaced) and
        the errors found, each with its line and column.
    """
    tags: list[Tag] = []
    lines: list[RecordLine] = []
    errors: list[TranscriptError] = []
    seen: dict[str, int] = {}  # tag name (lower case) -> its line
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            errors.append(TranscriptError(lineno, 1, f"line of {len(line)} characters (at most {MAX_LINE})"))
            continue
        tag = TAG_RE.fullmatch(line)
        if tag:
            if lines:
                errors.append(TranscriptError(lineno, 1, f"tag {tag.group(1)} after the first turn"))
            first = seen.setdefault(tag.group(1).lower(), lineno)
            if first != lineno:
                errors.append(TranscriptError(lineno, 1, f"tag {tag.group(1)} again (line {first}'s counts)"))
                continue
            tags.append(Tag(tag.group(1), re.sub(r"\\(.)", r"\1", tag.group(2)), lineno))
            continue
        if line.lstrip().startswith("["):
            where = line.index("[") + 1
            message = f'not a tag pair: {line.strip()!r} (expected [Name "value"])'
            errors.append(TranscriptError(lineno, where, message))
            continue
        body, comment = _strip_comments(line, lineno, errors)
        if not body.strip():
            continue
        m = _TURN_RE.match(body)
        if m is None:  # the pattern matches any text; kept for the type checker
            continue
        expected = len(lines) + 1
        number = int(m.group(1)) if m.group(1) and len(m.group(1)) <= 9 else expected
        if m.group(1) and number != expected:
            errors.append(
                TranscriptError(
                    lineno, m.start(1) + 1, f"turn number {m.group(1)} where {expected} was expected"
                )
            )
            number = expected
        found = tuple(Token(t.group(), t.start() + 1) for t in tokens.finditer(body, m.end()))
        if not found:
            errors.append(TranscriptError(lineno, m.end() + 1, f"turn {number} has no moves"))
            continue
        lines.append(RecordLine(number, m.group(2), found, comment, lineno))
    return tags, lines, errors


def tag_value(tags: list[Tag], name: str, default: str | None = None) -> str | None:
    """The value of the first tag called ``name`` (case-insensitive), else ``default``."""
    for tag in tags:
        if tag.name.lower() == name.lower():
            return tag.value
    return default


def players_of(tags: list[Tag], lines: list[RecordLine]) -> tuple[str, ...]:
    """The players in turn order: the ``Players`` tag's names (``"Ana, Bo"``), or without the tag
    the names on the turn lines in order of first appearance (games.md).

    Returns:
        The names, spaces trimmed; empty when neither the tag nor any line names a player.
    """
    value = tag_value(tags, "Players")
    if value is None:
        return tuple(dict.fromkeys(line.player for line in lines if line.player))
    return tuple(name.strip() for name in value.split(",") if name.strip())


def check_player_names(players: tuple[str, ...]) -> None:
    """Check that every name can be written on a turn line and read back, once each.

    Raises:
        ValueError: an empty name, one holding ``, : { } [ ]`` or a quote, one over
            :data:`engine.limits.MAX_NAME` printable characters, or a name given twice.
    """
    for name in players:
        if not isinstance(name, str) or not name.strip() or any(ch in name for ch in ',:{}[]"'):
            raise ValueError(f"player name {name!r} must be non-empty without , : {{ }} [ ] or quotes")
        if len(name) > MAX_NAME or not name.isprintable():
            raise ValueError(f"player name {name!r} must be at most {MAX_NAME} printable characters")
    if len(set(players)) != len(players):
        raise ValueError(f"player names must be distinct, got {players!r}")


def unknown_players(lines: list[RecordLine], players: tuple[str, ...]) -> list[TranscriptError]:
    """An error for each turn line naming someone who is not one of ``players``, at its line."""
    return [
        TranscriptError(line.line, 1, f"player {line.player!r} is not one of {', '.join(players)}")
        for line in lines
        if line.player is not None and line.player not in players
    ]


_YES_NO = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}


def parse_yes_no(value: str) -> bool:
    """A switch tag's value: ``yes``/``no`` (or ``true``/``false``, ``1``/``0``), in any case.

    Raises:
        ValueError: anything else (the message quotes ``value``).
    """
    key = value.strip().lower()
    if key not in _YES_NO:
        raise ValueError(f"expected yes or no, got {value!r}")
    return _YES_NO[key]


def score_comment(score: int) -> str:
    """The comment a writer puts after a scoring turn: ``+7`` (written ``{+7}``)."""
    return f"+{score}"


def escape(value: str) -> str:
    """A tag value with backslashes and quotes escaped, and line breaks as spaces."""
    return " ".join(value.replace("\\", "\\\\").replace('"', '\\"').splitlines())


def format_tags(pairs: list[tuple[str, str]]) -> list[str]:
    """Tag pair lines, ``[Name "value"]``."""
    return [f'[{name} "{escape(value)}"]' for name, value in pairs]


def format_line(number: int, player: str | None, body: str, comment: str | None = None) -> str:
    """One turn line: ``3. Ana: 3G8, 4H8 {+7}``."""
    who = f"{player}: " if player else ""
    note = f" {{{comment}}}" if comment else ""
    return f"{number}. {who}{body}{note}"


def game_tag(text: str) -> str:
    """The ``[Game "..."]`` tag's value of a transcript, ``"MODLINSEQ"`` when it has none."""
    for line in text.splitlines():
        tag = TAG_RE.fullmatch(line) if len(line) <= MAX_LINE else None
        if tag and tag.group(1).lower() == "game":
            return re.sub(r"\\(.)", r"\1", tag.group(2))
    return "MODLINSEQ"
