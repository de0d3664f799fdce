"""Every kiosk screen at 800x480 and 1920x1080 on the real pygame display (dummy driver).

The screenshots are kept in ``out/screens/WxH/`` of the repository (ignored by git) to be looked at.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pygame
import pytest

from display.game_over import winner_line
from display.keypad import MIN_KEY_PX, KeyCommand
from display.kiosk import ActionKind, Kiosk
from display.scoreboard import banner_words, wrap_lines, wrapped
from display.theme import Theme
from display.view import AlertLevel, CameraState, KioskView, PlayerLine, TableState
from engine.hexgrid import Board, parse_address

A = parse_address
SCREENS = Path(__file__).resolve().parents[2] / "out" / "screens"
SIZES = [(800, 480), (1920, 1080)]
#: 8 mm on the 800x480 seven-inch panel (800 x 480 px over 7 in diagonal: 0.1905 mm a pixel)
DIGITS_PX = 42
FACES = tuple(str(v) for v in range(13)) + ("#", "marker")


def _base(players: int = 2) -> KioskView:
    names = ("Ana", "Bo", "Cy", "Dee", "Eli", "Flo")[:players]
    return KioskView(
        cells=Board.hexagon(6).cells,
        tiles={A(a): v for a, v in {"B2": "4", "B1": "6", "A0": "1", "M1": "3", "E1": "8"}.items()},
        last_turn=frozenset({A("E1")}),
        blocked=frozenset({A("H1")}),
        players=tuple(PlayerLine(n, 40 + 7 * i, is_current=i == 0) for i, n in enumerate(names)),
        camera=CameraState.LOCKED,
        title="MODLINSEQ M13, turn 6",
        faces=FACES,
    )


def _states() -> dict[str, tuple[KioskView, TableState]]:
    base = _base()
    return {
        "waiting": (base, TableState.WAITING),
        "reading": (
            dataclasses.replace(base, provisional={A("M2"): "5"}, provisional_points=1),
            TableState.READING,
        ),
        "hand": (dataclasses.replace(base, camera=CameraState.HAND), TableState.HAND),
        "illegal": (
            dataclasses.replace(
                base,
                provisional={A("M2"): "6"},
                illegal=frozenset({A("M2")}),
                alert="M2: 3 ~ 6 is not modular-linear (§2-2)",
                alert_level=AlertLevel.ERROR,
            ),
            TableState.ILLEGAL,
        ),
        "out-of-sync": (
            dataclasses.replace(
                base,
                tiles={c: v for c, v in base.tiles.items() if c != A("B1")},
                restore={A("B1"): "6"},
                alert="Board out of sync: put back 6B1.",
                alert_level=AlertLevel.ERROR,
            ),
            TableState.OUT_OF_SYNC,
        ),
        "camera-lost": (
            dataclasses.replace(
                base,
                camera=CameraState.NO_CAMERA,
                alert="Camera lost: reconnecting",
                alert_level=AlertLevel.WARN,
            ),
            TableState.WAITING,
        ),
        "game-over": (
            dataclasses.replace(
                base,
                is_over=True,
                players=tuple(
                    dataclasses.replace(p, is_current=False, is_frozen=p.name == "Bo") for p in base.players
                ),
                end_notes=("Ended by agreement (§3-3) with Ana still playing.", "Bo froze at turn 5."),
            ),
            TableState.GAME_OVER,
        ),
    }


def _mask(image: pygame.Surface, colour: tuple[int, int, int]) -> np.ndarray:
    """W x H: where ``image`` is exactly ``colour``."""
    return np.all(pygame.surfarray.array3d(image) == np.array(colour, np.uint8), axis=2)


def _runs(rows: np.ndarray) -> list[int]:
    """Lengths of the runs of True in ``rows`` (bool, 1-D)."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], rows.astype(np.int8), [0]])))
    return [int(b - a) for a, b in zip(edges[::2], edges[1::2], strict=True)]


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
def test_every_state_has_its_words_and_colour(size: tuple[int, int]) -> None:
    out = SCREENS / f"{size[0]}x{size[1]}"
    out.mkdir(parents=True, exist_ok=True)
    kiosk = Kiosk(size, sound=False)
    words: dict[str, str] = {}
    try:
        for name, (view, state) in _states().items():
            assert view.state is state
            kiosk.show(view)
            image = pygame.image.load(str(kiosk.save(out / f"{name}.png")))
            assert image.get_size() == size
            words[name] = banner_words(view)
            banner_at = (
                size[0] - 3,
                3,
            )  # the banner runs along the top of the panel (of the screen: game over)
            assert image.get_at(banner_at)[:3] == kiosk.theme.state_colour(state), name
        kiosk.show(_states()["illegal"][0])
        kiosk.selected, kiosk.typed = A("E1"), "7"
        kiosk.show(_states()["illegal"][0])
        kiosk.save(out / "keypad.png")
        assert {k.face for k in kiosk.keys if k.command is KeyCommand.FACE} == set(FACES)
    finally:
        kiosk.close()
    assert len(set(words.values())) == len(words)  # every state says its own words
    assert words["game-over"] == "Game over" and words["camera-lost"] == "Waiting: camera lost"


