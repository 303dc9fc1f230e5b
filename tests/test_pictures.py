"""`picture`: a board drawn from constants as SVG, inline in the HTML rulebooks and as a file beside the
Markdown ones, in every language; a picture that cannot be drawn is a located load error."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dsl.errors import RulesError
from dsl.loader import read_ruleset
from dsl.parser import parse_text
from interpreter.compile.loading import load_program
from rulebook.docs import expected_files, rulebooks

SVG = "{http://www.w3.org/2000/svg}"
FIXTURE = Path(__file__).parent / "fixtures" / "games" / "marktplatz"

GAME = '''game wege {
  title de "Wege" en "Paths"
  players 2 to 3
}
enum ground title de "der Boden" en "ground" {
  grass de "die Wiese" en "meadow"
  lava de "die Lava" en "lava"
}
kind token { title de "der Stein" en "token" }
zone spot de "das Feld" en "field" [5] of token public
const xy = {1: [0, 0], 2: [2, 0], 3: [4, 0], 4: [2, 2], 5: [4, 2]} de "die Lage der Felder" en "field positions"
const links = [[1, 2], [2, 3], [2, 4], [4, 5]] de "die Wege" en "paths"
const grounds = {1: grass, 2: lava} de "die Böden" en "grounds"
round { repeat while false phase p de "Phase" en "Phase" { } }
score(p) = 0
'''

PICTURE = '''picture plan de "Der Plan <&> \\"x\\"" en "The map <&>" {
  at xy
  lines links de "der Weg" en "path"
  arrows [[3, 5]] dashed colour "#c33" de "die Abkürzung" en "shortcut"
  nodes [1] shape square colour "#c96" de "der Start" en "start"
  nodes [2, 4] shape diamond de "die Kreuzung" en "crossing"
  others de "das Feld" en "field"
  numbered
  labels grounds
}
'''


def ruleset(tmp_path: Path, picture: str = PICTURE) -> Path:
    folder = tmp_path / "wege"
    folder.mkdir()
    (folder / "game.rules").write_text(GAME, encoding="utf-8")
    (folder / "picture.rules").write_text(picture, encoding="utf-8")
    return folder


def svgs(folder: Path) -> dict[str, str]:
    """The pictures a ruleset's base rulebooks show, by language."""
    books = rulebooks(read_ruleset(folder))
    return {lang: pic.svg for lang, book in books.items() for sec in book.sections for pic in sec.pictures}


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in classes(e)]


@pytest.fixture
def drawn(tmp_path: Path) -> dict[str, ET.Element]:
    return {lang: ET.fromstring(text) for lang, text in svgs(ruleset(tmp_path)).items()}


def test_every_node_is_drawn_once_with_the_shape_of_its_class(drawn: dict[str, ET.Element]) -> None:
    root = drawn["en"]
    nodes = with_class(root, "pic-node")
    assert len(nodes) == 5
    assert [n.tag.removeprefix(SVG) for n in nodes] == ["rect", "polygon", "circle", "polygon", "circle"]
    assert classes(nodes[0]) == {"pic-node", "pic-nodes-1"} and nodes[0].get("fill") == "#c96"
    assert {"pic-nodes-2"} <= classes(nodes[1]) and {"pic-nodes-2"} <= classes(nodes[3])
    assert {"pic-others"} <= classes(nodes[2])


def test_edges_are_lines_and_arrows_with_their_style(drawn: dict[str, ET.Element]) -> None:
    root = drawn["en"]
    lines = with_class(root, "pic-links")
    arrows = with_class(root, "pic-arrows")
    assert len([e for e in lines if "pic-edge" in classes(e)]) == 4
    assert [a.get("stroke-dasharray") for a in arrows if "pic-edge" in classes(a)] == ["6 4"]
    head = arrows[0].get("marker-end", "")
    marker = re.fullmatch(r"url\(#(.+)\)", head)
    assert marker and [m.get("id") for m in root.iter(f"{SVG}marker")] == [marker.group(1)]
    assert all(line.get("marker-end") is None for line in lines)


def test_the_legend_is_localised_and_in_the_order_written(drawn: dict[str, ET.Element]) -> None:
    keys = {lang: ["".join(t.itertext()) for key in with_class(root, "pic-key") for t in key.iter(f"{SVG}text")]
            for lang, root in drawn.items()}
    assert keys["en"] == ["Path", "Shortcut", "Start", "Crossing", "Field"]
    assert keys["de"] == ["Weg", "Abkürzung", "Start", "Kreuzung", "Feld"]


def test_labels_number_the_nodes_and_name_enum_values_in_the_language(drawn: dict[str, ET.Element]) -> None:
    labels = {lang: ["".join(t.itertext()) for t in with_class(root, "pic-label")] for lang, root in drawn.items()}
    assert labels["en"] == ["meadow", "lava", "3", "4", "5"]
    assert labels["de"] == ["Wiese", "Lava", "3", "4", "5"]


