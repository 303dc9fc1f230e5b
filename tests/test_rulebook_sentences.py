"""Golden sentences: how the books say the common shapes of rules, before (as code read aloud) and after
(as a rulebook says them), in German and English. Each pair is looked up in the generated book, so a
change of the generator that brings an old wording back, or loses a new one, fails here."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
import pytest
from test_rulebook_identifiers import texts_of

from dsl.loader import read_ruleset, rulesets_dir
from rulebook.docs import rulebooks
from rulebook.model import Rulebook

MM, FF = rulesets_dir() / "maechtige_monster", rulesets_dir() / "fuerchterliche_feinde"
MF = rulesets_dir() / "magical_friends"

# (game, variants, language, what the book said before, what it says now)
GOLDEN = [
    # each player picks a monster type
    (MM, (), "en", "*p* chooses *t* from each *t* in the monster type for which the monster type of *c* is *t* for at "
                   "least one *c* in the box (monsters).",
     "The player chooses a monster type found in the box (monsters)."),
    (MM, (), "de", "*p* wählt *t* aus jedem *t* aus dem Monstertyp, bei dem für mindestens ein *c* aus der Schachtel "
                   "(Monster) gilt: der Monstertyp von *c* ist *t*.",
     "Der Spieler wählt einen Monstertyp, der in der Schachtel (Monster) vorkommt."),
    (MM, (), "en", "For each *c* in the box (monsters) for which the monster type of *c* is *t*:",
     "For every monster card in the box (monsters) whose monster type is the chosen monster type:"),
    (MM, (), "de", "Für jedes *c* aus der Schachtel (Monster), bei dem der Monstertyp von *c* *t* ist:",
     "Für jede Monsterkarte aus der Schachtel (Monster), deren Monstertyp der gewählte Monstertyp ist:"),
    # a random choice that only sets a value
    (MM, (), "en", "Pick *first_player* at random from all players.", "Choose the start player at random from all players."),
    (MM, (), "de", "Bestimme *first_player* zufällig aus allen Spielern.", "Bestimme den Startspieler zufällig aus allen Spielern."),
    # until every attack place holds two monsters; one form of address: you
    (MM, (), "en", "Starting with the start player, the players take turns clockwise until the number of cards in the "
                   "attack place *i* is 2 for every *i* in the numbers of every attack place. On each turn, where *p* "
                   "is the player whose turn it is:",
     "Starting with the start player, the players take turns clockwise until every attack place holds 2 monster cards. "
     "On your turn:"),
    (MM, (), "de", "Beginnend mit dem Startspieler sind die Spieler reihum im Uhrzeigersinn am Zug, bis für jedes *i* "
                   "aus den Nummern von jedem Anlegeplatz gilt: die Anzahl der Karten im Anlegeplatz *i* ist 2. In "
                   "jedem Zug, wobei *p* der Spieler am Zug ist:",
     "Beginnend mit dem Startspieler sind die Spieler reihum im Uhrzeigersinn am Zug, bis jeder Anlegeplatz 2 "
     "Monsterkarten enthält. In deinem Zug:"),
    (MM, (), "en", "*p* carries out one action: “Place a monster” or “Displace a monster”.",
     "You carry out one action: “Place a monster” or “Displace a monster”."),
    # pass the start player on clockwise
    (MM, (), "en", "The start player becomes the player after the start player.",
     "The next player clockwise becomes the start player."),
    (MM, (), "de", "Der Startspieler wird der Spieler nach dem Startspieler.",
     "Der nächste Spieler im Uhrzeigersinn wird der Startspieler."),
    # a loop over places says the place, not its number
    (MM, (), "en", "Turn the guard at card place *i* face up.", "Turn the guard at the card place face up."),
    (MM, (), "de", "Decke den Wächter am Kartenplatz *i* auf.", "Decke den Wächter am Kartenplatz auf."),
    (MM, (), "en", "If the pair sum at attack place *i* is at least the strength of the guard at card place *i*:",
     "If the pair sum at the attack place with the same number is at least the strength of the guard at the card place:"),
    (MM, (), "de", "Wenn die Paarsumme am Anlegeplatz *i* mindestens die Stärke vom Wächter am Kartenplatz *i* ist:",
     "Wenn die Paarsumme am Anlegeplatz mit derselben Nummer mindestens die Stärke des Wächters am Kartenplatz ist:"),
    # nested lookups said once
    (MM, (), "en", "Only allowed if the pair sum at attack place of *victim* is less than the highest strength of the "
                   "guard at card place the place number of *victim*.",
     "Only allowed if the pair sum at the attack place of monster card A is less than the highest strength of the "
     "guard at the card place matching monster card A."),
    (MM, (), "de", "Nur erlaubt, wenn die Paarsumme am Anlegeplatz von *victim* kleiner als die größte Stärke vom "
                   "Wächter am Kartenplatz die Platznummer von *victim* ist.",
     "Nur erlaubt, wenn die Paarsumme am Anlegeplatz von Monsterkarte A kleiner als die größte Stärke des Wächters am "
     "Kartenplatz passend zu Monsterkarte A ist."),
    # "is not you" → another player's
    (MM, (), "en", "If the owner of *victim* is not you:", "If monster card A belongs to another player:"),
    (MM, (), "de", "Wenn der Besitzer von *victim* nicht du ist:", "Wenn Monsterkarte A einem anderen Spieler gehört:"),
    (MM, (), "de", "Nur erlaubt, wenn dein Gold mindestens die Kosten für dich, um *victim* zu verdrängen ist.",
     "Nur erlaubt, wenn dein Gold mindestens die Kosten für dich fürs Verdrängen von Monsterkarte A ist."),
    # the owner of the stronger monster gets the odd gold piece (and not "otherwise b", a card)
    (MM, (), "en", "The bank pays 1 gold to the owner of *a* if the strength of *a* is greater than the strength of "
                   "*b*, otherwise *b*.",
     "The treasury pays 1 gold to the owner of whichever of monster card A and monster card B has the greater strength."),
    (MM, (), "de", "Die Bank zahlt 1 Gold an den Besitzer von *a*, falls die Stärke von *a* größer als die Stärke "
                   "von *b* ist, sonst *b*.",
     "Die Schatzkammer zahlt 1 Gold an den Besitzer von Monsterkarte A oder Monsterkarte B, je nachdem, wo die Stärke größer ist."),
    (MM, (), "en", "If the remainder of *loot* divided by 2 is 1 and the strength of *a* is not the strength of *b*:",
     "If the loot is odd and monster card A and monster card B differ in strength:"),
    (MM, (), "de", "Wenn der Rest von *loot* geteilt durch 2 1 ist und die Stärke von *a* nicht die Stärke von *b* ist:",
     "Wenn die Beute ungerade ist und Monsterkarte A und Monsterkarte B sich in der Stärke unterscheiden:"),
    (MM, (), "en", "The bank pays the owner of *a* gold: *loot* divided by 2, rounded down.",
     "The treasury pays half of the loot (rounded down) in gold to the owner of monster card A."),
    (MM, (), "de", "Die Bank zahlt dem Besitzer von *a* Gold, und zwar *loot* geteilt durch 2, abgerundet.",
     "Die Schatzkammer zahlt die Hälfte der Beute (abgerundet) in Gold an den Besitzer von Monsterkarte A."),
    # "at most 0" → empty
    (MM, (), "en", "The game ends as soon as a round ends and the number of cards in the king's stack is at most 0.",
     "The game ends as soon as a round ends and the king's stack is empty."),
    (MM, (), "de", "Das Spiel endet, sobald eine Runde endet und die Anzahl der Karten im Königsstapel höchstens 0 ist.",
     "Das Spiel endet, sobald eine Runde endet und der Königsstapel leer ist."),
    # a condition on a card's own value: "whose"
    (MM, (), "en", "Until the end of the round, every guard card for which the place number of the guard card is 1 "
                   "has +3 loot.",
     "Until the end of the round, every guard card whose place number is 1 has +3 loot."),
    (MM, (), "de", "Bis zum Ende der Runde hat jede Wächterkarte, bei der die Platznummer von der Wächterkarte 1 ist, "
                   "+3 Beute.",
     "Bis zum Ende der Runde hat jede Wächterkarte, deren Platznummer 1 ist, +3 Beute."),
    (MM, (), "en", "Move each *c* in the hand of *p* for which the strength of *c* is at most 2 to the reserve of *p*.",
     "Move every monster card in their hand whose strength is at most 2 to their reserve."),
    (MM, (), "de", "Lege jedes *c* aus der Hand von *p*, bei dem die Stärke von *c* höchstens 2 ist, in den Vorrat von *p*.",
     "Lege jede Monsterkarte aus seiner Hand, deren Stärke höchstens 2 ist, in seinen Vorrat."),
    # a card back to its owner
    (MM, (), "en", "Move *victim* to the hand of the owner of *victim*.", "Move monster card A to its owner's hand."),
    (MM, (), "de", "Lege *victim* in die Hand vom Besitzer von *victim*.", "Lege Monsterkarte A in die Hand des Besitzers."),
    # the print's skip rule: a displaced player plays again
    (MM, (), "en", "Whoever already has two monsters in the castle sits out until every attack place is full.",
     "Whoever already has two monsters in the castle is skipped; once one of them is displaced, that player plays again."),
    # a variant's local is said by its noun
    (MM, ("koenigs_neue_regeln",), "en", "Carry out the rule change of *tile*.", "Carry out the rule change of the king tile."),
    (MM, ("koenigs_neue_regeln",), "de", "Führe die Regeländerung von *tile* aus.",
     "Führe die Regeländerung des Königsplättchens aus."),
    # worked examples tell moves in prose: done, open, refused with the requirement's text
    (MM, (), "en", "Inga chooses “Place a monster: 1, Undead 3”.", "Inga places Undead 3 at attack place 1."),
    (MM, (), "de", "Inga wählt „Monster anlegen: 1, Untote 3“.", "Inga legt Untote 3 an den Anlegeplatz 1."),
    (MM, (), "en", "Ani may choose “Displace a monster: Sea creatures 2, Orcs 4”.",
     "Ani could displace Frank's Sea creatures 2 with Orcs 4."),
    (MM, (), "de", "Ani darf „Monster verdrängen: Meereswesen 2, Orks 4“ wählen.",
     "Ani darf Franks Meereswesen 2 mit der Karte Orks 4 verdrängen."),
    (MM, (), "en", "Ani may not choose “Displace a monster: Undead 3, Orcs 1”.",
     "Ani could not displace Inga's Undead 3 with Orcs 1: A monster can only be displaced by a stronger one."),
    (MM, (), "de", "Ani darf „Monster verdrängen: Untote 3, Orks 1“ nicht wählen.",
     "Ani darf Ingas Untote 3 mit der Karte Orks 1 nicht verdrängen: Ein Monster kann nur von einem stärkeren "
     "verdrängt werden."),
    (MM, (), "en", "Inga chooses “Displace a monster: Sea creatures 2, Undead 4”.",
     "Inga displaces Frank's Sea creatures 2 with Undead 4."),
    (MM, (), "de", "Frank wählt „Monster verdrängen: Untote 2, Meereswesen 3“.",
     "Frank verdrängt Ingas Untote 2 mit der Karte Meereswesen 3."),
    (FF, (), "en", "Yellow may not choose “Stop the monster”.",
     "Yellow could not stop the monster: A monster may not stop with another monster."),
    (FF, (), "de", "A wählt „Kämpfen: Monsterplättchen 23“.", "A kämpft gegen das Monsterplättchen 23."),
    (MF, (), "en", "Julia may not choose “Bonus movement with a bonus card: Troll, Mimimi power”.",
     "Julia could not use the bonus card Mimimi power to move the Troll: Each friend may make at most one bonus "
     "movement per turn."),
    (MF, (), "de", "Julia wählt „Beschwören: Greif, 55“.", "Julia beschwört die Kreatur Greif auf das Feld 55."),
    # a `choose` told in prose too, another player's card as theirs
    (MF, (), "en", "Klemens chooses “artifact card (colour black, value 5)”.",
     "Klemens plays the artifact card (colour black, value 5)."),
    (MF, (), "de", "Julia wählt „Heldenseele“.", "Julia schlägt mit dem Troll Klemens’ Heldenseele."),
    (MF, (), "en", "Katharina may not choose “artifact card (colour orange, value 5)”.",
     "Katharina could not play the artifact card (colour orange, value 5)."),
    # a local `moved` is not the game's flag `moved`
    (FF, (), "en", "*p* chooses *m* from each *m* in the monsters that can be moved for which the has moved this turn "
                   "does not contain *m*.",
     "The player chooses a value from every monster tile in the monsters that can be moved for which list A does "
     "not contain the monster tile."),
]


@lru_cache(maxsize=None)
def book(game: Path, variants: tuple[str, ...], lang: str) -> Rulebook:
    return rulebooks(read_ruleset(game), variants)[lang]


def all_text(game: Path, variants: tuple[str, ...], lang: str) -> str:
    return "\n".join(texts_of(book(game, variants, lang).sections))


@pytest.mark.parametrize("game,variants,lang,before,after", GOLDEN,
                         ids=[f"{g.name[:2]}-{lang}-{i}" for i, (g, _, lang, _, _) in enumerate(GOLDEN)])
def test_the_book_says_it_as_a_rulebook_does(game: Path, variants: tuple[str, ...], lang: str, before: str,
                                             after: str) -> None:
    text = all_text(game, variants, lang)
    assert after in text, after
    assert before not in text


def test_a_teleport_shows_its_own_colour_not_a_spell_colours() -> None:
    """Two enums with a value `red`: a card's value is said by its own field's enum."""
    md = all_text(FF, (), "en")
    tables = [t for s in book(FF, (), "en").sections for t in s.tables]
    teleports = [row for t in tables for row in t.rows if row and row[0] == "Red teleport"]
    assert teleports and all("enchanting" not in cell for row in teleports for cell in row)
    assert "red (enchanting monsters)" in " ".join(cell for t in tables for row in t.rows for cell in row)
    assert "Colour: red." in md
