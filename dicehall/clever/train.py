"""``dicehall train clever``: TD(λ) self-play of the learned afterstate value (recipe: docs/clever-training.md).

Training runs in batches. In batch ``b`` each of ``shards`` self-play streams plays ``sync`` episodes from the
same weights, its dice and exploration drawn from ``SeedSequence([seed, b, shard])``. With the default method
(``adam``) the streams only play and record their afterstates with their λ-returns; the main process then fits
the network to them in shuffled minibatches with Adam (order from ``SeedSequence([seed, b, 0, 1])``). The older
``sgd`` method (online TD(λ) with eligibility traces in each stream, the weight changes added up) is kept for
the runs made with it. The result depends on the seed and the settings, never on the number of worker
processes. Evaluation games use the seeds ``[EVAL_ROOT, j]`` (two words; training seeds have
three), so they are never played in training.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.clever import sheet as S
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.features import COUNT
from dicehall.core.cluster import make_executor
from dicehall.core.stats import wilson_interval
from dicehall.i18n.message import Message

EVAL_ROOT = 20_261_123
CHECKPOINT = "checkpoint.npz"
BEST = "best.npz"  # the weights of the best evaluation so far (export format)
SNAPSHOTS = "snapshots"  # the weights at every evaluation (export format), to average late ones
WEIGHT_NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
METHODS = ("adam", "sgd")
OBJECTIVES = ("score", "margin")
ROWS_PER_SEAT = 100  # room for each seat's recorded afterstates (a solo game has about 40)
TABLE_SEATS = (2, 3, 4)


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    episodes: int = 300_000
    seed: int = 1
    hidden: tuple[int, int] = (64, 64)
    lam: float = 0.8
    lr_start: float = 3e-4
    lr_end: float = 5e-5
    eps_start: float = 0.1
    eps_end: float = 0.01
    shards: int = 2
    sync: int = 64
    eval_every: int = 10_000
    eval_games: int = 500
    method: str = "adam"  # "adam": forward-view λ-returns fitted with Adam; "sgd": online traces (older runs)
    batch: int = 32  # Adam minibatch (rows)
    seats: tuple[int, ...] = (1,)  # the table sizes of the self-play games, in turn
    objective: str = "margin"  # "margin": own total minus the best opponent's (solo: the score); "score"
    table_games: int = 0  # per evaluation and table size 2-4: games against the shipped network

    def __post_init__(self) -> None:
        checks = (
            (self.episodes > 0, "episodes"),
            (self.shards > 0 and self.sync > 0, "shards"),
            (min(self.hidden) > 0 and len(self.hidden) == 2, "hidden"),
            (0.0 <= self.lam <= 1.0, "lambda"),
            (0.0 <= min(self.eps_start, self.eps_end) <= max(self.eps_start, self.eps_end) <= 1.0, "epsilon"),
            (min(self.lr_start, self.lr_end) > 0.0, "lr"),
            (self.eval_every > 0 and self.eval_games > 0, "eval"),
            (self.method in METHODS, "method"),
            (self.batch > 0, "batch"),
            (len(self.seats) > 0 and all(1 <= n <= 4 for n in self.seats), "seats"),
            (self.objective in OBJECTIVES and self.table_games >= 0, "objective"),
            (self.method == "adam" or self.seats == (1,), "seats_sgd"),
        )
        for ok, key in checks:
            if not ok:
                problem = Message(f"clever.train.setting.{key}", choices=", ".join(METHODS + OBJECTIVES))
                raise ValueError(Message("clever.train.setting", problem=problem))

    @property
    def batch_episodes(self) -> int:
        return self.shards * self.sync

    def schedule(self, done: int) -> tuple[float, float]:
        """(learning rate, ε) after ``done`` episodes: linear from the start to the end values."""
        frac = min(1.0, done / self.episodes)
        return (
            self.lr_start + (self.lr_end - self.lr_start) * frac,
            self.eps_start + (self.eps_end - self.eps_start) * frac,
        )

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["hidden"] = list(self.hidden)
        out["seats"] = list(self.seats)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainConfig:
        data = dict(data)
        data["hidden"] = tuple(data["hidden"])
        data.setdefault("method", "sgd")  # runs from before the Adam trainer
        data["seats"] = tuple(data.get("seats", (1,)))
        data.setdefault("objective", "score")  # runs from before multi-seat training (solo: the same)
        return cls(**data)


@dataclasses.dataclass
class Run:
    """Everything a checkpoint holds."""

    config: TrainConfig
    weights: list[np.ndarray]
    batches: int = 0
    episodes: int = 0
    seconds: float = 0.0
    history: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # evaluations
    train_means: list[tuple[int, float]] = dataclasses.field(
        default_factory=list
    )  # (episodes, mean) per batch
    moments: np.ndarray | None = None  # Adam's first and second moments, flat (method "adam")
    adam_steps: int = 0

    def save(self, directory: Path) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        meta = {
            "config": self.config.to_json(),
            "batches": self.batches,
            "episodes": self.episodes,
            "seconds": self.seconds,
            "history": self.history,
            "train_means": self.train_means,
            "features": COUNT,
            "adam_steps": self.adam_steps,
        }
        path = directory / CHECKPOINT
        tmp = directory / (CHECKPOINT + ".tmp.npz")
        arrays: dict[str, Any] = dict(zip(WEIGHT_NAMES, self.weights, strict=True))
        if self.moments is not None:
            arrays["moments"] = self.moments
        np.savez(tmp, meta=np.array(json.dumps(meta)), **arrays)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, directory: Path) -> Run:
        path = directory / CHECKPOINT if directory.is_dir() else directory
        if not path.is_file():
            raise ValueError(Message("clever.train.no_checkpoint", path=str(path), file=CHECKPOINT))
        try:
            with np.load(path) as data:
                meta = json.loads(str(data["meta"]))
                weights = [np.array(data[k], np.float64) for k in WEIGHT_NAMES]
                moments = np.array(data["moments"], np.float64) if "moments" in data else None
        except (
            OSError,
            ValueError,
            KeyError,
            zipfile.BadZipFile,
        ) as exc:  # not a checkpoint, or a damaged one
            said = exc.strerror if isinstance(exc, OSError) and exc.strerror else None  # the OS's own words
            reason = said or Message("clever.train.not_a_run")
            raise ValueError(Message("clever.train.bad_checkpoint", path=str(path), reason=reason)) from None
        if meta.get("features") != COUNT:
            if not isinstance(meta.get("features"), int) or meta["features"] > COUNT:
                made = str(meta.get("features"))
                raise ValueError(Message("clever.train.features", path=str(path), made=made, count=COUNT))
            weights = net.widen(weights)  # older runs: zero rows for the new features, Adam starts afresh
            moments = None
            meta["adam_steps"] = 0
        return cls(
            TrainConfig.from_json(meta["config"]),
            weights,
            meta["batches"],
            meta["episodes"],
            meta["seconds"],
            meta["history"],
            [(int(a), float(b)) for a, b in meta["train_means"]],
            moments,
            int(meta.get("adam_steps", 0)),
        )


# The best opponent's points still to come at k = 0, 1, ... rounds left (the afterstate's clock), per table size,
# when the shipped solo network plays every seat (150 games each, seeds [777, n, j]; docs/clever-training.md):
# where a warm start for the lead objective puts its table values (net.table_offsets).
OPPONENTS_TO_COME = {
    2: [0.0, 65.2, 129.8, 154.8, 174.9, 187.4, 195.2],
    3: [0.0, 67.1, 159.1, 193.4, 211.6, 223.8],
    4: [0.0, 66.7, 132.8, 155.7, 171.0],
}


def new_run(config: TrainConfig, init: list[np.ndarray] | None = None) -> Run:
    """A fresh run: He-initialised weights, or ``init`` (a warm start from trained weights), grown to the run's
    hidden sizes if it is smaller."""
    if init is None:
        rng = np.random.default_rng(np.random.SeedSequence([config.seed]))
        weights = net.init_weights(rng, *config.hidden)
    else:
        if net.members(init) != 1:
            raise ValueError(Message("clever.train.init_ensemble", members=net.members(init)))
        init = net.widen(init)
        if init[1].shape[0] > config.hidden[0] or init[3].shape[0] > config.hidden[1]:
            start = f"{init[0].shape[0]}→{init[1].shape[0]}→{init[3].shape[0]}"
            ours = f"{COUNT}→{config.hidden[0]}→{config.hidden[1]}"
            raise ValueError(Message("clever.train.init_too_large", init=start, run=ours))
        rng = np.random.default_rng(np.random.SeedSequence([config.seed]))
        weights = net.grow(init, *config.hidden, rng)  # a wider run starts from the same function
        tables = [n for n in config.seats if n > 1]
        if tables and config.objective == "margin":
            weights = net.table_offsets(weights, {n: OPPONENTS_TO_COME[n] for n in sorted(set(tables))})
            config = dataclasses.replace(config, hidden=(weights[1].size, weights[3].size))
    return Run(config, weights)


def record_shard(
    weights: list[np.ndarray],
    seed: int,
    batch: int,
    shard: int,
    episodes: int,
    lam: float,
    eps: float,
    seats: tuple[int, ...] = (1,),
    margin: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One shard's episodes of a batch (method "adam"): the recorded afterstates, their targets, seat 0's scores.
    The episodes are shared out over the table sizes ``seats`` (the first ones get any remainder)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, batch, shard]))
    w1, b1, w2, b2, w3, b3 = weights
    parts = []
    for i, n in enumerate(seats):
        games = episodes // len(seats) + (i < episodes % len(seats))
        if games == 0:
            continue
        xs = np.empty((games * n * ROWS_PER_SEAT, COUNT))
        ys = np.empty(xs.shape[0])
        scores = np.zeros(games)
        rounds = S.ROUNDS_BY_PLAYERS[n]
        rows = net.play_record(
            games, n, rounds, rng, w1, b1, w2, b2, w3, b3, lam, eps, xs, ys, scores, margin
        )
        if rows >= xs.shape[0]:
            raise RuntimeError("more afterstates than the recording buffer holds")  # never seen: ~40 a seat
        parts.append((xs[:rows], ys[:rows], scores))
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
    )


def adam_batch(run: Run, lr: float, eps: float, pool: Executor | None) -> list[np.ndarray]:
    cfg = run.config
    margin = cfg.objective == "margin"
    args = [
        (run.weights, cfg.seed, run.batches, s, cfg.sync, cfg.lam, eps, cfg.seats, margin)
        for s in range(cfg.shards)
    ]
    if pool is None:
        results = [record_shard(*a) for a in args]
    else:
        results = list(pool.map(record_shard, *zip(*args, strict=True)))
    xs = np.concatenate([r[0] for r in results])
    ys = np.concatenate([r[1] for r in results])
    order = np.random.default_rng(np.random.SeedSequence([cfg.seed, run.batches, 0, 1])).permutation(len(ys))
    if run.moments is None:
        run.moments = np.zeros(2 * sum(w.size for w in run.weights))
    w1, b1, w2, b2, w3, b3 = run.weights
    run.adam_steps, _ = net.adam_pass(
        xs, ys, order, cfg.batch, lr, run.adam_steps, (w1, b1, w2, b2, w3, b3), run.moments
    )
    return [r[2] for r in results]


def sgd_batch(run: Run, lr: float, eps: float, pool: Executor | None) -> list[np.ndarray]:
    cfg = run.config
    args = [(run.weights, cfg.seed, run.batches, s, cfg.sync, lr, cfg.lam, eps) for s in range(cfg.shards)]
    if pool is None:
        results = [play_shard(*a) for a in args]
    else:
        results = list(pool.map(play_shard, *zip(*args, strict=True)))
    for delta, _ in results:
        for w, d in zip(run.weights, delta, strict=True):
            w += d
    return [r[1] for r in results]


def play_shard(
    weights: list[np.ndarray],
    seed: int,
    batch: int,
    shard: int,
    episodes: int,
    lr: float,
    lam: float,
    eps: float,
) -> tuple[list[np.ndarray], np.ndarray]:
    """One shard's episodes of a batch: the weight change it learned and its (ε-greedy) scores."""
    local = [w.copy() for w in weights]
    rng = np.random.default_rng(np.random.SeedSequence([seed, batch, shard]))
    scores = np.zeros(episodes)
    w1, b1, w2, b2, w3, b3 = local
    net.td_episodes(episodes, 1, S.ROUNDS_BY_PLAYERS[1], rng, w1, b1, w2, b2, w3, b3, lr, lam, eps, scores)
    return [a - b for a, b in zip(local, weights, strict=True)], scores