def test_title_and_view_box_frame_the_board(drawn: dict[str, ET.Element]) -> None:
    root = drawn["en"]
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}title").text == "The map <&>"  # type: ignore[union-attr]
    assert "".join(with_class(root, "pic-title")[0].itertext()) == "The map <&>"
    assert drawn["de"].find(f"{SVG}title").text == 'Der Plan <&> "x"'  # type: ignore[union-attr]
    box = [float(v) for v in root.get("viewBox", "").split()]
    assert box[:2] == [0, 0] and box[2:] == [float(root.get("width", 0)), float(root.get("height", 0))]
    for shape in with_class(root, "pic-node") + with_class(root, "pic-swatch"):
        xs = [float(shape.get(a, 0)) for a in ("cx", "x")]
        assert all(0 <= x <= box[2] for x in xs)
        assert 0 <= float(shape.get("cy", shape.get("y", 0))) <= box[3]


def test_texts_are_escaped(tmp_path: Path) -> None:
    text = svgs(ruleset(tmp_path))["en"]
    assert "The map &lt;&amp;&gt;" in text and "<&>" not in text


def test_the_same_rules_give_the_same_bytes(tmp_path: Path) -> None:
    folder = ruleset(tmp_path)
    assert svgs(folder) == svgs(folder)
    assert svgs(folder)["en"] != svgs(folder)["de"]


# ------------------------------------------------------------------ load errors


def load_error(tmp_path: Path, picture: str) -> str:
    folder = ruleset(tmp_path, picture)
    with pytest.raises(RulesError) as err:
        load_program(str(folder))
    return err.value.render()


@pytest.mark.parametrize("entry, message", [
    ("lines missing_links", "unknown name 'missing_links'"),
    ("labels [1, 2]", "`labels` lists 2 texts for 5 nodes"),
    ("lines [[1, 9]]", "node 9 has no position"),
    ("nodes [1, 7]", "node 7 has no position"),
    ("lines [[1, 2, 3]]", "each of `lines` is a pair of nodes [a, b], not [1, 2, 3]"),
    ("nodes 3", "`nodes` needs a list of nodes, not 3"),
    ("labels [\"a\", \"b\"] of [1, 2, 3]", "`labels` lists 2 texts for 3 nodes"),
    ("labels [\"a\"] of [8]", "node 8 has no position"),
])
def test_a_picture_that_cannot_be_drawn_is_a_located_load_error(tmp_path: Path, entry: str, message: str) -> None:
    text = load_error(tmp_path, f'picture plan de "Plan" en "map" {{\n  at xy\n  {entry}\n}}\n')
    first = text.splitlines()
    assert re.match(r".*picture\.rules:3:\d+: error: ", first[0]), text
    assert message in first[0], text
    assert first[1].strip() == entry and first[2].strip() == "^", text


@pytest.mark.parametrize("body, message", [
    ("at [1, 2]", "the position of node 1 is 1, not [x, y]"),
    ("at 5", "`at` needs a map {node: [x, y]} or a list of [x, y], not 5"),
    ("nodes [1] shape sqare", "unknown shape 'sqare'; did you mean 'square'?"),
    ("nodes [1] colour \"red\"", "colour 'red' is not a colour"),
    ("lines links shape circle", "`shape` belongs to `nodes` and `others`, not to `lines`"),
    ("nodes [1] dashed", "`dashed` belongs to `lines` and `arrows`"),
    ("nodes [1] shape circle shape square", "`shape` is given twice here"),
    ("numbered", "picture 'plan' has no `at`"),
])
def test_a_picture_of_the_wrong_form_is_a_located_error(tmp_path: Path, body: str, message: str) -> None:
    at = "" if "at " in body or body == "numbered" else "  at xy\n"
    text = load_error(tmp_path, f'picture plan de "Plan" en "map" {{\n{at}  {body}\n}}\n')
    assert re.match(r".*picture\.rules:\d+:\d+: error: ", text), text
    assert message in text.splitlines()[0], text


def test_positions_and_labels_of_listed_nodes(tmp_path: Path) -> None:
    """`at … of …` draws only the nodes listed; `labels … of …` labels only those, an empty text none."""
    picture = ('picture plan de "Plan" en "map" {\n  at [xy[i] for i in [2, 4, 5]] of [2, 4, 5]\n'
               '  lines [[2, 4], [4, 5]]\n  labels ["", "X"] of [2, 4]\n}\n')
    root = ET.fromstring(svgs(ruleset(tmp_path, picture))["en"])
    assert len(with_class(root, "pic-node")) == 3 and len(with_class(root, "pic-edge")) == 2
    assert ["".join(t.itertext()) for t in with_class(root, "pic-label")] == ["X"]


