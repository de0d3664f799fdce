"""Super Wild: numbered tiles in four colours and one Super Wild, crisscross groups on a table
(seed: seeds/super-wild-rules.txt; notation: design/games.md).

Modules: tiles (tiles, positions, moves and their notation), lines (one line split into adjoined
sets and runs), table (the position: lines, groups, a turn's moves applied), game (racks, bag, turn
order, evaluate/play/undo), transcript (tags and turn lines), legal (legal placements, lay-only
plays), randomgame (seeded random rounds), programme and hint (suggested turns with HiGHS), rules
(the common interface: ``RULES``).

3-D stacking (an optional rule of the seed) is not supported: the table is a flat grid.
"""

from engine.superwild.game import DRAW, PLAY, Game, IllegalTurnError, Rack, State, Turn, TurnResult
from engine.superwild.hint import hints
from engine.superwild.legal import LegalPlacements, lay_options, legal_placements
from engine.superwild.lines import RUN, SET, GroupFit, line_problem, split_line
from engine.superwild.randomgame import random_round
from engine.superwild.rules import RULES, SuperWildRules, match_trophies, replay_round
from engine.superwild.table import Table, TableLine
from engine.superwild.tiles import (
    ORIGIN,
    WILD,
    Move,
    Pos,
    Tile,
    format_move,
    format_pos,
    format_rack,
    format_tile,
    parse_move,
    parse_pos,
    parse_rack,
    parse_tile,
)
from engine.superwild.transcript import Settings, format_transcript, format_turn, parse_turn, read_transcript

__all__ = [
    "DRAW",
    "ORIGIN",
    "PLAY",
    "RULES",
    "RUN",
    "SET",
    "WILD",
    "Game",
    "GroupFit",
    "IllegalTurnError",
    "LegalPlacements",
    "Move",
    "Pos",
    "Rack",
    "Settings",
    "State",
    "SuperWildRules",
    "Table",
    "TableLine",
    "Tile",
    "Turn",
    "TurnResult",
    "format_move",
    "format_pos",
    "format_rack",
    "format_tile",
    "format_transcript",
    "format_turn",
    "hints",
    "lay_options",
    "legal_placements",
    "line_problem",
    "match_trophies",
    "parse_move",
    "parse_pos",
    "parse_rack",
    "parse_tile",
    "parse_turn",
    "random_round",
    "read_transcript",
    "replay_round",
    "split_line",
]
