"""The standalone parsers kept in the cache (notation/games/grammar.py): the same moves and the
same errors as Lark itself, and no Lark imported when the cache serves.

The first process to build a game's parser writes Lark's standalone module of it (and
the module compiled) into the cache folder; the next ones run it and never import Lark.
A token the standalone parser cannot read is read again by Lark, so that callers get
Lark's own exception.  Nothing here is timed (bench/startup.py measures the start).
"""

from __future__ import annotations

import os
import random
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.errors import MoveSyntaxError
from notation.games import get_game
from notation.games.base import Game
from notation.games.grammar import GameParser, build_parser, grammar_text
from notation.reader import read_file
from notation.record import MoveNode

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT.parent / "shared" / "conformance"

#: game name -> (grammar name, the module of its transformer, what the game does to a
#: token before it parses it).
GAMES: dict[str, tuple[str, str, Callable[[str], str]]] = {
    "cave": ("cave", "notation.games.cave.moves", lambda text: text),
    "tinkertown": ("tinkertown", "notation.games.tinkertown.moves", lambda t: t.strip().lower()),
    "zombie-kidz": ("zombie_kidz", "notation.games.zombie_kidz.moves", lambda text: text),
}
#: A move of each game, parsed in the processes started below.
ONE_MOVE = {"cave": "b1-b2", "tinkertown": "d2,b5", "zombie-kidz": "K:b2-b1"}


def _transformer(game: str) -> Any:
    module = __import__(GAMES[game][1], fromlist=["*"])
    builder = next(name for name in vars(module) if name.endswith("MoveBuilder"))
    return getattr(module, builder)()


@pytest.fixture(scope="module")
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("parser-cache")


