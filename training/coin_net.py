"""Train the learned stage (vision/coin_net.py) on the home-board renderer's output.

    python training/coin_net.py data --first 10000000 --count 500 --out DIR
    python training/coin_net.py train --data DIR/*.npz --steps 6000 --seed 1 --out model.pt
    python training/coin_net.py export model.pt vision/models/coin_net.onnx

`data` renders home boards (vision.sim.variations) with seeds from `--first`, far
from the boards the cold detector was tuned on (1-200) and from the held-out set
(bench_vision.HELD_OUT_SEED), and keeps each board's top view, shrunk as the
network sees it, with where each piece is and how much of it a hand leaves seen.
`train` and `export` need PyTorch and onnx, which the kiosk does not: `make train`
makes a virtual environment with them (PyTorch 2.13.0, CPU build).

The targets follow CenterNet (Zhou et al., "Objects as points", 2019): a Gaussian
bump at each piece's centre cell in its class's heat map, trained with their
focal loss, and the centre's place within its cell. A piece the hand half hides
may be counted or not (the bench's rule), so the maps are not trained near it.
The board's print is the same after a quarter turn or a mirror, so every board is
also seen in its eight orientations.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import board as B
from vision import coin_net as N

Array = Any

THREADS = 2  # torch's threads in `train`, fixed: the result depends on them


def render_one(seed: int) -> tuple[Array, Array]:
    """One board: its 200 px top view (uint8) and its pieces as rows of (class,
    x_mm, y_mm, diameter_mm, visible fraction). A home board, or for a negative
    seed a tournament board (render.random_scene, its four difficulties in turn)."""
    from vision.calibration import Calibration
    from vision.photo import top_view
    from vision.sim import render as S
    from vision.sim.variations import random_home_scene

    scene = random_home_scene(seed) if seed >= 0 else S.random_scene(-seed, -seed % 4)
    image = S.render(scene)
    # The true pockets in the board's own order, so the top view is the board's millimetres
    # (`order_pockets` would turn a board the camera sees turned; the counts would not
    # change, the targets would). Not checked: some tournament boards' perspective is past
    # the square check's.
    cal = Calibration(tuple(S.pocket_centres_image(scene.look)))
    small = N.shrink(top_view(image, cal)[0])
    mask = S.hand_mask_image(scene) if scene.hand is not None else None
    rows = [
        (B.COLOURS.index(p.colour), p.x_mm, p.y_mm, p.d_mm, S.visible_fraction(scene, p, mask))
        for p in scene.pieces
    ]
    return small, np.array(rows, np.float32).reshape(-1, 5)


def make_data(first: int, count: int, out: Path, jobs: int, tournament: bool) -> None:
    from multiprocessing import Pool

    cv2.setNumThreads(1)
    t0 = time.monotonic()
    seeds = list(range(first, first + count))
    if tournament:
        seeds = [-s for s in seeds]
    # A board depends on its seed alone (each draw has a generator of its own, seeded from
    # the board's number), and map gives the boards back in the seeds' order, whichever
    # worker drew which: `--jobs 1` and `--jobs 2` write the same arrays.
    with Pool(jobs) as pool:
        boards = pool.map(render_one, seeds, chunksize=8)
    images = np.stack([b[0] for b in boards])
    pieces = np.concatenate(
        [np.c_[np.full(len(b[1]), i, np.float32), b[1]] for i, b in enumerate(boards)]
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, images=images, pieces=pieces, seeds=np.array(seeds))
    print(
        f"{out}: {len(seeds)} boards, {len(pieces)} pieces"
        f" in {time.monotonic() - t0:.0f} s ({jobs} jobs)"
    )


def load(paths: list[Path]) -> tuple[Array, list[Array]]:
    images, per = [], []
    for p in paths:
        d = np.load(p)
        n = len(d["images"])
        images.append(d["images"])
        rows = d["pieces"]
        per += [rows[rows[:, 0] == i, 1:] for i in range(n)]
    return np.concatenate(images), per


# The eight orientations of the square view: (transpose, flip x, flip y) on the image,
# and the same on the board's millimetres about its centre.
def orient(img: Array, rows: Array, k: int) -> tuple[Array, Array]:
    rows = rows.copy()
    c = B.SURFACE_MM
    if k & 1:
        rows[:, [1, 2]] = rows[:, [2, 1]]
    if k & 2:
        rows[:, 1] = c - rows[:, 1]
    if k & 4:
        rows[:, 2] = c - rows[:, 2]
    return N.turned(img, k), rows


def targets(rows: Array) -> tuple[Array, Array, Array, Array]:
    """Heat maps (4, G, G), their weights, the offsets (2, G, G) and where the
    offsets are trained (G, G)."""
    g = N.OUT_PX
    heat = np.zeros((4, g, g), np.float32)
    weight = np.ones((4, g, g), np.float32)
    offs = np.zeros((2, g, g), np.float32)
    at = np.zeros((g, g), np.float32)
    for cls, x_mm, y_mm, d_mm, vis in rows:
        u, v = N.cell_of(float(x_mm), float(y_mm))
        r = float(d_mm) / 2 / N.MM_PER_CELL
        iu, iv = round(u), round(v)
        if vis <= 0.0 or not (0 <= iu < g and 0 <= iv < g):
            continue
        # Only a window around the piece: the bump is nothing beyond 3 sigma.
        w = math.ceil(r + 2)
        y0, y1, x0, x1 = max(0, iv - w), min(g, iv + w + 1), max(0, iu - w), min(g, iu + w + 1)
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        if vis < 0.999:
            weight[:, y0:y1, x0:x1][:, (xx - u) ** 2 + (yy - v) ** 2 <= (r + 1.5) ** 2] = 0.0
            continue
        sigma = max(0.9, r / 2.5)
        bump = np.exp(-((xx - iu) ** 2 + (yy - iv) ** 2) / (2 * sigma**2))
        k = int(cls)
        np.maximum(heat[k, y0:y1, x0:x1], bump, out=heat[k, y0:y1, x0:x1])
        heat[k, iv, iu] = 1.0
        offs[:, iv, iu] = (u - iu, v - iv)
        at[iv, iu] = 1.0
    return heat, weight, offs, at


def camera(img: Array, rng: Array) -> Array:
    """What a real camera does that the renderer does not, each at random: a tone curve
    (contrast about the plywood's level, a gamma), a colour cast (white balance), blur
    (focus), sensor noise and JPEG's blocks. JPEG is applied at twice this size, near
    the camera's own scale, where its 8-pixel blocks are."""
    med = np.median(img[::4, ::4].reshape(-1, 3), axis=0)
    f = med + (img.astype(np.float32) - med) * rng.uniform(0.75, 1.25)
    if rng.random() < 0.3:
        f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:
        f *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
    if rng.random() < 0.25:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        f += rng.normal(0.0, rng.uniform(1.0, 5.0), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        big = cv2.resize(out, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
        _, buf = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 96))])
        back: Array = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        out = cv2.resize(back, out.shape[1::-1], interpolation=cv2.INTER_AREA)
    return out