def test_edges_may_come_in_groups_and_long_labels_in_a_row_stand_apart(tmp_path: Path) -> None:
    """A list of lists of pairs (the ways of each path) draws every pair; labels under neighbouring nodes
    of one row get room (about 6.2 units a character) however close the positions are."""
    picture = ('picture plan de "Plan" en "map" {\n  at xy\n  arrows [[[1, 2], [2, 3]], [[2, 4]]]\n'
               '  labels ["a very long label", "another long label", "and a third one", "", ""]\n}\n')
    root = ET.fromstring(svgs(ruleset(tmp_path, picture))["en"])
    assert len(with_class(root, "pic-edge")) == 3
    row = [(float(t.get("x", 0)), len("".join(t.itertext()))) for t in with_class(root, "pic-label")]
    assert len(row) == 3
    for (x1, n1), (x2, n2) in zip(row, row[1:]):
        assert x2 - x1 >= 6.2 * (n1 + n2) / 2
    assert min(x - 6.2 * n / 2 for x, n in row) >= 0 and max(x + 6.2 * n / 2 for x, n in row) <= float(root.get("width", 0))


def test_positions_that_do_not_pair_up_with_their_nodes(tmp_path: Path) -> None:
    text = load_error(tmp_path, 'picture plan de "Plan" en "map" {\n  at [[0, 0], [1, 1]] of [1, 2, 3]\n}\n')
    assert "picture.rules:2:3: error: `at` lists 2 positions for 3 nodes" in text


def test_twice_at_is_an_error(tmp_path: Path) -> None:
    text = load_error(tmp_path, 'picture plan de "Plan" en "map" {\n  at xy\n  at xy\n}\n')
    assert "picture.rules:3:3: error: `at` appears twice in picture 'plan' (first at line 2)" in text


def test_picture_words_stay_usable_as_names() -> None:
    parsed = parse_text('function f(p: player) = others(p)\nconst nodes = [1]\nconst labels = nodes\n')
    assert [getattr(i, "name", "") for i in parsed.items] == ["f", "nodes", "labels"]


# ------------------------------------------------------------------ variants


def test_a_variant_replaces_or_removes_a_picture(tmp_path: Path) -> None:
    folder = ruleset(tmp_path)
    (folder / "variants").mkdir()
    (folder / "variants" / "small.rules").write_text(
        'variant small {\n  title de "Klein" en "Small"\n'
        '  replace picture plan de "Der kleine Plan" en "The small map" { at {1: [0, 0], 2: [1, 0]} lines [[1, 2]] }\n}\n'
        'variant bare {\n  title de "Ohne Plan" en "No map"\n  remove picture plan\n}\n', encoding="utf-8")
    src = read_ruleset(folder)
    small = ET.fromstring(next(p.svg for s in rulebooks(src, ("small",))["en"].sections for p in s.pictures))
    assert len(with_class(small, "pic-node")) == 2 and with_class(small, "pic-legend") == []
    assert not [p for s in rulebooks(src, ("bare",))["en"].sections for p in s.pictures]


# ------------------------------------------------------------------ the fixture game's rulebooks


@pytest.fixture(scope="module")
def fixture_files() -> dict[str, str]:
    return expected_files([str(FIXTURE)])


@pytest.mark.parametrize("lang, title", [("de", "Der Marktplatz"), ("en", "The market square")])
def test_the_markdown_rulebook_shows_the_svg_file_written_beside_it(fixture_files: dict[str, str], lang: str,
                                                                    title: str) -> None:
    md = fixture_files[f"marktplatz/rulebook.{lang}.md"]
    link = f"![{title}](market_square.{lang}.svg)"
    assert link in md
    components = md[md.index('<a id="components"></a>'):]
    assert components.index("|") < components.index(link), "the picture follows the zones table"
    svg = ET.fromstring(fixture_files[f"marktplatz/market_square.{lang}.svg"])
    assert len(with_class(svg, "pic-node")) == 3 and len(with_class(svg, "pic-key")) == 3


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_html_rulebook_shows_the_same_svg_inline_after_the_zones(fixture_files: dict[str, str], lang: str) -> None:
    html = fixture_files[f"marktplatz/rulebook.{lang}.html"]
    svg = fixture_files[f"marktplatz/market_square.{lang}.svg"]
    section = html[html.index('<section id="components"'):]
    section = section[:section.index("</section>")]
    figure = section.index('<figure id="picture-market-square" class="picture">')
    assert section.index("</table>") < figure
    assert svg.strip() in section
    assert f'<a href="market_square.{lang}.svg"' in section[figure:], "the inline picture opens the file at full size"
