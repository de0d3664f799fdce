"""Seeded random legal rounds of Super Wild, for tests, benchmarks and demonstrations.

Each player is dealt 6 tiles from a shuffled bag (the racks are written in ``[Racks]``, so a replay
checks every lay against them). On a turn the player sometimes moves one table tile to another
place where it fits (rearranging), then lays tiles from the rack as long as
:func:`engine.superwild.legal.lay_options` finds a legal lay and a coin says go on; a player who
lays nothing draws (``draw R5``) and lays the drawn tile if it fits. The round ends when every
player is out, when nobody can lay and the bag is empty, or after ``turns`` turns.
"""

from __future__ import annotations

import random

from engine.games import RANDOM_PLAYERS
from engine.record import score_comment
from engine.superwild.game import DEAL, Game, Turn
from engine.superwild.legal import fits, frontier, lay_options
from engine.superwild.table import Table, neighbours
from engine.superwild.tiles import COLOURS, TOP, Move, Tile
from engine.superwild.transcript import MAX_PLAYERS, Settings

#: Longest round the generator plays when no turn limit is given.
MAX_TURNS = 400


def new_bag(rng: random.Random) -> list[Tile]:
    """The 52 number tiles shuffled (a colour's two 6/9 tiles named 6 and 9)."""
    bag = [Tile(c, n) for c in COLOURS for n in range(1, TOP + 1)]
    rng.shuffle(bag)
    return bag


def _relocation(table: Table, rng: random.Random) -> Move | None:
    """A table tile moved to another free position where the table stays legal, or None."""
    candidates = [p for p, t in table.tiles.items() if not t.is_wild]
    rng.shuffle(candidates)
    for pos in candidates[:4]:
        rest = Table({p: t for p, t in table.tiles.items() if p != pos}, table.diagonals)
        if rest.problem(near=neighbours(pos, diagonal=True)) is not None:
            continue
        spots = [q for q in frontier(rest) if q != pos]
        rng.shuffle(spots)
        for q in spots[:20]:
            if fits(rest, {q: table.tiles[pos]}):
                return Move(table.tiles[pos], pos, q)
    return None


def _lays(table: Table, rack: list[Tile], rng: random.Random, keep_going: float) -> list[Move]:
    """Lays chosen one option at a time, each legal on the table so far."""
    moves: list[Move] = []
    rack = list(rack)
    while rack:
        option = next(lay_options(table, rack, rng), None)
        if option is None:
            break
        for pos, tile in option.items():
            moves.append(Move(tile, pos))
            rack.remove(tile)
        table = table.with_tiles(option)
        if rng.random() > keep_going:
            break
    return moves


def random_round(
    seed: int, players: int = 2, turns: int | None = None, diagonals: bool = False
) -> tuple[Settings, list[tuple[str, Turn, str | None]], Game]:
    """A seeded random legal round.

    Args:
        seed: the random seed.
        players: 1 to 8 players.
        turns: at most this many turns; None plays until the round ends (at most MAX_TURNS).
        diagonals: play with the optional Diagonals rule.

    Returns:
        The settings (racks named), each turn as (player, turn, comment ``+N`` for a lay), and the
        game after the last turn.

    Raises:
        ValueError: a number of players out of range.
    """
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be 1 to {MAX_PLAYERS}, got {players}")
    rng = random.Random(seed)
    bag = new_bag(rng)
    names = RANDOM_PLAYERS[:players]
    racks = {p: tuple(bag.pop() for _ in range(DEAL)) for p in names}
    game = Game.new(names, racks, DEAL, diagonals)
    out: list[tuple[str, Turn, str | None]] = []
    idle = 0
    limit = MAX_TURNS if turns is None else turns
    while not game.is_over and len(out) < limit and idle < players:
        player = game.current_player
        rack = list(game.rack(player).known)
        shift = _relocation(game.table, rng) if rng.random() < 0.2 else None
        moved = game.table if shift is None else game.table.apply([shift])
        table = moved if isinstance(moved, Table) else game.table
        lays = _lays(table, rack, rng, keep_going=0.6)
        if lays:
            turn = Turn(((shift,) if shift else ()) + tuple(lays))
        elif bag:
            drawn = bag.pop()
            lays = _lays(game.table, [drawn], rng, keep_going=1.0)
            turn = Turn(tuple(lays), draw=True, drawn=drawn)
        else:
            turn = Turn(draw=True)
        result = game.play(turn)
        idle = 0 if result.score else idle + (0 if result.drew else 1)
        out.append((player, turn, score_comment(result.score) if result.score else None))
    settings = Settings(names, diagonals, DEAL, racks)
    return settings, out, game
