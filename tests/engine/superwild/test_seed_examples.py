"""The Super Wild seed's own examples (seeds/super-wild-rules.txt), worked by hand."""

from __future__ import annotations

import pytest

from engine.superwild import RUN, SET, Pos, line_problem, parse_tile, split_line
from engine.superwild.lines import RULE_ADJOINED, RULE_GROUP_SIZE, RULE_SIX_NINE
from engine.superwild.picture import format_picture, parse_picture
from engine.superwild.table import RULE_LONE_TILE


def line(text: str):
    return tuple(parse_tile(w) for w in text.split())


def values(text: str) -> list[list[str]]:
    """Each group's values as written tiles, e.g. [["R4", "R5", "R6"]]."""
    groups = split_line(line(text))
    assert groups is not None, text
    return [[f"{c}{n}" for c, n in g.values] for g in groups]


# -- "Diagonals": the seed's six example lines through the Super Wild, with what W stands for.
@pytest.mark.parametrize(
    ("text", "wild"),
    [
        ("R4 R5 W", {"R6"}),  # "4 5 (W = 6)"
        ("K1 W K3 K4", {"K2"}),  # "1 3 4 (W = 2. The run passes through Wild)"
        ("O2 W O13", {"O1"}),  # "2 13 (= 1. The run passes through Wild.)"
        ("B6 B5 W", {"B4"}),  # "6 5 W (W = 4)": a run in reverse order
        ("K8 W B8", {"O8", "R8"}),  # "8 8 (W = 8 or 8)"
        ("O10 W R10", {"K10", "B10"}),  # "10 10 (W = 10 or 10)"
    ],
)
def test_diagonal_examples(text: str, wild: set[str]) -> None:
    (group,) = values(text)
    stands_for = group[text.split().index("W")]
    assert stands_for in wild


def test_diagonal_examples_count_only_with_the_option() -> None:
    picture = """
    R4 .  .
    .  R5 .
    .  .  W
    """
    with_rule = parse_picture(picture, diagonals=True)
    assert with_rule.problem() is None
    groups = with_rule.groups()
    assert groups[0]["direction"] == "diagonal"
    assert groups[0]["groups"][0]["values"] == ["R4", "R5", "R6"]
    without = parse_picture(picture)
    assert without.problem().rule == RULE_LONE_TILE


# -- "Set" and "Run".
def test_sets() -> None:
    assert values("K7 B7 O7") == [["K7", "B7", "O7"]]
    assert values("K7 B7 O7 R7") == [["K7", "B7", "O7", "R7"]]
    assert split_line(line("K7 B7 O8")) is None  # not one number
    assert values("K7 B7 W") in ([["K7", "B7", "O7"]], [["K7", "B7", "R7"]])
    # at most four, the Super Wild counted: five sevens are two sets sharing a tile, the Wild
    # standing for a second K7 (the fifth tile games.md says two sets side by side need)
    assert values("K7 B7 O7 R7 W") == [["K7", "B7", "O7"], ["O7", "R7", "K7"]]


def test_runs_forward_reverse_and_keep_going() -> None:
    assert values("R3 R4 R5") == [["R3", "R4", "R5"]]
    assert values("R5 R4 R3") == [["R5", "R4", "R3"]]
    assert split_line(line("R3 R4 K5")) is None  # one colour
    assert split_line(line("R3 R5 R6")) is None  # consecutive
    # "and can keep going": all thirteen reds; the two 6/9 tiles fall in different subgroups.
    long = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    groups = values(long)
    assert len(groups) == 2 and groups[0][-1] == groups[1][0]


def test_groups_of_three_or_more() -> None:
    rule, _ = line_problem(line("R3 R4"))
    assert rule == RULE_GROUP_SIZE


# -- "Sixes and Nines Are Identical".
def test_nine_stands_as_six() -> None:
    assert values("B4 B5 B9") == [["B4", "B5", "B6"]]  # "like this: 4 5 9"
    assert values("B6 B10 B11") == [["B9", "B10", "B11"]]


def test_six_nine_different_in_each_direction() -> None:
    # "They can be either a 9 or a 6 in different directions at the same time": the O9 tile is a 6
    # in its row and a 9 in its column.
    table = parse_picture(
        """
        .  .  .  W
        O4 O5 O9 .
        .  .  O10 .
        .  .  O11 .
        """
    )
    assert table.problem() is None
    read = {g["direction"]: g["groups"][0]["values"] for g in table.groups()}
    assert read == {"row": ["O4", "O5", "O6"], "column": ["O9", "O10", "O11"]}


def test_six_nine_subgroups() -> None:
    # "This is legal since both subgroups are legal."
    assert values("K6 K7 K8 K9 K10") == [["K6", "K7", "K8"], ["K8", "K9", "K10"]]
    # "This is not legal because the same color 6 and 9 cannot be in the same subgroup."
    rule, message = line_problem(line("K6 K7 K8 K9"))
    assert rule == RULE_SIX_NINE and "K6 K7 K8 K9" in message


# -- "Adjoined Groups": a set and a run joined at a shared tile or the Wild.
def test_adjoined_at_a_shared_tile() -> None:
    groups = split_line(line("K5 B5 R5 R6 R7"))
    assert [g.kind for g in groups] == [SET, RUN]
    assert (groups[0].end, groups[1].start) == (2, 2)


def test_adjoined_at_the_wild() -> None:
    assert values("K5 B5 W R6 R7") == [["K5", "B5", "R5"], ["R5", "R6", "R7"]]
    # the Wild is one tile in its line: K5 cannot be both in a set with K5 and in a black run
    rule, _ = line_problem(line("K5 B5 W K6 K7"))
    assert rule == RULE_ADJOINED


def test_adjoined_keep_going() -> None:
    # "and they can just keep on going": run, set, run
    groups = split_line(line("R1 R2 R3 K3 B3 B4 B5"))
    assert [g.kind for g in groups] == [RUN, SET, RUN]


def test_groups_must_share_a_tile() -> None:
    rule, _ = line_problem(line("R1 R2 R3 K5 B5 O5"))
    assert rule == RULE_ADJOINED


# -- "Super Wild": wild in every direction, a different value in each at the same time.
def test_wild_different_in_each_direction() -> None:
    table = parse_picture(
        """
        .  .  R4
        .  .  R5
        K7 B7 W
        """
    )
    assert table.problem() is None
    read = {g["direction"]: g["groups"][0]["values"] for g in table.groups()}
    assert read["column"][-1] == "R6"
    assert read["row"][-1] in ("O7", "R7")


def test_picture_round_trip() -> None:
    text = "K7  B7  W\n.   .   R4\n"
    table = parse_picture(text, wild=Pos(2, 0))
    assert table.wild_pos == Pos(2, 0)
    assert parse_picture(format_picture(table), wild=Pos(2, 0)) == table
