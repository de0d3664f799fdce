"""Yushino: number sequences on a 15 x 15 board (seed: yushino-rules.txt; notation: games.md).

Modules: board (squares, premium layouts), tiles (tiles, placements, racks, turns), rules (the
placement rules and scoring on a position, legal one-tile placements), game (turn order, racks and
pool counted, exchanges, the end), search (every legal play for a rack), transcript (read, write,
replay), randomgame (seeded random games), interface (:data:`RULES`, the engine.games interface).

The transcript shows no racks: the game counts them and the pool (engine.yushino.game), and the
racks left at the end are a tag, ``[Racks "Ana: 3 4 #, Bo: -"]`` (engine.yushino.transcript). A
hint without a rack assumes the player may hold any tiles still unseen (engine.yushino.interface).
"""

from engine.yushino.board import (
    CENTRE,
    Layout,
    LayoutError,
    Square,
    classic_layout,
    format_square,
    load_layout,
    parse_layout,
    parse_square,
)
from engine.yushino.game import Final, Game, GameSettings, IllegalTurnError, TurnResult, pick_winner
from engine.yushino.interface import RULES, YushinoRules, replay_game
from engine.yushino.randomgame import random_game, random_transcript
from engine.yushino.rules import (
    LegalPlacements,
    PlayResult,
    Position,
    SequenceScore,
    evaluate_play,
    is_sequence,
    legal_placements,
)
from engine.yushino.search import legal_plays
from engine.yushino.tiles import (
    DISTRIBUTION,
    Placement,
    Tile,
    Turn,
    format_placement,
    format_rack,
    format_tile,
    format_turn,
    parse_placement,
    parse_rack,
    parse_tile,
    parse_turn,
)
from engine.yushino.transcript import Transcript, format_transcript, parse_transcript

__all__ = [
    "CENTRE", "DISTRIBUTION", "RULES", "Final", "Game", "GameSettings", "IllegalTurnError", "Layout",
    "LayoutError", "LegalPlacements", "Placement", "PlayResult", "Position", "SequenceScore", "Square",
    "Tile", "Transcript", "Turn", "TurnResult", "YushinoRules", "classic_layout", "evaluate_play",
    "format_placement", "format_rack", "format_square", "format_tile", "format_transcript", "format_turn",
    "is_sequence", "legal_placements", "legal_plays", "load_layout", "parse_layout", "parse_placement",
    "parse_rack", "parse_square", "parse_tile", "parse_transcript", "parse_turn", "pick_winner",
    "random_game", "random_transcript", "replay_game",
]  # fmt: skip