@pytest.fixture
def in_cache(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """NOTATION_CACHE_DIR set to this module's own cache folder."""
    monkeypatch.setenv("NOTATION_CACHE_DIR", str(cache_folder))
    return cache_folder


def _standalone(game: str) -> GameParser[Any]:
    """The game's parser as a process with a warm cache has it: the standalone one."""
    grammar = GAMES[game][0]
    build_parser(grammar, _transformer(game))  # fills the cache if it is empty
    parser = build_parser(grammar, _transformer(game))
    assert parser._fast is not None, "the standalone parser was not loaded from the cache"
    return parser


def _lark(game: str) -> Any:
    """The game's parser built by Lark itself, without any cache."""
    from lark import Lark

    grammar = GAMES[game][0]
    return Lark(
        grammar_text(grammar),
        parser="lalr",
        transformer=_transformer(game),
        maybe_placeholders=False,
    )


def _nodes(nodes: list[MoveNode]) -> Iterator[MoveNode]:
    for node in nodes:
        yield node
        for variation in node.variations:
            yield from _nodes(variation.nodes)


def _record_files() -> list[tuple[Path, str | None]]:
    """Every record file, with the game its name implies (records without a Game tag)."""
    files: list[tuple[Path, str | None]] = []
    for path in sorted(ROOT.glob("records/*/*.ugn")):
        folder = path.parent.name
        files.append((path, folder if folder in GAMES else None))
    for path in sorted(CONFORMANCE.glob("*.txt")) if CONFORMANCE.is_dir() else []:
        named = [game for game in GAMES if path.name.startswith(f"{game}-")]
        files.append((path, named[0] if named else None))
    return files


def _tokens() -> dict[str, set[str]]:
    """The move tokens of every record, by game."""
    found: dict[str, set[str]] = {game: set() for game in GAMES}
    for path, default in _record_files():
        for record in read_file(path):
            try:
                game = record.game(default).name
            except Exception:  # no game, or one of no interest here
                continue
            if game in found:
                found[game].update(node.text for node in _nodes(record.moves))
    return found


TOKENS = _tokens()


def _invalid(game: str) -> list[str]:
    """Tokens that are no move: truncations, wrong characters, empty, long junk."""
    rng = random.Random(f"invalid {game}")
    samples = [*sorted(TOKENS[game])[:40], ONE_MOVE[game]]
    made: set[str] = {"", " ", "-", "x", ":", ",", "--x", "b1--b2", "K::b1", "d2,,b5"}
    for token in samples:
        made.update(token[:cut] for cut in range(len(token)))
        made.update(token + extra for extra in ("x", "-", "9", ",", "L", "xx", "Q"))
        for index in range(len(token)):
            for wrong in ("q", "Z", "9", "0", "-", ",", ":", "x", " ", "é"):
                made.add(token[:index] + wrong + token[index + 1 :])
    alphabet = "abcdefghklqrsxyzKLSZ0123456789-:,x "
    made.update(
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(300)
    )
    made.update(("a" * 90, "b1-b2" * 18, "K:b2-b1" * 12, "\x00\x01", "d2,b5,c4,e6" * 5))
    return sorted(made)


def _outcome(parse: Callable[[str], Any], text: str) -> tuple[str, Any]:
    """What ``parse`` does with ``text``: ("ok", the value) or ("error", class, message)."""
    try:
        return ("ok", parse(text))
    except Exception as exc:  # compared whole: class and message
        return ("error", (type(exc).__module__, type(exc).__qualname__, str(exc)))


# -- the same moves, the same errors --------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_every_recorded_move_parses_to_the_same_move(game: str, in_cache: Path) -> None:
    prepare = GAMES[game][2]
    standalone, lark = _standalone(game), _lark(game)
    assert len(TOKENS[game]) > 20
    for token in sorted(TOKENS[game]):
        text = prepare(token)
        assert _outcome(standalone.parse, text) == _outcome(lark.parse, text), token


@pytest.mark.parametrize("game", list(GAMES))
def test_invalid_tokens_raise_what_lark_raises(game: str, in_cache: Path) -> None:
    from lark.exceptions import LarkError

    prepare = GAMES[game][2]
    standalone, lark = _standalone(game), _lark(game)
    lark_errors = 0
    for token in _invalid(game):
        text = prepare(token)
        expected = _outcome(lark.parse, text)
        assert _outcome(standalone.parse, text) == expected, repr(token)
        if expected[0] == "error" and expected[1][0].startswith("lark"):
            lark_errors += 1
    assert lark_errors > 50  # the set does reach Lark's errors
    # The exception raised is Lark's own class, not the standalone module's copy.
    with pytest.raises(LarkError):
        standalone.parse(prepare("?"))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_games_give_the_same_syntax_errors(game: str, in_cache: Path) -> None:
    """The game's MoveSyntaxError (message and code) through either parser."""
    registered = get_game(game)
    grammar = GAMES[game][0]

    def a_game(parser: GameParser[Any]) -> Game[Any]:
        made = type(registered)()
        made._parser = parser  # type: ignore[attr-defined]
        return made

    fast = a_game(_standalone(game))
    slow = a_game(GameParser(grammar, _transformer(game)))  # Lark's parser alone
    assert slow._parser._fast is None  # type: ignore[attr-defined]
    errors = 0
    for token in _invalid(game) + sorted(TOKENS[game])[:50]:
        results: list[tuple[object, ...]] = []
        for each in (fast, slow):
            try:
                results.append(("ok", each.parse_move(token)))
            except MoveSyntaxError as exc:
                results.append(("error", str(exc), exc.code))
        assert results[0] == results[1], repr(token)
        errors += results[0][0] == "error"
    assert errors > 50


def test_the_standalone_module_is_not_registered(in_cache: Path) -> None:
    for game in GAMES:
        _standalone(game)
    assert not [name for name in sys.modules if "<standalone" in name]


def test_a_lark_transformer_keeps_the_lark_parser(in_cache: Path) -> None:
    from lark import Transformer

    class Builder(Transformer[Any, str]):
        def enter(self, items: list[Any]) -> str:
            return f"enter {items[0]}"

    parser = build_parser("cave", Builder())
    assert parser._fast is None
    assert parser.parse("b1") == "enter b1"


def test_the_generated_module_leaves_out_what_it_does_not_use(in_cache: Path) -> None:
    """No logging, no pickle, annotations kept as text: the generator's text is what
    notation.games.grammar expects (a new Lark that writes it otherwise makes start-up slower,
    and fails here)."""
    _standalone("cave")
    sources = list((in_cache / "grammars").glob("cave-*.standalone.py"))
    assert len(sources) == 1
    source = sources[0].read_text(encoding="utf-8")
    assert "Lark_StandAlone" in source
    assert "\nimport logging\n" not in source
    assert "import pickle" not in source
    assert source.startswith("from __future__ import annotations\n")


# -- processes of their own -----------------------------------------------------------

#: Run in the child: parse a move of each game named in argv, print each move, then
#: whether Lark was imported.
PROBE = """
import sys
from notation.games import get_game
for name, token in zip(sys.argv[1::2], sys.argv[2::2]):
    game = get_game(name)
    try:
        print(repr(game.parse(token)))
    except Exception as exc:
        print(type(exc).__name__, exc)
print("lark imported:", any(m == "lark" or m.startswith("lark.") for m in sys.modules))
"""


def _probe(cache: Path, *moves: tuple[str, str]) -> tuple[list[str], str]:
    """The lines the probe prints for ``moves`` (game, token) with the cache ``cache``,
    and what it writes to standard error."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTATION_CACHE_DIR": str(cache)}
    args = [part for move in moves for part in move]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr


ALL_MOVES = tuple(ONE_MOVE.items())
EXPECTED = [
    "Step('b1-b2')",
    "Resurrection('d2,b5')",
    "ZombieKidzMove('K:b2-b1')",
]


def _kept(cache: Path, suffix: str) -> list[Path]:
    return sorted((cache / "grammars").glob(f"*{suffix}"))


def test_an_empty_cache_is_filled_then_serves_without_lark(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    lines, err = _probe(cache, *ALL_MOVES)
    assert (lines, err) == ([*EXPECTED, "lark imported: True"], "")
    assert len(_kept(cache, ".standalone.code")) == 3
    assert len(_kept(cache, ".standalone.py")) == 3
    written = {path: path.stat().st_mtime_ns for path in _kept(cache, ".standalone.code")}
    lines, err = _probe(cache, *ALL_MOVES)
    assert (lines, err) == ([*EXPECTED, "lark imported: False"], "")
    assert {path: path.stat().st_mtime_ns for path in written} == written  # read, not written
    assert not [p.name for p in (cache / "grammars").iterdir() if p.name.endswith(".tmp")]


def test_a_syntax_error_imports_lark_then_and_says_the_same(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    bad = (("cave", "b1-"), ("tinkertown", "d2,,b5"), ("zombie-kidz", "K:b2-"))
    cold, _ = _probe(cache, *bad)
    warm, err = _probe(cache, *bad)
    assert err == ""
    assert warm == cold  # the same messages, from the same Lark exceptions
    assert all(line.startswith("MoveSyntaxError ") for line in warm[:3])
    assert warm[3] == "lark imported: True"
    # A well-shaped token the game refuses is the transformer's error: no Lark.
    lines, _ = _probe(cache, ("cave", "e5"), ("zombie-kidz", "Q"))
    assert lines[-1] == "lark imported: False"
    assert lines[0].startswith("MoveSyntaxError e5 is not a square")


def _damage_truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _damage_flip(data: bytes) -> bytes:
    middle = len(data) - len(data) // 3
    return data[:middle] + bytes([data[middle] ^ 0x5A]) + data[middle + 1 :]


def _damage_magic(data: bytes) -> bytes:
    return bytes([data[0] ^ 0xFF, data[1] ^ 0xFF]) + data[2:]


def _damage_junk(data: bytes) -> bytes:
    return b"damaged\n" + os.urandom(64)


@pytest.mark.parametrize(
    "damage", [_damage_truncate, _damage_flip, _damage_magic, _damage_junk, lambda d: b""]
)
def test_a_damaged_file_is_made_anew(damage: Callable[[bytes], bytes], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _probe(cache, *ALL_MOVES)
    for path in _kept(cache, ".standalone.code"):
        path.write_bytes(damage(path.read_bytes()))
    lines, err = _probe(cache, *ALL_MOVES)
    assert (lines, err) == ([*EXPECTED, "lark imported: True"], "")
    lines, err = _probe(cache, *ALL_MOVES)  # made anew by the run before
    assert (lines, err) == ([*EXPECTED, "lark imported: False"], "")


def test_a_cache_folder_that_cannot_be_made_only_costs_time(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    cache = tmp_path / "file" / "cache"
    for _ in range(2):
        lines, err = _probe(cache, *ALL_MOVES)
        assert (lines, err) == ([*EXPECTED, "lark imported: True"], "")


def test_a_read_only_cache_folder_only_costs_time(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (cache / "grammars").mkdir(parents=True)
    (cache / "grammars").chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        for _ in range(2):
            lines, err = _probe(cache, *ALL_MOVES)
            assert lines[:3] == EXPECTED
            assert err == ""
        if not os.access(cache / "grammars", os.W_OK):  # not so for root
            assert not _kept(cache, ".standalone.code")
    finally:
        (cache / "grammars").chmod(stat.S_IRWXU)


def test_a_read_only_warm_cache_serves(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _probe(cache, *ALL_MOVES)
    (cache / "grammars").chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        lines, err = _probe(cache, *ALL_MOVES)
        assert (lines, err) == ([*EXPECTED, "lark imported: False"], "")
    finally:
        (cache / "grammars").chmod(stat.S_IRWXU)