def evaluate(weights: list[np.ndarray], games: int, root: int = EVAL_ROOT) -> np.ndarray:
    """Solo scores of the greedy policy on the fixed evaluation seeds ``[root, j]``."""
    scores = np.zeros(games)
    for j in range(games):
        g = K.new_game(1, S.ROUNDS_BY_PLAYERS[1], True, True)
        net.play_greedy(g, np.random.default_rng(np.random.SeedSequence([root, j])), *weights)
        scores[j] = K.total(g, 0)
    return scores


def table_games(
    weights: list[np.ndarray], reference: list[np.ndarray], players: int, games: int, root: int = EVAL_ROOT
) -> dict[str, float]:
    """``weights`` in one seat against ``reference`` in the others, plain argmax, the seat rotating game by game
    (seeds ``[root, players, j, 0, 0]``: five words, so no training or solo evaluation game): the win share
    (ties by the highest area, then shared, as the engine's), with its Wilson 95 % interval, and the mean lead
    over the best opponent."""
    wins = 0.0
    leads = np.zeros(games)
    seat_net = np.ones(players, np.int64)
    for j in range(games):
        g = K.new_game(players, S.ROUNDS_BY_PLAYERS[players], True, True)
        seat = j % players
        seat_net[:] = 1
        seat_net[seat] = 0
        rng = np.random.default_rng(np.random.SeedSequence([root, players, j, 0, 0]))
        net.play_table(g, rng, seat_net, *weights, *reference)
        wins += winner_share(g, seat)
        leads[j] = net.lead(g, seat)
    lo, hi = wilson_interval(wins, games)
    return {"win": wins / games, "win_lo": lo, "win_hi": hi, "lead": float(leads.mean())}


