"""French as a third rulebook language: a game declares `languages de en fr`, every text then needs its
French version, and `regelwerk docs` writes rulebook.fr.{md,html} beside the German and English ones,
linked both ways. Games that declare nothing stay German and English only."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from dsl import ast as A
from dsl.errors import RulesError
from dsl.parser import parse_text
from interpreter.cli import check_ruleset
from rulebook.docs import expected_files
from rulebook.phrases import Noun, catalogue
from rulebook.sentences import Speaker, Symbols

GAMES = Path(__file__).parent / "fixtures" / "games"
MARKT = GAMES / "marktplatz"
NBSP = "\u00a0"


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return expected_files([str(MARKT)])


def test_a_game_declaring_french_gets_french_rulebooks_linked_both_ways(files: dict[str, str]) -> None:
    assert {rel for rel in files if rel.startswith("marktplatz/")} == {
        f"marktplatz/rulebook.{lang}.{fmt}" for lang in ("de", "en", "fr") for fmt in ("md", "html", "pdf")} | {
        f"marktplatz/market_square.{lang}.svg" for lang in ("de", "en", "fr")}  # its picture, in each language
    fr_md, fr_html = files["marktplatz/rulebook.fr.md"], files["marktplatz/rulebook.fr.html"]
    assert fr_md.startswith("# Place du marché\n")
    assert "![La place du marché](market_square.fr.svg)" in fr_md and "Premier étal" in files["marktplatz/market_square.fr.svg"]
    assert "[Deutsch](rulebook.de.md) · [English](rulebook.en.md)" in fr_md
    assert "[Français](rulebook.fr.md)" in files["marktplatz/rulebook.de.md"]
    assert '<html lang="fr">' in fr_html and 'href="rulebook.en.html"' in fr_html
    assert 'href="rulebook.fr.html"' in files["marktplatz/rulebook.en.html"]


def test_the_french_rulebook_speaks_french(files: dict[str, str]) -> None:
    """Headings from the catalogue, sentences from the rules' French texts with their articles."""
    md = files["marktplatz/rulebook.fr.md"]
    for heading in ("## Sommaire", "Aperçu et but du jeu", "## <a id=\"components\"></a>Matériel",
                    "Mise en place", "Fin de la partie et décompte", f"Annexe{NBSP}: hypothèses"):
        assert heading in md, heading
    for sentence in (
            "Celui qui termine avec le moins de points de lune gagne.",
            "Piochez une marchandise de la pioche et placez-la dans l'étal.",  # elided l'
            "Vous prenez la marchandise dans votre panier.",  # `give w to me` and its move: its own verb form
            "Le joueur pioche une marchandise de la pioche et la place dans son panier.",
            f"Si l'étal est vide et que la pioche n'est pas vide{NBSP}:",  # « et que » after « si »
            "Choisissez un étal.",
            "Bonus\u00a0:\n  - Vous prenez 2 pièces à la banque.",  # paid by the bank: the payee takes it
            "tel que ses pièces valent au moins 1",  # a plural subject, a plural verb
            f"Annoncez{NBSP}: «{NBSP}le joueur achète la marchandise à (votre nom).{NBSP}»",  # the reader by name: the verb is third person
                f"Annoncez{NBSP}: «{NBSP}(votre nom) prend la marchandise.{NBSP}»"):
        assert sentence in md, sentence
    assert "dans le étal" not in md and "de le " not in md and "à le " not in md


def test_a_game_without_languages_stays_german_and_english() -> None:
    spitzel = expected_files([str(GAMES / "spitzel")])
    assert not [rel for rel in spitzel if ".fr." in rel]
    assert "Français" not in spitzel["spitzel/rulebook.de.md"]


