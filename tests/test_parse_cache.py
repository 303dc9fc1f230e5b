"""Parsed rules files are cached by content on disk and in the process: a second process gets the same AST
without parsing, an edited file is parsed afresh, a damaged entry is parsed again, errors are never cached."""
from __future__ import annotations

from pathlib import Path

import pytest

from dsl import parse_cache
from dsl import parser as P
from dsl.errors import RulesError

RULES = 'const hand_size = 3 de "die Zahl" en "hand size"\n'


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("REGELWERK_CACHE", str(folder))
    parse_cache._memory.clear()
    return folder


def forget_and_forbid_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a new process that must not parse: the memory is empty and the parser fails."""
    parse_cache._memory.clear()

    def no_parse(source: str, file: str) -> object:
        raise AssertionError(f"{file} was parsed again")
    monkeypatch.setattr(P, "parse_text", no_parse)


def test_a_second_process_reads_the_parse_from_disk(cache: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "game.rules"
    file.write_text(RULES, encoding="utf-8")
    first, _ = P.parse_file(file)
    assert len(list(cache.glob("*.pickle"))) == 1
    forget_and_forbid_parsing(monkeypatch)
    again, text = P.parse_file(file)
    assert again == first and text == RULES
    assert P.parse_file(file)[0] is again  # then from memory


def test_an_edited_file_is_parsed_afresh(cache: Path, tmp_path: Path) -> None:
    file = tmp_path / "game.rules"
    file.write_text(RULES, encoding="utf-8")
    P.parse_file(file)
    file.write_text(RULES.replace("3", "4"), encoding="utf-8")
    parsed, _ = P.parse_file(file)
    assert parsed.items[0].value.value == 4  # type: ignore[attr-defined]


def test_a_damaged_entry_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    file = tmp_path / "game.rules"
    file.write_text(RULES, encoding="utf-8")
    first, _ = P.parse_file(file)
    for entry in cache.glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    parse_cache._memory.clear()
    assert P.parse_file(file)[0] == first


def test_errors_are_reported_every_time_and_never_cached(cache: Path, tmp_path: Path) -> None:
    file = tmp_path / "broken.rules"
    file.write_text("const = ", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RulesError):
            P.parse_file(file)
    assert not cache.exists() or not list(cache.glob("*.pickle"))


def test_an_empty_setting_keeps_nothing_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_CACHE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    parse_cache._memory.clear()
    file = tmp_path / "game.rules"
    file.write_text(RULES, encoding="utf-8")
    P.parse_file(file)
    assert not (tmp_path / "xdg").exists()


def test_a_cached_parse_reads_back_node_for_node(cache: Path) -> None:
    """The cache's pickled form (dsl.ast._reduced) gives each node its class, fields and fields given."""
    import pickle

    from dsl import ast as A
    parsed, _ = P.parse_file(Path(__file__).resolve().parent.parent / "rulesets" / "maechtige_monster" / "game.rules")
    again = pickle.loads(pickle.dumps(parsed))
    assert again == parsed
    for old, new in zip(A.walk(parsed), A.walk(again), strict=True):
        assert type(old) is type(new) and old.__dict__.keys() == new.__dict__.keys()
        assert old.__pydantic_fields_set__ == new.__pydantic_fields_set__


def test_found_lists_the_nodes_a_walk_meets(cache: Path) -> None:
    """In walk's order for a class of node; a base class's nodes come class by class."""
    from dsl import ast as A
    parsed, _ = P.parse_file(Path(__file__).resolve().parent.parent / "rulesets" / "maechtige_monster" / "game.rules")
    for cls in (A.Text, A.Call):
        assert A.found(parsed, cls) == [n for n in A.walk(parsed) if isinstance(n, cls)]
    assert A.found(parsed, A.Pos) == []  # not a node: a position
    assert sorted(map(id, A.found(parsed, A.Node))) == sorted(id(n) for n in A.walk(parsed) if isinstance(n, A.Node))


def test_an_index_read_from_disk_holds_the_nodes_read_with_it(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached parse brings its items' indexes (A.found) along: the same nodes, by identity, in walk's order."""
    from dsl import ast as A
    file = Path(__file__).resolve().parent.parent / "rulesets" / "maechtige_monster" / "game.rules"
    P.parse_file(file)
    forget_and_forbid_parsing(monkeypatch)
    A._indexes.clear()
    parsed, _ = P.parse_file(file)
    assert len(A._indexes) == len(parsed.items) + len(parsed.variants) + len(parsed.scenarios)
    for item in parsed.items:
        for cls in (A.Text, A.Call):
            assert list(map(id, A.found(item, cls))) == [id(n) for n in A.walk(item) if isinstance(n, cls)]
        assert sorted(map(id, A.found(item, A.Node))) == sorted(id(n) for n in A.walk(item) if isinstance(n, A.Node))
