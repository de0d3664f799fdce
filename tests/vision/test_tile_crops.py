"""The reader's training data: rendered crops of the four games and crops of the labelled photos."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.reader.crop import FACE_PX, INPUT_PX, UP_PX, face_view, tile_crop, up_view
from vision.reader.faces import COLOUR_NAMES, COLOURS, FACES, NOT_A_FACE
from vision.sim.game_tiles import GAMES, sample_game_style
from vision.sim.options import Split
from vision.sim.tile_crops import (
    ALL_GAMES,
    PHOTO_GAME,
    CropSet,
    camera_crop,
    main,
    photo_crops,
    rendered_crops,
)
from vision.sim.tile_scenes import DRAW_MAX, SCENES, SIZE_RANGE, table_bank
from vision.sim.tiles import fonts, sample_style

HELD_OUT_FAMILIES = re.compile(r"URWGothic|P052|C059|hershey-triplex")


def test_rendered_crops_have_the_model_input_shape_and_label_types() -> None:
    crops = rendered_crops("train", 40, seed=3)
    assert crops.images.shape == (40, INPUT_PX, INPUT_PX, 3) and crops.images.dtype == np.uint8
    assert crops.faces.dtype == np.int16 and crops.colours.dtype == np.int8 and len(crops.games) == 40
    assert set(crops.games) <= set(ALL_GAMES)
    assert crops.faces.min() >= 0 and crops.faces.max() < len(FACES)
    assert crops.images.std() > 20  # crops show something, not a flat fill
    # every tile's up is known and "none" has none
    none = crops.faces == FACES.index(NOT_A_FACE)
    assert np.isnan(crops.ups[none]).all() and not np.isnan(crops.ups[~none]).any()
    assert ((crops.ups[~none] >= 0) & (crops.ups[~none] < 360)).all()


def test_same_seed_gives_the_same_bytes_and_another_seed_differs() -> None:
    a, b, c = (rendered_crops("train", 12, seed=s) for s in (5, 5, 6))
    assert a.images.tobytes() == b.images.tobytes() and (a.faces == b.faces).all()
    assert a.images.tobytes() != c.images.tobytes()


def test_every_face_and_colour_class_is_rendered() -> None:
    crops = rendered_crops("train", 900, seed=0)
    missing = set(FACES) - {FACES[f] for f in crops.faces}
    assert not missing, missing
    assert {COLOURS[c] for c in crops.colours} == set(COLOURS)
    assert {str(g) for g in crops.games} == set(ALL_GAMES)
    nones = np.mean(np.array(crops.faces) == FACES.index("none"))
    assert 0.04 < nones < 0.14


def test_colours_belong_to_the_games_that_have_them() -> None:
    crops = rendered_crops("train", 200, seed=9)
    coloured = crops.colours != COLOURS.index("-")
    assert coloured.any() and set(crops.games[coloured]) == {"superwild"}
    six_nine = crops.faces == FACES.index("6/9")
    assert set(crops.games[six_nine]) <= {"superwild"}


@pytest.mark.parametrize("game", ["modlinseq", *GAMES])
def test_each_split_draws_only_its_own_font_families(game: str) -> None:
    splits: tuple[Split, Split] = ("train", "held_out")
    for split, other in (splits, splits[::-1]):
        own = {f.name for f in fonts(split)}
        assert own.isdisjoint({f.name for f in fonts(other)})
        rng = np.random.default_rng(1)
        for _ in range(200):
            style = (sample_style(rng, split, ("pentagon",)) if game == "modlinseq"
                     else sample_game_style(rng, split, game))
            assert style.font is not None and style.font.name in own
            assert bool(HELD_OUT_FAMILIES.match(style.font.name)) == (split == "held_out"), style.font.name


def test_rendered_crops_reject_bad_arguments() -> None:
    with pytest.raises(ValueError, match="split"):
        rendered_crops("test", 4, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games"):
        rendered_crops("train", 4, 0, ("chess",))


def _photo_folder(photos: Path, tmp_path: Path, stems: list[str], rename: dict[str, str] | None = None
                  ) -> Path:
    """A photo folder holding copies of some real valid/ photos and their labels."""
    folder = tmp_path / "photos"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    shutil.copy(photos / "data.yaml", tmp_path / "data.yaml")
    for stem in stems:
        name = (rename or {}).get(stem, stem)
        shutil.copy(photos / "valid" / "images" / f"{stem}.jpg", folder / "images" / f"{name}.jpg")
        shutil.copy(photos / "valid" / "labels" / f"{stem}.txt", folder / "labels" / f"{name}.txt")
    return folder


def _first_labelled_stems(photos: Path, count: int) -> list[str]:
    labels = sorted((photos / "valid" / "labels").glob("*.txt"))
    return [p.stem for p in labels if p.read_text().strip()][:count]


def test_photo_crops_label_every_tile_of_real_photos(photos_dir: Path, tmp_path: Path) -> None:
    photos = photos_dir  # the real set: data.yaml, train/, valid/
    stems = _first_labelled_stems(photos, 2)
    crops = photo_crops(_photo_folder(photos, tmp_path, stems), seed=0, per_tile=2)
    names = (photos / "data.yaml").read_text().split("names:")[1].split("\n")
    names = [n[2:].strip() for n in names if n.startswith("- ")]
    expected = []
    for stem in stems:
        for line in (photos / "valid" / "labels" / f"{stem}.txt").read_text().splitlines():
            if line.strip():
                expected += [names[int(line.split()[0])]] * 2
    got = []
    for f, c in zip(crops.faces, crops.colours, strict=True):
        face, colour = FACES[f], COLOURS[c]
        got.append("joker" if face == "joker" else f"{COLOUR_NAMES[colour]}_{face}")
        assert (face == "joker") == (colour == "-")
    assert got == expected and len(got) > 10
    assert set(crops.games) == {PHOTO_GAME}
    assert crops.images.shape == (len(expected), INPUT_PX, INPUT_PX, 3)
    # a crop shows its tile: the pale body fills the middle of the crop more than the rim
    grey = crops.images.astype(float).mean(axis=3)
    assert grey[:, 14:26, 14:26].mean() > grey[:, :4, :].mean()


def test_photos_with_label_errata_are_left_out(photos_dir: Path, tmp_path: Path) -> None:
    stem = _first_labelled_stems(photos_dir, 1)[0]
    folder = _photo_folder(photos_dir, tmp_path, [stem], rename={stem: "rummy-2_jpeg.rf.copy"})
    assert len(photo_crops(folder, seed=0)) == 0
    with pytest.raises(ValueError, match="images/"):
        photo_crops(tmp_path / "nowhere", seed=0)


def test_concatenate_keeps_order_and_types() -> None:
    a, b = rendered_crops("train", 3, 1), rendered_crops("held_out", 2, 1, ("yushino",))
    both = CropSet.concatenate([a, b])
    assert len(both) == 5 and both.faces.dtype == np.int16 and both.colours.dtype == np.int8
    assert (both.images[3:] == b.images).all() and list(both.games[3:]) == ["yushino"] * 2
    np.testing.assert_array_equal(both.ups[3:], b.ups)


def test_mosaic_command_writes_a_labelled_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mosaic.png"
    assert main(["--split", "held_out", "--n", "30", "--out", str(out)]) == 0
    image = cv2.imread(str(out))
    assert image is not None and image.shape[1] == 20 * 2 * INPUT_PX and image.shape[0] >= 2 * 2 * INPUT_PX
    assert main(["--n", "2", "--photos", str(tmp_path / "none"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none" in err


@pytest.mark.parametrize("game", ALL_GAMES)
def test_scenes_centre_the_crop_on_the_labelled_tile(game: str) -> None:
    """Before the camera's faults, the crop's middle is the tile's (a Holominoes digit's ink lies
    there) and differs from what an empty scene's middle shows."""
    rng = np.random.default_rng(7)
    tables = table_bank(rng)
    for _ in range(6):
        scene = SCENES[game](rng, "train", tables, False)
        assert scene.face != "none" and scene.canvas.dtype == np.uint8
        assert DRAW_MAX >= scene.size >= SIZE_RANGE[0] - 1
        crop = tile_crop(scene.canvas, scene.centre, scene.size).astype(int)
        inner = slice(INPUT_PX * 7 // 20, INPUT_PX * 13 // 20)  # the middle 30 %
        middle = crop[inner, inner].reshape(-1, 3)
        if scene.face != "#":  # a printed face: ink and body both in the middle of the crop
            assert np.ptp(middle, axis=0).max() > 60, (game, scene.face)
        empty = SCENES[game](rng, "train", tables, True)
        assert empty.face == "none" and empty.colour == "-"


def test_an_unreadable_photo_is_named(photos_dir: Path, tmp_path: Path) -> None:
    folder = _photo_folder(photos_dir, tmp_path, _first_labelled_stems(photos_dir, 1))
    (folder / "images" / "broken.jpg").write_bytes(b"not a jpeg")
    (folder / "labels" / "broken.txt").write_text("")
    with pytest.raises(ValueError, match="broken.jpg: not a readable image"):
        photo_crops(folder, seed=0)


def test_camera_crop_checks_its_input() -> None:
    rng = np.random.default_rng(0)
    image = np.full((60, 60, 3), 200, np.uint8)
    assert camera_crop(image, (30, 30), 40.0, rng)[0].shape == (INPUT_PX, INPUT_PX, 3)
    with pytest.raises(ValueError, match="positive size"):
        camera_crop(image, (30, 30), 0.0, rng)
    with pytest.raises(ValueError, match="BGR uint8"):
        camera_crop(image[..., 0], (30, 30), 40.0, rng)


def test_a_camera_crop_turned_back_by_its_turn_stands_upright() -> None:
    # a spot above the centre: the camera turns it; face_view() with the turn undone restores it
    image = np.full((200, 200, 3), 120, np.uint8)
    cv2.circle(image, (100, 70), 20, (250, 250, 250), -1)
    reference = face_view(tile_crop(image, (100, 100), 130.0)[None], np.zeros(1))[0].astype(np.float32)
    rng = np.random.default_rng(4)
    for _ in range(6):
        crop, turn = camera_crop(image, (100, 100), 130.0, rng)
        ups = np.array([-turn, -turn + 180.0])  # the right way round, and upside down
        back = face_view(np.stack([crop, crop]), ups).astype(np.float32)
        right, wrong = (float(np.corrcoef(b[6:42, 6:42].ravel(), reference[6:42, 6:42].ravel())[0, 1])
                        for b in back)
        assert right > 0.6 and right > wrong + 0.5


def test_face_view_undoes_a_counter_clockwise_turn_and_keeps_the_centre() -> None:
    crops = rendered_crops("train", 4, seed=9)
    centre = ((INPUT_PX - 1) / 2, (INPUT_PX - 1) / 2)
    turned = np.stack([cv2.warpAffine(c, cv2.getRotationMatrix2D(centre, 40.0, 1.0), (INPUT_PX, INPUT_PX))
                       for c in crops.images])
    back = face_view(turned, np.full(4, 40.0)).astype(np.int16)
    plain = face_view(crops.images, np.zeros(4))
    assert back.shape == (4, FACE_PX, FACE_PX, 3)
    inner = slice(8, 40)  # inside the circle that both turns keep
    assert np.abs(back[:, inner, inner] - plain[:, inner, inner]).mean() < 12
    # the face view is the crop's own pixels at its centre
    margin = (INPUT_PX - FACE_PX) // 2
    assert np.abs(plain.astype(np.int16) - crops.images[:, margin:-margin, margin:-margin]).max() <= 1


def test_up_view_shrinks_the_whole_crop() -> None:
    crops = rendered_crops("train", 3, seed=2).images
    small = up_view(crops)
    assert small.shape == (3, UP_PX, UP_PX, 3) and small.dtype == np.uint8
    means = [views.astype(np.float32).mean(axis=(1, 2)) for views in (small, crops)]
    assert np.abs(means[0] - means[1]).max() < 2
