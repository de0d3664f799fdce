"""Holominoes (seed: holominoes-rules.txt; notation: design/games.md).

Hexagonal tiles with three numbers on alternate corners, laid edge to edge on a hex grid so that
shared corners carry the same number; closing a hole (a bite point with its three cells filled)
scores the sum of the numbers around it, several holes in one move their product.

Modules: ``geometry`` (cells, corners, which corners coincide), ``tiles`` (tiles, placements,
moves and their notation), ``position`` (the table, legality, holes, blocked points, legal
placements), ``game`` (settings, turns, pools, sack, scores, undo), ``transcript`` (tags, replay,
writing), ``randomgame`` (seeded random legal games), ``rules`` (``RULES`` for engine.games).
"""

from engine.holominoes.game import Game, IllegalTurnError, Settings, TurnRecord, TurnResult
from engine.holominoes.geometry import (
    Cell,
    Point,
    cells_at,
    corner_xy,
    format_cell,
    format_point,
    parse_cell,
    parse_point,
    point_of,
)
from engine.holominoes.position import Hole, Position, score_holes
from engine.holominoes.randomgame import random_game
from engine.holominoes.rules import RULES, HolominoesRules, best_moves, parse_rack
from engine.holominoes.tiles import (
    Pass,
    Placement,
    Play,
    Tile,
    format_move,
    format_placement,
    format_tile,
    parse_move,
    parse_placement,
    parse_tile,
    tile_set,
)
from engine.holominoes.transcript import final, read_settings, replay, transcript_of

__all__ = [
    "RULES",
    "Cell",
    "Game",
    "Hole",
    "HolominoesRules",
    "IllegalTurnError",
    "Pass",
    "Placement",
    "Play",
    "Point",
    "Position",
    "Settings",
    "Tile",
    "TurnRecord",
    "TurnResult",
    "best_moves",
    "cells_at",
    "corner_xy",
    "final",
    "format_cell",
    "format_move",
    "format_placement",
    "format_point",
    "format_tile",
    "parse_cell",
    "parse_move",
    "parse_placement",
    "parse_point",
    "parse_rack",
    "parse_tile",
    "point_of",
    "random_game",
    "read_settings",
    "replay",
    "score_holes",
    "tile_set",
    "transcript_of",
]
