"""Super Wild behind the games' common interface (engine.games.GameRules), and a match's trophies.

``RULES.replay_text`` replays one round: each turn's report carries in ``details`` the table after
the turn (``"table"``: ``[{"tile", "x", "y"}]``), the groups of every line (``"groups"``), the
drawn tile and the tiles left in each rack; ``Replay.final`` says whether the round is over
(``"over"``: a player has gone out and won it; the cooperative finish may go on), its winner (the
first player out, "Winning"), the players out in order (``"out"``; ``"all_out"`` when every player
is), and the trophies after the round (the ``[Trophies]`` tag's counts plus one for the winner).

A turn naming a player other than the one to move, or an illegal turn, is reported and not applied;
the player's turn is then spent so the turn order stays in step with the transcript.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from engine.games import Hint, Replay, TurnReport, out_of_turn
from engine.superwild.game import RULE_TURN_ORDER, Game, TurnResult
from engine.superwild.hint import hints
from engine.superwild.randomgame import random_round
from engine.superwild.table_turn import table_turn
from engine.superwild.tiles import Move, Pos, Tile, format_move, parse_move, parse_rack
from engine.superwild.transcript import GAME_NAME, Settings, format_transcript, format_turn, read_transcript

RULE_MATCH_START = "Rounds: the next player clockwise starts the next round"
RULE_MATCH_TROPHIES = "Winning: the round's winner takes a Trophy Peg"


def new_game(settings: Settings) -> Game:
    """The round's game from its settings.

    Raises:
        ValueError: racks or a deal the bag cannot give (the message names the tags).
    """
    try:
        return Game.new(settings.players, settings.racks, settings.deal, settings.diagonals)
    except ValueError as exc:
        raise ValueError(f"tags Players, Deal, Racks: {exc}") from None


def replay_round(text: str) -> tuple[Settings, Game, Replay]:
    """Replay a round's transcript.

    Returns:
        The settings, the game after the last applied turn, and the replay.

    Raises:
        ValueError: the tags cannot make a round (the message names the tag).
    """
    settings, lines, errors = read_transcript(text)
    game = new_game(settings)
    reports = []
    for line, turn in lines:
        if turn is None:
            continue
        player = line.player or game.current_player
        moves = format_turn(turn).split(", ")
        violation = None if game.is_over else out_of_turn(RULE_TURN_ORDER, game.current_player, player)
        if violation is not None:
            reports.append(TurnReport(line.number, player, turn.kind, tuple(moves), False, violation, 0))
            continue
        result = game.evaluate(turn)
        if result.violation is None:
            game.play(turn)
        else:
            game.spend_turn(result)
        details = _details(game, result)
        reports.append(
            TurnReport(
                line.number,
                player,
                turn.kind,
                tuple(moves),
                result.is_legal,
                result.violation,
                result.score,
                details,
            )
        )
    final: dict[str, Any] = {"over": game.winner is not None, "winner": game.winner}
    final["out"] = list(game.state.out)
    final["all_out"] = game.is_over
    trophies = {p: settings.trophies.get(p, 0) for p in settings.players}
    if game.winner is not None:
        trophies[game.winner] += 1
    final["trophies"] = trophies
    final["round"] = settings.round
    json_settings = {"game": GAME_NAME, "players": list(settings.players), "diagonals": settings.diagonals}
    json_settings |= {"deal": settings.deal, "round": settings.round}
    replay = Replay(json_settings, tuple(reports), game.scores, tuple(errors), final)
    return settings, game, replay


def _details(game: Game, result: TurnResult) -> dict[str, Any]:
    """A turn's JSON extras: the table after it, its lines' groups, the draw, the racks' sizes."""
    table = result.state.table
    return {
        "table": table.to_json(),
        "groups": table.groups(),
        "drew": result.drew,
        "rack_sizes": {p: len(r) for p, r in zip(game.players, result.state.racks, strict=True)},
    }