def batch(images: Array, per: list[Array], idx: Array, rng: Array) -> tuple[Array, ...]:
    xs, hs, ws, os_, ats = [], [], [], [], []
    for i in idx:
        img, rows = orient(images[i], per[i], int(rng.integers(8)))
        xs.append(camera(img, rng))
        h, w, o, a = targets(rows)
        hs.append(h)
        ws.append(w)
        os_.append(o)
        ats.append(a)
    return N.normalise(np.stack(xs)), np.stack(hs), np.stack(ws), np.stack(os_), np.stack(ats)


def build() -> Any:
    import torch
    from torch import nn

    def conv(cin: int, cout: int, stride: int = 1, dil: int = 1) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, padding=dil, dilation=dil, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class CoinNet(nn.Module):  # type: ignore[misc]  # torch is untyped here
        def __init__(self) -> None:
            super().__init__()
            self.fine = nn.Sequential(conv(3, 16), conv(16, 32, 2), conv(32, 32))
            self.coarse = nn.Sequential(
                conv(32, 48, 2), conv(48, 48), conv(48, 48, dil=2), conv(48, 48, dil=4)
            )
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.merge = nn.Sequential(
                nn.Conv2d(80, 32, 1, bias=False),
                nn.BatchNorm2d(32),
                nn.ReLU(inplace=True),
                conv(32, 32),
            )
            self.head = nn.Conv2d(32, 6, 1)
            with torch.no_grad():
                self.head.bias[:4] = -4.6  # heat starts near 0.01 (CenterNet's prior)

        def forward(self, x: Any) -> Any:
            f = self.fine(x)
            c = self.up(self.coarse(f))
            return self.head(self.merge(torch.cat([f, c], 1)))

    return CoinNet()


