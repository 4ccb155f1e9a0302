"""Inputs of the JSON golden files (see make_golden.py), shared by the maker (run on the
old code) and tests/test_jsonwriter.py (run on the new): hand-written record texts of
every shape, and records built in code.  Only the record model's constructors, which
both have, are used here."""

from __future__ import annotations

from notation.record import Comment, MoveNode, Record, Tag, Variation

#: A cave position after 30 turns.
LATE = "d2:r??,b3:rK@9,c4:b??,a5:bZ@14 1/0 S@5Z@14/S@5S@9K@20 0 r 30"

#: Record texts of the shapes a JSON writer must get right, one file (shapes.txt).
SHAPES = [
    # Comments everywhere: before the first move, after a number, after a move, at
    # the end of a variation, before a second variation, after the result.
    '[Game "cave"]\n[Result "*"]\n\n{before all} 1. {after the number} b1 {after b1}'
    " (1. c1 {in} 1... c5 {end of variation}) {between} (1. d1) b5 $3 2. b1-c1 ; to the end\n"
    "c5 * {after the result} {again}\n",
    # A glyph, a suffix and comments after a variation closes, then plain moves.
    '[Game "cave"]\n\n1. b1 (1. c1) $1 (1. d1 b5) ! {after both} 1... b5\n'
    "2. b1-c1 c5 3. c1-c2 c5-c4 *\n",
    # Variations nested, and a variation of a variation's first move.
    '[Game "cave"]\n\n1. b1 (1. c1 (1. d1 (1. a1 a5 (1... b5 2. a1-a2 (2. a1-b1)) 2. a1-a2)'
    " c5) b5) b5 2. b1-c1 (2. b1-b2 c5 (2... a5)) 2... c5 *\n",
    # Suffixes and glyphs on plain lines.
    '[Game "cave"]\n\n1. b1! b5?? 2. b1-c1!? $14 $15 c5 3. c1-c2 ?! c5-c4 !! *\n',
    # Broken: an illegal move in the main line (then a variation after it).
    '[Game "cave"]\n\n1. b1 b5 2. b1-b3 (2. b1-c1 c5) c5 3. c1-c2 *\n',
    # Broken: an illegal move inside a variation, the main line fine.
    '[Game "cave"]\n\n1. b1 (1. c1 c5 2. c1-c3 a5) b5 2. b1-c1 *\n',
    # Broken: a wrong move number; a syntax error; a missing result.
    '[Game "cave"]\n\n1. b1 b5 3. b1-c1 c5 *\n',
    '[Game "cave"]\n\n1. b1 b5 2. b1-c1 c5 3. Q*q *\n',
    '[Game "cave"]\n\n1. b1 b5 2. b1-c1\n\n',
    # No Game tag; an unknown game; a bad Result tag; a refused setup tag.
    "1. b1 b5 2. b1-c1 *\n",
    '[Game "nope"]\n\n1. b1 b5 {c} (1... c5) *\n',
    '[Game "cave"]\n[Result "2-0"]\n\n1. b1 b5 *\n',
    '[Game "zombie-kidz"]\n[Players "9"]\n\n1. R *\n',
    '[Game "tinkertown"]\n[Position "nonsense"]\n\n1. e2,h5 *\n',
    # A later start (turn 31): with a bad Result tag (no position is made), and with
    # an illegal move after two good ones.
    '[Game "cave"]\n[Result "2-0"]\n'
    f'[Position "{LATE}"]\n\n16. Kb3xc4 (16. d2-d1) a5-a4 17. c4-b4 *\n',
    f'[Game "cave"]\n[Position "{LATE}"]\n\n16. Kb3xc4 a5-a4 17. c4-c2 a4-a3 (17... a4-b4) *\n',
    # Two Game tags, tags out of order, a tag name in the wrong case.
    '[Result "*"]\n[Event "e"]\n[Game "cave"]\n[Game "tinkertown"]\n[game "x"]\n\n1. b1 b5 *\n',
    # Unusual characters in tags and comments.
    '[Game "cave"]\n[Event "caf\u00e9 \U0001f600 \\"quoted\\" back\\\\slash"]\n'
    '[Site "tab\there \u2028 \u0085 \x7f \x01"]\n\n'
    "1. b1 {\u00e9t\u00e9 \U0001f600 \\ \" \x7f \u2028 \x01 \ufeff} b5 ; \u00fc\u00df \u200b\n*\n",
    # A result and another record on the same line; comments after the result.
    '[Game "cave"]\n\n1. b1 b5 * {x} [Game "cave"]\n\n1. b1 *\n',
    # Empty movetext; only a comment.
    '[Game "cave"]\n\n*\n',
    '[Game "cave"]\n\n{only a comment} *\n',
]


