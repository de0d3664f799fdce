"""Every file tilescribe reads, fuzzed: no exception but the reader's documented ones, none slow.

The cases are valid files mutated by hypothesis (tests/tilescribe/fuzz_inputs.py): transcripts
(engine.transcript.parse_transcript and replay, engine.record.read_record), the settings file,
tile-set profiles, board.json, a recording's frames.json with its frames, and images. Each case
must finish within 2 s (hypothesis's deadline). bench/bench_fuzz.py runs ten thousand and more.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.record import format_tags, read_record
from tests.tilescribe.fuzz_inputs import IMAGES, TARGETS, Target
from vision.capture.images import ImageError, load_image

FUZZ = settings(
    max_examples=150,
    deadline=timedelta(seconds=2),
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_reader_raises_only_documented_errors_and_is_quick(target: Target) -> None:
    @FUZZ
    @given(target.cases)
    def check(case: object) -> None:
        target.check(case)

    check()


@FUZZ
@given(st.sampled_from(IMAGES), st.data())
def test_every_truncated_image_is_refused(
    tmp_path_factory: pytest.TempPathFactory, image: bytes, data: st.DataObject
) -> None:
    cut = data.draw(st.integers(0, len(image) - 1))
    path = tmp_path_factory.mktemp("cut") / "photo.jpg"
    path.write_bytes(image[:cut])
    with pytest.raises(ImageError, match=str(path)):
        load_image(path)


@FUZZ
@given(st.text())
def test_any_tag_value_is_written_so_that_the_game_replays(value: str) -> None:
    """A tag value (a source path, an event name) with line breaks or quotes still reads back."""
    text = "\n".join([*format_tags([("Source", value), ("Modulus", "11")]), "1. 4A0"]) + "\n"
    tags, lines, errors = read_record(text)
    assert errors == [] and [t.name for t in tags] == ["Source", "Modulus"] and len(lines) == 1
    assert tags[0].value == " ".join(value.splitlines())