def loss_fn(out: Any, heat: Any, weight: Any, offs: Any, at: Any) -> Any:
    import torch

    p = torch.sigmoid(out[:, :4]).clamp(1e-4, 1 - 1e-4)
    pos = (heat == 1.0).float()
    neg = (1 - pos) * (1 - heat) ** 4
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + neg * p**2 * torch.log(1 - p)) * weight
    n = pos.sum().clamp(min=1.0)
    off = (torch.abs(out[:, 4:] - offs).sum(1) * at).sum() / at.sum().clamp(min=1.0)
    return focal.sum() / n + off


def deterministic(seed: int) -> Array:
    """Seed torch and return numpy's generator from the same seed, with torch's CPU
    kernels fixed: deterministic algorithms only and always the same number of threads
    (a reduction split over more threads adds in another order)."""
    import torch

    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(THREADS)
    cv2.setNumThreads(1)
    return np.random.default_rng(seed)


def train(
    data: list[Path], steps: int, out: Path, seed: int, init: Path | None, lr0: float
) -> None:
    """`steps` batches of 16 boards, the learning rate on a cosine from `lr0` to nearly 0
    over the steps: the same data, steps and seed give the same weights, bit for bit,
    however busy the machine is (torch 2.13 on the CPU, `THREADS` threads)."""
    import torch

    rng = deterministic(seed)
    images, per = load(data)
    print(f"{len(images)} boards, {sum(len(r) for r in per)} pieces")
    net = build()
    if init is not None:  # go on from an earlier run's weights
        net.load_state_dict(torch.load(init))
    opt = torch.optim.AdamW(net.parameters(), lr=lr0, weight_decay=1e-4)
    size = 16
    t0 = time.monotonic()
    for step in range(1, steps + 1):
        lr = lr0 * 0.5 * (1 + math.cos(math.pi * (step - 1) / steps))
        for g in opt.param_groups:
            g["lr"] = max(lr, 2e-5)
        idx = rng.integers(len(images), size=size)
        x, h, w, o, a = (torch.from_numpy(t) for t in batch(images, per, idx, rng))
        net.train()
        loss = loss_fn(net(x), h, w, o, a)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            elapsed = time.monotonic() - t0
            print(
                f"step {step}/{steps} {elapsed:.0f} s ({step / elapsed:.2f} steps/s)"
                f" lr {lr:.5f} loss {loss.item():.3f}",
                flush=True,
            )
        if step % 500 == 0:
            torch.save(net.state_dict(), out)
    torch.save(net.state_dict(), out)
    elapsed = time.monotonic() - t0
    print(
        f"{out}: {steps} steps of {size} boards in {elapsed / 60:.1f} min"
        f" ({steps / max(elapsed, 1e-9):.2f} steps/s), weights {digest(out)}"
    )