def test_a_scenario_title_without_french_is_an_error_of_check(tmp_path: Path) -> None:
    game = tmp_path / "marktplatz"
    shutil.copytree(MARKT, game)
    scen = game / "scenarios" / "examples.rules"
    text = scen.read_text(encoding="utf-8")
    scen.write_text(text.replace('\n         fr "La marchandise de départ paie son propriétaire"', ""), encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        check_ruleset(str(game))
    message = caught.value.render()
    assert re.search(r"examples\.rules:3:\d+: error: text has no fr version", message), message
    assert "the game declares languages de en fr" in message


def test_languages_default_to_german_and_english() -> None:
    game = parse_text('game g { title de "G" en "G" }', "g.rules").items[0]
    assert isinstance(game, A.GameDef) and game.languages == ("de", "en")
    game = parse_text('game g { title de "G" en "G" fr "G" languages de en fr }', "g.rules").items[0]
    assert isinstance(game, A.GameDef) and game.languages == ("de", "en", "fr")


@pytest.mark.parametrize("text,word,the,each,your", [
    ("le panier", "panier", "le panier", "chaque panier", "votre panier"),
    ("la pioche", "pioche", "la pioche", "chaque pioche", "votre pioche"),
    ("l'étal", "étal", "l'étal", "chaque étal", "votre étal"),
    ("l’étal", "étal", "l'étal", "chaque étal", "votre étal"),  # the typographic apostrophe too
    ("les pièces", "pièces", "les pièces", "les pièces", "vos pièces"),
    ("Cadeau", "Cadeau", "Cadeau", "chaque Cadeau", "votre Cadeau"),
])
def test_a_french_text_declares_its_article(text: str, word: str, the: str, each: str, your: str) -> None:
    noun = Noun(text, catalogue("fr"))
    assert noun.word == word
    assert [noun.np(d).form("nom") for d in ("def", "each", "your", "bare")] == [the, each, your, word]


@pytest.mark.parametrize("text,plural", [
    ("le loup-garou", "loups-garous"),  # a compound of noun and adjective: both parts take the plural
    ("le sans-tête", "sans-tête"),  # one made with a preposition stays as it is
    ("l'élémentaire de terre", "élémentaires de terre"),  # the head word only
    ("le pas", "pas"),
])
def test_a_french_noun_has_its_plural(text: str, plural: str) -> None:
    assert Noun(text, catalogue("fr")).plural() == plural


VARIANT = """
variant grosser_markt {
  title de "Großer Markt" en "Big market" fr "Grand marché"
  replace const stall_count = 4 de "die Zahl der Marktstände" en "number of stalls" fr "le nombre d'étals"
  replace rule refill de "Auffüllen" en "Refill" fr "Remplir" {
    for i in positions(market) { if count(market[i]) == 0 { draw from deck to market[i] } }
  }
}
"""


def test_a_variant_of_a_french_game_has_a_french_rulebook_with_its_changes(tmp_path: Path) -> None:
    game = tmp_path / "marktplatz"
    shutil.copytree(MARKT, game)
    (game / "variants").mkdir()
    (game / "variants" / "grosser_markt.rules").write_text(VARIANT, encoding="utf-8")
    md = expected_files([str(game)])["marktplatz/grosser_markt/rulebook.fr.md"]
    assert md.startswith(f"# Place du marché{NBSP}: Grand marché\n")
    assert "[Le jeu de base](../rulebook.fr.md)" in md
    assert f"### remplacé{NBSP}: Règle «{NBSP}Remplir{NBSP}»" in md
    assert f"*avant{NBSP}:*" in md and f"*après{NBSP}:*" in md
    assert "Piochez une marchandise de la pioche et placez-la dans l'étal." in md


def test_a_variant_title_without_french_is_a_load_error(tmp_path: Path) -> None:
    game = tmp_path / "marktplatz"
    shutil.copytree(MARKT, game)
    (game / "variants").mkdir()
    (game / "variants" / "grosser_markt.rules").write_text(VARIANT.replace(' fr "Grand marché"', ""),
                                                           encoding="utf-8")
    with pytest.raises(RulesError, match="grosser_markt.rules:3:9: error: text has no fr version"):
        check_ruleset(str(game))


@pytest.mark.parametrize("said,polished", [
    ("si vous est plus sage que le joueur", "si vous êtes plus sage que le joueur"),  # « vous » as subject: the verb agrees
    ("une case que vous a quittée", "une case que vous avez quittée"),
    ("au décompte final, vous perdra 1 pièce", "au décompte final, vous perdrez 1 pièce"),
    ("si vous se trouve sur une tuile et ne peut pas avancer", "si vous vous trouvez sur une tuile et ne pouvez pas avancer"),
    ("les joueurs vers lesquels vous peut se déplacer", "les joueurs vers lesquels vous pouvez vous déplacer"),
    ("un jeton qui vous arrête", "un jeton qui vous arrête"),  # « vous » as object stays
    ("un joueur ayant 2 points de plus que vous se trouve là", "un joueur ayant 2 points de plus que vous se trouve là"),  # a comparison
    ("si la figurine de vous est libre", "si votre figurine est libre"),  # « de vous » is a possessive
    ("parmi les jetons de déplacement de vous", "parmi vos jetons de déplacement"),
    ("jusqu'à ce que les tuiles 9 et 10 ont été posées", "jusqu'à ce que les tuiles 9 et 10 aient été posées"),
    ("choisissez une rangée des rangées libres", "choisissez l'une des rangées libres"),  # a choice among its own kind
    ("choisissez un jeton de vos jetons en main", "choisissez l'un de vos jetons en main"),
    ("la intersection", "l'intersection"),  # a feminine noun before a vowel: « la » elided in print …
    ("sa intersection", "son intersection"),  # … and « son » before it
])
def test_french_sentences_are_polished(said: str, polished: str) -> None:
    assert catalogue("fr").contract(said) == polished


def test_a_feminine_noun_written_with_la_keeps_its_gender_before_a_vowel() -> None:
    noun = Noun("la intersection", catalogue("fr"))
    assert noun.feminine()
    assert [catalogue("fr").contract(noun.np(d).form("nom")) for d in ("def", "indef", "this")] == \
        ["l'intersection", "une intersection", "cette intersection"]


@pytest.mark.parametrize("part,plural", [
    ("compte comme maléfique pour une capacité", "comptent comme maléfiques pour une capacité"),  # a predicate agrees
    ("ne compte pas comme grande", "ne comptent pas comme grandes"),
    ("peut être battue ou empoisonnée maintenant", "peuvent être battues ou empoisonnées maintenant"),
    ("n'est pas une catapulte", "ne sont pas des catapultes"),
    ("est déjà disponible", "sont déjà disponibles"),
    ("est encore sur le plateau", "sont encore sur le plateau"),  # a place: only the verb
    ("est la case de départ", None),  # an identity does not agree: « telles que … »
    ("est très grande", None),  # nor an adverb
    ("est face cachée", None),  # nor a fixed phrase
])
def test_a_french_relative_clause_after_a_plural_agrees_in_full_or_not_at_all(part: str, plural: str | None) -> None:
    speaker = Speaker("fr", Symbols([]))
    assert speaker.agreed(part, speaker.plural_verbs()) == plural