@pytest.mark.parametrize("players", [2, 3, 6])
def test_score_digits_are_8_mm_tall_on_the_7_inch_panel(players: int) -> None:
    out = SCREENS / "800x480"
    out.mkdir(parents=True, exist_ok=True)
    kiosk = Kiosk((800, 480), sound=False)
    try:
        kiosk.show(_base(players))
        image = pygame.image.load(str(kiosk.save(out / f"scores-{players}-players.png")))
    finally:
        kiosk.close()
    theme = kiosk.theme
    below_banner = slice(45, 480)
    # the other players' digits are the only pixels of the score colour (names are in the text colour)
    others = _runs(_mask(image, theme.score)[480:, below_banner].any(axis=0))
    # the current player's digits, right-aligned in the card, in the card's ink (its name is on the left)
    current = _runs(_mask(image, theme.current_text)[800 - 120 :, below_banner].any(axis=0))
    rows = players - 1 if players <= 3 else 3  # rows of cards other than the current player's alone
    assert len(others) == rows and len(current) == (1 if players <= 3 else 0)
    heights = others + current
    assert min(heights) >= DIGITS_PX, f"score digits {heights} px tall, need {DIGITS_PX} (8 mm)"


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
def test_touch_targets_are_at_least_9_mm(size: tuple[int, int]) -> None:
    kiosk = Kiosk(size, sound=False)
    try:
        view = _base(6)
        kiosk.show(view)
        rects = [r for r, _ in kiosk.buttons]
        kiosk.selected = A("E1")
        kiosk.show(dataclasses.replace(view, faces=tuple(str(v) for v in range(20)) + ("#", "marker")))
        rects += [k.rect for k in kiosk.keys]
        kiosk.selected = None
        kiosk.show(dataclasses.replace(view, is_over=True))
        assert kiosk.standings is not None
        rects += [kiosk.standings.rematch, kiosk.standings.new_game]
    finally:
        kiosk.close()
    assert len(rects) == 5 + 22 + 4 + 2
    assert min(min(r.width, r.height) for r in rects) >= MIN_KEY_PX * size[1] // 480
    assert all(r.right <= size[0] and r.bottom <= size[1] for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects[5:31]) for b in rects[5 + i + 1 : 31])


def _tap(kiosk: Kiosk, rect: pygame.Rect) -> list:
    """A finger on the centre of ``rect`` (as a touch screen sends it); the requests it makes."""
    x, y = rect.center
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN,
            x=x / kiosk.size[0],
            y=y / kiosk.size[1],
            touch_id=1,
            finger_id=0,
            dx=0.0,
            dy=0.0,
            pressure=1.0,
        )
    )
    return kiosk.poll()


def _open_keypad(kiosk: Kiosk, view: KioskView, cell) -> dict[str, pygame.Rect]:
    """Show ``view``, tap ``cell`` and show the keypad it opens; its keys by face or command."""
    kiosk.show(view)
    assert kiosk.layout is not None
    x, y = kiosk.layout.hex_to_pixel(cell)
    assert _tap(kiosk, pygame.Rect(int(x), int(y), 1, 1)) == [] and kiosk.selected == cell
    kiosk.show(view)
    return {k.face or k.command.value: k.rect for k in kiosk.keys}


def test_a_touch_correction_tap_cell_face_ok() -> None:
    kiosk = Kiosk((800, 480), sound=False)
    try:
        view = _base()
        keys = _open_keypad(kiosk, view, A("E1"))
        assert _tap(kiosk, keys["ok"]) == []  # nothing picked yet: OK does nothing
        assert _tap(kiosk, keys["11"]) == [] and kiosk.typed == "11"
        (action,) = _tap(kiosk, keys["ok"])
        assert (action.kind, action.cell, action.face) == (ActionKind.CORRECT, A("E1"), "11")
        assert kiosk.selected is None
        # Remove then OK: the cell is empty; Cancel drops the pick; Undo turn asks for an undo
        kiosk.selected = A("B2")
        kiosk.show(view)
        _tap(kiosk, keys["remove"])
        (action,) = _tap(kiosk, keys["ok"])
        assert (action.cell, action.face) == (A("B2"), "")
        kiosk.selected = A("B2")
        kiosk.show(view)
        assert _tap(kiosk, keys["cancel"]) == [] and kiosk.selected is None
        kiosk.selected = A("B2")
        kiosk.show(view)
        assert [a.kind for a in _tap(kiosk, keys["undo turn"])] == [ActionKind.UNDO]
        # a touch that SDL also reports as a mouse click counts once
        kiosk.show(view)
        end_turn = next(r for r, kind in kiosk.buttons if kind is ActionKind.END_TURN)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=end_turn.center, button=1, touch=True)
        )
        assert [a.kind for a in _tap(kiosk, end_turn)] == [ActionKind.END_TURN]
    finally:
        kiosk.close()


