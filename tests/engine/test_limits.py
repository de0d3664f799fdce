"""The limits on numbers that size work, checked where transcripts and settings are read."""

from __future__ import annotations

import time

import pytest

from engine.limits import MAX_MODULUS, MAX_ORDER, MAX_TILES_PER_VALUE, parse_bounded_int
from engine.settings import Settings
from engine.transcript import parse_transcript


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("13", None),
        (" 7 ", None),
        ("+7", None),
        ("0", "out of range"),
        ("101", "out of range"),
        ("9" * 5000, "out of range"),
        ("1e3", "not a whole number"),
        ("\u0663", "not a whole number"),
        ("--3", "not a whole number"),
        ("", "not a whole number"),
    ],
)
def test_parse_bounded_int_quotes_the_text_and_the_range(text: str, message: str | None) -> None:
    if message is None:
        assert parse_bounded_int(text, "modulus", 1, MAX_MODULUS) == int(text)
    else:
        with pytest.raises(ValueError, match=message) as refused:
            parse_bounded_int(text, "modulus", 1, MAX_MODULUS)
        assert repr(text)[:40] in str(refused.value)


@pytest.mark.parametrize(
    ("tag", "limit"),
    [
        ('[Order "100000"]', f"0 to {MAX_ORDER}"),
        ('[Modulus "9999999999"]', f"1 to {MAX_MODULUS}"),
        ('[Modulus "' + "7" * 31 + '"]', f"1 to {MAX_MODULUS}"),
        ('[TilesPerValue "1000000"]', f"1 to {MAX_TILES_PER_VALUE}"),
    ],
)
def test_a_tag_past_its_limit_is_an_error_on_its_line_at_once(tag: str, limit: str) -> None:
    start = time.perf_counter()
    transcript, errors = parse_transcript(f'[Players "Ana, Bo"]\n[Wild "B"]\n{tag}\n1. Ana: 4A0\n')
    assert time.perf_counter() - start < 1.0
    assert [(e.line, limit in e.message) for e in errors if e.line == 3] == [(3, True)]
    assert transcript.turns and transcript.settings.modulus <= MAX_MODULUS


def test_a_far_cell_is_an_error_on_its_line_and_column() -> None:
    _transcript, errors = parse_transcript('[Modulus "11"]\n1. 4A0, 1T100000000000000\n')
    assert [(e.line, e.column) for e in errors] == [(2, 9)]
    assert "1T100000000000000" in errors[0].message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"modulus": MAX_MODULUS + 1}, "modulus must be an integer from 1"),
        ({"tiles_per_value": MAX_TILES_PER_VALUE + 1}, "tiles per value"),
        ({"players": tuple(f"P{i}" for i in range(13))}, "at most 12 players"),
        ({"players": ("Ana\nBo",)}, "printable"),
        ({"players": ("x" * 41,)}, "at most 40"),
    ],
)
def test_settings_refuse_values_past_the_limits(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings(**kwargs)  # type: ignore[arg-type]
