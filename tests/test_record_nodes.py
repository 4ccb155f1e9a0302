"""A move node's lists behave as plain dataclass fields, made when first asked for.

``MoveNode`` makes its four lists (``nags``, ``comments_before``, ``comments_after``,
``variations``) only when they are first read (docs/performance.md, "Memory"): what
code sees of them must be what it saw when every node was made with four lists of its
own: appending in place, replacing, comparing, pickling, copying, the dataclass's
fields, and records written and read again.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

import pytest

from notation.reader import read_file, read_string
from notation.record import Comment, MoveNode, MoveNumber, Record, Variation
from notation.render.html import pack_records
from notation.visitor import iter_nodes
from notation.writer import UnwritableRecord, write_record

ROOT = Path(__file__).resolve().parent.parent
RECORD_FILES = sorted((ROOT / "records").glob("*/*.ugn"))
LISTS = ("nags", "comments_before", "comments_after", "variations")
FIELDS = ("text", "line", "column", "suffix", "nags", "number", *LISTS[1:])

TEXT = (
    '[Game "cave"]\n\n'
    "1. b1 {first} a5 $1 2. {before} b1-b2 (2. c1 {aside} c5) b5! {after} ; to the end\n"
    "3. b2-b1 *\n"
)


def test_lists_of_a_fresh_node_take_what_is_appended() -> None:
    node = MoveNode("b1")
    node.nags.append(3)
    node.comments_before.append(Comment("before"))
    node.comments_after.extend([Comment("after"), Comment("more")])
    variation = Variation([MoveNode("c1")])
    node.variations.append(variation)
    assert node.nags == [3]
    assert [c.text for c in node.comments_before] == ["before"]
    assert node.comment == "after more"
    assert node.variations == [variation] and node.variations[0] is variation
    node.nags += [4]
    node.nags[0] = 1
    assert node.nags == [1, 4]
    assert repr(node) == "<MoveNode b1 (1 variation)>"


def test_a_list_is_the_same_object_each_time_and_the_nodes_own() -> None:
    node, other = MoveNode("b1"), MoveNode("b1")
    for name in LISTS:
        held = getattr(node, name)
        assert held == [] and type(held) is list
        assert getattr(node, name) is held  # read again: the same list
        assert getattr(other, name) is not held
    held = node.comments_after
    held.append(Comment("kept"))
    assert node.comments_after is held and node.comment == "kept"
    assert other.comments_after == []


def test_lists_given_or_set_are_kept_as_they_are() -> None:
    nags: list[int] = []
    node = MoveNode("b1", nags=nags)
    assert node.nags is nags
    nags.append(2)
    assert node.nags == [2]
    comments = [Comment("new")]
    node.comments_after = comments
    assert node.comments_after is comments
    node.comment = "set"
    assert node.comments_after == [Comment("set")] and comments == [Comment("new")]
    node.comment = ""
    assert node.comments_after == []
    node.variations = []
    node.add_variation(["c1", "c5!"])
    assert [n.written for n in node.variations[0].nodes] == ["c1", "c5!"]


def test_the_constructor_takes_what_it_took() -> None:
    number = MoveNumber(2, 1)
    before, after = [Comment("b")], [Comment("a")]
    variations = [Variation([MoveNode("c1")])]
    by_keyword = MoveNode(
        text="b1", line=3, column=4, suffix="!", nags=[1], number=number,
        comments_before=before, comments_after=after, variations=variations,
    )
    by_position = MoveNode("b1", 3, 4, "!", [1], number, before, after, variations)
    for node in (by_keyword, by_position):
        assert (node.text, node.line, node.column, node.suffix) == ("b1", 3, 4, "!")
        assert node.nags == [1] and node.number is number
        assert node.comments_before is before and node.comments_after is after
        assert node.variations is variations
    assert by_keyword == by_position
    assert repr(by_keyword) == "<MoveNode 2. b1! (1 variation)>"


def test_equality_compares_what_it_compared() -> None:
    fresh = MoveNode("b1")
    assert fresh == MoveNode("b1", nags=[], comments_before=[], comments_after=[], variations=[])
    assert fresh == MoveNode("b1", 7, 9, number=MoveNumber(1, 1))  # layout: not compared
    assert fresh != MoveNode("b2") and fresh != MoveNode("b1", suffix="!")
    for name in LISTS:
        other = MoveNode("b1")
        made = MoveNode("b1")
        getattr(made, name)  # made, still empty: still equal
        assert fresh == made and made == fresh
        item: object = {"nags": 1, "variations": Variation([MoveNode("c1")])}.get(
            name, Comment("c")
        )
        getattr(other, name).append(item)
        assert fresh != other and other != fresh
    assert fresh != "b1" and fresh.__eq__("b1") is NotImplemented
    with pytest.raises(TypeError):
        hash(fresh)  # mutable, as before: not hashable


def test_the_dataclass_is_what_it_was() -> None:
    assert dataclasses.is_dataclass(MoveNode)
    assert tuple(f.name for f in dataclasses.fields(MoveNode)) == FIELDS
    assert MoveNode.__slots__ == FIELDS and MoveNode.__match_args__ == FIELDS
    compared = {f.name for f in dataclasses.fields(MoveNode) if f.compare}
    assert compared == {"text", "suffix", *LISTS}
    node = MoveNode("b1", 1, 2, nags=[5])
    changed = dataclasses.replace(node, text="b2")
    assert changed == MoveNode("b2", nags=[5]) and changed.line == 1
    assert changed.nags is node.nags  # replace is shallow, as it was
    assert dataclasses.asdict(MoveNode("b1"))["variations"] == []
    match MoveNode("b1", suffix="!"):
        case MoveNode(text="b1", suffix=suffix, nags=[]):
            assert suffix == "!"
        case _:  # pragma: no cover - the case above must match
            pytest.fail("the node did not match its fields")


def test_copies_share_or_copy_the_lists_as_before() -> None:
    node = MoveNode("b1")
    shallow = copy.copy(node)
    assert shallow == node and shallow is not node
    shallow.nags.append(1)  # a shallow copy shares the lists, empty ones too
    assert node.nags == [1]
    deep = copy.deepcopy(node)
    deep.nags.append(2)
    assert node.nags == [1] and deep.nags == [1, 2]


def test_a_node_pickles_by_its_fields() -> None:
    fresh = MoveNode("b1", 2, 3, number=MoveNumber(1, 1))
    # The state pickle keeps: every field by name, as a dataclass with slots had it (so
    # pickles made before the lists were made on demand load, and the other way).
    _, _, state = fresh.__reduce_ex__(pickle.HIGHEST_PROTOCOL)[:3]
    assert state is not None and state[0] is None
    assert set(state[1]) == set(FIELDS) and all(state[1][name] == [] for name in LISTS)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):  # 0 and 1 never could (slots)
        back = pickle.loads(pickle.dumps(fresh, protocol))
        assert back == fresh and (back.line, back.column, back.number) == (2, 3, fresh.number)
        back.variations.append(Variation([MoveNode("c1")]))
        assert back.variations[0].nodes == [MoveNode("c1")]
        assert fresh.variations == []


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_records_pickle_and_write_back_to_themselves(path: Path) -> None:
    records = list(read_file(path))
    assert records
    assert pickle.loads(pickle.dumps(records)) == records
    assert pickle.loads(pack_records(records)) == records  # html's workers' way
    for record in records:
        if record.error is not None:
            continue  # a broken record's tree holds only what came before its defect
        try:
            text = write_record(record)
        except UnwritableRecord:  # a tag its game refuses: no numbering (broken.ugn)
            continue
        (again,) = read_string(text)
        assert again == record
        assert write_record(again) == text


def test_a_read_record_equals_one_built_node_by_node() -> None:
    (record,) = read_string(TEXT)
    first, second, third, fourth, fifth = record.moves
    assert first.comment == "first" and second.nags == [1]
    assert [c.text for c in third.comments_before] == ["before"]
    assert third.variations[0].nodes[0].comment == "aside"
    assert [c.braced for c in fourth.comments_after] == [True, False]
    built = Record(
        tags=record.tags,
        moves=[
            MoveNode("b1", comments_after=[Comment("first")]),
            MoveNode("a5", nags=[1]),
            MoveNode(
                "b1-b2",
                comments_before=[Comment("before")],
                variations=[
                    Variation([MoveNode("c1", comments_after=[Comment("aside")]), MoveNode("c5")])
                ],
            ),
            MoveNode("b5", suffix="!", comments_after=[Comment("after"), Comment("to the end")]),
            MoveNode("b2-b1"),
        ],
        result="*",
    )
    assert built == record
    fifth.nags.append(4)
    assert built != record
    assert sum(1 for _ in iter_nodes(record.moves)) == 7