def deep_text(depth: int) -> str:
    """A cave record whose variations nest ``depth`` deep (each an alternative first
    move), deeper than the C JSON encoder recurses."""
    opening = "".join("(1. c1 " if i % 2 else "(1. d1 " for i in range(depth))
    return '[Game "cave"]\n\n1. b1 ' + opening + ")" * depth + " b5 *\n"


def built_records() -> dict[str, Record]:
    """Records built in code: what the reader never makes (a text no writer could give
    as it is, characters a file cannot hold)."""
    weird = "\ud800 lone \udfff \x00 \x1f \u2028 \U0001f600 caf\u00e9"
    records = {
        "plain": Record(
            tags=[Tag("Game", "cave"), Tag("Result", "*")],
            moves=[MoveNode("b1"), MoveNode("b5"), MoveNode("b1-c1")],
            result="*",
        ),
        "weird-characters": Record(
            tags=[Tag("Game", "cave"), Tag("Event", weird)],
            moves=[
                MoveNode("b1", comments_after=[Comment(weird), Comment("x", braced=False)]),
                MoveNode("b5", comments_before=[Comment(weird, after_number=True)]),
            ],
            comments=[Comment(weird)],
            comments_after_result=[Comment("after " + weird)],
            result="*",
        ),
        "illegal": Record(
            tags=[Tag("Game", "cave")],
            moves=[MoveNode("b1"), MoveNode("b5"), MoveNode("b1-b3"), MoveNode("c5")],
            result="*",
        ),
        "variations": Record(
            tags=[Tag("Game", "cave"), Tag("Result", "*")],
            moves=[
                MoveNode(
                    "b1",
                    suffix="!",
                    nags=[1, 22],
                    variations=[
                        Variation(
                            [
                                MoveNode("c1", variations=[Variation([MoveNode("d1")])]),
                                MoveNode("c5"),
                            ],
                            comments=[Comment("end")],
                            comments_before=[Comment("before")],
                        ),
                        Variation([MoveNode("a1")]),
                    ],
                ),
                MoveNode("b5", variations=[Variation([MoveNode("c5", suffix="?")])]),
                MoveNode("b1-c1"),
            ],
            result="*",
        ),
        "late-illegal": Record(
            tags=[Tag("Game", "cave"), Tag("Position", LATE)],
            moves=[MoveNode("Kb3xc4"), MoveNode("a5-a4"), MoveNode("c4-c2"), MoveNode("a4-a3")],
            result="*",
        ),
        "late-bad-result": Record(
            tags=[Tag("Game", "cave"), Tag("Position", LATE), Tag("Result", "2-0")],
            moves=[MoveNode("Kb3xc4", variations=[Variation([MoveNode("d2-d1")])])],
            result="*",
        ),
        "spelt-as-written": Record(
            tags=[Tag("Players", "2"), Tag("Event", "e"), Tag("Game", "zombie-kidz")],
            moves=[MoveNode("R:a2"), MoveNode("R"), MoveNode("G:b2-a2x"), MoveNode("R:a2")],
            result="*",
        ),
        "no-result": Record(tags=[Tag("Game", "cave")], moves=[MoveNode("b1")]),
        "no-game": Record(moves=[MoveNode("b1"), MoveNode("b5")], result="*"),
        "late-start": Record(
            tags=[
                Tag("Game", "tinkertown"),
                Tag("Position", "placeholder"),  # refused: numbered as the default
            ],
            moves=[MoveNode("e2,h5")],
            result="*",
        ),
    }
    node = MoveNode("b1")
    line = [node]
    for i in range(400):  # nested deeper than the C encoder recurses
        inner = MoveNode("c1" if i % 2 else "d1")
        line[-1].variations = [Variation([inner])]
        line = [inner]
    records["deep"] = Record(tags=[Tag("Game", "cave")], moves=[node, MoveNode("b5")], result="*")
    return records
