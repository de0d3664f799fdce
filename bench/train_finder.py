"""Train the tile finder (seeded), export it to ONNX, and measure the exported file.

Writes vision/table/tile_finder.onnx and the figures block of its card, vision/table/tile_finder.md
(between the ``<!-- figures -->`` marks).

Data: the labelled photos of the Rummikub photos' train/ split (their tile polygons drawn into
regions), and photos of vision.sim.finder_scenes in the TRAIN font families, some on the empty
tables photographed in train/. valid/ only chooses between finished candidates; the HELD-OUT
scenes only give figures. ``--hold-out-set NAME`` leaves one photo set (the photos named NAME-n)
out of training, for a figure on photos taken apart from every training photo.

Targets, per pixel of the photo shrunk to vision.table.finder.WORK_SIDE: ``body`` (on a tile) and
``core`` (the distance to the tile's edge over the tile's largest, 0..1), each averaged over the
network's STRIDE x STRIDE cells. Each step reads a batch of crops, each turned by any angle,
scaled, maybe mirrored, and varied in light, colour, blur, noise and JPEG quality; a share of them
(REAL_SHARE) from the real photos. Loss: ``finder_loss``.

Usage: PYTHONPATH=. .venv/bin/python bench/train_finder.py [--seed 1] [--quick] [--threads 2]
       [--hold-out-set NAME] [--out PATH]
The full plan takes about an hour on two CPU threads. Needs the ``train`` extra (PyTorch, onnx).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tilescribe.progress import add_quiet_option, progress
from vision.sim.camera import jpeg_round_trip
from vision.sim.finder_scenes import finder_scene
from vision.table.finder import FINDER_PATH, INPUT_NAME, OUTPUT_NAME, STRIDE, WORK_SIDE, TileFinder

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_finder import (  # noqa: E402
    HEADER,
    PHOTOS,
    format_row,
    held_out_scenes,
    labelled_photos,
    split_rows,
)
from model_card import write_figures  # noqa: E402

CARD = FINDER_PATH.with_suffix(".md")
#: The seed of the shipped model.
SEED = 1
#: Channels of the encoder's five stride-2 stages (the decoder comes back up to stride 4).
WIDTHS = (16, 32, 48, 64, 96)
#: Share of each batch's crops cut from the real photos (the rest from rendered scenes).
REAL_SHARE = 0.35
#: Crops are scaled by up to this factor either way (log-uniform) before they are cut.
ZOOM = 1.6
#: Pixels within this many working pixels of two tiles are a junction (targets), and each pixel's
#: loss of ``core`` is weighed 1, plus BODY_WEIGHT on a tile, plus JUNCTION_WEIGHT on a junction:
#: the core must dip between touching tiles, where a few pixels decide whether two tiles are one.
JUNCTION_PX = 3
BODY_WEIGHT = 4.0
JUNCTION_WEIGHT = 10.0
#: The loss is printed every this many steps.
LOG_EVERY = 250
#: Scenes rendered per data-making job (a fixed chunking keeps the data independent of --threads).
CHUNK = 50


@dataclass(frozen=True, slots=True)
class Plan:
    """How much data and how many steps.

    Attributes:
        scenes: rendered training photos.
        steps: optimiser steps.
        batch: crops a step.
        crop: a crop's side, working pixels.
        lr: peak learning rate (one-cycle schedule).
        held_out: held-out scenes rendered for the figures.
    """

    scenes: int
    steps: int
    batch: int
    crop: int
    lr: float
    held_out: int


PLANS = {"full": Plan(scenes=3000, steps=12000, batch=12, crop=256, lr=3e-3, held_out=300),
         "quick": Plan(scenes=100, steps=200, batch=8, crop=192, lr=3e-3, held_out=30)}


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class FinderNet(nn.Module):
    """A small U-Net: BGR images (N x 3 x H x W, values 0..1; H, W multiples of 32) -> logits of
    ``body`` and ``core`` (N x 2 x H/4 x W/4)."""

    def __init__(self, widths: tuple[int, ...] = WIDTHS) -> None:
        super().__init__()
        a, b, c, d, e = widths
        self.down = nn.ModuleList([
            _block(3, a, 2),
            nn.Sequential(_block(a, b, 2), _block(b, b)),
            nn.Sequential(_block(b, c, 2), _block(c, c)),
            nn.Sequential(_block(c, d, 2), _block(d, d)),
            nn.Sequential(_block(d, e, 2), _block(e, e), _block(e, e, dilation=2)),
        ])
        self.up = nn.ModuleList([
            _block(e + d, d),
            _block(d + c, c),
            nn.Sequential(nn.Conv2d(c + b, b, 1, bias=False), nn.BatchNorm2d(b), nn.ReLU(inplace=True),
                          _block(b, b)),
        ])
        self.head = nn.Conv2d(b, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = []
        for stage in self.down:
            x = stage(x)
            skips.append(x)
        x = skips.pop()
        skips.pop(0)  # stride 2: the decoder stops at stride 4
        for stage in self.up:
            x = stage(torch.cat([F.interpolate(x, scale_factor=2.0, mode="nearest"), skips.pop()], 1))
        return self.head(x)


def targets(ids: np.ndarray) -> np.ndarray:
    """``body``, ``core`` and ``junction`` of a region map (int32 H x W, k on the k-th tile) as uint8
    H x W x 3 (x 255): ``junction`` marks the pixels within JUNCTION_PX of two tiles at once, where
    touching tiles must be told apart."""
    inside = ids > 0
    edge = np.zeros_like(inside)
    edge[:, 1:] |= ids[:, 1:] != ids[:, :-1]
    edge[1:, :] |= ids[1:, :] != ids[:-1, :]
    dist = cv2.distanceTransform((inside & ~edge).astype(np.uint8), cv2.DIST_L2, 5)
    deepest = np.zeros(int(ids.max()) + 1, np.float32)
    np.maximum.at(deepest, ids.ravel(), dist.ravel())
    core = np.where(inside, dist / np.maximum(deepest[ids], 1.0), 0.0)
    reach = np.ones((2 * JUNCTION_PX + 1, 2 * JUNCTION_PX + 1), np.uint8)
    none = float(ids.max()) + 1  # above every tile: a pixel off the tiles is no tile's
    highest = cv2.dilate(ids.astype(np.float32), reach)
    lowest = cv2.erode(np.where(inside, ids, none).astype(np.float32), reach)
    junction = (lowest < none) & (highest != lowest)
    return np.dstack([inside * 255, np.round(core * 255), junction * 255]).astype(np.uint8)


def working(image: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A photo and its region map shrunk so the long side is WORK_SIDE, with its targets."""
    scale = WORK_SIDE / max(image.shape[:2])
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return small, targets(cv2.resize(ids, size, interpolation=cv2.INTER_NEAREST))


