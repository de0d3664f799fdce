"""Super Wild transcripts: one round per transcript, read from and written to the shared frame
(engine.record) with coordinate tokens. Format (games.md)::

    [Game "Super Wild"]
    [Players "Ana, Bo"]
    [Round "1"]
    [Trophies "Ana 0, Bo 0"]
    [Racks "Ana: R4 R5 K7 K8 K9 B1; Bo: O3 O4 O5 B12 K2 R10"]
    1. Ana: R4@1,0, R5@2,0 {+2}
    2. Bo: draw O6
    3. Ana: K7@1,1, K8@1,2, K9@1,3, R4@1,0>1,-1 {+3}

Tags: ``Players`` (clockwise from the Starting Player Token's holder; the names on the turn lines
in order of appearance where the tag is missing), ``Diagonals`` ("yes"/"no", the optional rule),
``Deal`` (tiles dealt to each player, 6 by default), ``Racks`` (the dealt tiles by player,
``Name: tiles; Name: tiles``; a player left out was dealt ``Deal`` unknown tiles), ``Round`` (the
round's number in a match) and ``Trophies`` (trophies held before the round, ``Name N, ...``).
A match is written as one transcript per round; :func:`engine.superwild.rules.match_trophies`
adds the rounds up.

A turn line holds ``draw`` (optionally with the drawn tile: ``draw O6``), then lays (``R7@3,0``)
and table moves (``R7@3,0>3,1``), separated by commas.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from engine.errors import TranscriptError
from engine.limits import parse_bounded_int
from engine.record import (
    COORDINATE_TOKENS,
    RecordLine,
    Tag,
    check_player_names,
    format_line,
    format_tags,
    parse_yes_no,
    players_of,
    read_record,
    unknown_players,
)
from engine.superwild.game import DEAL, Turn
from engine.superwild.tiles import (
    NUMBER_TILES,
    Tile,
    format_move,
    format_rack,
    format_tile,
    parse_move,
    parse_rack,
    parse_tile,
)

GAME_NAME = "Super Wild"
#: Most players a round may have (the bag must deal every rack).
MAX_PLAYERS = 8
#: Largest round number or trophy count read.
MAX_COUNT = 1000

T = TypeVar("T")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Settings:
    """A round's settings from its tags.

    Attributes:
        players: names clockwise, the starting player first.
        diagonals: whether the optional Diagonals rule is in play.
        deal: tiles dealt to a player whose rack is not named.
        racks: the dealt tiles of the players whose racks are named.
        round: the round's number in a match (1 for a single round).
        trophies: trophies each player held before the round.

    Raises:
        ValueError: no players, too many, or a count out of range.
    """

    players: tuple[str, ...]
    diagonals: bool = False
    deal: int = DEAL
    racks: dict[str, tuple[Tile, ...]] = field(default_factory=dict)
    round: int = 1
    trophies: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 1 <= len(self.players) <= MAX_PLAYERS:
            raise ValueError(f"a round has 1 to {MAX_PLAYERS} players, got {len(self.players)}")
        if not 1 <= self.deal <= NUMBER_TILES or not 1 <= self.round <= MAX_COUNT:
            raise ValueError(f"deal {self.deal} or round {self.round} out of range")

    def tags(self) -> list[tuple[str, str]]:
        """The settings as tag pairs, in the order the writer puts them."""
        pairs = [("Game", GAME_NAME), ("Players", ", ".join(self.players)), ("Round", str(self.round))]
        pairs.append(("Trophies", ", ".join(f"{p} {self.trophies.get(p, 0)}" for p in self.players)))
        if self.diagonals:
            pairs.append(("Diagonals", "yes"))
        if self.deal != DEAL:
            pairs.append(("Deal", str(self.deal)))
        if self.racks:
            racks = "; ".join(f"{p}: {format_rack(self.racks[p])}" for p in self.players if p in self.racks)
            pairs.append(("Racks", racks))
        return pairs


def _pairs(value: str, sep: str, what: str) -> list[tuple[str, str]]:
    """``"Ana 1, Bo 0"`` (sep " ") or ``"Ana: R4 R5; Bo: K1"`` (sep ":") as (name, rest) pairs."""
    out = []
    for part in value.split(";" if sep == ":" else ","):
        if not part.strip():
            continue
        name, _, rest = part.strip().rpartition(" ") if sep == " " else part.partition(":")
        if not name.strip():
            raise ValueError(f"{what} entry {part.strip()!r} has no player name")
        out.append((name.strip(), rest.strip()))
    return out


def read_settings(tags: list[Tag], lines: list[RecordLine]) -> Settings:
    """The round's settings from its tags (and the players from the turn lines, if untagged).

    Raises:
        ValueError: a tag that cannot make a round (the message names the tag and its line).
    """
    by_name = {t.name.lower(): t for t in tags}  # one tag of a name: engine.record keeps the first

    def read(name: str, default: str, parse: Callable[[str], T]) -> T:
        tag = by_name.get(name.lower())
        try:
            return parse(default if tag is None else tag.value)
        except ValueError as exc:
            where = f"tag {name} (line {tag.line})" if tag else f"tag {name}"
            raise ValueError(f"{where}: {exc}") from None

    players = read("Players", "", lambda _value: _players(players_of(tags, lines)))

    def named(entries: dict[str, V]) -> dict[str, V]:
        for name in entries:
            if name not in players:
                raise ValueError(f"{name!r} is not one of the players {', '.join(players)}")
        return entries

    diagonals = read("Diagonals", "no", parse_yes_no)
    deal = read("Deal", str(DEAL), lambda v: parse_bounded_int(v, "Deal", 1, NUMBER_TILES))
    racks = read("Racks", "", lambda v: named({n: parse_rack(r) for n, r in _pairs(v, ":", "Racks")}))
    trophies = read(
        "Trophies",
        "",
        lambda v: named(
            {n: parse_bounded_int(k, "trophies", 0, MAX_COUNT) for n, k in _pairs(v, " ", "Trophies")}
        ),
    )
    number = read("Round", "1", lambda v: parse_bounded_int(v, "Round", 1, MAX_COUNT))
    try:
        return Settings(players, diagonals, deal, racks, number, trophies)
    except ValueError as exc:
        raise ValueError(f"tags Players, Deal, Round: {exc}") from None


def _players(players: tuple[str, ...]) -> tuple[str, ...]:
    """The players, checked (engine.record.check_player_names).

    Raises:
        ValueError: no names, a name a turn line cannot carry, or a name twice.
    """
    if not players:
        raise ValueError('no players: name them, e.g. [Players "Ana, Bo"]')
    check_player_names(players)
    return players


def parse_turn(line: RecordLine) -> Turn:
    """A turn from its tokens: ``draw`` [tile], then moves.

    Raises:
        TranscriptError: an unreadable token, with its line and column.
    """
    tokens = list(line.tokens)
    draw, drawn = False, None
    if tokens and tokens[0].text.lower() == "draw":
        draw = True
        tokens.pop(0)
        if tokens and "@" not in tokens[0].text:
            try:
                drawn = parse_tile(tokens[0].text)
            except ValueError as exc:
                raise TranscriptError(line.line, tokens[0].column, str(exc)) from None
            if drawn.is_wild:
                message = "the Super Wild is never drawn: it is always on the table"
                raise TranscriptError(line.line, tokens[0].column, message)
            tokens.pop(0)
    moves = []
    for token in tokens:
        if token.text.lower() == "draw":
            raise TranscriptError(line.line, token.column, "draw comes first in a turn, before any tile")
        try:
            moves.append(parse_move(token.text))
        except ValueError as exc:
            raise TranscriptError(line.line, token.column, str(exc)) from None
    return Turn(tuple(moves), draw, drawn)


def format_turn(turn: Turn) -> str:
    """``"draw O6, O6@2,1, R4@1,0>1,-1"``; the round trip of :func:`parse_turn`."""
    head = []
    if turn.draw:
        head.append("draw" if turn.drawn is None else f"draw {format_tile(turn.drawn)}")
    return ", ".join(head + [format_move(m) for m in turn.moves])


def read_transcript(
    text: str,
) -> tuple[Settings, list[tuple[RecordLine, Turn | None]], list[TranscriptError]]:
    """Read a round: its settings, each turn line with its turn (None when unreadable), the errors.

    Raises:
        ValueError: the tags cannot make a round.
    """
    tags, lines, errors = read_record(text, COORDINATE_TOKENS)
    settings = read_settings(tags, lines)
    errors += unknown_players(lines, settings.players)
    turns: list[tuple[RecordLine, Turn | None]] = []
    for line in lines:
        try:
            turns.append((line, parse_turn(line)))
        except TranscriptError as exc:
            errors.append(exc)
            turns.append((line, None))
    errors.sort(key=lambda e: (e.line, e.column))
    return settings, turns, errors


def format_transcript(settings: Settings, turns: list[tuple[str, Turn, str | None]]) -> str:
    """A round as text: the tags, then one line per (player, turn, comment)."""
    out = format_tags(settings.tags())
    for number, (player, turn, comment) in enumerate(turns, start=1):
        out.append(format_line(number, player, format_turn(turn), comment))
    return "\n".join(out) + "\n"
