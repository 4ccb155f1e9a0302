"""Solving Zombie Kidz: the team's exact chance of winning under best play.

docs/zombie-kidz.md, "Solving the game".  The die is fair and the players choose
their steps, so every position has a value: the probability that the team wins
when every player always takes the turn that maximises it.  Before the roll a
position is a chance node (each face 1/6); after it, the mover picks the best of
the turns the roll allows.  Positions repeat (a white roll and a pawn that stays
change nothing), so the values are found by value iteration over every position
reachable from the start, until no value moves by more than the tolerance.

A state is one int (:func:`state_key`): 4 bits of zombies per zone (bits 0-35,
zone ``z`` at ``4 * z``), the locked gates (bits 36-39, in the order a1 c1 a3 c3),
then 4 bits per pawn from bit 40, **the mover's first** and the others in turn
order.  Who the players are does not matter to the team, only the order they move
in, so the key forgets the turn number.  The board looks the same turned or
mirrored, and the die gives every tomb the same chance, so a position and its
seven images under the symmetries of the square have one value: the key of a
position is the least of its eight keys.

Two solvers share that encoding: :func:`solve_python`, plain Python, for the
positions reachable from a given one when they are few, and :func:`solve_numpy`,
which needs numpy (optional) and solves a whole variant.  Their answer is a
:class:`Table`: the sorted keys and their values, which :func:`table_for` finds
shipped in the package (the 2-player game) or in the user's cache directory.
``python -m notation.games.zombie_kidz.solve PLAYERS ZOMBIES`` solves a variant
into the cache.  Nothing here is loaded by ``check``.
"""

from __future__ import annotations

import contextlib
import lzma
import struct
import sys
import time
import warnings
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from notation.errors import LongWorkNotice
from notation.files.savefile import replace_file
from notation.games.grammar import cache_dir
from notation.games.zombie_kidz.board import (
    CENTRE,
    DEADLY,
    DICE,
    DIE_TOMB,
    GATE_NAMES,
    GATES,
    NEIGHBOURS_MANY,
    NEIGHBOURS_TWO,
    PLAYER_COUNTS,
    STEPS_MANY,
    STEPS_TWO,
    ZOMBIE_COUNTS,
    ZONE_INDEX,
    ZONE_NAMES,
)

if TYPE_CHECKING:
    from notation.games.zombie_kidz.rules import ZombieKidzRules

__all__ = [
    "DEFAULT_TOLERANCE",
    "LOSS",
    "SYMMETRIES",
    "VARIANTS",
    "WIN",
    "Table",
    "Variant",
    "cache_dir",
    "canonical_key",
    "decode_key",
    "make_key",
    "position_of",
    "reachable",
    "roll_results",
    "shipped_path",
    "solve",
    "solve_numpy",
    "solve_python",
    "start_key",
    "state_key",
    "table_for",
]

# -- the encoding --------------------------------------------------------------

_ZONES: Final = len(ZONE_NAMES)
_COUNT_BITS: Final = 4
_COUNT_MASK: Final = (1 << _COUNT_BITS) - 1
_LOCK_SHIFT: Final = _COUNT_BITS * _ZONES
_PAWN_SHIFT: Final = _LOCK_SHIFT + len(GATE_NAMES)
#: The gates in the order of their lock bits in a key (a1 c1 a3 c3), and back.
_GATE_ZONES: Final[tuple[int, ...]] = tuple(ZONE_INDEX[g] for g in GATE_NAMES)
_LOCK_SLOT: Final[tuple[int, ...]] = tuple(
    _GATE_ZONES.index(z) if z in GATES else -1 for z in range(_ZONES)
)
_ALL_SLOTS: Final = (1 << len(GATE_NAMES)) - 1
#: The tombs the coloured faces fill, and -1 for white, in the die's order (R Y G K B W).
_FACE_TOMBS: Final[tuple[int, ...]] = tuple(DIE_TOMB[d] for d in DICE)

#: A result of a turn that ends the game: the team wins, or the zombies win.
WIN: Final = -1
LOSS: Final = -2