def _scene_chunk(job: tuple[int, int, tuple[np.ndarray, ...]]) -> list[tuple[np.ndarray, np.ndarray]]:
    start, count, backgrounds = job
    out = []
    for seed in range(start, start + count):
        scene = finder_scene(seed, "train", backgrounds)
        out.append(working(scene.image, scene.ids))
    return out


def make_scenes(count: int, seed: int, backgrounds: tuple[np.ndarray, ...], workers: int,
                quiet: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` rendered TRAIN scenes at the working size, in fixed chunks of seeds."""
    base = seed * 1_000_003 % 9_000_000
    jobs = [(base + s, min(CHUNK, count - s), backgrounds) for s in range(0, count, CHUNK)]
    out: list[tuple[np.ndarray, np.ndarray]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for chunk in progress(pool.map(_scene_chunk, jobs), total=len(jobs), desc="scenes", quiet=quiet):
            out += chunk
    return out


def augmented(image: np.ndarray, target: np.ndarray, crop: int, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """One training crop: (BGR float32 3 x crop x crop, 0..1; targets float32 3 x crop/4 x crop/4, 0..1)."""
    h, w = image.shape[:2]
    tiles = np.argwhere(target[::8, ::8, 0] > 0)
    if len(tiles) and rng.random() < 0.8:
        cy, cx = (tiles[int(rng.integers(len(tiles)))] * 8 + rng.uniform(-crop / 3, crop / 3, 2))
    else:
        cy, cx = rng.uniform(0, h), rng.uniform(0, w)
    zoom = math.exp(rng.uniform(-math.log(ZOOM), math.log(ZOOM)))
    matrix = cv2.getRotationMatrix2D((float(cx), float(cy)), float(rng.uniform(0, 360)), zoom)
    matrix[:, 2] += (crop / 2 - cx, crop / 2 - cy)
    if rng.random() < 0.5:
        matrix[0] = -matrix[0]
        matrix[0, 2] += crop
    view, truth = (cv2.warpAffine(a, matrix, (crop, crop), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REFLECT_101) for a in (image, target))
    view = _photometric(view, rng)
    small = cv2.resize(truth, (crop // STRIDE, crop // STRIDE), interpolation=cv2.INTER_AREA)
    return (view.transpose(2, 0, 1).astype(np.float32) / 255,
            small.transpose(2, 0, 1).astype(np.float32) / 255)


def _photometric(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, colour, blur, noise and JPEG varied (BGR uint8 in and out)."""
    out: np.ndarray = view.astype(np.float32)
    if rng.random() < 0.3:  # tiles and tables of other colours
        hsv = cv2.cvtColor(view, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(180))) % 180
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.1:
        out = np.repeat(out.mean(axis=2, keepdims=True), 3, axis=2)
    out = out * rng.uniform(0.8, 1.2, 3) * rng.uniform(0.6, 1.3) + rng.uniform(-40, 40)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 2.0)))
    out += rng.normal(0, rng.uniform(0, 8), out.shape)
    view = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        view = jpeg_round_trip(view, int(rng.integers(30, 90)))
    return view


def finder_loss(logits: torch.Tensor, truth: torch.Tensor) -> torch.Tensor:
    """Binary cross-entropy of ``body``; squared error of ``core``'s probability, weighed up on the
    tiles and their junctions (BODY_WEIGHT, JUNCTION_WEIGHT). ``truth``: N x 3 x h x w (targets)."""
    body, core, junction = truth[:, 0], truth[:, 1], truth[:, 2]
    weight = 1 + BODY_WEIGHT * body + JUNCTION_WEIGHT * junction
    core_loss = (weight * (torch.sigmoid(logits[:, 1]) - core) ** 2).mean()
    return F.binary_cross_entropy_with_logits(logits[:, 0], body) + core_loss


def train(real: list[tuple[np.ndarray, np.ndarray]], scenes: list[tuple[np.ndarray, np.ndarray]], plan: Plan,
          seed: int, quiet: bool) -> FinderNet:
    """The network trained on crops of ``real`` and ``scenes`` (each (image, targets) at the working size)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = FinderNet()
    optimiser = torch.optim.AdamW(model.parameters(), lr=plan.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, plan.lr, total_steps=plan.steps)
    model.train()
    bar = progress(range(plan.steps), desc="steps", quiet=quiet)
    for step in bar:
        crops, truths = [], []
        for _ in range(plan.batch):
            pool = real if real and rng.random() < REAL_SHARE else scenes
            image, target = pool[int(rng.integers(len(pool)))]
            x, y = augmented(image, target, plan.crop, rng)
            crops.append(x)
            truths.append(y)
        logits = model(torch.from_numpy(np.stack(crops)))
        loss = finder_loss(logits, torch.from_numpy(np.stack(truths)))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if (step + 1) % LOG_EVERY == 0:
            print(f"step {step + 1} of {plan.steps}: loss {loss.item():.4f}", flush=True)
    return model.eval()


def export(model: FinderNet, path: Path) -> None:
    """The network as ONNX (opset 13), any input size."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (torch.zeros(1, 3, 480, 640),), str(path), opset_version=13,
                      input_names=[INPUT_NAME], output_names=[OUTPUT_NAME],
                      dynamic_axes={INPUT_NAME: {2: "h", 3: "w"}}, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--quick", action="store_true", help="a few-minute run (the quick plan)")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch threads and data-making processes")
    parser.add_argument("--photos", type=Path, default=PHOTOS, help="the labelled photos (train/, valid/)")
    parser.add_argument("--hold-out-set", default=None, help="leave this photo set out of training")
    parser.add_argument("--out", type=Path, default=FINDER_PATH, help="where the ONNX model goes")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    plan = PLANS["quick" if args.quick else "full"]
    torch.set_num_threads(args.threads)
    started = time.perf_counter()
    photos = [p for p in labelled_photos(args.photos / "train") if p.group != args.hold_out_set]
    real = [working(p.image, p.ids) for p in photos if p.ids.any()]
    backgrounds = tuple(cv2.resize(p.image, None, fx=0.64, fy=0.64, interpolation=cv2.INTER_AREA)
                        for p in photos if not p.ids.any())
    scenes = make_scenes(plan.scenes, args.seed, backgrounds, args.threads, args.quiet)
    print(f"{len(real)} real photos ({len(backgrounds)} empty tables as backgrounds), {len(scenes)} scenes",
          flush=True)
    model = train(real, scenes, plan, args.seed, args.quiet)
    minutes = (time.perf_counter() - started) / 60
    export(model, args.out)
    cv2.setNumThreads(1)
    finder = TileFinder(args.out)
    rows = []
    splits = {"valid/ photos": labelled_photos(args.photos / "valid"),
              "train/ photos": labelled_photos(args.photos / "train"),
              "held_out scenes": held_out_scenes(plan.held_out)}
    if args.hold_out_set:
        held = (p for split in ("train", "valid")
                for p in labelled_photos(args.photos / split, args.hold_out_set))
        splits = {f"held-out set {args.hold_out_set}, train/ and valid/": held, **splits}
    times: list[float] = []
    for name, items in splits.items():
        split, ms = split_rows(finder, name, items, name.startswith("held_out"), args.quiet)
        rows += split
        times += ms if name.startswith("valid") else []
    lines = [HEADER]
    lines += [format_row(r) for r in rows]
    text = (f"Run: `bench/train_finder.py --seed {args.seed}{' --quick' if args.quick else ''}"
            f"{f' --hold-out-set {args.hold_out_set}' if args.hold_out_set else ''}` "
            f"({args.threads} threads, "
            f"{minutes:.0f} min with data making); {len(real)} real photos, {len(scenes)} scenes; "
            f"model {args.out.stat().st_size // 1024} KiB; a valid/ photo found in {np.median(times):.1f} ms "
            f"(median, one core).\n\n```\n" + "\n".join(lines) + "\n```")
    print(text)
    if args.out == FINDER_PATH:
        write_figures(CARD, text, "bench/train_finder.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