def winner_share(g: np.ndarray, seat: int) -> float:
    """``seat``'s share of the win of the finished kernel game ``g``: highest total, then highest area, then
    shared (``CleverState.winner_seats``)."""
    keys = [(K.total(g, q), max(K.area_score(g, q, a) for a in range(5))) for q in range(int(g[0]))]
    best = max(keys)
    return 1.0 / keys.count(best) if keys[seat] == best else 0.0


Progress = Callable[[Run, int], None]


def train(
    run: Run,
    directory: Path,
    jobs: int = 2,
    progress: Progress | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> Run:
    """Continue ``run`` until its episodes are done; checkpoint (and evaluate) every ``eval_every`` episodes.
    The self-play shards run on ``backend`` (``processes`` or ``ray``, at ``address``; see docs/cluster.md): each
    shard's dice come from its own seed, so the network is the same on either."""
    cfg = run.config
    best = best_score(directory / BEST)
    pool = make_executor(backend, min(jobs, cfg.shards), address)
    try:
        if not run.history:  # the starting point (a warm start's strength anchors the best-so-far)
            _evaluate_into(run, directory, best)
            best = max(best, run.history[-1]["mean"])
        while run.episodes < cfg.episodes:
            start = time.perf_counter()
            lr, eps = cfg.schedule(run.episodes)
            batch = adam_batch if cfg.method == "adam" else sgd_batch
            scores = batch(run, lr, eps, pool)
            run.batches += 1
            run.episodes += cfg.batch_episodes
            run.train_means.append((run.episodes, float(np.mean([s.mean() for s in scores]))))
            run.seconds += time.perf_counter() - start
            due = run.episodes // cfg.eval_every > (run.episodes - cfg.batch_episodes) // cfg.eval_every
            if (due or run.episodes >= cfg.episodes) and _evaluate_into(run, directory, best):
                best = run.history[-1]["mean"]
            if progress is not None:
                progress(run, cfg.batch_episodes)
    finally:
        if pool is not None:
            pool.shutdown()
    return run


def _evaluate_into(run: Run, directory: Path, best: float) -> bool:
    """Evaluate, checkpoint and redraw the curve; True (and ``best.npz`` written) when it is the best so far."""
    scores = evaluate(run.weights, run.config.eval_games)
    entry: dict[str, Any] = {
        "episodes": run.episodes,
        "mean": float(scores.mean()),
        "sd": float(scores.std(ddof=1)),
        "seconds": run.seconds,
    }
    if run.config.table_games:
        from dicehall.clever.master import load_weights

        shipped = load_weights()[0]
        entry["table"] = {
            str(n): table_games(run.weights, shipped, n, run.config.table_games) for n in TABLE_SEATS
        }
    run.history.append(entry)
    improved = bool(run.history[-1]["mean"] >= best)  # self-play value nets can get worse again
    if improved:
        export_weights(run, directory / BEST)
    export_weights(run, directory / SNAPSHOTS / f"{run.episodes:08d}.npz")  # for weight averaging
    run.save(directory)
    plot_curve(run, directory / "curve.png")
    return improved


def best_score(path: Path) -> float:
    """The evaluation mean stored with the weights at ``path`` (-inf when there are none)."""
    if not path.is_file():
        return -np.inf
    with np.load(path) as data:
        return float(json.loads(str(data["info"])).get("eval", {}).get("mean", -np.inf))


def plot_curve(run: Run, path: Path) -> None:
    """The learning curve: evaluation mean (± 2 standard errors) and the ε-greedy training mean."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    if run.train_means:
        x, y = np.array(run.train_means).T
        k = max(1, len(y) // 100)
        smooth = np.convolve(y, np.ones(k) / k, mode="valid")
        ax.plot(x[k - 1 :], smooth, color="0.6", lw=1, label="training games (ε-greedy)")
    if run.history:
        ex = np.array([h["episodes"] for h in run.history])
        em = np.array([h["mean"] for h in run.history])
        se = np.array([h["sd"] for h in run.history]) / np.sqrt(run.config.eval_games)
        ax.plot(
            ex, em, color="tab:blue", marker=".", label=f"evaluation ({run.config.eval_games} held-out games)"
        )
        ax.fill_between(ex, em - 2 * se, em + 2 * se, color="tab:blue", alpha=0.2)
    ax.set_xlabel("episodes")
    ax.set_ylabel("solo score")
    ax.set_title(f"Clever TD(λ) self-play, seed {run.config.seed}")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def export_weights(run: Run, path: Path) -> Path:
    """The weights alone (float32, numpy ``.npz``), for shipping with ``bot:master``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    last = run.history[-1] if run.history else {}
    info = {"episodes": run.episodes, "config": run.config.to_json(), "eval": last, "features": COUNT}
    arrays: dict[str, Any] = {k: w.astype(np.float32) for k, w in zip(WEIGHT_NAMES, run.weights, strict=True)}
    np.savez_compressed(path, info=np.array(json.dumps(info)), **arrays)
    return path