def test_the_standings_answer_rematch_new_game_and_close() -> None:
    kiosk = Kiosk((800, 480), sound=False)
    over = _states()["game-over"][0]
    try:
        kiosk.show(over)
        buttons = kiosk.standings
        assert buttons is not None
        assert [a.kind for a in _tap(kiosk, buttons.rematch)] == [ActionKind.REMATCH]
        assert [a.kind for a in _tap(kiosk, buttons.new_game)] == [ActionKind.NEW_GAME]
        assert [a.kind for a in _tap(kiosk, pygame.Rect(400, 150, 1, 1))] == [ActionKind.QUIT]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, unicode="r", mod=0))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ", mod=0))
        assert [a.kind for a in kiosk.poll()] == [ActionKind.REMATCH, ActionKind.QUIT]
    finally:
        kiosk.close()


def test_taps_before_the_next_drawing_answer_to_the_pick_as_it_is_now() -> None:
    kiosk = Kiosk((800, 480), sound=False)
    try:
        view = _base()
        keys = _open_keypad(kiosk, view, A("E1"))
        # Escape drops the pick; the keypad still on the glass until the next drawing presses nothing
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b", mod=0))
        assert _tap(kiosk, keys["7"]) == [] and _tap(kiosk, keys["ok"]) == []
        assert (kiosk.selected, kiosk.typed) == (None, None)
        # a mouse wheel turned over a cell picks nothing
        kiosk.show(view)
        assert kiosk.layout is not None
        x, y = kiosk.layout.hex_to_pixel(A("E1"))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(int(x), int(y)), button=4))
        assert kiosk.poll() == [] and kiosk.selected is None
    finally:
        kiosk.close()


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
def test_the_standings_fit_long_names_and_share_ranks_on_ties(size: tuple[int, int]) -> None:
    names = ("Alexandrina", "Bartholomew", "Cyprianus", "Dee", "Eli", "Flo")
    view = dataclasses.replace(
        _base(),
        is_over=True,
        players=tuple(PlayerLine(n, 100 if i < 3 else 40 + i) for i, n in enumerate(names)),
        end_notes=("Ended by agreement (§3-3) with Alexandrina and Cyprianus still playing.",) * 3,
    )
    kiosk = Kiosk(size, sound=False)
    try:
        kiosk.show(view)
        image = pygame.image.load(str(kiosk.save(SCREENS / f"{size[0]}x{size[1]}" / "game-over-tie.png")))
    finally:
        kiosk.close()
    pad = int(12 * size[1] / 480)
    title_rows = slice(int(48 * size[1] / 480), int(100 * size[1] / 480))
    ink = _mask(image, kiosk.theme.text)[:, title_rows]
    assert ink[: size[0] // 2].any() and not ink[size[0] - pad :].any()  # the winner line ends inside
    assert winner_line(view) == "Alexandrina, Bartholomew and Cyprianus tie with 100"


def test_a_large_modulus_gets_a_keypad_of_smaller_keys() -> None:
    faces = tuple(str(v) for v in range(40)) + ("#", "marker")  # modulus 40: past a finger's 9 mm keys
    kiosk = Kiosk((800, 480), sound=False)
    try:
        keys = _open_keypad(kiosk, dataclasses.replace(_base(), faces=faces), A("E1"))
        kiosk.save(SCREENS / "800x480" / "keypad-modulus-40.png")
        assert set(faces) <= set(keys) and min(min(keys[f].size) for f in faces) >= 30
        rects = list(keys.values())
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
        assert all(r.left >= 480 and r.right <= 800 and r.bottom <= 480 for r in rects)
        assert _tap(kiosk, keys["37"]) == [] and kiosk.typed == "37"
        (action,) = _tap(kiosk, keys["ok"])
        assert (action.cell, action.face) == (A("E1"), "37")
    finally:
        kiosk.close()


def test_a_message_cut_short_ends_with_an_ellipsis() -> None:
    pygame.font.init()
    theme = Theme()
    font = theme.font(19)
    text = "Board out of sync: put back 6B1 4B2 1A0 3M1 8E1 5M2 7T1 9T2 and 2P1 before the next turn"
    rect = pygame.Rect(0, 0, 380, 2 * font.get_linesize() + 3)
    shown = wrap_lines(font, text, rect.width)[:2]
    assert len(wrap_lines(font, text, rect.width)) > 2 and font.size(shown[1] + " \u2026")[0] <= rect.width
    cut, whole = pygame.Surface(rect.size), pygame.Surface(rect.size)
    assert wrapped(cut, theme, text, rect, 19, theme.text) == 2 * font.get_linesize()
    wrapped(whole, theme, " ".join(shown) + " \u2026", rect, 19, theme.text)  # the two lines it shows
    assert pygame.image.tobytes(cut, "RGB") == pygame.image.tobytes(whole, "RGB")