def digest(weights: Path) -> str:
    """The sha256 of the weights themselves (each tensor's name, shape, type and
    bytes in the state dict's order), not of the file torch writes around them."""
    import hashlib

    import torch

    h = hashlib.sha256()
    for name, t in torch.load(weights).items():
        t = t.contiguous()
        h.update(f"{name} {tuple(t.shape)} {t.dtype}\n".encode())
        h.update(t.numpy().tobytes())
    return h.hexdigest()


def export(weights: Path, out: Path) -> None:
    import torch

    net = build()
    net.load_state_dict(torch.load(weights))
    net.eval()
    x = torch.zeros(1, 3, N.IN_PX, N.IN_PX)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (x,), str(out), input_names=["top"], output_names=["maps"], dynamo=False)
    print(f"{out}: {out.stat().st_size} bytes")


def exact(coins: Any, rows: Array) -> bool:
    """Every class count exact, by the bench's rule (render.count_off)."""
    from vision.sim.render import count_off

    return not any(
        count_off(sum(c.colour == colour for c in coins), rows[rows[:, 0] == k, 4].tolist())
        for k, colour in enumerate(B.COLOURS)
    )


def check(weights: Path, data: list[Path], thresholds: list[float]) -> None:
    """Boards with every count exact on `data` (the tuning boards' seeds 1-200, say)
    at each threshold, read as the kiosk reads them (the eight views' vote). `weights`
    is a .pt state dict, or an exported .onnx run by cv2.dnn as the kiosk runs it (the
    shipped model, to compare with)."""
    t0 = time.monotonic()
    images, per = load(data)
    if weights.suffix == ".onnx":
        dnn = cv2.dnn.readNetFromONNX(str(weights))

        def run(blob: Array) -> Array:
            dnn.setInput(blob)
            return np.asarray(dnn.forward())

    else:
        import torch

        net = build()
        net.load_state_dict(torch.load(weights))
        net.eval()

        def run(blob: Array) -> Array:
            with torch.no_grad():
                return net(torch.from_numpy(blob)).numpy()

    outs = [run(N.prepare(img)) for img in images]
    for t in thresholds:
        ok = [exact(N.read(o, t), rows) for o, rows in zip(outs, per, strict=True)]
        print(f"threshold {t:.2f}: every count exact on {sum(ok)}/{len(ok)}")
    print(f"checked in {time.monotonic() - t0:.0f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data")
    d.add_argument("--first", type=int, default=10_000_000)
    d.add_argument("--count", type=int, default=500)
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--jobs", type=int, default=2)
    d.add_argument("--tournament", action="store_true", help="tournament boards, not home")
    t = sub.add_parser("train")
    t.add_argument("--data", type=Path, nargs="+", required=True)
    t.add_argument("--steps", type=int, default=1000, help="batches of 16 boards")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--init", type=Path, help="start from these weights")
    t.add_argument("--lr", type=float, default=2e-3, help="the first learning rate (cosine to 0)")
    e = sub.add_parser("export")
    e.add_argument("weights", type=Path)
    e.add_argument("out", type=Path)
    g = sub.add_parser("digest", help="the sha256 of a .pt file's weights")
    g.add_argument("weights", type=Path)
    c = sub.add_parser("check")
    c.add_argument("weights", type=Path)
    c.add_argument("--data", type=Path, nargs="+", required=True)
    c.add_argument("--thresholds", type=float, nargs="+", default=[0.3, 0.4, 0.5, 0.6])
    args = ap.parse_args()
    if args.cmd == "data":
        make_data(args.first, args.count, args.out, args.jobs, args.tournament)
    elif args.cmd == "train":
        train(args.data, args.steps, args.out, args.seed, args.init, args.lr)
    elif args.cmd == "digest":
        print(f"{digest(args.weights)}  {args.weights}")
    elif args.cmd == "check":
        check(args.weights, args.data, args.thresholds)
    else:
        export(args.weights, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
