"""Train the tile reader's two networks (seeded), export them to ONNX, and measure the exported files.

Writes vision/reader/tile_up.onnx, vision/reader/tile_reader.onnx and the figures block of their
model card, vision/reader/tile_reader.md (between the ``<!-- figures -->`` marks).

Data (vision.sim.tile_crops): crops rendered in the TRAIN font families for every game, and crops of
the labelled tiles of the Rummikub photos' train/ split, and the occupied cells of simulated MODLINSEQ
games in the TRAIN families (the plan's, or ``--board-games N``), cut from their camera frames as the
board reader cuts them (vision.sim.board_crops), and with ``--square-frames N`` (not in the plans yet)
the tiles and as many empty squares of N still frames of Yushino's square board, cut as its reader
cuts them. The photos of valid/ serve only to choose between finished candidate sizes
(``--sizes``); the HELD-OUT font families only give figures.

Two small CNNs (a 2 x 2 stride-2 patch convolution, then 3 x 3 ones, batch norm and ReLU, the last
5 x 5 map into a 64-d embedding), trained one after the other:
1. the up network: which of UP_BINS directions the print's up points (rendered crops, whose turn is
   known; quarter turns on the fly turn the label with the crop);
2. the face network, with a face head and a colour head ("-" is a class), on every training crop
   turned upright by the EXPORTED up network, as the reader turns them at the table.
Inference cost is what sizes them: an order-9 board is 271 crops, read in one pass on one core.

Usage: PYTHONPATH=. .venv/bin/python bench/train_reader.py [--seed 1] [--quick] [--threads 2]
       [--device cpu|cuda]
The full plan takes about 80 minutes and 20 GB of memory on two CPU threads; with --device cuda the
networks train on a GPU (the data is made by --threads processes either way).
Needs the ``train`` extra (PyTorch, onnx): pip install -e ".[train]"; or deploy/dev.sh train.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
import torch
from torch import nn

from calibration.board_print import SheetSpec, design_board
from calibration.square_board import SquareSpec, design_square_board
from tilescribe.progress import add_quiet_option, progress
from vision.capture.sources import CAMERA_SIZE
from vision.reader.crop import face_view, up_view
from vision.reader.faces import COLOURS, FACES, NO_COLOUR
from vision.reader.model import (
    COLOUR_OUTPUT,
    EMBEDDING_OUTPUT,
    FACE_OUTPUT,
    INPUT_NAME,
    INPUT_SCALE,
    MODEL_PATH,
    UP_BINS,
    UP_MODEL_PATH,
    UP_OUTPUT,
    TileReader,
    UpFinder,
)
from vision.sim.board_crops import board_crops, square_board_crops
from vision.sim.options import Split
from vision.sim.recording import SimOptions
from vision.sim.tile_crops import ALL_GAMES, CropSet, photo_crops, rendered_crops
from vision.sim.tiles import fonts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model_card import write_figures  # noqa: E402
from sim_games import QUICK, game_turns  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
_Job = TypeVar("_Job")
PHOTOS = REPO.parent / "shared" / "data" / "rummikub-photos"
CARD = MODEL_PATH.with_suffix(".md")
#: The seed of the shipped model.
SEED = 1
Layers = tuple[tuple[int, int, int], ...]
#: The convolutions (channels, kernel, stride) of each candidate size: a 2 x 2 stride-2 patch layer
#: (48 -> 24 px for the face, 32 -> 16 for the up; the cheapest first layer that keeps the
#: strokes), then 3 x 3 ones down to a 6 x 6 (face) or 4 x 4 (up) map.
SIZES: dict[str, Layers] = {
    "base": ((16, 2, 2), (32, 3, 2), (64, 3, 2), (64, 3, 1)),
    "wide": ((24, 2, 2), (48, 3, 2), (64, 3, 1), (96, 3, 2)),
}
EMBEDDING = 64
#: Dropout on the embedding while training (60 epochs over 50,740 fixed crops without it fitted the
#: training crops to 0.02% face error against 8.5-13% on held-out families).
DROPOUT = 0.2
#: Crops of an order-9 board (the timing figure).
BOARD_CROPS = 271
#: Crops rendered per data-making job (a fixed chunking keeps the data independent of --threads).
CHUNK = 2000
#: Yushino board frames per data-making job (as CHUNK).
SQUARE_CHUNK = 20
#: Yushino board frames in the HELD-OUT families for the "board squares" figure.
EVAL_SQUARE_FRAMES = 40


@dataclass(frozen=True, slots=True)
class Plan:
    """How much data and how many epochs.

    Attributes:
        rendered: training crops rendered (all games).
        photo_turns: crops of each labelled train/ photo tile (each at its own random rotation).
        epochs: passes over the training data (face network).
        up_epochs: passes over the rendered crops (up network).
        eval_rendered: held-out crops rendered per game for the figures.
        board_games: simulated MODLINSEQ games in the TRAIN families whose occupied cells are cut
            from their frames as the board reader cuts them (vision.sim.board_crops).
        board_every: every this many still frames of each such game is cut.
        square_frames: still frames of Yushino's square board in the TRAIN families whose tiles and
            as many empty squares ("none") are cut as its reader cuts them.
        batch: training batch size.
        lr: peak learning rate (one-cycle schedule).
    """

    rendered: int
    photo_turns: int
    epochs: int
    up_epochs: int
    eval_rendered: int
    board_games: int = 0
    board_every: int = 12
    square_frames: int = 0
    batch: int = 256
    lr: float = 4e-3


#: The full plan spends its steps on distinct crops rather than passes: 30 passes over 100,000 crops
#: read the training crops to 0.36% wrong and fresh renders in the same fonts to 7-13% a game; 12
#: passes over 250,000 (about as many steps) read both alike (3.2%; 5-10%) and held-out ones better.
#: 6 passes over 500,000 with the train/ photo tiles at 24 turns each (8% of the crops, not 4%)
#: read the valid/ photos' crops 1.37% wrong against 3.47% (the two finished models compared on
#: valid/), and held-out renders as well or better. The cells of 180 board games (one still frame in
#: 12: a tile lies in every frame after its turn) with the photo tiles at 28 turns (still 8% of
#: the crops) read valid/ alike (16 against 13 of 952 wrong: 12 and 9 crops read right by only one,
#: McNemar's p 0.66) and TRAIN-style board frames far better (0.05% / 0.25% of the cells wrong at
#: orders 9 / 13 against 0.41% / 0.72%). Not in the plans yet: the squares of Yushino's board
#: (``--square-frames``); the model card's Limits (vision/reader/tile_reader.md) give what a full run
#: with 400 frames of them read, and why it is not the shipped model.
PLANS = {"full": Plan(rendered=500_000, photo_turns=28, epochs=6, up_epochs=3, eval_rendered=1000,
                      board_games=180),
         "quick": Plan(rendered=12_000, photo_turns=2, epochs=4, up_epochs=6, eval_rendered=600)}
#: The boards and camera frames of the simulated games whose cells give the "board cells" figure (and
#: ``--board-games``' training crops), in turn: orders 9 and 13 in a live camera's frames, order 18
#: in the bigger frames the product asks for there (vision.board.board_reader's small-frame finding).
BOARD_VIEWS: tuple[tuple[int, tuple[int, int]], ...] = (
    (9, CAMERA_SIZE), (13, CAMERA_SIZE), (18, (2560, 1920)))
#: Every this many frames of a still board is cut for the board-cells figure (neighbouring frames
#: differ only by sensor noise).
BOARD_EVERY = 6
#: The up network's size (on the 32 px view the base layers cost a third of the face network).
UP_SIZE = "base"
#: The face network's outputs, and the up network's, by ONNX output name.
FACE_HEADS = {FACE_OUTPUT: len(FACES), COLOUR_OUTPUT: len(COLOURS)}
UP_HEADS = {UP_OUTPUT: UP_BINS}


class ReaderNet(nn.Module):
    """A CNN: views (N x 3 x side x side, BGR scaled by INPUT_SCALE) -> the logits of each head (in
    the order of ``heads``), then the embedding."""

    def __init__(self, layers: Layers, heads: dict[str, int], side: int) -> None:
        super().__init__()
        self.side = side
        modules: list[nn.Module] = []
        channels = 3
        for out, kernel, stride in layers:
            modules += _conv(channels, out, kernel, stride)
            channels = out
        self.features = nn.Sequential(*modules)
        # the whole 5 x 5 map into the embedding: one layer that sees the tile's shape and print together
        last = self.features(torch.zeros(1, 3, side, side)).shape[-1]
        self.embedding = nn.Sequential(nn.Flatten(), nn.Linear(channels * last * last, EMBEDDING), nn.ReLU())
        self.dropout = nn.Dropout(DROPOUT)
        self.heads = nn.ModuleList([nn.Linear(EMBEDDING, k) for k in heads.values()])

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        e = self.embedding(self.features(x))
        kept = self.dropout(e)
        return (*(head(kept) for head in self.heads), e)


def _conv(cin: int, cout: int, kernel: int, stride: int) -> list[nn.Module]:
    pad = kernel // 2 if kernel % 2 else 0
    conv = nn.Conv2d(cin, cout, kernel, stride, pad, bias=False)
    return [conv, nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


def make_data(split: Split, n: int, seed: int, games: tuple[str, ...], workers: int) -> CropSet:
    """``n`` rendered crops in fixed chunks (each its own seed), made by ``workers`` processes."""
    sizes = [min(CHUNK, n - start) for start in range(0, n, CHUNK)]
    jobs = [(split, size, seed * 100_003 + i, games) for i, size in enumerate(sizes)]
    return _made(_rendered, jobs, workers)


def _rendered(job: tuple[Split, int, int, tuple[str, ...]]) -> CropSet:
    return rendered_crops(*job)


def make_board_data(split: Split, games: int, seed: int, workers: int, every: int = BOARD_EVERY) -> CropSet:
    """The board crops of ``games`` simulated games in the ``split`` font families (seeded), cut from
    every ``every``-th still frame, made by ``workers`` processes."""
    return _made(_board_game, [(split, g, seed, every) for g in range(games)], workers)


def make_square_data(split: Split, frames: int, seed: int, workers: int) -> CropSet:
    """The squares of ``frames`` still frames of Yushino's board in the ``split`` font families
    (vision.sim.board_crops.square_board_crops; seeds apart from bench/bench_yushino_read.py's), in
    fixed chunks, made by ``workers`` processes."""
    jobs = [(split, 100_000 * seed + 20_000 + i, min(SQUARE_CHUNK, frames - start))
            for i, start in enumerate(range(0, frames, SQUARE_CHUNK))]
    return _made(_square_frames, jobs, workers)


def _square_frames(job: tuple[Split, int, int]) -> CropSet:
    split, seed, frames = job
    return square_board_crops(design_square_board(SquareSpec()), split, seed, frames)


def _made(make: Callable[[_Job], CropSet], jobs: list[_Job], workers: int) -> CropSet:
    """The crops of every job, in the jobs' order (so independent of ``workers``), made by up to
    ``workers`` processes."""
    if workers <= 1 or len(jobs) <= 1:
        return CropSet.concatenate([make(job) for job in jobs])
    with ProcessPoolExecutor(workers) as pool:
        return CropSet.concatenate(list(pool.map(make, jobs)))


def _board_game(job: tuple[Split, int, int, int]) -> CropSet:
    """Game ``g``: a random legal game of 24..35 turns in the split's tiles at any rotation on the
    ``g``-th of BOARD_VIEWS (in turn), pentagons or pentagons and rectangles, one tile set or a
    style per tile; seeds apart from the benchmarks' (bench/sim_games.py, 500..999)."""
    split, g, seed, every = job
    order, size = BOARD_VIEWS[g % len(BOARD_VIEWS)]
    kind = g // len(BOARD_VIEWS) % 2
    game_seed = 100_000 * seed + 10_000 + g
    turns = game_turns(order, 24 + g % 12, seed=game_seed, wild_share=0.08)
    options = SimOptions(seed=game_seed + 5_000, size=size, fps=4.0, split=split,
                         shapes=(("pentagon",), ("pentagon", "rectangle"))[kind], per_tile_styles=kind == 1,
                         any_rotation=True, bumps=1, pacing=QUICK)
    return board_crops(design_board(SheetSpec(order=order)), turns, options, every=every)


def _batch(images: torch.Tensor, gen: torch.Generator, ups: torch.Tensor | None) -> torch.Tensor:
    """uint8 N x side x side x 3 -> float N x 3 x side x side with brightness / contrast jitter; given the
    up bins ``ups`` (int64 [N], -1: unknown), random quarter turns too, the bins turned with the
    crops in place."""
    x = images.permute(0, 3, 1, 2).float() * INPUT_SCALE
    n = len(x)
    if ups is not None:
        turns = torch.randint(0, 4, (n,), generator=gen)
        x = torch.cat([torch.rot90(x[turns == k], k, dims=(2, 3)) for k in range(4)])  # k counter-clockwise
        order = torch.cat([torch.nonzero(turns == k).flatten() for k in range(4)])
        x = x[torch.argsort(order)]
        known = ups >= 0
        ups[known] = (ups[known] + turns[known] * (UP_BINS // 4)) % UP_BINS
    contrast = 1.0 + 0.25 * (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1)
    bright = 0.08 * (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    return ((x - mean) * contrast + mean + bright).clamp(0.0, 1.0)


def up_bins(ups: np.ndarray) -> np.ndarray:
    """Degrees (float [n], NaN: unknown) -> the up network's classes (int64 [n], -1: unknown)."""
    known = ~np.isnan(ups)
    bins = np.full(len(ups), -1, np.int64)
    bins[known] = np.round(ups[known] / (360.0 / UP_BINS)).astype(np.int64) % UP_BINS
    return bins


def train(images: np.ndarray, labels: dict[str, np.ndarray], layers: Layers, epochs: int, plan: Plan,
          seed: int, quiet: bool, device: str = "cpu") -> ReaderNet:
    """Train one network (seeded: the same data and seed give the same weights).

    Args:
        images: BGR uint8 [n, side, side, 3], the network's views (up_view or face_view).
        labels: int64 [n] class labels by head, in the order of the network's heads (FACE_HEADS:
            faces and colours, weighted 1 and 0.5; UP_HEADS: up bins, -1 for unknown ones, which
            also switches on quarter turns).
        device: where the network trains ("cpu", or "cuda" where PyTorch sees a GPU); the batches
            are made on the CPU either way, and the network is returned on the CPU.
    """
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    turning = UP_OUTPUT in labels
    model = ReaderNet(layers, UP_HEADS if turning else FACE_HEADS, images.shape[1]).to(device)
    pixels = torch.from_numpy(images)
    targets = [torch.from_numpy(v.astype(np.int64)) for v in labels.values()]
    weights = [1.0, 0.5][: len(targets)]
    steps = epochs * (len(pixels) // plan.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=plan.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=plan.lr, total_steps=steps)
    # a little smoothing keeps confidences honest; unknown up bins (-1) are left out
    loss_of = nn.CrossEntropyLoss(label_smoothing=0.05, ignore_index=-1)
    model.train()
    bar = progress(total=steps, desc="train up" if turning else "train faces", unit="batch", quiet=quiet)
    for _ in range(epochs):
        perm = torch.randperm(len(pixels), generator=gen)
        for start in range(0, len(perm) - plan.batch + 1, plan.batch):
            idx = perm[start : start + plan.batch]
            batch_targets = [t[idx].clone() for t in targets]
            views = _batch(pixels[idx], gen, batch_targets[0] if turning else None)
            batch_targets = [t.to(device) for t in batch_targets]
            outputs = model(views.to(device))
            loss = sum(w * loss_of(o, t) for w, o, t in zip(weights, outputs, batch_targets, strict=False))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            bar.update()
            bar.set_postfix(loss=f"{loss.item():.3f}", refresh=False)
    bar.close()
    return model.to("cpu").eval()


def export(model: ReaderNet, path: Path, heads: dict[str, int]) -> None:
    """Write a network as ONNX (opset 13, which cv2.dnn 4.x runs) with a free batch size."""
    import onnx

    dummy = torch.zeros(1, 3, model.side, model.side)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (dummy,), str(path), input_names=[INPUT_NAME],
                      output_names=[*heads, EMBEDDING_OUTPUT],
                      dynamic_axes={INPUT_NAME: {0: "n"}}, opset_version=13, dynamo=False)
    onnx.checker.check_model(onnx.load(str(path)))


def measure(reader: TileReader, data: CropSet, rows: np.ndarray | None = None) -> dict[str, object]:
    """Face and colour error of the exported model on one set, or on its ``rows`` (colour only
    where the tile has one)."""
    keep = np.arange(len(data.faces)) if rows is None else rows
    true_faces, true_colours = data.faces[keep], data.colours[keep]
    faces, colours = reader.probabilities(data.images[keep])
    read_face, read_colour = faces.argmax(axis=1), colours.argmax(axis=1)
    wrong = read_face != true_faces
    coloured = true_colours != COLOURS.index(NO_COLOUR)
    pairs = zip(true_faces[wrong], read_face[wrong], strict=True)
    confusions = Counter(f"{FACES[t]}->{FACES[r]}" for t, r in pairs)
    return {
        "n": len(keep),
        "face_error": float(wrong.mean()),
        "colour_error": float((read_colour != true_colours)[coloured].mean()) if coloured.any() else None,
        "up_off": up_off(reader, data.images[keep], data.ups[keep]),
        "confusions": confusions.most_common(6),
    }


def up_off(reader: TileReader, images: np.ndarray, ups: np.ndarray) -> float | None:
    """Share of the crops with a known up (``ups`` degrees, NaN: unknown) whose up the reader finds
    more than 15 degrees off (None: no known up)."""
    known = ~np.isnan(ups)
    if not known.any():
        return None
    off = np.abs((reader.up_finder.ups(images[known]) - ups[known] + 180.0) % 360.0 - 180.0)
    return float((off > 15.0).mean())


def board_ms(reader: TileReader, data: CropSet) -> float:
    """Median milliseconds of one read of BOARD_CROPS crops on one core."""
    cv2.setNumThreads(1)
    crops = data.images[np.arange(BOARD_CROPS) % len(data.images)]
    times = []
    for _ in range(25):
        t = time.perf_counter()
        reader.read(crops)
        times.append(time.perf_counter() - t)
    return 1000 * float(np.median(times[5:]))


def _device_name(device: str) -> str:
    """The name of the processor that trains: "CPU", or the GPU's name."""
    return torch.cuda.get_device_name() if device == "cuda" else "CPU"


def _row(name: str, m: dict[str, object]) -> str:
    colour = "n/a" if m["colour_error"] is None else f"{100 * float(m['colour_error']):.2f}%"  # type: ignore[arg-type]
    up = "n/a" if m["up_off"] is None else f"{100 * float(m['up_off']):.2f}%"  # type: ignore[arg-type]
    confusions = ", ".join(f"{k} x{v}" for k, v in m["confusions"]) or "none"  # type: ignore[attr-defined]
    return f"| {name} | {m['n']} | {100 * float(m['face_error']):.2f}% | {colour} | {up} | {confusions} |"  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED, help=f"random seed (shipped model: {SEED})")
    parser.add_argument("--quick", action="store_true", help="a few-minute run on less data")
    parser.add_argument("--sizes", default="wide", help="comma-separated candidate sizes of "
                        f"{sorted(SIZES)}; with more than one, the best on valid/ photos is kept")
    parser.add_argument("--photos", type=Path, default=PHOTOS, help="the labelled photos (train/, valid/)")
    parser.add_argument("--out", type=Path, default=MODEL_PATH, help="the ONNX face network to write")
    parser.add_argument("--up-out", type=Path, default=UP_MODEL_PATH, help="the ONNX up network to write")
    parser.add_argument("--card", type=Path, default=CARD, help="the model card whose figures to rewrite")
    parser.add_argument("--board-games", type=int, metavar="N",
                        help="train also on the occupied cells of N simulated MODLINSEQ games in the TRAIN "
                        f"families, cut from their frames as the board reader cuts them (default: the "
                        f"plan's, {PLANS['full'].board_games} full, {PLANS['quick'].board_games} quick)")
    parser.add_argument("--board-every", type=int, metavar="K",
                        help="with board games: cut every K-th still frame of each game (default: the "
                        f"plan's, {PLANS['full'].board_every}; a tile lies in every frame after its turn, so "
                        "more games cut less often give more distinct tiles for as many crops)")
    parser.add_argument("--square-frames", type=int, metavar="N",
                        help="train also on the tiles and as many empty squares of N still frames of "
                        "Yushino's board in the TRAIN families, cut as its reader cuts them (default: the "
                        f"plan's, {PLANS['full'].square_frames} full, {PLANS['quick'].square_frames} quick)")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads (training and data making)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"),
                        help="where the networks train (default cpu; cuda needs PyTorch with a GPU)")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    sizes = args.sizes.split(",")
    if any(s not in SIZES for s in sizes):
        parser.error(f"--sizes: each must be one of {sorted(SIZES)}, got {args.sizes!r}")
    for split in ("train", "valid"):
        if not (args.photos / split / "images").is_dir():
            parser.error(f"--photos: {args.photos / split / 'images'} is not a directory")
    plan = PLANS["quick" if args.quick else "full"]
    if args.board_games is None:
        args.board_games = plan.board_games
    if args.board_every is None:
        args.board_every = plan.board_every
    if args.square_frames is None:
        args.square_frames = plan.square_frames
    if args.square_frames < 0:
        parser.error(f"--square-frames: must be 0 or more, got {args.square_frames}")
    if args.board_games < 0:
        parser.error(f"--board-games: must be 0 or more, got {args.board_games}")
    if args.board_every < 1:
        parser.error(f"--board-every: must be 1 or more, got {args.board_every}")
    if args.device == "cuda" and not torch.cuda.is_available():
        parser.error("--device cuda: PyTorch sees no GPU here")
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # deterministic cuBLAS, as PyTorch asks
    torch.set_num_threads(args.threads)
    # on a GPU, an operation with no deterministic kernel warns instead of stopping the run
    torch.use_deterministic_algorithms(True, warn_only=args.device == "cuda")
    started = time.perf_counter()
    print(f"train fonts: {', '.join(f.name for f in fonts('train'))}", file=sys.stderr)

    train_set = CropSet.concatenate([  # the parts are not kept: each would hold a copy of its images
        make_data("train", plan.rendered, args.seed, ALL_GAMES, args.threads),
        *([make_board_data("train", args.board_games, args.seed, args.threads, args.board_every)]
          if args.board_games else []),
        *([make_square_data("train", args.square_frames, args.seed, args.threads)]
          if args.square_frames else []),
        photo_crops(args.photos / "train", args.seed, per_tile=plan.photo_turns)])
    valid_set = photo_crops(args.photos / "valid", args.seed + 1, per_tile=2)
    print(f"training crops: {len(train_set.faces)}; valid/ crops: {len(valid_set.faces)}", file=sys.stderr)

    known = ~np.isnan(train_set.ups)
    up_views = np.concatenate([up_view(train_set.images[i : i + CHUNK][known[i : i + CHUNK]])  # no full copy
                               for i in range(0, len(known), CHUNK)])
    up_net = train(up_views, {UP_OUTPUT: up_bins(train_set.ups[known])},
                   SIZES[UP_SIZE], plan.up_epochs, plan, args.seed, args.quiet, args.device)
    del up_views  # the face network's upright views take its place in memory
    export(up_net, args.up_out, UP_HEADS)
    # the face network learns from crops turned upright by the exported up network, as at the table
    finder = UpFinder(args.up_out)
    ups = np.concatenate([finder.ups(train_set.images[i : i + CHUNK])  # chunks bound the network's memory
                          for i in range(0, len(train_set.images), CHUNK)])
    upright_images = face_view(train_set.images, ups)
    labels = {FACE_OUTPUT: train_set.faces, COLOUR_OUTPUT: train_set.colours}
    candidates = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path = Path(tmp) / f"{size}.onnx"
            net = train(upright_images, labels, SIZES[size], plan.epochs, plan, args.seed, args.quiet,
                        args.device)
            export(net, path, FACE_HEADS)
            valid = measure(TileReader(path, args.up_out), valid_set)
            candidates.append((float(valid["face_error"]), size, path.read_bytes(), valid))  # type: ignore[arg-type]
            print(f"{size}: valid/ face error {100 * float(valid['face_error']):.2f}%", file=sys.stderr)  # type: ignore[arg-type]
        _, size, model_bytes, valid = min(candidates, key=lambda c: c[0])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(model_bytes)
    train_seconds = time.perf_counter() - started

    reader = TileReader(args.out, args.up_out)  # every figure below is of the exported file, run by cv2.dnn
    rng = np.random.default_rng(args.seed)
    train_sample = rng.choice(len(train_set.faces), min(5000, len(train_set.faces)), replace=False)
    rows = [_row("train (sample of the training crops)", measure(reader, train_set, train_sample))]
    jobs = [("held_out", plan.eval_rendered, args.seed + 2 + i, (game,)) for i, game in enumerate(ALL_GAMES)]
    with ProcessPoolExecutor(max(1, min(args.threads, len(jobs)))) as pool:
        held_out = list(pool.map(_rendered, jobs))
    rows += [_row(f"held_out renders, {game}", measure(reader, crops))
             for game, crops in zip(ALL_GAMES, held_out, strict=True)]
    board = make_board_data("held_out", len(BOARD_VIEWS), args.seed + 2 + len(ALL_GAMES), args.threads)
    rows.append(_row(f"held_out board cells, modlinseq ({len(BOARD_VIEWS)} simulated games, orders "
                     f"{', '.join(str(order) for order, _ in BOARD_VIEWS)})", measure(reader, board)))
    squares = make_square_data("held_out", EVAL_SQUARE_FRAMES, args.seed + 3 + len(ALL_GAMES), args.threads)
    rows.append(_row(f"held_out board squares, yushino ({EVAL_SQUARE_FRAMES} simulated frames, tiles and as "
                     "many empty squares)", measure(reader, squares)))
    rows.append(_row("valid/ photos (real tiles, 2 turns each)", valid))
    ms = board_ms(reader, valid_set)
    board_options = ""
    if args.board_games:
        board_options += f" --board-games {args.board_games} --board-every {args.board_every}"
    if args.square_frames:
        board_options += f" --square-frames {args.square_frames}"
    lines = [
        f"Run: `bench/train_reader.py --seed {args.seed}{' --quick' if args.quick else ''}{board_options} "
        f"--sizes {args.sizes}` ({args.threads} threads, training on {_device_name(args.device)}, "
        f"{train_seconds / 60:.1f} min with data making); "
        f"kept size `{size}` {SIZES[size]}, up network `{UP_SIZE}` {SIZES[UP_SIZE]}; "
        f"{len(train_set.faces)} training crops; models {args.out.stat().st_size / 1024:.0f} KiB + "
        f"{args.up_out.stat().st_size / 1024:.0f} KiB.",
        "",
        *(f"- candidate `{s}`: valid/ face error {100 * e:.2f}%" for e, s, _, _ in candidates),
        "",
        "| split | crops | face error | colour error (coloured tiles) | up off by > 15 degrees "
        "| commonest confusions (true->read) |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"One read of {BOARD_CROPS} crops (an order-9 board) with cv2.dnn on one core of the machine that "
        f"trained: {ms:.1f} ms (median).",
    ]
    write_figures(args.card, "\n".join(lines), "bench/train_reader.py")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