def match_trophies(texts: list[str]) -> dict[str, int]:
    """The trophies of a match written as one transcript per round, in order ("Rounds").

    Each round's ``[Trophies]`` must hold the trophies won before it and its first player must be
    the next player clockwise after the previous round's first player.

    Returns:
        Trophies by player after the last round.

    Raises:
        ValueError: an unreadable round, a round with an illegal turn, or tags that disagree with
            the rounds before (the message names the round and the rule).
    """
    trophies: dict[str, int] = {}
    seating: tuple[str, ...] = ()
    for k, text in enumerate(texts, start=1):
        settings, _, replay = replay_round(text)
        bad = next((t for t in replay.turns if not t.legal), None)
        if replay.errors or bad is not None:
            raise ValueError(f"round {k}: {replay.errors[0] if replay.errors else bad.error if bad else ''}")
        if seating:
            expected = seating[1:] + seating[:1]
            if settings.players != expected:
                message = f"players {', '.join(settings.players)}, expected {', '.join(expected)}"
                raise ValueError(f"round {k}: {RULE_MATCH_START}: {message}")
            held = {p: settings.trophies.get(p, 0) for p in settings.players}
            if held != trophies:
                raise ValueError(
                    f"round {k}: {RULE_MATCH_TROPHIES}: tag says {held}, the rounds before {trophies}"
                )
        seating = settings.players
        trophies = dict(replay.final["trophies"])
    return trophies


class SuperWildRules:
    """Super Wild's :class:`engine.games.GameRules`."""

    name = GAME_NAME

    def replay_text(self, text: str, folder: Path | None = None) -> Replay:
        """Read and replay a round (see :func:`replay_round`); ``folder`` is not used: a Super Wild
        transcript names no files.

        Raises:
            ValueError: the tags cannot make a round.
        """
        return replay_round(text)[2]

    def hint(self, text: str, rack: str | None, top: int, folder: Path | None = None) -> list[Hint]:
        """The ``top`` best turns for the player to move (see :func:`engine.superwild.hint.hints`);
        ``folder`` is not used, as for :meth:`replay_text`.

        Args:
            text: the round so far.
            rack: the player's tiles (``"R7 K13 B6"``); None uses the rack the transcript knows
                (``[Racks]`` and named draws).

        Raises:
            ValueError: an unreadable rack, or no rack given where the transcript does not know it.
        """
        _, game, _ = replay_round(text)
        if rack is None:
            known = game.rack(game.current_player)
            if known.unknown:
                raise ValueError(f"the transcript does not know {game.current_player}'s rack: give --rack")
            tiles = list(known.known)
        else:
            tiles = list(parse_rack(rack))
        return hints(game.table, tiles, top)

    def random_transcript(self, seed: int, players: int = 2, turns: int | None = None) -> str:
        """A seeded random legal round, each lay's comment ``+N`` (tiles laid)."""
        settings, lines, _ = random_round(seed, players, turns)
        return format_transcript(settings, lines)

    def table_turn(self, text: str, seen: Collection[str]) -> str:
        """The lays and table moves that lead from the table after ``text`` to the ``seen`` layout
        (``R7@3,0``, the Super Wild ``W@0,0``), ``"draw"`` when nothing changed
        (engine.superwild.table_turn; engine.games.TableRules).

        Raises:
            ValueError: an unreadable placement, two tiles seen on one position, a table tile no
                longer seen, or more tiles of a kind than the game has.
        """
        _, game, _ = replay_round(text)
        layout: dict[Pos, Tile] = {}
        for word in seen:
            try:
                move = parse_move(word)
            except ValueError as exc:
                raise ValueError(f"seen tile {word!r}: {exc}") from None
            if not move.is_lay:
                raise ValueError(f"seen tile {word!r} is a move, not a placement (R7@3,0)")
            if move.pos in layout:
                raise ValueError(f"two tiles seen on {move.pos}")
            layout[move.pos] = move.tile
        return table_turn(game, layout).text

    def layout(self, text: str) -> frozenset[str]:
        """The table after ``text``: ``R7@3,0``, the Super Wild ``W@0,0`` (tiles as the transcript
        writes them)."""
        _, game, _ = replay_round(text)
        return frozenset(format_move(Move(tile, pos)) for pos, tile in game.table.tiles.items())


RULES = SuperWildRules()