#: The solvers stop when one sweep changes no value by more than this.
DEFAULT_TOLERANCE: Final = 1e-10
# Sweeps that follow the best turns found, between two sweeps that look for them.
_POLICY_SWEEPS: Final = 10


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the 3x3 board as zone permutations: ``perm[z]`` is the
    image of zone ``z``.  The identity comes first."""
    perms: list[tuple[int, ...]] = []
    # (x, y) -> (a x + b y, c x + d y) about the centre: 4 turns, 4 mirrors.
    for a, b, c, d in (
        (1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
        (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0),
    ):  # fmt: skip
        perm = []
        for z in range(_ZONES):
            x, y = z % 3 - 1, z // 3 - 1
            perm.append(a * x + b * y + 1 + 3 * (c * x + d * y + 1))
        perms.append(tuple(perm))
    tombs = {t for t in _FACE_TOMBS if t >= 0}
    for image in perms:
        # The values are the same only if each symmetry keeps the paths of both sides
        # and the set of tombs the die can fill (each with its 1/6).
        for table in (NEIGHBOURS_TWO, NEIGHBOURS_MANY):
            assert all({image[n] for n in table[z]} == table[image[z]] for z in range(_ZONES))
        assert {image[t] for t in tombs} == tombs
    return tuple(perms)


#: The symmetries of the board (turns and mirrors) as zone permutations, identity first.
SYMMETRIES: Final[tuple[tuple[int, ...], ...]] = _symmetries()
# The same for lock slots: _SLOT_PERMS[s][slot] is the image slot.
_SLOT_PERMS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_LOCK_SLOT[perm[z]] for z in _GATE_ZONES) for perm in SYMMETRIES
)
# The image of every 4-bit lock field under each symmetry.
_LOCK_IMAGES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(1 << slots[i] for i in range(len(GATE_NAMES)) if field >> i & 1)
        for field in range(_ALL_SLOTS + 1)
    )
    for slots in _SLOT_PERMS
)


class Variant(NamedTuple):
    """One setup of the game: how many players, how many zombies in all."""

    players: int
    zombies: int

    @property
    def name(self) -> str:
        """``"2p8z"``: for file names and figures."""
        return f"{self.players}p{self.zombies}z"

    def describe(self) -> str:
        """In words, as ``Game.variant`` says it: ``"2 players, 8 zombies"``."""
        return f"{self.players} players, {self.zombies} zombies"


#: Every setup the rules allow, the 2-player game first.
VARIANTS: Final[tuple[Variant, ...]] = tuple(
    Variant(p, z)
    for p in sorted(PLAYER_COUNTS.values())
    for z in sorted(ZOMBIE_COUNTS.values(), reverse=True)
)


def make_key(zombies: Sequence[int], pawns: Sequence[int], locks: int) -> int:
    """The key (not yet canonical) of zombies per zone, pawns from the mover on, and
    locks as a 4-bit field (bit ``i`` for gate ``GATE_NAMES[i]``)."""
    key = 0
    for zone, count in enumerate(zombies):
        key |= count << (_COUNT_BITS * zone)
    key |= locks << _LOCK_SHIFT
    for i, zone in enumerate(pawns):
        key |= zone << (_PAWN_SHIFT + _COUNT_BITS * i)
    return key


def decode_key(key: int, players: int) -> tuple[list[int], list[int], int]:
    """Zombies per zone, pawns from the mover on, and the 4-bit lock field of ``key``."""
    zombies = [key >> (_COUNT_BITS * z) & _COUNT_MASK for z in range(_ZONES)]
    pawns = [key >> (_PAWN_SHIFT + _COUNT_BITS * i) & _COUNT_MASK for i in range(players)]
    return zombies, pawns, key >> _LOCK_SHIFT & _ALL_SLOTS


def canonical_key(key: int, players: int) -> int:
    """The least of the keys of the eight images of ``key`` under :data:`SYMMETRIES`:
    one key per class of positions that have the same value."""
    zombies, pawns, locks = decode_key(key, players)
    best = key
    for perm, lock_image in zip(SYMMETRIES[1:], _LOCK_IMAGES[1:], strict=True):
        image = lock_image[locks] << _LOCK_SHIFT
        for zone, count in enumerate(zombies):
            image |= count << (_COUNT_BITS * perm[zone])
        for i, zone in enumerate(pawns):
            image |= perm[zone] << (_PAWN_SHIFT + _COUNT_BITS * i)
        if image < best:
            best = image
    return best


def state_key(position: ZombieKidzRules) -> int:
    """The canonical key of a position whose game goes on (the mover's pawn first)."""
    players = position.players
    mover = position.turn % players
    zombies = [position.zombies_on(z) for z in range(_ZONES)]
    pawns = [ZONE_INDEX[position.pawn_zone((mover + i) % players + 1)] for i in range(players)]
    locks = sum(1 << i for i, gate in enumerate(GATE_NAMES) if position.is_locked(gate))
    return canonical_key(make_key(zombies, pawns, locks), players)


def position_of(key: int, variant: Variant) -> ZombieKidzRules:
    """A position whose state is ``key``, player 1 to move (turn ``10 * players``: every
    pawn has had turns, so the position string of it reads back)."""
    from notation.games.zombie_kidz.position import ZombieKidzPosition

    zombies, pawns, locks = decode_key(key, variant.players)
    position = ZombieKidzPosition(variant.players, variant.zombies)
    locked = sum(1 << zone for i, zone in enumerate(_GATE_ZONES) if locks >> i & 1)
    position._load(zombies, pawns, locked, 10 * variant.players, None)
    return position


def start_key(variant: Variant) -> int:
    """The key of the start of ``variant``: a zombie on each gate, every pawn on b2."""
    zombies = [1 if z in GATES else 0 for z in range(_ZONES)]
    return canonical_key(make_key(zombies, [CENTRE] * variant.players, 0), variant.players)


# -- the rules on keys -----------------------------------------------------------


def roll_results(key: int, variant: Variant) -> list[list[tuple[int, int]] | None]:
    """What each face of the die (in the order R Y G K B W) allows from the state
    ``key``: ``None`` if the roll loses the game, else the turns it allows as
    ``(zone the pawn ends on, result)``, staying first, where the result is
    :data:`WIN` or the canonical key of the state after the turn.

    docs/zombie-kidz.md, "A turn", on the key: the same rules as
    :meth:`ZombieKidzRules.push` (tests/test_zombie_kidz_solve.py compares them).
    """
    players, total = variant
    steps = STEPS_TWO if players == 2 else STEPS_MANY
    zombies, pawns, locks = decode_key(key, players)
    on_board = sum(zombies)
    origin = pawns[0]
    others = pawns[1:]
    # The other pawns move up one place: the next mover is first in the next key.
    rest = sum(zone << (_COUNT_BITS * i) for i, zone in enumerate(others))
    results: list[list[tuple[int, int]] | None] = []
    for tomb in _FACE_TOMBS:
        placed = key
        if tomb >= 0:
            # 1. Roll: a zombie from the reserve; none left, or a pawn among 3, loses.
            if on_board == total or (zombies[tomb] + 1 >= DEADLY and tomb in pawns):
                results.append(None)
                continue
            placed += 1 << (_COUNT_BITS * tomb)
        turns: list[tuple[int, int]] = []
        for target in (origin, *steps[origin]):
            # 2. Step: a zone with 3 zombies or more is closed.
            cleared = zombies[target] + (target == tomb)
            if cleared >= DEADLY:
                continue
            # 3. Clear, 4. Lock: by themselves.
            after = placed - (cleared << (_COUNT_BITS * target))
            slot = _LOCK_SLOT[target]
            new_locks = locks
            if slot >= 0 and not locks >> slot & 1 and target in others:
                new_locks |= 1 << slot
            left = on_board + (tomb >= 0) - cleared
            if (cleared and not left) or new_locks == _ALL_SLOTS:
                turns.append((target, WIN))
                continue
            after = after & ((1 << _LOCK_SHIFT) - 1) | new_locks << _LOCK_SHIFT
            after |= (rest | target << (_COUNT_BITS * (players - 1))) << _PAWN_SHIFT
            turns.append((target, canonical_key(after, players)))
        results.append(turns)
    return results


def reachable(root: int, variant: Variant, limit: int | None = None) -> list[int]:
    """The canonical keys of the states reachable from ``root`` (itself included), in
    the order they were found; ``ValueError`` past ``limit`` states."""
    seen = {root}
    order = [root]
    for key in order:
        for turns in roll_results(key, variant):
            for _, result in turns or ():
                if result >= 0 and result not in seen:
                    seen.add(result)
                    order.append(result)
        if limit is not None and len(order) > limit:
            raise ValueError(f"more than {limit:,} states are reachable from this one")
    return order


# -- tables ------------------------------------------------------------------------

_MAGIC: Final = b"ZKSOLVE1"
# magic, players, zombies, states, tolerance, seconds, then the compressed body.
_HEADER: Final = struct.Struct("<8sBBQdd")
# Values are stored as fractions of 2**32 - 1: a step of 2.3e-10, finer than the
# tolerance, in half the bytes of a double.
_SCALE: Final = (1 << 32) - 1


class Table:
    """The value of every state of one variant (or of those reachable from one
    state): keys sorted ascending, and each one's probability that the team wins.

    ``tolerance`` is the one the solve stopped at; ``seconds`` what it took.
    """

    __slots__ = ("keys", "seconds", "tolerance", "values", "variant")

    def __init__(
        self,
        variant: Variant,
        keys: Sequence[int],  # array("Q"): Sequence, so that pdoc can read the signature
        values: Sequence[float],  # array("d")
        tolerance: float,
        seconds: float = 0.0,
    ) -> None:
        if len(keys) != len(values):
            raise ValueError("a table needs one value per key")
        self.variant = variant
        self.keys = keys if isinstance(keys, array) else array("Q", keys)
        self.values = values if isinstance(values, array) else array("d", values)
        self.tolerance = tolerance
        self.seconds = seconds

    def __len__(self) -> int:
        """How many states the table holds."""
        return len(self.keys)

    def value(self, key: int) -> float | None:
        """The value of the canonical ``key``, or ``None`` if the table does not hold it."""
        keys = self.keys
        i = bisect_left(keys, key)
        if i < len(keys) and keys[i] == key:
            return self.values[i]
        return None

    def to_bytes(self) -> bytes:
        """The table as a compact file: a header, then (xz-compressed) the gaps between
        sorted keys and the values as 32-bit fractions."""
        gaps = array("Q", (b - a for a, b in zip((0, *self.keys), self.keys, strict=False)))
        scaled = array("I", (round(v * _SCALE) for v in self.values))
        if sys.byteorder != "little":  # pragma: no cover - the file is little-endian
            gaps.byteswap()
            scaled.byteswap()
        body = lzma.compress(gaps.tobytes() + scaled.tobytes(), preset=9 | lzma.PRESET_EXTREME)
        header = _HEADER.pack(
            _MAGIC, self.variant.players, self.variant.zombies, len(self.keys),
            self.tolerance, self.seconds,
        )
        return header + body

    @classmethod
    def from_bytes(cls, data: bytes) -> Table:
        """The table :meth:`to_bytes` wrote; ``ValueError`` for anything else."""
        try:
            magic, players, zombies, count, tolerance, seconds = _HEADER.unpack_from(data)
            if magic != _MAGIC:
                raise ValueError("not a Zombie Kidz table")
            body = lzma.decompress(data[_HEADER.size :])
        except (struct.error, lzma.LZMAError) as exc:
            raise ValueError(f"not a Zombie Kidz table: {exc}") from None
        if len(body) != 12 * count:
            raise ValueError("a Zombie Kidz table of the wrong length")
        gaps = array("Q")
        gaps.frombytes(body[: 8 * count])
        scaled = array("I")
        scaled.frombytes(body[8 * count :])
        if sys.byteorder != "little":  # pragma: no cover
            gaps.byteswap()
            scaled.byteswap()
        keys = array("Q", accumulate(gaps))
        values = array("d", (v / _SCALE for v in scaled))
        return cls(Variant(players, zombies), keys, values, tolerance, seconds)

    def save(self, path: Path) -> None:
        """Write the table to ``path`` (through a temporary file, so that a reader never
        sees half of one)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, self.to_bytes())

    @classmethod
    def load(cls, path: Path) -> Table:
        """The table in the file ``path``."""
        return cls.from_bytes(path.read_bytes())


def shipped_path(variant: Variant) -> Path:
    """Where the package keeps the table of ``variant`` if it ships one."""
    return Path(__file__).with_name("tables") / f"{variant.name}.zks"


def _cache_path(variant: Variant) -> Path:
    return cache_dir() / f"zombie-kidz-{variant.name}.zks"


_LOADED: dict[Variant, Table | None] = {}


def table_for(variant: Variant, *, compute: bool = False) -> Table | None:
    """The solved table of ``variant``: shipped with the package, else in the cache
    directory; with ``compute``, solved now (numpy needed) and cached when neither has
    it.  ``None`` when there is none.  Loaded once per process."""
    if variant in _LOADED and (_LOADED[variant] is not None or not compute):
        return _LOADED[variant]
    table: Table | None = None
    for path in (shipped_path(variant), _cache_path(variant)):
        if path.is_file():
            try:
                table = Table.load(path)
            except (OSError, ValueError):
                continue  # a damaged cache file is solved again, not trusted
            if table.variant == variant:
                break
            table = None
    if table is None and compute:
        _np()  # without numpy, the ImportError comes before any notice
        warnings.warn(
            LongWorkNotice(
                f"solving Zombie Kidz with {variant.describe()} once: a minute or two; "
                f"the table is then kept in {_cache_path(variant)}"
            ),
            stacklevel=2,
        )
        table = solve_numpy(variant)
        # An unwritable cache costs a solve next time, nothing more.
        with contextlib.suppress(OSError):
            table.save(_cache_path(variant))
    _LOADED[variant] = table
    return table


# -- solving in plain Python (few states) ---------------------------------------------


def solve_python(
    variant: Variant,
    root: int | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    limit: int | None = 200_000,
) -> Table:
    """Solve the states reachable from ``root`` (the start by default) in plain Python,
    as :func:`solve_numpy` does (value iteration from 0, a sweep for the best turns,
    then sweeps following them), until a sweep changes no value by more than
    ``tolerance``.  Slow past some 10,000 states (``limit``; ``ValueError`` beyond)."""
    began = time.perf_counter()
    if root is None:
        root = start_key(variant)
    order = reachable(root, variant, limit)
    index = {key: i for i, key in enumerate(order)}
    won = len(order)  # the index of a slot that holds 1
    # Per state, per face that does not lose: the successors' indices.
    graph = [
        [[won if r == WIN else index[r] for _, r in turns] for turns in faces if turns]
        for faces in map(lambda k: roll_results(k, variant), order)
    ]
    values = [0.0] * len(order) + [1.0]
    policy: list[list[int]] = [[] for _ in order]
    # States found last are nearest the end of the game: sweeping them first carries
    # the wins back towards the root in fewer sweeps.
    sweep = range(len(order) - 1, -1, -1)
    sixth = 1 / len(DICE)
    while True:
        change = 0.0
        for i in sweep:
            chosen = [max(options, key=values.__getitem__) for options in graph[i]]
            policy[i] = chosen
            new = sum(values[j] for j in chosen) * sixth
            change = max(change, new - values[i])
            values[i] = new
        if change <= tolerance:
            break
        for _ in range(_POLICY_SWEEPS):
            for i in sweep:
                values[i] = sum(values[j] for j in policy[i]) * sixth
    ranked = sorted(range(len(order)), key=order.__getitem__)
    return Table(
        variant,
        array("Q", (order[i] for i in ranked)),
        array("d", (values[i] for i in ranked)),
        tolerance,
        time.perf_counter() - began,
    )


# -- solving with numpy (a whole variant) ---------------------------------------------


def _np() -> Any:
    """numpy, or an ImportError that says how to get it."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - depends on the installation
        raise ImportError(
            "solving a whole Zombie Kidz variant needs numpy: pip install numpy"
        ) from None
    return numpy


class _Vector:
    """The rules of :func:`roll_results` on numpy arrays of keys, for one variant."""

    def __init__(self, variant: Variant) -> None:
        np = _np()
        self.np = np
        self.players, self.total = variant
        steps = STEPS_TWO if self.players == 2 else STEPS_MANY
        width = 1 + max(len(s) for s in steps)
        # Zones a pawn may end its turn on, staying first; -1 pads.
        self.targets = np.full((_ZONES, width), -1, dtype=np.int64)
        for zone in range(_ZONES):
            for k, target in enumerate((zone, *steps[zone])):
                self.targets[zone, k] = target
        self.width = width
        self.slot = np.array(_LOCK_SLOT, dtype=np.int64)
        self.perms = [np.array(p, dtype=np.int64) for p in SYMMETRIES]
        self.lock_images = [np.array(t, dtype=np.int64) for t in _LOCK_IMAGES]

    def canonical(self, keys: Any) -> Any:
        """:func:`canonical_key` of every key."""
        np = self.np
        # decode_key's shifts and masks work on arrays too, element by element.
        counts, pawns, locks = decode_key(keys, self.players)
        best = keys.copy()
        for perm, zone_map, images in zip(
            SYMMETRIES[1:], self.perms[1:], self.lock_images[1:], strict=True
        ):
            image = images[locks] << _LOCK_SHIFT
            for zone in range(_ZONES):
                image |= counts[zone] << (_COUNT_BITS * perm[zone])
            for i in range(self.players):
                image |= zone_map[pawns[i]] << (_PAWN_SHIFT + _COUNT_BITS * i)
            np.minimum(best, image, out=best)
        return best

    def fields(self, keys: Any) -> tuple[Any, ...]:
        """What :meth:`turns` reads of every key, taken apart once for all the turns."""
        np = self.np
        counts, pawns, locks = decode_key(keys, self.players)
        counts, pawns = np.stack(counts, 1), np.stack(pawns, 1)
        rest = keys >> (_PAWN_SHIFT + _COUNT_BITS)  # the other pawns, moved up one place
        return keys, counts, counts.sum(1), pawns, locks, rest, np.arange(len(keys))

    def turns(self, fields: tuple[Any, ...], face: int, option: int) -> tuple[Any, Any, Any]:
        """For every key of ``fields`` (:meth:`fields`): whether the ``option``-th turn
        after ``face`` is legal, whether it wins, and the canonical key after it
        (meaningful where legal and not won).  A roll that loses makes every option
        illegal."""
        np = self.np
        keys, counts, on_board, pawns, locks, rest, rows = fields
        target = self.targets[pawns[:, 0], option]
        legal = target >= 0
        target = np.where(legal, target, 0)
        tomb = _FACE_TOMBS[face]
        placed = keys
        if tomb >= 0:
            caught = (counts[:, tomb] + 1 >= DEADLY) & (pawns == tomb).any(1)
            legal &= (on_board < self.total) & ~caught
            placed = keys + (1 << (_COUNT_BITS * tomb))
            on_board = on_board + 1
        cleared = counts[rows, target] + (target == tomb)
        legal &= cleared < DEADLY
        after = placed - (cleared << (_COUNT_BITS * target))
        slot = self.slot[target]
        bit = 1 << np.maximum(slot, 0)
        joined = (pawns[:, 1:] == target[:, None]).any(1)
        new_locks = np.where((slot >= 0) & (locks & bit == 0) & joined, locks | bit, locks)
        won = ((cleared > 0) & (on_board == cleared)) | (new_locks == _ALL_SLOTS)
        after = (
            (after & ((1 << _LOCK_SHIFT) - 1))
            | (new_locks << _LOCK_SHIFT)
            | ((rest | (target << (_COUNT_BITS * (self.players - 1)))) << _PAWN_SHIFT)
        )
        return legal, won & legal, self.canonical(after)


_CHUNK: Final = 1 << 18


def solve_numpy(
    variant: Variant,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: Callable[[str], None] | None = None,
) -> Table:
    """Solve every state of ``variant`` reachable from the start, with numpy.

    A breadth-first search finds the states (canonical keys, kept sorted); each
    state's turns become indices into the value vector, a win pointing at a slot
    holding 1 and an illegal turn (or a roll that loses) at one holding 0; then
    value iteration from 0, sweeping the states in blocks and using each block's new
    values at once (block Gauss-Seidel), states with more gates locked first (a lock
    is never undone, so their values are final sooner), until a sweep changes no
    value by more than ``tolerance``.
    """
    np = _np()
    say = progress or (lambda _: None)
    began = time.perf_counter()
    vector = _Vector(variant)
    faces = len(DICE)
    width = vector.width

    # 1. The reachable states.
    seen = np.array([start_key(variant)], dtype=np.int64)
    frontier = seen
    while len(frontier):
        found = []
        for lo in range(0, len(frontier), _CHUNK):
            fields = vector.fields(frontier[lo : lo + _CHUNK])
            for face in range(faces):
                for option in range(width):
                    legal, won, after = vector.turns(fields, face, option)
                    found.append(np.unique(after[legal & ~won]))
        fresh = np.unique(np.concatenate(found))
        where = np.searchsorted(seen, fresh)
        where = np.minimum(where, len(seen) - 1)
        fresh = fresh[seen[where] != fresh]
        seen = np.union1d(seen, fresh)
        frontier = fresh
        say(f"{variant.name}: {len(seen):,} states found")
    count = len(seen)

    # 2. The graph: for each state, face and option, the index of its value in
    # [values..., 1 (won), 0 (illegal)].
    won_slot, lost_slot = count, count + 1
    graph = np.empty((count, faces, width), dtype=np.int32)
    for lo in range(0, count, _CHUNK):
        fields = vector.fields(seen[lo : lo + _CHUNK])
        for face in range(faces):
            for option in range(width):
                legal, won, after = vector.turns(fields, face, option)
                index = np.searchsorted(seen, after).astype(np.int32)
                graph[lo : lo + _CHUNK, face, option] = np.where(
                    won, won_slot, np.where(legal, index, lost_slot)
                )
    say(f"{variant.name}: graph built, {time.perf_counter() - began:.0f} s")

    # 3. Value iteration from 0, more locks first.  Modified policy iteration: a full
    # sweep takes the best turn of every roll (and stops the solve once it changes no
    # value by more than the tolerance); the sweeps between follow those best turns.
    locks = (seen >> _LOCK_SHIFT) & _ALL_SLOTS
    lock_count = np.zeros(count, dtype=np.int64)
    for i in range(len(GATE_NAMES)):
        lock_count += (locks >> i) & 1
    order = np.argsort(-lock_count, kind="stable").astype(np.int32)
    del locks, lock_count
    values = np.zeros(count + 2)
    values[won_slot] = 1.0
    # The best option of every roll, as its index (a byte, not a state index: the
    # 4-player graph alone is most of the 2 GB this may use).
    policy = np.zeros((count, faces, 1), dtype=np.int8)
    blocks = [order[lo : lo + _CHUNK] for lo in range(0, count, _CHUNK)]
    del order
    sweeps = 0
    while True:
        sweeps += 1
        change = 0.0
        for rows in blocks:
            options = graph[rows]
            best = values[options].argmax(axis=2)[:, :, None]
            policy[rows] = best
            new = values[np.take_along_axis(options, best, axis=2)].mean(axis=(1, 2))
            change = max(change, float(np.max(np.abs(new - values[rows]))))
            values[rows] = new
        say(f"{variant.name}: sweep {sweeps}, largest change {change:.3g}")
        if change <= tolerance:
            break
        for _ in range(_POLICY_SWEEPS):
            for rows in blocks:
                chosen = np.take_along_axis(graph[rows], policy[rows], axis=2)
                values[rows] = values[chosen].mean(axis=(1, 2))
    del graph, policy, blocks
    return Table(
        variant,
        array("Q", seen.astype(np.uint64).tobytes()),
        array("d", values[:count].tobytes()),
        tolerance,
        time.perf_counter() - began,
    )


def solve(variant: Variant, tolerance: float = DEFAULT_TOLERANCE) -> Table:
    """Solve ``variant`` with numpy if it is installed, else in plain Python (slow)."""
    try:
        _np()
    except ImportError:
        return solve_python(variant, tolerance=tolerance, limit=None)
    return solve_numpy(variant, tolerance)


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m notation.games.zombie_kidz.solve PLAYERS ZOMBIES [FILE]``: solve a
    variant and write its table to FILE, or to the cache directory."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (2, 3) or not all(a.isdigit() for a in args[:2]):
        print(main.__doc__, file=sys.stderr)
        return 2
    variant = Variant(int(args[0]), int(args[1]))
    if variant not in VARIANTS:
        print(f"no such variant: {variant.describe()}", file=sys.stderr)
        return 2
    table = solve_numpy(variant, progress=lambda line: print(line, file=sys.stderr))
    path = Path(args[2]) if len(args) == 3 else _cache_path(variant)
    table.save(path)
    print(f"{variant.describe()}: {len(table):,} states, {table.seconds:.0f} s, "
          f"start {table.value(start_key(variant)):.6f}, {path.stat().st_size:,} bytes, {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
