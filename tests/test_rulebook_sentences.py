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
from rulebook.model import Entry, Rulebook, Section
from rulebook.phrases import catalogue

MM, FF = rulesets_dir() / "maechtige_monster", rulesets_dir() / "fuerchterliche_feinde"
MF = rulesets_dir() / "magical_friends"

# (game, variants, language, what the book said before, what it says now)
GOLDEN = [
    # each player picks a monster type
    (MM, (), "en", "*p* chooses *t* from each *t* in the monster type for which the monster type of *c* is *t* for at "
                   "least one *c* in the box (monsters).",
     "The player chooses a monster type still in the box."),
    (MM, (), "de", "*p* wählt *t* aus jedem *t* aus dem Monstertyp, bei dem für mindestens ein *c* aus der Schachtel "
                   "(Monster) gilt: der Monstertyp von *c* ist *t*.",
     "Der Spieler wählt einen Monstertyp, dessen Karten noch in der Schachtel liegen."),
    # the bots' rating told term by term, a number times a term in words, not as a formula
    (MM, (), "en", "their gold, plus 2 times the sum", "as their gold plus 2 times the sum of the strengths of their monster cards at the attack places."),
    (MM, (), "de", "sein Gold, dazu 2-mal die Summe", "so: sein Gold plus 2-mal die Summe der Stärken seiner Monsterkarten an allen Anlegeplätzen."),
    # a number named in the plural counts its items one by one
    (MF, (), "de", "Für die zu zählenden Felder jeweils einmal:", "Für jedes der zu zählenden Felder:"),
    # what was drawn at random, said again: "this side"
    (MF, (), "en", "Place the element with the side face up.", "Place the element with this side face up."),
    (MF, (), "de", "Lege das Element mit der Seite nach oben.", "Lege das Element mit dieser Seite nach oben."),
    # a number times things said in the plural counts them; a place named by its cards' plural is counted by that name
    (MF, (), "en", "the number of cards in their bonus cards",
     "as 10 times the number of their friends in the tavern (including bonus friends), plus the sum"),
    (MF, (), "en", "divided by 10, rounded down", "divided by 10 (rounded down), plus the number of their bonus cards."),
    (MF, (), "de", "die Anzahl der Karten in seinen Bonuskarten",
     "so: 10-mal die Anzahl seiner Freunde in der Taverne (samt Bonusfreunden), dazu"),
    (MF, (), "de", "geteilt durch 10, abgerundet", "geteilt durch 10 (abgerundet), dazu die Anzahl seiner Bonuskarten."),
    # a list parameter with its own noun: a call fills it whole, one item of it is said by the list's kind
    (MF, (), "en", "with the friends the friends of the player on the board",
     "the wand power of the player with their friends on the board."),
    (MF, (), "de", "mit den Freunden seine Freunde auf dem Spielplan", "diejenige mit seinen Freunden auf dem Spielplan."),
    (MF, (), "en", "for all friends (B) in the friends", "for every creature in the friends +"),
    # a function's text inside its own call says its aside once
    (MF, (), "en", "the square (0 at a fork) (0 at a fork)", "the square straight on after the square straight on after the square (0 at a fork) and"),
    (MF, (), "de", "dem Feld (0 an einer Abzweigung) (0 an einer Abzweigung)",
     "dem Feld geradeaus nach dem Feld geradeaus nach dem Feld (0 an einer Abzweigung) und"),
    # a value by the player count in the table of values: the common value, then the others
    (MM, (), "en", "6 with 3 players, 6 with 4 players, 5 with 5 players and 6 with 6 players", "6 (5 with 5 players)"),
    (MM, (), "de", "bei 3 Spielern 6, bei 4 Spielern 6, bei 5 Spielern 5 und bei 6 Spielern 6", "6 (bei 5 Spielern 5)"),
    # a loop that only moves its items is one sentence; a card given and moved is taken, from where it lies
    (MM, (), "en", "For every monster card in the box (monsters) whose monster type is the chosen monster type:",
     "The player takes every monster card of the chosen monster type from the box into their reserve."),
    # a card whose field is the value just chosen is "of the chosen …", not a relative clause comparing them
    (MM, (), "en", "whose monster type is the chosen monster type", "of the chosen monster type"),
    (MM, (), "de", "deren Monstertyp der gewählte Monstertyp ist", "des gewählten Monstertyps aus der Schachtel in"),
    (MM, (), "de", "Für jede Monsterkarte aus der Schachtel (Monster), deren Monstertyp der gewählte Monstertyp ist:",
     "Der Spieler nimmt alle Monsterkarten des gewählten Monstertyps aus der Schachtel in seinen Vorrat."),
    (MM, (), "en", "For every monster card at an attack place:",
     "Move every monster card at an attack place to its owner's reserve."),
    (MM, (), "de", "Für jede Monsterkarte an einem Anlegeplatz:",
     "Lege alle Monsterkarten an allen Anlegeplätzen in den Vorrat ihrer Besitzer."),
    (MM, (), "en", "For every card place, in order:\nDraw one card from the guard deck to the card place.",
     "For every card place, draw one guard card from the guard deck and put it there."),
    (MM, (), "en", "For every card place:\nMove the guard at the card place to the guard discard pile.",
     "Move the guard at every card place onto the guard discard pile."),
    (MM, (), "de", "Für jeden Kartenplatz:\nLege den Wächter am Kartenplatz in den Wächter-Ablagestapel.",
     "Lege die Wächter an allen Kartenplätzen auf den Wächter-Ablagestapel."),
    (MM, (), "en", "The owner of the monster card pays the heal cost of the monster card in gold to the treasury",
     "The owner of every monster card at the attack place pays its heal cost in gold to the treasury (anyone who cannot "
     "pay in full pays all they have)."),
    (MM, (), "en", "pays its heal cost in gold to the treasury (at most what they have).",
     "pays its heal cost in gold to the treasury (anyone who cannot pay in full pays all they have)."),
    (MM, (), "de", "Der Besitzer der Monsterkarte zahlt die Heilkosten der Monsterkarte in Gold an die Schatzkammer",
     "Für jede Monsterkarte am Anlegeplatz zahlt der Besitzer deren Heilkosten in Gold an die Schatzkammer (wer nicht "
     "genug hat, zahlt alles, was er hat)."),
    (MM, (), "de", "Der Besitzer von jeder Monsterkarte am Anlegeplatz zahlt deren Heilkosten in Gold an die Schatzkammer "
                   "(höchstens so viel, wie vorhanden ist).", "Für jede Monsterkarte am Anlegeplatz zahlt der Besitzer"),
    # a loop's order is said where it matters: someone decides, or it may stop early
    (MM, (), "en", "For each player, in seat order:", "In seat order, each player does the following:"),
    (MM, (), "de", "Für jeden Spieler, in Sitzreihenfolge:", "Reihum macht jeder Spieler Folgendes:"),
    (MM, (), "en", "For every card place, in order:", "Go through the card places in order, starting with card place 1:"),
    (MM, (), "de", "Für jeden Kartenplatz, der Reihe nach:",
     "Gehe die Kartenplätze der Reihe nach durch, beginnend mit Kartenplatz 1:"),
    (MM, (), "en", "Stop here; the remaining ones are skipped.", "The remaining card places are skipped."),
    (MM, (), "de", "Hier endet der Durchgang; die übrigen entfallen.", "Die übrigen Kartenplätze werden übersprungen."),
    (MM, (), "de", "Die übrigen Kartenplätze entfallen.", "Die übrigen Kartenplätze werden übersprungen."),
    (MM, (), "de", "Für jeden Anlegeplatz, der Reihe nach:",
     "Für jeden Anlegeplatz, der zum verlorenen Kampf oder zu einem noch verdeckten Wächter gehört:"),
    (MM, (), "en", "For every attack place, in order:",
     "For every attack place that lost its fight or faces a guard still face down:"),
    # what is drawn is named by its kind, not "cards"
    (MM, (), "en", "Draw 6 cards (5 with 5 players) from the box", "Draw 6 king tiles (5 with 5 players) from the box"),
    (MM, (), "de", "Ziehe eine Karte vom Wächterstapel auf jeden Kartenplatz.",
     "Lege je eine Wächterkarte vom Wächterstapel auf jeden Kartenplatz."),
    # a player's own cards counted, said as what they have, not as "the number of … that belong to you is 2"
    (MM, (), "de", "die Zahl der Monster von dir im Schloss 2 ist", "wenn du 2 Monsterkarten an den Anlegeplätzen hast"),
    # a random choice that only sets a value
    (MM, (), "en", "Pick *first_player* at random from all players.", "Choose the start player at random."),
    (MM, (), "de", "Bestimme *first_player* zufällig aus allen Spielern.", "Bestimme den Startspieler zufällig."),
    # a loop over the players that only moves: one sentence with "each player"
    (MM, (), "en", "For each player, in seat order:\nMove the cards in their reserve to their hand.",
     "Each player moves the monster cards in their reserve into their hand."),
    (MM, (), "de", "Für jeden Spieler, in Sitzreihenfolge:\nLege die Karten in seinem Vorrat in seine Hand.",
     "Jeder Spieler legt die Monsterkarten in seinem Vorrat auf seine Hand."),
    # until every attack place holds two monsters; one form of address: you
    (MM, (), "en", "Starting with the start player, the players take turns clockwise until the number of cards in the "
                   "attack place *i* is 2 for every *i* in the numbers of every attack place. On each turn, where *p* "
                   "is the player whose turn it is:",
     "Starting with the start player, the players take turns clockwise until every attack place holds 2 monster cards. "
     "On your turn:"),
    (MM, (), "de", "Beginnend mit dem Startspieler sind die Spieler reihum im Uhrzeigersinn am Zug, bis für jedes *i* "
                   "aus den Nummern von jedem Anlegeplatz gilt: die Anzahl der Karten im Anlegeplatz *i* ist 2. In "
                   "jedem Zug, wobei *p* der Spieler am Zug ist:",
     "Beginnend mit dem Startspieler sind die Spieler im Uhrzeigersinn am Zug, bis an jedem Anlegeplatz 2 "
     "Monsterkarten liegen. In deinem Zug:"),
    # cards lie at a place (German "liegen"), a place does not "contain" them; one card is singular
    (MM, (), "de", "bis jeder Anlegeplatz 2 Monsterkarten enthält", "bis an jedem Anlegeplatz 2 Monsterkarten liegen"),
    (FF, (), "en", "holds exactly 1 intersection tiles", "holds exactly 1 intersection tile and"),
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
     "If the pair sum at the matching attack place is at least the strength of the guard at the card place:"),
    (MM, (), "de", "Wenn die Paarsumme am Anlegeplatz *i* mindestens die Stärke vom Wächter am Kartenplatz *i* ist:",
     "Wenn die Paarsumme am zugehörigen Anlegeplatz mindestens so groß wie die Stärke des Wächters am Kartenplatz ist:"),
    (MM, (), "de", "oder der Wächter am Kartenplatz mit derselben Nummer verdeckt ist:",
     "oder der Wächter am Kartenplatz ist verdeckt."),
    # nested lookups said once
    (MM, (), "en", "Only allowed if the pair sum at attack place of *victim* is less than the highest strength of the "
                   "guard at card place the place number of *victim*.",
     "The pair sum at the attack place must be less than the highest strength on the back of the guard at the matching "
     "card place."),
    (MM, (), "de", "Nur erlaubt, wenn die Paarsumme am Anlegeplatz von *victim* kleiner als die größte Stärke vom "
                   "Wächter am Kartenplatz die Platznummer von *victim* ist.",
     "Die Paarsumme am Anlegeplatz muss kleiner als die größte Stärke auf der Rückseite des Wächters am zugehörigen "
     "Kartenplatz sein."),
    # bookkeeping: a reset of an internal value is not said, a place only named is not noted, a card is called by its letter
    (MM, (), "en", "The place of the lost fight becomes 0.", "Go through the card places in order"),
    (MM, (), "de", "Der Platz des verlorenen Kampfes wird 0.", "Gehe die Kartenplätze der Reihe nach durch"),
    (MM, (), "en", "Note the attack place of monster card A.", "Move the new monster to the attack place."),
    (MM, (), "de", "Merke dir den Anlegeplatz von Monsterkarte A.", "Du zahlst 1 Gold an die Schatzkammer."),
    (MM, (), "en", "The number of the lost fight becomes the number of the card place.",
     "The fight at the card place is lost."),
    (MM, (), "de", "Die Nummer des verlorenen Kampfes wird die Nummer des Kartenplatzes.",
     "Der Kampf am Kartenplatz ist verloren."),
    # a place in scope compared with the place remembered: the places, not their numbers
    (MM, (), "en", "If the number of the attack place is the number of the lost fight",
     "the card place is the place where the fight was lost or the guard"),
    (MM, (), "de", "Wenn die Nummer des Anlegeplatzes die Nummer des verlorenen Kampfes ist",
     "der Kartenplatz ist der Platz des verlorenen Kampfes oder"),
    (MM, (), "en", "Monster card A is the first card of the attack place with the same number.",
     "Look at the two monsters at the matching attack place."),
    # the first and the last card of a place that holds just these two: a pair, said together
    (MM, (), "en", "The first monster is the first monster card at the matching attack place.",
     "Look at the two monsters at the matching attack place."),
    (MM, (), "de", "Das erste Monster ist die erste Monsterkarte am zugehörigen Anlegeplatz.",
     "Sieh dir die beiden Monster am zugehörigen Anlegeplatz an."),
    (MM, (), "en", "If the first monster and the second monster belong to the same player:",
     "If both monsters belong to the same player:"),
    (MM, (), "de", "Wenn das erste Monster und das zweite Monster demselben Spieler gehören:",
     "Wenn beide Monster demselben Spieler gehören:"),
    (MM, (), "de", "Monsterkarte A ist die erste Karte des Anlegeplatzes mit derselben Nummer.",
     "Sieh dir die beiden Monster am zugehörigen Anlegeplatz an."),
    # locals with their own nouns, not letters; German declines the adjective and the noun
    (MM, (), "en", "Monster card A is the first monster card at the matching attack place, monster card B the last one.",
     "If both monsters belong to the same player:"),
    (MM, (), "de", "Der Besitzer des erstes Monster", "Der Besitzer der beiden Monster erhält die Beute"),
    (MM, (), "de", "Besitzer des verdrängtes Monster", "Du zahlst dem Besitzer des zu verdrängenden Monsters die Entschädigung"),
    # the top tile, not "card", of a stack of tiles; a picked card moved at once is said in one sentence
    (MM, (), "en", "Move the top card of the king's stack to the box (king tiles).",
     "Move the top king tile of the king's stack to the box."),
    (MM, (), "de", "Lege die oberste Karte des Königsstapels in die Schachtel (Königsplättchen).",
     "Lege das oberste Königsplättchen des Königsstapels in die Schachtel."),
    (MM, ("koenigs_neue_regeln",), "en", "The king tile is the top card of the king's stack.",
     "Move the top king tile of the king's stack to the king's display."),
    (MM, ("koenigs_neue_regeln",), "de", "Das Königsplättchen ist die oberste Karte des Königsstapels.",
     "Lege das oberste Königsplättchen des Königsstapels in die Königsauslage."),
    (MM, (), "en", "The loot is the larger of 0 and the loot of the guard at the card place.",
     "The loot is the amount shown on the guard at the card place (never less than 0)."),
    (MM, (), "en", "The loot is the loot of the guard at the card place (never less than 0).",
     "The loot is the amount shown on the guard at the card place (never less than 0)."),
    (MM, (), "de", "Die Beute ist das Größere von 0 und der Beute des Wächters am Kartenplatz.",
     "Es gilt die Beute, die auf dem Wächter am Kartenplatz steht (nie weniger als 0)."),
    (MM, (), "de", "Die Beute ist die Beute des Wächters am Kartenplatz (nie weniger als 0).",
     "Es gilt die Beute, die auf dem Wächter am Kartenplatz steht (nie weniger als 0)."),
    # a rule called from another is said as the step it is, with its title to look it up, not as a goto
    (MM, (), "en", "Continue with “Lay out the guards”.", "Lay out the guards (see “Lay out the guards”)."),
    (MM, (), "de", "Nun folgt „Wächter auslegen“.", "Lege die Wächter aus (siehe „Wächter auslegen“)."),
    (MM, (), "en", "Continue with “Share the loot” for the card place.",
     "The guard at the card place is beaten and its loot is shared (see “Share the loot”)."),
    (MM, (), "de", "Nun folgt „Beute teilen“ für den Kartenplatz.", "Der Wächter am Kartenplatz ist besiegt und seine Beute wird geteilt (siehe „Beute teilen“)."),
    # the reader's own part is not passed on aloud: "battle", not "battle for you"
    (FF, (), "en", "Battle for you (see “Battle or not”).", "Battle if you like (see “Battle or not”)."),
    # a value changed by itself is said as the change
    (FF, (), "en", "The time stamp becomes the time stamp + 1.", "The player puts their wisdom marker on the space of the wisdom track that matches the place in turn order"),
    (MF, (), "de", "Die verbleibenden Schritte werden die verbleibenden Schritte − 1.",
     "Für jedes der Felder der Bewegung, solange die Kreatur auf dem Spielplan steht:"),
    (MF, (), "en", "The steps left to go becomes the steps left to go − 1.",
     "Once for each of the steps of the movement, as long as the creature is on the board:"),
    (FF, (), "de", "Die gesetzten Monster werden die gesetzten Monster gefolgt von",
     "Das Monster nimmt diese Spieler mit."),
    (FF, (), "en", "The carried players becomes no cards.", "The monster leaves the players it carries there."),
    # a game that ends at once where a rule says `end game` says so in its game-end chapter, before the round's end
    (FF, (), "en", "The game ends as soon as a round ends and the number of monsters 49 and 50 beaten is at least 2.",
     "The game ends at once as soon as monsters 49 and 50 have both been beaten (see “After the victory”)."),
    # a round that repeats only while the game has not ended at once adds no second way to end
    (FF, (), "en", "Otherwise, it ends as soon as a round ends and monsters 49 and 50 have both been beaten.",
     "The game ends at once as soon as monsters 49 and 50 have both been beaten"),
    (FF, (), "de", "Das Spiel endet, sobald eine Runde endet und die Zahl",
     "Das Spiel endet sofort, sobald die Monster 49 und 50 beide besiegt sind (siehe „Nach dem Sieg“)."),
    # the cards of a place by their kind ("the king tiles"); "with the lowest level" next to its noun; German rounds
    (MM, (), "en", "Move the cards in the king's display to the box.", "Shuffle the king tiles in the king's display into the box."),
    (MM, (), "de", "Lege die Karten in der Königsauslage in die Schachtel.",
     "Mische die Königsplättchen in der Königsauslage in die Schachtel ein."),
    (MM, (), "en", "Move the guard card from the guard display with the lowest level onto the card place.",
     "For every card place in turn, move the guard card with the lowest level from the guard display onto it."),
    (MM, (), "de", "Lege die Wächterkarte aus der Wächterauslage mit dem niedrigsten Level auf den Kartenplatz.",
     "Lege der Reihe nach auf jeden Kartenplatz jeweils die Wächterkarte mit dem niedrigsten Level aus der Wächterauslage."),
    (MM, (), "de", "Jede Runde hat diese Phasen, in dieser Reihenfolge:",
     "Jede Runde besteht aus drei Phasen, die nacheinander abgehandelt werden:"),
    (MM, (), "de", "reihum im Uhrzeigersinn", "sind die Spieler im Uhrzeigersinn am Zug"),
    # a card drawn afresh for each place of a loop: "one card per place", not "one card onto every place"
    (FF, (), "fr", "Piochez un téléporteur de la pile de téléporteurs et placez-le sur chaque case de téléporteur.",
     "Sur chaque case de téléporteur, placez un téléporteur tiré de la pile de téléporteurs."),
    # a short object stands before « face visible », a long one after it (tests/golden/sentences.fr.txt:
    # « Retournez face visible le pion du dessus du sac. »)
    (FF, (), "fr", "Retournez face visible le sort.", "Retournez le sort face visible."),
    (FF, (), "fr", "Retournez face visible la tuile intersection.", "Retournez la tuile intersection face visible."),
    # French: the place in scope keeps the text's own article ("sur la case"), no second one
    (FF, (), "fr", "sur la le case", "Si un monstre se trouve sur votre case et que votre figurine n'est pas invisible"),
    # a game flag with a `not` text: cleared and negated with it; a German clause starting with an article is no flag
    (FF, (), "en", "From now on, no longer: a battle is being decided.", "As long as you have not yet decided for or against the battle"),
    (FF, (), "de", "Setze den Spieler am Zug muss anhalten.", "Du musst anhalten."),
    (FF, (), "de", "Das Monster muss im nächsten freien Raum halten ist gesetzt wird",
     "Das Monster muss im nächsten freien Raum halten."),
    # a counter counted down from a value named in the plural is said as the times, and goes unsaid
    (MF, (), "en", "Subtract 1 from the steps left to go.", "Once for each of the squares it is shoved, as long as"),
    (MF, (), "de", "Verringere die verbleibenden Schritte um 1.", "Für jedes der Felder, um die sie geschoben wird, solange"),
    # a minimum with a fixed bound, or of two values, is the value "never more than" the bound
    (FF, (), "de", "das Kleinere vom Preis", "zahle den Preis des Kampfes (nie mehr als deine Kraftchips; siehe „Kampf verloren“)"),
    # two brackets in a row make one; after "each player" as the subject, what is "the player's" is theirs
    (FF, (), "en", "(never more than your power chips) (see", "pay the battle cost (never more than your power chips; see “Battle lost”)"),
    (FF, (), "de", "zählt jeder Spieler das Gold des Spielers", "Am Ende des Spiels zählt jeder Spieler sein Gold;"),
    (FF, (), "en", "the power chip total of the player", "each player counts their gold; in a tie, their power chip total"),
    (FF, (), "de", "(nie mehr als der Zahl", "zwischen 1 und dem Wert des Zauberspruchs (nie mehr als die Zahl der Kraftchips außerhalb des Spiels)"),
    # German: a refused move in an example puts „nicht“ before its goal; a told choice's condition follows the text
    (FF, (), "de", "auf das Feld 101 nicht ziehen",
     'Gelb könnte das wandernde Monster nicht auf das Feld 101 ziehen'),
    (MF, (), "de", "vorwärts, falls", "wird 1 Feld vorwärtsgeschoben, falls die gewählte Kreatur direkt hinter dieser Kreatur steht, sonst zurückgeschoben"),
    # German: a name in a table declines its adjectives strong, the first of a list takes its items' gender
    (FF, (), "de", "erste Stapel\n",
     'Erster Stapel'),
    (MF, (), "de", "der Erste der Felder des",
     'Das Ziel des Sturmangriffs ist das erste der Felder des Sturmangriffs, auf dem eine andere Kreatur steht.'),
    # a count compared with 0 of a value named in the plural: "there are …"
    (FF, (), "en", "spell paid for is greater than 0", "As long as there are unpaid steps beyond 6:"),
    (FF, (), "de", "Die Zahl der verbleibenden Räume muss größer als 0 sein.", "Nur erlaubt, wenn das Monster noch weiterziehen darf."),
    (MF, (), "en", "2-step bonus movements is greater than 0", "If the third wizard still has his free 2-step bonus movement:"),
    # a flag set from a condition says "otherwise no longer": the same statement run again (or another) may have made it true
    (FF, (), "en", "otherwise not.", "The monster must stop in the next free chamber."),
    (MF, (), "en", "a wing rental, otherwise not.", "The friend gets a borrowed wing."),
    (MF, ("maechtige_magier",), "en", "a wing rental, otherwise not.",
     "The friend gets a borrowed wing."),
    (MF, ("maechtige_magier",), "de", "ein Flügel-Verleih ist, sonst nicht.",
     "Der Freund bekommt einen geliehenen Flügel."),
    # a condition or yes/no field with a `not` text is negated with it, not "it is not the case that"
    (FF, (), "en", "If it is not the case that a monster stands on space the value:", "If no monster stands on your space:"),
    (FF, (), "en", "it is not the case that the invisible of the playing figure of yours",
     "your playing figure is not invisible"),
    (FF, (), "de", "nicht gilt: unsichtbar der Spielfigur von dir", "deine Spielfigur nicht unsichtbar ist"),
    # a condition without parameters is a clause too: German "wenn gilt: …", not a main clause after "wenn"
    (FF, (), "de", "Wenn die Monster 49 und 50 sind beide besiegt:", "Wenn die Monster 49 und 50 beide besiegt sind:"),
    # "is not you" → another player's
    (MM, (), "en", "If the owner of *victim* is not you:", "If the target monster belongs to another player:"),
    (MM, (), "de", "Wenn der Besitzer von *victim* nicht du ist:", "Wenn das zu verdrängende Monster einem anderen Spieler gehört:"),
    (MM, (), "de", "Nur erlaubt, wenn dein Gold mindestens die Kosten für dich, um *victim* zu verdrängen ist.",
     "Du musst die Verdrängungskosten für das zu verdrängende Monster bezahlen können."),
    (MM, (), "en", "Only allowed if your gold is at least the cost for you to displace monster card A.",
     "You must be able to pay the cost of displacing the target monster."),
    (MM, (), "en", "You must be able to pay the cost for you to displace monster card A.",
     "You must be able to pay the cost of displacing the target monster."),
    # a requirement is a full sentence; one whose own text says it is not said twice
    (MM, (), "en", "Only allowed if the attack place holds fewer than 2 monster cards.",
     "The attack place must hold at most 1 monster card."),
    (MM, (), "de", "Nur erlaubt, wenn der Anlegeplatz weniger als 2 Monsterkarten enthält.",
     "Am Anlegeplatz darf noch höchstens 1 Monsterkarte liegen."),
    (MM, (), "de", "Der Anlegeplatz muss weniger als 2 Monsterkarten enthalten.",
     "Am Anlegeplatz darf noch höchstens 1 Monsterkarte liegen."),  # before the move: „noch“
    (MM, (), "en", "Only allowed if the strength of monster card A is less than the strength of monster card B.",
     "The strength of the target monster must be less than that of the new monster."),
    (MM, (), "de", "Nur erlaubt, wenn die Stärke von Monsterkarte A kleiner als die Stärke von Monsterkarte B ist.",
     "Die Stärke des zu verdrängenden Monsters muss kleiner als die des neuen Monsters sein."),
    (MM, (), "en", "Only allowed if the strength of monster card A is less than 5.",
     "A strength-5 monster cannot be displaced."),
    (MM, (), "de", "Nur erlaubt, wenn die Stärke von Monsterkarte A kleiner als 5 ist.",
     "Ein Monster mit Stärke 5 kann nicht verdrängt werden."),
    # the owner of the stronger monster gets the odd gold piece (and not "otherwise b", a card)
    (MM, (), "en", "The bank pays 1 gold to the owner of *a* if the strength of *a* is greater than the strength of "
                   "*b*, otherwise *b*.",
     "The owner of the monster card with the greater strength takes 1 gold from the treasury."),
    # card A and card B are the two cards in scope: not named again in brackets
    (MM, (), "en", "The owner of the monster card with the greater strength (monster card A or monster card B) takes",
     "The owner of the monster card with the greater strength takes 1 gold"),
    (MM, (), "de", "Die Bank zahlt 1 Gold an den Besitzer von *a*, falls die Stärke von *a* größer als die Stärke "
                   "von *b* ist, sonst *b*.",
     "Der Besitzer der Monsterkarte mit der größeren Stärke erhält 1 Gold aus der Schatzkammer."),
    (MM, (), "de", "Der Besitzer der Monsterkarte mit der größeren Stärke (Monsterkarte A oder Monsterkarte B) erhält",
     "Der Besitzer der Monsterkarte mit der größeren Stärke erhält"),
    (MM, (), "en", "If the remainder of *loot* divided by 2 is 1 and the strength of *a* is not the strength of *b*:",
     "If the loot is odd and the two monsters differ in strength:"),
    (MM, (), "de", "Wenn der Rest von *loot* geteilt durch 2 1 ist und die Stärke von *a* nicht die Stärke von *b* ist:",
     "Wenn die Beute ungerade ist und die beiden Monster sich in der Stärke unterscheiden:"),
    (MM, (), "en", "The bank pays the owner of *a* gold: *loot* divided by 2, rounded down.",
     "The owners of the two monsters each take half of the loot (rounded down) in gold from the treasury."),
    (MM, (), "de", "Die Bank zahlt dem Besitzer von *a* Gold, und zwar *loot* geteilt durch 2, abgerundet.",
     "Die Besitzer der beiden Monster erhalten je die Hälfte der Beute (abgerundet) in Gold aus der Schatzkammer."),
    # a payment from the bank is taken by its payee
    (MM, (), "en", "The treasury pays the loot in gold to the owner of monster card A.",
     "The owner of the two monsters takes the loot in gold from the treasury."),
    (MM, (), "de", "Die Schatzkammer zahlt die Beute in Gold an den Besitzer von Monsterkarte A.",
     "Der Besitzer der beiden Monster erhält die Beute in Gold aus der Schatzkammer."),
    # card backs
    (MM, (), "en", "The back of every king tile shows no values.", "King tiles have plain backs."),
    (MM, (), "de", "Auf der Rückseite zeigt jedes Königsplättchen keine Werte.",
     "Königsplättchen haben eine einheitliche Rückseite."),
    (MM, (), "en", "The back of every guard card shows its level, lowest strength, highest strength, lowest loot and "
                   "highest loot.", "The back of every guard card shows its level, strength range and loot range."),
    (MM, (), "de", "Auf der Rückseite zeigt jede Wächterkarte nur: Level, kleinste Stärke, größte Stärke, kleinste "
                   "Beute und größte Beute.",
     "Die Rückseite jeder Wächterkarte zeigt nur das Level, die Spanne der Stärke und die Spanne der Beute."),
    (MM, (), "de", "Auf der Rückseite zeigt jede Monsterkarte nur: Monstertyp.",
     "Die Rückseite jeder Monsterkarte zeigt nur den Monstertyp."),
    # "at most 0" → empty
    (MM, (), "en", "The game ends as soon as a round ends and the number of cards in the king's stack is at most 0.",
     "The game ends as soon as a round ends and the king's stack is empty."),
    (MM, (), "de", "Das Spiel endet, sobald eine Runde endet und die Anzahl der Karten im Königsstapel höchstens 0 ist.",
     "Das Spiel endet, wenn am Ende einer Runde der Königsstapel leer ist."),
    # a condition on a card's own value: "whose"
    (MM, (), "en", "Until the end of the round, every guard card for which the place number of the guard card is 1 "
                   "has +3 loot.",
     "This round, the first guard card has +3 loot."),
    (MM, (), "de", "Bis zum Ende der Runde hat jede Wächterkarte, bei der die Platznummer von der Wächterkarte 1 ist, "
                   "+3 Beute.",
     "In dieser Runde hat die erste Wächterkarte +3 Beute."),
    # the cards of numbered places by their rank; two changes of one card in one sentence
    (MM, (), "en", "Until the end of the round, every guard card whose place number is at least the number of players "
                   "− 1 has +4 loot.", "This round, the last two guard cards have +4 loot."),
    (MM, (), "de", "Bis zum Ende der Runde hat jede Wächterkarte, deren Platznummer mindestens die Spielerzahl − 1 ist, "
                   "+4 Beute.", "In dieser Runde haben die letzten beiden Wächterkarten +4 Beute."),
    (MM, (), "en", "Until the end of the round, every guard card whose place number is at most 2 has −2 loot.",
     "This round, the first two guard cards have −2 loot."),
    (MM, (), "de", "Bis zum Ende der Runde hat jede Wächterkarte, deren Platznummer höchstens 2 ist, −2 Beute.",
     "In dieser Runde haben die ersten beiden Wächterkarten −2 Beute."),
    (MM, (), "en", "Until the end of the round, every guard card whose place number is the number of players has "
                   "−3 strength.", "This round, the last guard card has −3 strength and −5 loot."),
    (MM, (), "de", "Bis zum Ende der Runde hat jede Wächterkarte, deren Platznummer die Spielerzahl ist, −3 Stärke.",
     "In dieser Runde hat die letzte Wächterkarte −3 Stärke und −5 Beute."),
    (MM, (), "en", "Until the end of the round, the heal cost of every monster card whose strength is at least 4 is 4.",
     "This round, every monster card whose strength is at least 4 has a heal cost of 4."),
    (MM, (), "de", "Bis zum Ende der Runde hat jede Monsterkarte, deren Stärke mindestens 4 ist, den Wert 4 als "
                   "Heilkosten.", "In dieser Runde hat jede Monsterkarte, deren Stärke mindestens 4 ist, Heilkosten 4."),
    (FF, (), "en", "Until the end of the turn, the invisible of every playing figure owned by the player is true.",
     "This turn, your playing figure is invisible."),
    (FF, (), "de", "Bis zum Ende des Zuges hat jede Spielfigur, die dem Spieler gehört, den Wert wahr als unsichtbar.",
     "In diesem Zug ist deine Spielfigur unsichtbar."),
    (MM, (), "en", "Move each *c* in the hand of *p* for which the strength of *c* is at most 2 to the reserve of *p*.",
     "Each player moves every monster card in their reserve whose strength is at least 3 into their hand and every monster card in their hand whose strength is at most 2 to their reserve."),
    (MM, (), "de", "Lege jedes *c* aus der Hand von *p*, bei dem die Stärke von *c* höchstens 2 ist, in den Vorrat von *p*.",
     "Jeder Spieler legt alle Monsterkarten in seinem Vorrat, deren Stärke mindestens 3 ist, auf seine Hand und alle Monsterkarten auf seiner Hand, deren Stärke höchstens 2 ist, in seinen Vorrat."),
    # a card back to its owner
    (MM, (), "en", "Move *victim* to the hand of the owner of *victim*.", "Move the target monster into its owner's hand."),
    (MM, (), "de", "Lege *victim* in die Hand vom Besitzer von *victim*.", "Lege das zu verdrängende Monster auf die Hand des Besitzers."),
    # the print's skip rule: a displaced player plays again
    (MM, (), "en", "Whoever already has two monsters in the castle sits out until every attack place is full.",
     "Whoever already has two monsters at the attack places is skipped; once one of them is displaced, that player gets a turn again."),
    # the preposition of a place: declared (`at de "an"`), from the noun (a pile, a hand), or the default
    (MM, (), "de", "Lege die Monsterkarte in den Anlegeplatz.", "Lege die Monsterkarte an den Anlegeplatz."),
    (MM, (), "de", "Ziehe 3 Karten von seinem Vorrat in seine Hand.", "Der Spieler zieht 3 Karten aus seinem Vorrat auf seine Hand."),
    (MM, (), "en", "Draw 3 cards from their reserve to their hand.", "The player draws 3 cards from their reserve into their hand."),
    (MM, (), "de", "Wähle ein verdrängtes Monster aus einem Anlegeplatz", "Wähle ein zu verdrängendes Monster von einem Anlegeplatz"),
    # a small table said in words, a table by player count as its usual value and the exceptions
    (MM, (), "de", "Du zahlst die Entschädigung je Wächter-Level (1: 0, 2: 1, 3: 2) für das Level des Wächters am "
                   "Kartenplatz mit derselben Nummer in Gold an den Besitzer von Monsterkarte A.",
     "Du zahlst dem Besitzer des zu verdrängenden Monsters die Entschädigung fürs Verdrängen je nach dem Level des Wächters am "
     "zugehörigen Kartenplatz: bei Level 1 nichts, bei Level 2 1 Gold und bei Level 3 2 Gold."),
    (MM, (), "en", "You pay the compensation per guard level (1: 0, 2: 1, 3: 2) for the level of the guard at the card "
                   "place with the same number in gold to the owner of monster card A.",
     "You pay the owner of the target monster the compensation for displacing, depending on the level of the guard at the "
     "matching card place: nothing at level 1, 1 gold at level 2 and 2 gold at level 3."),
    (MM, (), "en", "the compensation per guard level, by the level of the guard",
     "the compensation for displacing, depending on the level of the guard"),
    # a table constant in the table of values: by the player count or the field it is looked up by, in words
    # (a table paid in a currency as the payment says it, keys with the same amount side by side)
    (MM, (), "en", "1: 0, 2: 1, 3: 2", "nothing at level 1, 1 gold at level 2 and 2 gold at level 3"),
    (MM, (), "de", "1: 0, 2: 1, 3: 2", "bei Level 1 nichts, bei Level 2 1 Gold und bei Level 3 2 Gold"),
    (MM, ("billiges_verdraengen",), "de", "Verdrängen: 0 bei Level 1, 0 bei Level 2", "bei Level 1 und 2 nichts, bei Level 3 1 Gold"),
    (FF, (), "en", "2: 8, 3: 7, 4: 6, 5: 5, 6: 4", "8 with 2 players, 7 with 3 players, 6 with 4 players"),
    # a long list of numbers (a board's geometry) or a computed constant is said by its name
    (FF, (), "en", "For every value in the list 28, 32, 34, 38, 42, 87",
     "For every monster space of the start chambers, draw one monster tile"),
    (FF, (), "de", "Für jeden Wert aus der Liste 28, 32, 34, 38, 42, 87",
     "auf jedes Monsterfeld der Starträume."),
    # a number a loop takes from a list and uses as a place is that place: "every teleport space", not "the teleport space the value"
    (FF, (), "en", "Draw one teleport from the teleport pile onto the teleport space the value.",
     "For every teleport space, draw one teleport from the teleport pile and put it there."),
    (FF, (), "de", "Ziehe einen Teleporter vom Teleporterstapel auf das Teleporterfeld der Wert.",
     "Lege je einen Teleporter vom Teleporterstapel auf jedes Teleporterfeld."),
    # the one card of a place that holds one is "the card on the place", not "the top card of" it
    (MM, (), "en", "the top guard card of the card place", "The guard at a card place: the guard card on the card place."),
    (MM, (), "de", "Ziehe Karten von der Schachtel (Königsplättchen) in den Königsstapel, so viele wie die Zahl der "
                   "Königsplättchen (3: 6, 4: 6, 5: 5, 6: 6) für die Spielerzahl.",
     "Lege 6 Königsplättchen (bei 5 Spielern 5) aus der Schachtel auf den Königsstapel."),
    (MM, (), "en", "Draw cards from the box (king tiles) to the king's stack, as many as the number of king tiles "
                   "(3: 6, 4: 6, 5: 5, 6: 6) for the number of players.",
     "Draw 6 king tiles (5 with 5 players) from the box onto the king's stack."),
    (MM, (), "en", "otherwise the compensation per guard level (1: 0, 2: 1, 3: 2) for the level of the guard",
     "otherwise the compensation for displacing for the level of the guard at the card place matching the card "
     "(0 at level 1, 1 at level 2 and 2 at level 3))."),
    (FF, (), "de", "dem Plättchen »Weisheit« (2: 8, 3: 7, 4: 6, 5: 5, 6: 4) für die Spielerzahl.",
     "dem Plättchen »Weisheit« für die Spielerzahl (siehe „Werte je Spielerzahl“)."),
    # the owner's cards with the owner's possessive, not a relative clause after the place
    (MM, (), "de", "der Monsterkarten an einem Anlegeplatz, die dem Spieler gehören.",
     "der Stärken seiner Monsterkarten an allen Anlegeplätzen."),
    # one form of address: a turn is told to "you", a block about each player in the third person
    (MM, (), "de", "Ein Spieler wird übersprungen, wenn", "Du wirst übersprungen, wenn du 2 Monsterkarten an den Anlegeplätzen hast."),
    (MM, (), "en", "A player is skipped when the number of monsters the player has in the castle is 2.",
     "You are skipped when you have 2 monster cards at the attack places."),
    # a card said by its kind: a tile is a tile
    (MM, (), "de", "Lege die oberste Karte des Königsstapels in die Schachtel (Königsplättchen).",
     "Lege das oberste Königsplättchen des Königsstapels in die Schachtel."),
    (MM, (), "en", "Move the top card of the king's stack to the box (king tiles).",
     "Move the top king tile of the king's stack to the box."),
    # an event is said by its declared clause
    (MF, (), "de", "Immer wenn das Ereignis „bid made“ für den Spieler eintritt",
     "Immer wenn ein Spieler ein Artefakt auslegt und"),
    (MF, (), "en", "Whenever the event “bid made” happens for the player", "Whenever a player plays an artifact and"),
    (MF, (), "de", "Das Ereignis „turn started“ tritt für den Spieler ein.",
     "Dann greifen die Sonderregeln „Phönix: Wiedergeburt“ und „Werwolf: zwei Gesichter vor jedem Zug“"),
    (MF, (), "en", "The event “turn started” happens, for the player.",
     "Then the special rules “Phoenix: rebirth” and “Werewolf: two faces before every turn” apply"),
    # a variant's local is said by its noun
    (MM, ("koenigs_neue_regeln",), "en", "Carry out the rule change of *tile*.", "Apply the rule change of the king tile."),
    (MM, ("koenigs_neue_regeln",), "de", "Führe die Regeländerung von *tile* aus.",
     "Wende die Regeländerung des Königsplättchens an."),
    # a forbidden action's card said with its condition
    (MM, (), "en", "Until the end of the round, nobody may carry out “Place a monster” or “Displace a monster” if the "
                   "strength of the monster card is 1.",
     "This round, nobody may carry out “Place a monster” or “Displace a monster” with a monster card of strength 1."),
    (MM, (), "de", "Bis zum Ende der Runde darf niemand „Monster anlegen“ oder „Monster verdrängen“ ausführen, wenn die "
                   "Stärke der Monsterkarte 1 ist.",
     "In dieser Runde darf niemand eine Monsterkarte mit Stärke 1 für „Monster anlegen“ oder „Monster verdrängen“ "
     "verwenden."),
    # one card per player; the end of the game as people say it
    (MM, ("waechterkette",), "en", "Draw cards from the guard deck to the guard display, as many as the number of "
                                   "players.", "Draw one guard card per player from the guard deck to the guard display."),
    (MM, (), "en", "At the end, each player scores their gold.", "At the end of the game, each player counts their gold."),
    (MM, (), "de", "Am Ende erhält jeder Spieler als Wertung sein Gold.", "Am Ende des Spiels zählt jeder Spieler sein Gold."),
    (MM, (), "en", "Whoever scores most wins; players with the same best score all win.",
     "The player with the highest total wins; if several players tie, they all win."),
    # worked examples tell moves in prose: done, open, refused with the requirement's text
    (MM, (), "en", "Inga chooses “Place a monster: 1, Undead 3”.", "Inga places Undead 3 at attack place 1."),
    (MM, (), "de", "Inga wählt „Monster anlegen: 1, Untote 3“.", "Inga legt Untote 3 an den Anlegeplatz 1."),
    (MM, (), "en", "Ani may choose “Displace a monster: Sea creatures 2, Orcs 4”.",
     "Ani could displace Frank's Sea creatures 2 with Orcs 4."),
    (MM, (), "de", "Ani darf „Monster verdrängen: Meereswesen 2, Orks 4“ wählen.",
     "Ani könnte Franks Meereswesen 2 mit der Karte Orks 4 verdrängen."),
    (MM, (), "en", "Ani may not choose “Displace a monster: Undead 3, Orcs 1”.",
     "Ani could not displace Inga's Undead 3 with Orcs 1: A monster can only be displaced by a stronger one."),
    (MM, (), "de", "Ani darf „Monster verdrängen: Untote 3, Orks 1“ nicht wählen.",
     "Ani könnte Ingas Untote 3 mit der Karte Orks 1 nicht verdrängen: Ein Monster kann nur von einem stärkeren "
     "verdrängt werden."),
    (MM, (), "en", "Inga chooses “Displace a monster: Sea creatures 2, Undead 4”.",
     "Inga displaces Frank's Sea creatures 2 with Undead 4."),
    (MM, (), "de", "Frank wählt „Monster verdrängen: Untote 2, Meereswesen 3“.",
     "Frank verdrängt Ingas Untote 2 mit der Karte Meereswesen 3."),
    (FF, (), "en", "Yellow may not choose “Stop the monster”.",
     "Yellow could not stop the monster: A monster may not end its move in a chamber with another monster."),
    (FF, (), "de", "A wählt „Kämpfen: Monsterplättchen 23“.", "Spieler A kämpft gegen das Monster 23."),
    (MF, (), "en", "Julia may not choose “Bonus movement with a bonus card: Troll, Mimimi power”.",
     "Julia could not use the bonus card Mimimi power to move the Troll: Each friend may make at most one bonus "
     "movement per turn."),
    (MF, (), "de", "Julia wählt „Beschwören: Greif, 55“.", "Julia beschwört den Greif auf Feld 55."),
    # a `choose` told in prose too, another player's card as theirs
    (MF, (), "en", "Klemens chooses “artifact card (colour black, value 5)”.",
     "Klemens plays the black 5."),
    (MF, (), "de", "Julia wählt „Heldenseele“.", "Julia schlägt mit dem Troll die Heldenseele von Klemens."),
    # a move refused for no reason the rules give is left out: the example's text says why
    (MF, (), "en", "Katharina could not play the orange 5.", "Katharina plays the orange 8."),
    # a yes/no field whose text is a clause about its card ("{it} is poisoned"), with its `not` text
    (MF, (), "en", "If the poisoned of the creature:", "If the creature is poisoned:"),
    (MF, (), "de", "Wenn vergiftet der Kreatur:", "Wenn die Kreatur vergiftet ist:"),
    (MF, (), "en", "Only allowed if it is not the case that the is a catapult of the creature or bonus card A is",
     "Only allowed if the creature is not a catapult or the bonus type is Mimimi power."),
    (MF, (), "de", "Nur erlaubt, wenn nicht gilt: ist ein Katapult der Kreatur",
     "Nur erlaubt, wenn die Kreatur kein Katapult ist oder die Bonusart Mimimi-Macht ist."),
    (MF, (), "fr", "Autorisé seulement si ce n'est pas le cas que le statut de catapulte de la créature",
     "Autorisé seulement si la créature n'est pas une catapulte, ou si le type de bonus est Pouvoir Mimimi."),
    (MF, (), "en", "The has a borrowed wing of the creature becomes true.", "gets a borrowed wing."),
    (MF, (), "de", "Hat einen geliehenen Flügel der Kreatur wird wahr.", "bekommt einen geliehenen Flügel."),
    # a field's `told false` text: the game action, not the flag ("the creature is not poisoned")
    (MF, (), "en", "The creature is not poisoned.", "The creature is no longer poisoned."),
    # an English noun in -lf makes its plural in -lves, so a loop over a list named by it is "each of"
    (MF, (), "en", "every werewolf in the werewolves", "The wizard of each of the werewolves on the board"),
    # a move to a zone of the player the rule is about is said of that player, not as an order to the reader
    (MF, (), "en", "Move the chosen summoning card to their", "The player moves the chosen summoning card to their taken summoning cards."),
    (MF, (), "de", "Die Kreatur ist nicht vergiftet.", "Die Kreatur ist nicht mehr vergiftet."),
    (MF, (), "en", "The has a borrowed wing of the creature becomes the type of square",
     "If the square of the friend is a wing rental:"),
    (MF, (), "de", "Hat einen geliehenen Flügel der Kreatur wird die Art von Feld",
     "Wenn das Feld des Freundes ein Flügel-Verleih ist:"),
    (MF, (), "en", "The is indestructible of this card becomes it is not the case that",
     "This creature is no longer indestructible."),
    # a rule call said as a sentence: the reader addressed, another actor as subject, truth values as words
    (MF, (), "en", "The creature is poisoned by you (see “Poison a creature”).",
     "Poison the creature (see “Poison a creature”)."),
    (MF, (), "de", "Die Kreatur wird von dir vergiftet (siehe „Kreatur vergiften“).",
     "Vergifte die Kreatur (siehe „Kreatur vergiften“)."),
    (MF, (), "en", "The creature is poisoned by the third wizard (see “Poison a creature”).",
     "The third wizard poisons the creature (see “Poison a creature”)."),
    (MF, (), "en", "Shove the creature for 1, false and the owner of this card (see “Shove a creature”).",
     "is shoved 1 square back (see “Shove a creature”)."),
    (MF, (), "de", "Der Besitzer dieser Karte schlägt die gewählte Kreatur",
     "Diese Kreatur schlägt die gewählte Kreatur (siehe „Kreatur schlagen“)."),
    # a card named by the number only it has
    (MF, (), "en", "Whenever a creature is beaten and the number of the creature is 29:",
     "Whenever the Phoenix is beaten:"),
    (MF, (), "de", "Immer wenn eine Kreatur geschlagen wird und die Nummer der Kreatur 29 ist:",
     "Immer wenn der Phönix geschlagen wird:"),
    # a reaction to one card names it in its event, and the card by its title in what follows
    (MF, (), "en", "Whenever a creature is summoned and the creature is Fairy:", "Whenever the Fairy is summoned:"),
    (MF, (), "en", "Whenever a creature is summoned and the creature is Fairy:", "goes to the owner of the Fairy (see"),
    (MF, (), "de", "Immer wenn eine Kreatur beschworen wird und die Kreatur Fee ist:", "Immer wenn die Fee beschworen wird:"),
    # German adjectives before a noun decline with its article and case
    (MF, (), "de", "Nun folgt „Zugbeginn“ für den dritte Magier.", "Der Zug des dritten Magiers beginnt"),
    # German "of" is a genitive where the noun has one: locals, chosen items, the rules' own "{x:vgen}"
    (MF, (), "de", "Der Zug vom dritten Magier beginnt", "Der Zug des dritten Magiers beginnt"),
    (MF, (), "de", "in den abgelegten Artefakten vom Magier dieser Kreatur", "aus den abgelegten Artefakten des Magiers dieser Kreatur"),
    (MF, (), "de", "Bonuskarten vom gewählten",
     "Lege die Bonuskarte der gewählten Bonusart vom gewählten Opfer"),
    (MF, (), "de", "in den Bonuskarten vom gewählten Wert",
     'Bonuskarten des dritten Magiers'),
    (MF, (), "de", "des Mimimi-Macht-Vorrat ", "Der Spieler legt die oberste Bonuskarte des Mimimi-Macht-Vorrats zu seinen Bonuskarten."),
    (FF, (), "de", "die Stärke das gewählte Monsterplättchen", "die Stärke des gewählten Monsters"),
    (FF, (), "de", "das Gold vom Spieler", "zählt jeder Spieler sein Gold;"),  # „das Gold {p:vgen}“ of the one player: „sein Gold“
    (MF, (), "de", "für den Besitzer vom Ersten der Liche", "Ein Skelett aus dem Vorrat kommt für den Magier des Lichs"),
    # a collection (a place named in the plural) is where cards go "zu", with the dative
    (MF, (), "de", "Lege die Kreatur in die geschlagenen Kreaturen.", "Lege die Kreatur zu den geschlagenen Kreaturen."),
    (MF, (), "de", "alle Magiermächte vom gewählten Magier",
     "nimmt alle Magiermächte des gewählten Magiers aus der Schachtel der Magiermächte in seine Auslage."),
    # a relative clause that ends a name is closed with a comma
    (MF, (), "de", "Der Spieler, der für den Spieler entscheidet", "Der Spieler (für den dritten Magier der beeinflussende Spieler) wählt"),
    (MF, (), "de", "Wenn der Kopf, den der Kopflose trägt nicht leer ist:", "Wenn der Kopflose einen Kopf trägt:"),
    (FF, (), "de", "Solange die Zahl der Schritte über 6 hinaus, die kein Zauberspruch bezahlt hat größer",
     "Solange es unbezahlte Schritte über 6 hinaus gibt:"),
    # the reader as the subject of a clause with its verb last: „du … darfst“, „zu denen du dich … kannst“
    (FF, (), "de", "wenn du vor dem Monster fliehen darf.", "Nur erlaubt, wenn du noch auf dem zu starken Monster stehst"),
    (FF, (), "de", "zu denen sich du stellen kann", "aus den Mitspielern, zu denen du dich stellen kannst."),
    (FF, (), "de", "wenn du der Zauberspruch jetzt sprechen kann", "Nur erlaubt, wenn du den Zauberspruch jetzt sprechen kannst."),
    # the place of the same number as a card's is that card's place, not one „passend zu“ it
    (MM, (), "de", "am Anlegeplatz passend zur Wächterkarte", "an deren Anlegeplatz zwei Monster gleicher Stärke liegen"),
    # a filter naming the item's own place says it with "whose", not "for which … of the same item"
    (MM, (), "de", "bei der am Anlegeplatz der Wächterkarte", "jede Wächterkarte, an deren Anlegeplatz das schwächste Paar liegt"),
    (MM, (), "en", "for which two monsters of equal strength lie at the attack place matching the guard card",
     "every guard card whose attack place holds two monsters of equal strength has +3 loot."),
    # a currency named in the plural („die:pl Kraftchips“) takes a plural verb
    (FF, (), "de", "wenn deine Kraftchips kleiner als der Preis des Kampfes ist:", "Sonst, wenn du den Preis des Kampfes nicht bezahlen kannst:"),
    # two plural nouns joined by „und“ both take the dative ending
    (FF, (), "de", "aus den Monstern und Schätze,", "aus den Monstern und Schätzen, die offen liegen"),
    (MF, (), "de", "Lege den gewählten Wert in sein ausgespielte Artefakt.", "auf seinen Platz für das ausgespielte Artefakt"),
    (FF, (), "de", "vom letzte Stapel", "vom letzten Stapel"),
    # a German plural ("die:pl …") takes a plural verb and its dative
    (MF, (), "de", "Die verbleibenden Basisbewegungen wird 0.", "Es muss noch freie Basisbewegungen geben."),
    (MF, (), "de", "Die verbleibenden Basisbewegungen muss größer als 0 sein.",
     "Es muss noch freie Basisbewegungen geben."),
    (MF, (), "de", "Wähle eine Kreatur aus der Freunde von dir", "Wähle eine Kreatur aus deinen Freunden"),
    (MF, (), "de", "eine Feldart aus der Felder, auf die", "eines deiner Startfelder"),
    (MF, (), "de", "der Beschwörungskarte von dir", "der noch zu beschwörenden Kreaturen deiner Beschwörungskarte"),
    (FF, (), "de", "den Gehen-Sprüchen von dir", "deinen Gehen-Sprüchen"),
    (MF, (), "de", "Bringe die Purgana auf 1 ins Spiel", "Bringe die Purgana auf dem Magierturm ins Spiel"),
    # a local `moved` is not the game's flag `moved`
    (FF, (), "en", "*p* chooses *m* from each *m* in the monsters that can be moved for which the has moved this turn "
                   "does not contain *m*.",
     "You choose one of the monsters that can be moved and are not among the monsters already moved by this spell."),
    # a local or parameter with its own noun (`let n de "die Anzahl zusätzlicher Schritte" en "number of extra steps" = …`)
    (FF, (), "en", "You choose number B", "You choose a number of extra steps from 1 to the value of the spell."),
    (FF, (), "de", "Du wählst Zahl B",
     "Du wählst eine Anzahl zusätzlicher Schritte zwischen 1 und dem Wert des Zauberspruchs."),
    (FF, (), "en", "Add number B to the steps left.", "You may move the chosen number of extra steps."),
    # an `unsaid` var: its changes are bookkeeping the book leaves out
    (FF, (), "en", "Add 1 to the battles fought.", "Cast no more"),
    (MF, (), "en", "The kind of the running movement becomes", "Move"),
    (FF, (), "de", "Füge Zahl A zur Liste der mitgenommenen Spieler hinzu.",
     "Das Monster nimmt diese Spieler mit."),
    # a rule with a `told` text is called as that order, its arguments in their places
    (FF, (), "en", "Move for 6 (see “Move”).", "Move up to 6 spaces (see “Moving”)."),
    (FF, (), "de", "Bewegen für 6 (siehe „Bewegen“).", "Ziehe bis zu 6 Felder weit (siehe „Bewegen“)."),
    (FF, (), "en", "The battle for the monster tile (see “The battle”).", "Battle the monster (see “The battle”)."),
    # a local that names another by a word of its noun needs no definition: "the monster", not "the monster is the monster tile"
    (FF, (), "en", "The monster is the monster tile.", "Battle the monster (see “The battle”)."),
    (FF, (), "de", "Das Monster ist das Monsterplättchen.", "Kämpfe gegen das Monster (siehe „Der Kampf“)."),
    (FF, (), "de", "Kreuzung aufdecken für die Kreuzung (siehe",
     "Decke jede der vom Standort aus sichtbaren verdeckten Kreuzungen auf (siehe „Kreuzung aufdecken“)."),
    # a rule every call passes the reader to is told to the reader: its `told` text is the order ("you")
    (FF, (), "en", "Battle lost for the player and their power chips",
     "You lose the battle and pay your power chips (see “Battle lost”)."),
    (FF, (), "de", "Kampf verloren für den Spieler und seine Kraftchips",
     "Verliere den Kampf und zahle deine Kraftchips (siehe „Kampf verloren“)."),
    (FF, (), "en", "If their power chips is less than the battle cost", "if you cannot pay the battle cost"),
    # the reader's thing of a function text ("space of {p}") is theirs: "your space", „deine Spielfigur“
    (FF, (), "en", "Look around from the space of yours", "Look around from your space (see “See new areas”)."),
    (FF, (), "de", "Lege die Spielfigur von dir", "Ziehe deine Spielfigur Feld für Feld"),
    # German: the reader's verb agrees with "du", also at the end of a "wenn" clause
    (FF, (), "de", "Wenn du das Plättchen »Dümmster Spieler« hat:", "Wenn du das Plättchen »Dümmster Spieler« hast:"),
    # a one-seat condition said as the print does, not as a count
    (FF, (), "en", "If your dumbest player tile is not empty:", "If you hold the dumbest player tile:"),
    (FF, (), "en", "If your space is 0:", "If your figure is not yet in the fortress:"),
    # a card's effect says its own printed number, not "the value of this card"
    (FF, (), "en", "Extend the movement for the value (up to) of this card (see “Extend the movement”).",
     "Extend the movement by up to 2 spaces (see “Extend the movement”)."),
    (FF, (), "de", "Bewegung verlängern für den Wert (bis zu) von dieser Karte",
     "Verlängere die Bewegung um bis zu 2 Felder (siehe „Bewegung verlängern“)."),
    # a plural noun (`de "die:pl …"`, `en "the:pl …"`) takes a plural verb; one item of it is an item of its value
    (FF, (), "en", "List A is the spaces where a monster is blocked",
     "If there are unblocked monsters:"),
    (FF, (), "en", "List B is every value (B) in value A for which the chambers holding a power chip contains value B.",
     "For each of the newly seen chambers:"),
    (FF, (), "de", "Liste B ist jeder Wert (B) aus Wert A, bei dem die Liste der Räume mit Kraftchip Wert B enthält.",
     "Für jeden der neu gesehenen Räume:"),
    # a fixed number of rounds is said as a number, not as a loop condition
    (MF, (), "en", "Rounds are played as long as the number of the round is less than 7.", "The game lasts 7 rounds."),
    (MF, (), "de", "Es werden Runden gespielt, solange die Nummer der Runde kleiner als 7 ist.",
     "Das Spiel dauert 7 Runden."),
    (MF, (), "en", "The game ends as soon as a round ends and the number of the round is at least 7.",
     "The game ends after round 7."),
    (MF, (), "de", "sobald eine Runde endet und die Nummer der Runde mindestens 7 ist.", "Das Spiel endet nach Runde 7."),
    # Magical Friends' locals by their nouns
    (MF, (), "en", "List B is every artifact card in their artifacts for which list A does not contain",
     "Every artifact card in the player's hand whose value plus the fortune teller's bonus is not one of the artifact values played counts among the allowed artifacts"),
    (MF, (), "de", "Liste B ist jede Artefaktkarte in seinen Artefakten",
     "Zu den erlaubten Artefakten zählt jede Artefaktkarte auf der Hand des Spielers"),
    (MF, (), "en", "As long as number B is greater than 0 and creature A is on the board:",
     "Once for each of the steps of the movement, as long as the creature is on the board:"),
    (MF, (), "de", "Solange Zahl B größer als 0 ist und gilt: Kreatur A steht auf dem Spielplan:",
     "Für jedes der Felder, um die sie geschoben wird, solange die Kreatur auf dem Spielplan steht:"),
    # a card's locals: the wizard named by its noun, a square by whose it is, a lookup by its field
    (MF, (), "en", "The wizard of this creature is the owner of this creature.",
     "Move the chosen artifact card into the hand of the wizard of this creature."),
    (MF, (), "de", "Der Magier dieser Kreatur ist der Besitzer dieser Kreatur.",
     "Lege die gewählte Artefaktkarte auf die Hand des Magiers dieser Kreatur."),
    (MF, (), "en", "Number A is the place number of this creature.",
     "The chosen creature moves onto the demon's previous square (see “Set a creature on a square”)."),
    (MF, (), "de", "Zahl A ist die Platznummer dieser Kreatur.",
     "Die gewählte Kreatur zieht auf das bisherige Feld des Dämons (siehe „Kreatur versetzen“)."),
    (MF, (), "en", "The artifact value is your artifact value",
     "If your artifact value is at least 9:"),
    # a card's own field it changes is said as that field, not as the number printed on the card
    (MF, (), "en", "16 becomes the number of the chosen head.",
     "This creature takes on the number, the size,"),
    # a scenario's player called by a single letter is named by its seat
    (MF, (), "en", "A moves the Goblin with a base movement.", "Player 1 moves the Goblin with a base movement."),
    (MF, (), "de", "A bewegt die Kreatur Goblin", "Spieler 1 bewegt den Goblin"),
    # an `internal` list or table (data for the rules) is said by its name, not by its entries
    (MF, (), "en", "the list the list Dark cave and Lava bridge",
     "For each of the path elements in play:"),
    (MF, (), "en", "(Dark cave: the list the list 1 and 11", "Place the element with this side face up."),
    # an enum value with no article, in the dative, is said after its enum's title
    (MF, (), "de", "Lege das Element mit Straße zur Hölle nach oben.",
     "Lege das Element mit dem Pfad „Straße zur Hölle“ nach oben."),
    # a local with its own noun for one card only names it
    (MF, (), "en", "The Purgana is the card", "If the creature supply contains the Purgana:"),
    (MF, (), "en", "Place the element with Road to hell face up.",
     "Place the element with the path “Road to hell” face up."),
    (FF, (), "en", "Choose a start chamber from the list 1, 16, 168 and 183.", "Choose one of the start chambers."),
    # a round of one phase is not "these phases, in this order"
    # a round of one phase is that phase: the book does not count it
    (FF, (), "en", "Each round has one phase", "Rounds are played as long as"),
    (FF, (), "de", "Jede Runde besteht aus einer Phase", "Es werden Runden gespielt, solange"),
    # clauses of the rules file: German verb last in a subordinate clause, negation said in words
    (MF, (), "de", "Wenn gilt: die Kreatur steht auf dem Spielplan:", "Wenn die Kreatur auf dem Spielplan steht:"),
    (MF, (), "de", "wenn gilt: Kreatur A nimmt Kreaturen mit", "Wenn die Kreatur Kreaturen mitnimmt:"),
    (MF, (), "en", "it is not the case that the creature cannot be beaten", "the creature can be beaten or poisoned now"),
    (MF, (), "en", "it is not the case that the creature stands", "the creature does not stand on a square with Medusa"),
    # counts of a list: "there are …", "is empty", "the number of …" (not "the number of cards in …")
    (FF, (), "en", "If the number of cards in the unblocked monsters is greater than 0:", "If there are unblocked monsters:"),
    (FF, (), "en", "the number of cards in the chambers holding a power chip",
     "Put the remaining power chips out of the game."),
    (MF, (), "de", "Solange die Anzahl der Karten in Liste B größer als 0 ist:", "Solange es Mitreisekandidaten gibt:"),
    (MF, (), "de", "Wenn die Anzahl der Karten in Liste A 0 ist:", "Wenn es keine Felder direkt nach dem aktuellen Feld gibt:"),
    (MF, (), "de", "Wenn die eigenen Katapulte nicht leer sind:", "Wenn der Besitzer der Kreatur ein Katapult auf dem Spielplan hat:"),
    (FF, (), "de", "Wenn die möglichen Meister nicht leer sind", "Wenn du auf demselben Feld wie ein Spieler mit mindestens 2 Weisheitspunkten mehr stehst:"),
    (FF, (), "en", "If the spaces with a face-down intersection are not empty", "If the map still holds a face-down intersection"),
    # a number named by a plural noun compared with 0: "there are …", "… has no …"
    (MF, (), "de", "Solange die verbleibenden Beschwörungen größer als 0 sind:", "Solange Kreaturen der Beschwörungskarte noch zu beschwören sind:"),
    (MF, (), "de", "Die verbleibenden Beschwörungen müssen 0 sein.", "Nur erlaubt, wenn alle Kreaturen der Beschwörungskarte beschworen sind."),
    (MF, (), "de", "Die Basisbewegungen in diesem Zug der Kreatur müssen kleiner als 1 sein.",
     "Nur erlaubt, wenn die Kreatur in diesem Zug noch keine Basisbewegung gemacht hat."),
    (MF, (), "en", "As long as the summons left is greater than 0:", "As long as creatures of the summoning card are still to be summoned:"),
    (MF, (), "en", "The summons left must be 0.", "Only allowed if every creature of the summoning card has been summoned."),
    (MF, (), "en", "The base movements this turn of the creature must be less than 1.",
     "Only allowed if the creature has not made a base movement this turn yet."),
    (FF, (), "en", "If the power chips in the supply is less than 24:", "If the supply still has a free field:"),
    (FF, (), "en", "the chambers left is at least 2", "there are at least 2 chambers left"),
    # the players in an order of their own: "each player in turn, by …, highest first"; the first of them by name
    (MF, (), "en", "For every player in every player, sorted by", "Each player in turn, by their artifact value, "
                   "highest first, does the following:"),
    # a counter counted down in a loop is said as the number of times
    (MF, (), "en", "Subtract 1 from number A.", "Up to 4 times, as long as this creature is on the board:"),
    (MF, (), "de", "Verringere Zahl A um 1.", "Bis zu 4-mal, solange diese Kreatur auf dem Spielplan steht:"),
    (MF, (), "en", "holds more than 1 creatures", "holds at least 2 creatures"),
    (MF, (), "de", "Für jeden Spieler aus jedem Spieler", "Jeder Spieler macht der Reihe nach, absteigend nach seinem "
                   "Artefaktwert, Folgendes:"),
    (MF, (), "en", "becomes the first player, sorted by", "The player with the highest artifact this round is the influencing player."),
    (MF, (), "de", "wird der erste Spieler, absteigend", "Der Spieler mit dem höchsten Artefakt dieser Runde ist der beeinflussende Spieler."),
    (MF, (), "en", "If the number of cards in value A is 0:", "If there are no squares directly after the current square:"),
    # a list sorted by a key, highest first for `by -key`; several keys "then by"
    (MF, (), "en", "sorted by minus their value", ", by their artifact value, highest first, does"),
    (MF, (), "de", "sortiert nach minus", ", absteigend nach seinem Artefaktwert, Folgendes:"),
    (FF, (), "en", "sorted by the list their wisdom", "sorted by their wisdom, then by"),
    # after tie-breaks, only the players still tied share the win
    (FF, (), "en", "decides.\nThe player with the highest total wins; if several players tie", "if players are still tied, they all win."),
    # a filter made of clauses about the item itself is a relative clause, not "for which the item …"
    (FF, (), "en", "for which the monster tile is not the chosen first tile", "from the face-up monsters and treasures other than the chosen first tile"),
    (MF, (), "de", "bei der die Kreatur nicht fliegt", "eine Kreatur aus deinen Freunden auf dem Spielplan, die nicht fliegt und kein Katapult ist:"),
    # a list only chosen from goes unsaid: the choice names the items, "if possible"
    (MF, (), "en", "The possible targets: every creature on the square of this creature",
     "If possible, you choose one of the other small and medium creatures on the square of this creature:"),
    (MF, (), "de", "Die möglichen Ziele: jede Kreatur auf dem Feld dieser Kreatur",
     "Falls möglich, wählst du eine der anderen kleinen und mittleren Kreaturen auf dem Feld dieser Kreatur:"),
    # an item other than the card whose effect is said is "another"/"every other" one, not "… that is not this one"
    (MF, (), "en", "For every creature on the square of this creature that is not this creature:",
     "For every other creature on the square of this creature:"),
    (MF, (), "de", "Für jede Kreatur auf dem Feld dieser Kreatur, die nicht diese Kreatur ist:",
     "Für jede andere Kreatur auf dem Feld dieser Kreatur:"),
    (MF, (), "en", "This creature beats the chosen other creature", "This creature beats the chosen creature"),
    (MF, (), "en", "on the square of the value that is not this creature",
     "whose square holds another creature."),
    (MF, (), "de", "auf dem Feld des Werts gibt, die nicht diese Kreatur ist",
     "dessen Feld eine andere Kreatur enthält."),
    (FF, (), "de", "Wenn gilt: du stehst auf einem Monster",
     "Wenn du auf einem Monster stehst, ohne ziehen, fliehen oder zaubern zu können:"),
    # a filter of clauses about the item and comparisons of its fields: "that … and whose …"
    (MF, (), "en", "For every creature in your friends on the board for which the size of the creature is not small",
     "a creature that is not a catapult and whose owner is the player"),
    (MF, (), "de", "bei der die Größe der Kreatur nicht klein ist",
     "eine Kreatur enthält, die kein Katapult ist und deren Besitzer der Spieler ist"),
    # a list named in the plural holds an item: the item "is one of" it, „gehört zu“ it
    (MF, (), "de", "und die vom Lich verfluchten Kreaturen die Kreatur enthalten:",
     "Immer wenn eine Kreatur geschlagen wird und die Kreatur verflucht ist:"),
    (FF, (), "en", "for which the carried players do not contain the player.",
     "whom monsters see who is not one of the carried players."),
    # a choice among a list said by a plural noun is "one of them", not "an X from the Xs"
    (FF, (), "en", "Choose a start chamber from the start chambers.", "Choose one of the start chambers."),
    (FF, (), "en", "You choose a monster tile from the monsters that can be moved.",
     "You choose one of the monsters that can be moved."),
    (FF, (), "de", "Wähle einen Startraum aus den Starträumen.", "Wähle einen der Starträume."),
    (MF, (), "de", "Wähle eine Magiermacht aus deinen Magiermächten.", "Wähle eine Magiermacht aus deiner Auslage."),
    (MF, (), "de", "ein Startfeld aus deinen Startfeldern", "und eines deiner Startfelder."),
    # a choice among all cards of a zone is said from the zone: "a summoning card from the row"
    (MF, (), "en", "chooses a summoning card from the summoning cards in", "The player chooses a summoning card from the “available” row."),
    (MF, (), "de", "aus den Artefaktkarten in den abgelegten Artefakten",
     "Du wählst eine Artefaktkarte aus den abgelegten Artefakten des Magiers dieser Kreatur."),
    # an action's parameter chosen from `if C then L else []`: chosen from L, and the action needs C
    (MF, (), "en", "Choose a creature from your friends on the board if there are base movements left, otherwise no cards.",
     "Choose one of your friends on the board.\nThere must be base movements left."),
    (MF, (), "de", "sonst keinen Karten und eine Bonusart",
     "Wähle eine Kreatur aus deinen Freunden auf dem Spielplan und eine der Bonusarten unter deinen Bonuskarten."),
    (MF, (), "de", "wählst du eine Kreatur aus den bösen Kreaturen",
     "Falls möglich, wählst du eine der bösen Kreaturen anderer Magier direkt vor dieser Kreatur, die vergiftet werden können:"),
    (MF, (), "en", "If possible, you choose a creature in your friends on the board that is not a catapult:",
     "If possible, you choose one of your friends on the board that is not a catapult:"),
    (MF, (), "en", "If possible, you choose a creature from the evil creatures on the square of this creature",
     "If possible, you choose one of the evil creatures on the square of this creature that can be beaten:"),
    (MF, (), "en", "Choose a value from your friends whose magic ability", "Choose one of your friends whose magic ability"),
    # a yes/no decision followed by the branch it takes: "If so:", not the decision said again
    (MF, (), "en", "If your artifact's value rises by 2:", "You decide whether your artifact's value rises by 2.\nIf so:"),
    (MF, (), "de", "Wenn der Wert deines Artefakts um 2 steigt:", "Du entscheidest, ob der Wert deines Artefakts um 2 steigt.\nWenn ja:"),
    # a clause function says what a card's condition means: no engine value named in the book
    (MF, (), "en", "If the kind of the running movement is base movement:", "If this creature arrives by a base movement:"),
    (MF, (), "de", "Wenn der gewählte Kopf Werwolf ist:", "Wenn der gewählte Kopf der Kopf des Werwolfs ist:"),
    (MF, (), "de", "Der Magier des Werwolfs wählt ihre Gesinnung", "Der Magier des Werwolfs wählt die Gesinnung"),
    # a negated clause with two participles before one auxiliary drops its "nicht", not "nicht gilt: … nicht …"
    (MF, (), "de", "nicht gilt: die Kreatur kann jetzt nicht geschlagen oder vergiftet werden",
     "Wenn die Kreatur auf dem Spielplan steht und die Kreatur jetzt geschlagen oder vergiftet werden kann:"),
    (MF, (), "de", "bei der die Kreatur nicht diese Kreatur ist und nicht gilt:",
     "Falls möglich, wählst du eine der anderen Kreaturen auf dem Feld dieser Kreatur, die vergiftet werden können:"),
    # `any` over a field of the item: "there is a … whose …"
    (MF, (), "en", "Only allowed if the type of the bonus card is Fairy dust for at least one bonus card",
     "Only allowed if the third wizard holds a Fairy dust card."),
    (MF, (), "de", "für mindestens eine Bonuskarte", "der dritte Magier eine Feenstaub-Karte hat."),
    # `any` over a clause about the item: "there is a … that …", „es gibt …, die …“
    (MF, (), "en", "the creature is a catapult for at least one creature in the supply",
     "the creature supply holds a creature that is a catapult"),
    # a card's place said as the place ("the square of the creature"), a graph's places by their noun, a
    # place number 0 as no place, a place compared with a named place by that name
    (MF, (), "en", "the place number of the creature", "chooses one of the squares directly after the square of the creature."),
    (MF, (), "de", "die Platznummer der Kreatur", "wählt eines der Felder direkt nach dem Feld der Kreatur."),
    (FF, (), "en", "the monster space of your space", "Choose a monster tile from your space."),
    (FF, (), "de", "vom Monsterfeld des Felds von dir", "Wähle ein Monsterplättchen von deinem Feld."),
    (FF, (), "en", "reaches from space the space of", "the next chambers along the open corridors from the space of the wandering monster."),
    (FF, (), "de", "vom Feld das Feld des", "die man vom Feld des wandernden Monsters aus über offene Gänge erreicht."),
    (FF, (), "en", "onto the monster pile 1", "onto the second pile."),
    (FF, (), "de", "auf den Monsterstapel 1", "auf den zweiten Stapel."),
    (MF, (), "en", "If the next square is 0:", "If there is no next square:"),
    (MF, (), "de", "Wenn das nächste Feld 0 ist:", "Wenn es kein nächstes Feld gibt:"),
    (MF, (), "en", "If the number of the square is 2:", "If the square is the tavern:"),
    (MF, (), "de", "Wenn die Nummer des Felds 2 ist:", "Wenn das Feld die Taverne ist:"),
    (MF, (), "en", "the type of square the number is switch", "ends a movement on a square and the square is a switch"),
    (MF, (), "de", "die Art von Feld die Zahl Schalter", "eine Bewegung auf einem Feld beendet und das Feld ein Schalter ist"),
    (MF, (), "en", "the nodes exactly 1 steps ahead", "the square of creature B is one of the squares exactly 1 step ahead of the square of creature A"),
    (MF, (), "de", "die Knoten genau 1 Schritte nach", "das Feld von Kreatur B gehört zu den Feldern genau 1 Schritt nach dem Feld von Kreatur A"),
    (MF, (), "en", "The next square is the next square.", "There is no next square."),
    (MF, (), "de", "Das nächste Feld ist das nächste Feld.", "Es gibt kein nächstes Feld."),
    (MF, (), "de", "und Feld der Kreatur nicht der Magierturm",
     'die kein Katapult ist und deren Besitzer der Spieler ist'),
    (MF, (), "de", "für mindestens einen Wert aus der Liste gilt: der Wert enthält",
     "bei dem es einen Wert aus A gibt, der das Feld enthält."),
    # a condition of the rules file named as the rule says it, not a lettered local
    (MF, (), "en", "List A is the numbers of the player's friends on the board.",
     "that shows none of their friends still on the board"),
    (MF, (), "de", "Liste A ist die Nummern der Freunde", "die keinen Freund des Spielers mehr auf dem Spielplan zeigt"),
    (MF, (), "en", "As long as the summons left is greater than 0:", "As long as creatures of the summoning card are still to be summoned:"),
    (MF, (), "de", "Solange die verbleibenden Beschwörungen größer als 0 sind:",
     "Solange Kreaturen der Beschwörungskarte noch zu beschwören sind:"),
    (MF, (), "en", "The artifact's bonus movement is unused if", "That bonus movement may be used once this turn."),
    # a rule's parameters with their own nouns, counted without a counter of steps left
    (MF, (), "en", "The target square becomes number A.", "The target square is now the starting square."),
    (MF, (), "de", "Das Zielfeld wird Zahl A.", "Das Zielfeld ist jetzt das Ausgangsfeld."),
    # a value an event declares with a noun is said by it in every reaction to the event
    (MF, (), "en", "Whenever a creature (A) ends a movement and the creature is not a catapult and creature B is a catapult",
     "a catapult of the owner of the creature stands on the square where it ends:"),
    (MF, (), "en", "The own catapults: every creature (B)", "If the owner of the creature has a catapult on the board:"),
    # a variant's changed step speaks of the rule's own parameters; a list written out in a told place is its items
    (MF, (), "en", "The value carries out one action", "the player keeps carrying out one of these actions: “Summon”"),
    (MF, (), "en", "Choose one of every creature in your friends on the board whose size is not small;",
     "Choose one of your medium or large friends;"),
    (MF, (), "en", "List A: every creature in the creature supply whose number is 52.", "Bring the Purgana into play"),
    # a value's `told set` says the rule, not the bookkeeping
    (MF, (), "en", "The influencing player becomes the first player, sorted by",
     "The player with the highest artifact this round is the influencing player."),
    (MF, (), "en", "Their value of the played artifact becomes", "The played artifact now counts as the value of the chosen artifact card"),
    (MF, (), "en", "The summons left becomes the smaller of", "You must summon as many of them as the card shows"),
    (MF, (), "en", "The values already played are the artifact values played.",
     "is not one of the artifact values played"),
    (MF, (), "de", "Die Kreaturen im Kreaturenvorrat nicht leer", "Wenn der Spieler am Zugende ein Katapult bekommt und der Spieler kein Katapult auf dem Spielplan hat"),
    # bookkeeping for the rules' own use is left out of a variant's chapter, as of the base game's
    (MF, (), "en", "New: Definition “Rank of size a size”", "New: Definition “A creature is smaller than another creature”"),
    (MF, (), "en", "New: Value “Round in which a wizard power was used”", "New: Action “Use a wizard power”"),
    # a number from 1 to 6 at random is a die roll; a table looked up by it is said in ranges
    (MF, (), "en", "Pick a number at random: 1, 2, 3, 4, 5 or 6.", "Roll a die."),
    (MF, (), "de", "Bestimme eine Zahl zufällig: 1, 2, 3, 4, 5 oder 6.", "Würfle."),
    (MF, (), "en", "(1: 14, 2: 14, 3: 16", "the first square of the cave route the die shows (1–2: 14, 3–4: 16, 5–6: 17)."),
    (MF, (), "de", "(1: 15, 2: 15, 3: 16", "das letzte Feld des Höhlenwegs laut Würfel (1–2: 15, 3–4: 16, 5–6: 19)."),
    # a text that starts with its argument keeps the argument's article; option values are no predicates
    (MF, (), "en", "The player deciding for the player", "The player (for the third wizard, the influencing player) chooses"),
    (MF, (), "en", "If the chosen set-up is draw the paths at random:", "If the paths are drawn at random:"),
    (MF, (), "de", "Wenn der gewählte Aufbau Pfade auslosen ist:", "Wenn die Pfade ausgelost werden:"),
    (MF, (), "en", "Otherwise, if the condition and the type of square A is cave mouth:", "Otherwise, if the current square is the mouth of the dark cave:"),
    # a loop whose one draw or move names its item only as the place it goes to is one sentence
    (FF, (), "en", "For each of the start chambers:",
     "For every monster space of the start chambers, draw one monster tile from the first pile and put it there."),
    (FF, (), "en", "For each of the intersection spaces:",
     "For every intersection space, draw one intersection tile from the box and put it there."),
    (FF, (), "de", "Gehe die Starträume der Reihe nach durch:",
     "Lege je ein Monsterplättchen vom ersten Stapel auf jedes Monsterfeld der Starträume."),
    (FF, (), "de", "Gehe die Kreuzungsfelder der Reihe nach durch:",
     "Lege je ein Kreuzungsplättchen aus der Schachtel auf jedes Kreuzungsfeld."),
    # a die: a const whose `told` says the pick
    (FF, (), "en", "Pick a monster die roll at random from the list 2, 3, 3, 4, 4 and 4.", "Roll the monster die."),
    (FF, (), "de", "Bestimme einen Wurf des Spielerwürfels zufällig", "Wirf den Helden-Würfel."),
    # a parameter chosen from a list of one is no choice; a value with a told text is said even as a reset
    (FF, (), "en", "Choose a player from the list the player whose turn it is.",
     "Move your playing figure onto the space of the player whose turn it is."),
    (FF, (), "de", "Wähle einen Spieler aus der Liste dem Spieler am Zug.", "Lege deine Spielfigur auf das Feld des Spielers am Zug."),
    (FF, (), "en", "No change.", "Your movement ends."),
    (FF, (), "de", "Keine Änderung.", "Deine Bewegung endet."),
    # a told text's noun after a number written out, and its words after any other value
    (FF, (), "en", "Pay 1 in power chips", "Pay 1 power chip (see “Turn in power chips”)."),
    (FF, (), "de", "Zahle 1 in Kraftchips", "Zahle 1 Kraftchip (siehe „Kraftchips abgeben“)."),
    (FF, (), "en", "Pay the battle cost power chips", "Pay the battle cost in power chips"),
    (FF, (), "en", "up to the number chamber", "Move the chosen monster as far as the spell allows"),
    (FF, (), "de", "Raum/Räume", "Setze das gewählte Monster bis zu 1 Raum weit"),
    (FF, (), "en", "wander up to 3 (see", "wander up to 3 chambers (see"),
    # a tile named by a function's noun, and a value's told set: no card, no counter
    (FF, (), "en", "Move the card “Dumbest player”", "Move the Dumbest Player tile to the box."),
    (FF, (), "en", "Add 1 to the count of wisdom moves.",
     "The player puts their wisdom marker on the space of the wisdom track that matches the place in turn order (the start player on 1, the next player on 2, and so on)."),
    # a loop whose one step names its item once is that step said of every item: "each of …", „jede der …“
    (MF, (), "en", "For every other creature on the square of the creature:",
     "Poison every other creature on the square of the creature (see “Poison a creature”)."),
    (MF, (), "de", "Für jede andere Kreatur auf dem Feld der Kreatur:",
     "Vergifte jede andere Kreatur auf dem Feld der Kreatur (siehe „Kreatur vergiften“)."),
    (MF, (), "en", "For each of the small creatures on its square:",
     "This creature poisons each of the other small creatures except catapults on the square of this creature "
     "(see “Poison a creature”)."),
    (MF, (), "de", "Gehe die kleinen Kreaturen auf seinem Feld der Reihe nach durch:",
     "Diese Kreatur vergiftet jede der anderen kleinen Kreaturen außer Katapulten auf dem Feld dieser Kreatur "
     "(siehe „Kreatur vergiften“)."),
    (MF, (), "en", "For every creature on the chosen landing square:", "Every creature on the chosen landing square is no longer poisoned."),
    (MF, (), "de", "Für jede Kreatur auf dem gewählten Zielfeld:", "Jede Kreatur auf dem gewählten Zielfeld ist nicht mehr vergiftet."),
    (FF, (), "en", "For each of the carried players:",
     "Move the playing figure of each of the carried players onto this space."),
    (FF, (), "de", "Gehe die mitgenommenen Spieler der Reihe nach durch:",
     "Lege die Spielfigur jedes der mitgenommenen Spieler auf dieses Feld."),
    (MF, (), "en", "For every creature on a square for which the type of the square of the creature is lava square",
     "Each of the creatures on the lava squares burns in the lava"),
    (MF, (), "en", "Repeat as many times as the number of the steps",
     "Once for each of the steps of the movement, as long as the creature is on the board:"),
    (FF, (), "de", "Wiederhole so oft wie die Anzahl der neu gesehenen Räume",
     "Für jeden der neu gesehenen Räume:"),
    # a loop along a shortest path that moves a piece onto each place: "space by space by a route …; on entering each space:"
    (FF, (), "en", "For every space in a shortest path",
     "Move your playing figure space by space by a route with as few steps as possible from your space to the destination"),
    (FF, (), "de", "Für jedes Feld aus einem kürzesten Weg",
     "Ziehe das wandernde Monster Feld für Feld auf einem Weg mit möglichst wenigen Schritten durch die begehbaren Gänge "
     "zum Zielraum, ohne unterwegs die anderen Räume zu betreten; auf jedem neu erreichten Feld:"),
    # … from where the moved piece stands, unsaid: not "from the space of the wandering monster"
    (FF, (), "en", "by a route with as few steps as possible from the space of the wandering monster",
     "Move the wandering monster space by space by a route with as few steps as possible to the destination chamber"),
    # … whose stops are only passed on the way (the end may be one of them); a piece picked from the place its
    # own noun names is not defined again ("the wandering monster is the top tile of the wandering monster's space")
    (FF, (), "fr", "La tuile monstre est la tuile monstre du dessus de la case du monstre errant.",
     "à la pièce d'arrivée par les chemins praticables, sans traverser en chemin les autres pièces\u00a0;"),
    (FF, (), "en", "The monster tile is the top monster tile", "to the destination chamber through the passable corridors and, on the way, not through the other chambers;"),
    # … but not a named item, nor a step that leaves its item unsaid, nor players in an order the head says
    (MF, (), "en", "Bring every creature in the creature supply", "Bring the Purgana into play"),
    (MF, (), "en", "Place every path element", "For each of the path elements in play:"),
    # loop heads and control: „für jeden der …“, a loop of one choice of actions one sentence, "Stop."
    (FF, (), "en", "For every player in the other players", "For each other player, clockwise starting with the player after you:"),
    (FF, (), "de", "Für jeden Spieler aus den anderen Spielern",
     "Reihum im Uhrzeigersinn, beginnend mit dem Spieler nach dir, gilt für jeden anderen Spieler:"),
    (FF, (), "de", "Gehe die mitgenommenen Spieler der Reihe nach durch:",
     'Jeder Schüler, der dir in diesem Zug gefolgt ist, bei dir steht'),
    (FF, (), "de", "Gehe die mitgenommenen Spieler der Reihe nach durch:",
     'Jeder Schüler, der dir'),
    # a loop whose whole body is one `if` on its item: the test is a relative clause of the head
    (FF, (), "en", "For each of the following students:\nIf the space of the student is your space",
     'Every student who followed you this turn and stands with you and is at least 2 wisdom points behind you raises their wisdom by 1'),
    (FF, (), "de", "Für jeden der folgenden Schüler:\nWenn das Feld des Schülers dein Feld ist",
     'Jeder Schüler, der dir in diesem Zug gefolgt ist, bei dir steht und mindestens 2 Weisheitspunkte hinter dir liegt, erhöht seine Weisheit um 1'),
    (MF, (), "en", "For each of the riders:\nIf the rider is on the board:",
     "Every rider that is on the board enters the next square"),
    (MF, (), "de", "Für jeden der Mitreisenden:\nWenn der Mitreisende auf dem Spielplan steht:",
     "Für jeden Mitreisenden, der auf dem Spielplan steht:"),
    # a loop over the cards of a place comes from that place; a local used by one step only is said in it
    (FF, (), "en", "every magic spell in the magic spells in the box", "Move every magic spell in the box onto the spell pile of its tier."),
    (FF, (), "de", "jeden Zauberspruch in den Zaubersprüche in der Schachtel", "Lege jeden Zauberspruch in der Schachtel auf den Zauberstapel seiner Stufe."),
    (FF, (), "en", "The monster tile is the top monster tile of the change.",
     "You take the top monster tile of the change into your loot."),
    (FF, (), "de", "Das Monsterplättchen ist das oberste Monsterplättchen des Wechselgolds.",
     "Du nimmst das oberste Monsterplättchen des Wechselgolds in deine Beute."),
    # a list said in the plural of a noun of the rules counts its items by that noun, not „… jeweils“
    (FF, (), "de", "Für die neu gesehenen Räume mit Kraftchip jeweils:", "Für jeden der neu gesehenen Räume:"),
    # a value passed to a rule with a told text of its own says the step: "rises by …, to at most 50"
    (FF, (), "en", "The player's wisdom rises to the current wisdom plus the points gained",
     "The player's wisdom rises by the points gained, to at most 50 (see “Set wisdom”)."),
    (FF, (), "de", "Der Spieler erhöht seine Weisheit auf den um die gewonnenen Punkte höheren Wert",
     "Der Spieler erhöht seine Weisheit um die gewonnenen Punkte, aber höchstens auf 50 (siehe „Weisheit setzen“)."),
    # a modifier's duration said whole before the card, a computed change as what changes; a condition that holds
    # until a counter noted before grows said as its end, "until the next battle ends", and the noting unsaid
    # the change by a function with a told text said by its words ("raised or lowered by that amount")
    (FF, (), "en", "changes by the chosen amount",
     "Until the next battle ends or this turn ends, whichever comes first, the strength of "
     "the chosen monster is raised or lowered by that amount."),
    (FF, (), "de", "um den gewählten Betrag",
     "Bis der nächste Kampf zu Ende ist, höchstens aber bis zum Ende dieses Zuges, "
     "ist die Stärke des gewählten Monsters um so viele Punkte erhöht bzw. verringert."),
    (FF, (), "fr", "selon votre choix",
     "Jusqu'à ce que le prochain combat se termine, mais pas au-delà de la fin du tour, la force du monstre choisi "
     "est augmentée ou diminuée de ce nombre de points, selon la direction choisie."),
    # a loop of choices whose one action only ends it: no condition that quotes that action
    (FF, (), "en", "As long as you have not yet chosen “Cast no more”",
     "As long as you can cast a spell now, you may carry out “Cast a spell” again and again, and stop at any time (“Cast no more”)."),
    (FF, (), "de", "Solange du „Nicht mehr zaubern“ noch nicht gewählt hast",
     "Solange du jetzt einen Zauberspruch sprechen kannst, darfst du immer wieder „Zauberspruch sprechen“ ausführen und "
     "jederzeit damit aufhören („Nicht mehr zaubern“)."),
    # a room's chip said as that room's: one loop over the rooms, not two heads in a row
    (FF, (), "en", "Once for each of the newly seen chambers with a power chip:",
     "Take the power chip from the chamber and put it on the supply (see “Collect a chamber's chip”)."),
    (FF, (), "de", "Je einmal für jeden der neu gesehenen Räume mit Kraftchip:",
     "Nimm den Kraftchip aus dem Raum und lege ihn auf den Nachschub (siehe „Kraftchip aus einem Raum nehmen“)."),
    (FF, (), "en", "Rotate the intersection tile on the chosen intersection",
     "Rotate the intersection tile so that the chosen side becomes its closed side."),
    # a rule told of a player's own place (`told … by at …`) where that player is not the reader: that player acts
    (FF, (), "de", "Sieh dich vom Feld jedes Spielers",
     "Jeder Spieler, der die gewählte Kreuzung unter sich oder im Blick hat, sieht sich von seinem Feld aus um (siehe „Neue Bereiche sehen“)."),
    (FF, (), "fr", "depuis la case de chaque joueur qui",
     "Chaque joueur qui se trouve sur l'intersection choisie ou la voit regarde autour de lui depuis sa case"),
    (MF, (), "de", "Für die Felder des Sturmangriffs jeweils:", "Für jedes der Felder des Sturmangriffs:"),
    # a filter of fields of the item only: "whose … or whose …", not "for which the … of the tile …"
    (FF, (), "en", "for which the tile type of the monster tile is monster or the tile type of the monster tile is treasure",
     "every monster tile on a monster space whose tile type is monster or whose tile type is treasure"),
    (FF, (), "de", "bei dem die Plättchenart des Monsterplättchens Monster ist oder",
     "jedes Monsterplättchen auf einem Monsterfeld, dessen Plättchenart Monster ist oder dessen Plättchenart Schatz ist"),
    # a relative clause of players says "who"
    (FF, (), "en", "every player that stands on or sees intersection",
     'Every player who stands on or sees the chosen intersection looks around from their space'),
    # a repetition counted "1 if C, otherwise 2": "2 times, but only 1 time if C"; a gift "now belongs to"
    (FF, (), "en", "Repeat as many times as 1 if the turns played is 0, otherwise 2:",
     'If this is not the very first turn of the game:'),
    (FF, (), "de", "Wiederhole so oft wie 1, falls die Zahl der gespielten Züge 0 ist, sonst 2:",
     'Wenn dies nicht der allererste Zug des Spiels ist:'),
    (FF, (), "de", "Der Spieler wird Besitzer der Spielfigur.", "Der Spieler legt eine Spielfigur aus der Schachtel auf den Tisch."),
    # on each space a walk enters, the place reached is "this space", also where a function's text names it
    (FF, (), "de", "wenn das Monster auf dem Feld sichtbare Spieler trifft",
     "Sonst, wenn das Monster auf diesem Feld sichtbare Spieler trifft, die es noch nicht mitnimmt:"),
    (FF, (), "en", "meets visible players on the space whom",
     "Otherwise, if the monster meets visible players on this space whom it is not carrying yet:"),
    (FF, (), "fr", "si le monstre rencontre sur la case des joueurs",
     "Sinon, si le monstre rencontre sur cette case des joueurs visibles qu'il ne transporte pas encore\u00a0:"),
    (FF, (), "en", "Look around from the space (see",
     'Look around from your space (see'),
    (FF, (), "de", "Sieh dich vom Feld aus um (siehe",
     'Sieh dich von deinem Feld aus um (siehe'),
    # after "you decide whether …", the no is "If not:", not the decision negated
    (FF, (), "en", "If it is not the case that you move another monster:",
     'You decide whether you will move another monster.\nIf not:'),
    (FF, (), "de", "Wenn du noch kein Monster setzt:",
     'Du entscheidest, ob du ein weiteres Monster setzen willst.\nWenn nicht:'),
    (FF, (), "en", "As long as your movement is still going on:\nYou carry out one action",
     "As long as your movement is still going on, you keep carrying out one of these actions: “Move” or “Stop moving”."),
    (FF, (), "de", "Solange deine Bewegung noch läuft:\nDu führst eine Aktion aus",
     "Solange deine Bewegung noch läuft, führst du immer wieder eine dieser Aktionen aus: „Ziehen“ oder „Anhalten“."),
    (MF, (), "en", "Stop repeating.", "\nNo more riders are picked.\n"),  # a break says what ends
    (MF, (), "de", "Hör hier auf.", "\nDie Bewegung endet.\n"),
    (FF, (), "de", "Sonst hör hier auf.", "Sonst:\nDer Spruch endet."),
    (MF, (), "en", "Every player in every player", "Each player in turn, by their artifact value, highest first"),
    # a draw from a die's six faces is a die roll; the number drawn is the roll
    (MF, (), "en", "Pick a number at random: 1, 2, 3, 4, 5 or 6.", "Roll a die."),
    (MF, (), "en", "If the number is at least 4:", "If the roll is at least 4:"),
    (MF, (), "de", "Bestimme eine Zahl zufällig: 1, 2, 3, 4, 5 oder 6.", "Würfle."),
    # fields copied from one card to another are taken on in one sentence
    (MF, (), "en", "The size of this creature becomes the size of the chosen head.",
     "This creature takes on the number, the size, the alignment, the wands,"),
    (MF, (), "en", "This creature flies if the chosen head flies.",
     "of the chosen head, and also whether it flies, whether it has a magic ability and whether it carries creatures."),
    (MF, (), "de", "Die Größe dieser Kreatur wird die Größe des gewählten Kopfs.",
     "Diese Kreatur übernimmt vom gewählten Kopf die Nummer, die Größe, die Gesinnung, die Zauberstäbe,"),
    (MF, (), "de", "Diese Kreatur fliegt, wenn der gewählte Kopf fliegt.",
     "ebenso, ob sie fliegt, ob sie eine Magiefähigkeit hat und ob sie Kreaturen mitnimmt."),
    # a reaction to the start of one round says which
    (MF, ("maechtige_magier",), "en", "Whenever a round starts and the number of the round is 1:", "At the start of round 1:"),
    (MF, ("maechtige_magier",), "de", "Immer wenn eine Runde beginnt und die Nummer der Runde 1 ist:", "Zu Beginn von Runde 1:"),
    # a new named list starts empty: no sentence says so
    (MF, (), "en", "The riders are no cards.", "Add the chosen companion to the riders."),
    (FF, (), "de", "Die schon gesetzten Monster sind keine Karten.", "nicht zu den mit diesem Spruch schon gesetzten Monstern gehören"),
    # an action that changes nothing is told by its title alone
    (FF, (), "en", "No change.", "Cast no more"),
    (FF, (), "de", "Keine Änderung.", "Anhalten"),
    # a count told by its number: one chip, else the amount "in" chips; a plural currency agrees ("are")
    (FF, (), "de", "Lege 1 der Kraftchips", "Lege 1 Kraftchip auf das niedrigste freie Feld des Nachschubs."),
    (FF, (), "de", "Zahle 1 in Kraftchips", "Zahle 1 Kraftchip (siehe „Kraftchips abgeben“)."),
    (FF, (), "en", "Put 1 of the chips", "Put the rest of the chips owed out of the game."),
    # an amount said by the currency's own noun: no "in power chips" after it
    (FF, (), "en", "in power chips from the bank", "You take the power chips on the dark fields of the supply."),
    (FF, (), "de", "in Kraftchips von der Bank", "Du erhältst die Kraftchips auf den dunklen Feldern des Nachschubs."),
    (FF, (), "en", "If the amount is greater than 0", "If you owe at least 1 power chip:"),
    (FF, (), "en", "Put the chips to pay in power chips", "Put the rest of the chips owed out of the game."),
    # a name with its number takes no "the"
    (FF, (), "en", "Move the monsters 5 to 23", "Move monsters 5 to 23 (lowest number on top) onto the second pile."),
    (FF, (), "en", "If your power chips is less", "If you cannot pay the green heart"),
    # a worked example declines a card whose German title has its article; another player's is "von" them
    (MF, (), "de", "die Kreatur Riese", "Spieler 1 bewegt den Riesen mit einer Basisbewegung."),
    (MF, (), "de", "Spieler 3s Dämon", "Spieler 1 lockt den Dämon von Spieler 3 heran."),
    (MF, (), "de", "der Kreatur Meerjungfrau", "Spieler 1 setzt die Magiefähigkeit der Meerjungfrau ein."),
    (MF, (), "en", "moves the the", "Player 1 moves the Giant with a base movement."),
    # a score `concat([x], L)` ranks by x; the list L after it breaks ties
    (MF, (), "en", "each player counts the list the friends of the player in the tavern with bonus friends followed by",
     "each player counts their friends in the tavern (including bonus friends); in a tie, their highest remaining "
     "artifact (then the next highest, and so on) decides."),
    (MF, (), "de", "zählt jeder Spieler die Liste", "bei Gleichstand entscheidet sein höchstes verbliebenes Artefakt "
                   "(dann das nächsthöhere usw.)."),
    # a function's parameters with nouns of their own head its definition without letters
    (MF, ("maechtige_magier",), "en", "A creature (A) is smaller than a creature (B)",
     "A creature is smaller than another creature"),
    (MF, ("maechtige_magier",), "de", "Eine Kreatur (A) ist kleiner als eine Kreatur (B)",
     "Eine Kreatur ist kleiner als eine andere Kreatur"),
    # an event's value with a noun: where the skeleton lands
    (MF, (), "en", "comes into play on the number for the wizard of the lich",
     "comes into play for the wizard of the lich on the square where the creature was beaten"),
    (MF, (), "en", "If the number of the squares ahead is 1:", "Otherwise, if the squares directly after the current square leave no choice:"),
    # sets, filters and choices said as a person would (issue 10)
    (MF, (), "en", "you choose a creature ahead from the creatures directly ahead",
     "you choose one of the creatures directly ahead of this creature that can be poisoned:"),
    (MF, (), "de", "wählst du eine Kreatur davor aus den Kreaturen",
     "wählst du eine der Kreaturen direkt vor dieser Kreatur, die vergiftet werden können:"),
    (MF, (), "en", "Move the first bonus card from the third wizard's bonus cards",
     'Move the Fairy dust card of the third wizard to the used bonus cards.'),
    (MF, (), "de", "Lege die erste Bonuskarte aus den Bonuskarten des dritten Magiers",
     'Lege eine Feenstaub-Karte des dritten Magiers zu den abgelegten Bonuskarten.'),
    (MF, (), "de", "bei der das Feld der Kreatur ein Lavafeld ist",
     'Jede der Kreaturen auf den Lavafeldern verbrennt in der Lava'),
    (FF, (), "en", "You choose a magic spell from every magic spell",
     'Choose a magic spell from your hand.'),
    (FF, (), "de", "Du wählst einen Zauberspruch aus jedem Zauberspruch",
     'Du wählst einen Zauberspruch aus deinen Gehen-Sprüchen.'),
    (MF, (), "en", "Move every bonus card from the used bonus cards",
     'Move the used Fairy dust cards to the fairy dust supply.'),
    (MF, (), "de", "Lege alle Bonuskarten aus den abgelegten Bonuskarten",
     'Lege die abgelegten Feenstaub-Karten in den Feenstaub-Vorrat.'),
    (MF, (), "en", "from the list the creature followed by the possible riders",
     'chooses a companion from the possible riders (or the creature itself, to set off).'),
    (MF, (), "de", "aus der Liste der Kreatur gefolgt von den möglichen Mitreisenden",
     'wählt eine Begleitung aus den Mitreisekandidaten (oder die Kreatur selbst, um loszugehen).'),
    (FF, (), "en", "As long as the face-down intersections visible from the space are not empty:",
     'As long as a face-down intersection can be seen from the lookout space:'),
    # French: a chosen value is "choisi(e)" after its noun; a loop whose step names the item's field or whose
    # items a relative clause sorts goes one by one ("chaque", "son"); a function of several items is plural
    (FF, (), "fr", "Placez le sort dans la pioche de sorts du niveau du sort.", "Placez chaque sort de la boîte dans la pioche de son niveau."),
    (FF, (), "fr", "soit orienté vers le côté", "Tournez la tuile intersection pour que le côté choisi devienne son côté fermé."),
    (FF, (), "de", "auf die gewählte Seite zeigt", "Drehe das Kreuzungsplättchen so, dass die gewählte Seite seine geschlossene Seite wird."),
    (FF, (), "fr", "Pour chacun des disciples qui a suivi", "Pour chaque disciple qui a suivi vos pas ce tour-ci"),
    (FF, (), "fr", "Placez la figurine des joueurs transportés", "Placez les figurines des joueurs transportés sur cette case."),
    (FF, (), "fr", "le monstre choisi a la force changée de",
     "la force du monstre choisi est augmentée ou diminuée de ce nombre de points, selon la direction choisie."),
    # French: the place a walk reaches is "cette case" after "sur chaque case atteinte", a zone there said by it
    (FF, (), "fr", "Si cet emplacement de monstre contient", "sur chaque case atteinte"),
    (FF, (), "fr", "après chaque pas", "Si cette case contient au moins 2 tuiles monstre"),
    (FF, (), "fr", "Les pièces nouvellement vues sont", "Pour chacune des pièces nouvellement vues"),
    (MF, (), "fr", "Les amis sur le plateau appartenant à vous reçoit", "Pour chacun des amis du joueur sur le plateau"),
    # a place with a name of its own in a function's text keeps it; German keeps a closing aside after the verb
    (MF, (), "en", "the only one of the squares", "The next square is the one square directly after the current square."),
    (MF, (), "de", "das einzige der Felder", "Das nächste Feld ist das einzige Feld direkt nach dem aktuellen Feld."),
    (MF, (), "de", "als der Spieler (das gilt nur im Spiel zu zweit) hat", "als der Spieler hat (das gilt nur im Spiel zu zweit)."),
    (MF, (), "de", "das ausgespielte Artefakt von dir", "die Bonusbewegung machen darf, die dein ausgespieltes Artefakt zeigt."),
    # a yes/no constant said as a sentence is a rule to the reader
    (FF, (), "en", "Changed: Constant", "Changed: Rule “Several transform spells on one monster add up”"),
    (FF, (), "de", "Geändert: Konstante", "Geändert: Regel „Mehrere Monster-Sprüche auf dasselbe Monster addieren sich“"),
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


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_condition_a_requirement_may_be_has_a_must_form(lang: str) -> None:
    """A requirement said as "… must …" asks its condition for the form `must`; a comparison or idiom
    without one would silently state the condition as a fact."""
    cat = catalogue(lang)
    keys = [f"expr.{k}" for k in ("eq", "ne", "lt", "le", "gt", "ge", "and")] + \
        [f"idiom.{k}" for k in ("empty", "not_empty", "yours", "not_yours", "same_owner", "other_owner", "same_field",
                                "differ_field", "less_field", "at_most_field", "more_field", "at_least_field",
                                "holds_lt", "holds_le", "holds_gt", "holds_ge", "holds_eq", "odd", "even", "can_pay")]
    missing = [k for k in keys if not (isinstance(cat.pattern(k), dict) and "must" in cat.pattern(k))]  # type: ignore[operator]
    assert cat.has("stmt.require_must") and not missing, missing


def entries_of(game: Path, lang: str) -> list[Entry]:
    found: list[Entry] = []
    todo = [e for s in book(game, (), lang).sections for e in s.entries]
    while todo:
        entry = todo.pop(0)
        found.append(entry)
        todo.extend(entry.entries)
    return found


@pytest.mark.parametrize("lang,heading", [("en", "Arachne: web"), ("de", "Arachne: Netz"), ("fr", "Arachné : toile")])
def test_a_reaction_is_headed_by_its_own_text(lang: str, heading: str) -> None:
    """A `when … as NAME TEXT` is headed by its text, so thirty reactions are not all "Reacting to events"."""
    reactions = [e for e in entries_of(MF, lang) if e.anchor.startswith("trigger-")]
    assert heading in [e.title for e in reactions]
    assert len({e.title for e in reactions}) == len(reactions) > 20


@pytest.mark.parametrize("lang,heading", [("en", "Whenever a player guesses"), ("de", "Immer wenn ein Spieler")])
def test_a_reaction_without_text_is_headed_by_what_it_waits_for(lang: str, heading: str) -> None:
    books = rulebooks(read_ruleset(Path(__file__).parent / "fixtures" / "games" / "spitzel"), ())
    reactions = [e for s in books[lang].sections for e in s.entries if e.anchor.startswith("trigger-")]
    assert reactions and all(e.title.startswith(heading) for e in reactions), [e.title for e in reactions]


@pytest.mark.parametrize("lang,yes,no", [("en", "yes", "no"), ("de", "ja", "nein"), ("fr", "oui", "non")])
def test_a_yes_no_field_is_a_column_of_yes_and_no_headed_by_its_clause(lang: str, yes: str, no: str) -> None:
    tables = [t for s in book(MF, (), lang).sections for t in s.tables]
    flies = {"en": "flies", "de": "fliegt", "fr": "vole"}[lang]
    creatures = next(t for t in tables if flies in t.headers)
    column = creatures.headers.index(flies)
    assert not any("{it}" in h for t in tables for h in t.headers)
    assert {row[column] for row in creatures.rows} == {yes, no}


@pytest.mark.parametrize("lang,flies,wands", [("en", "Flies.", "Wands: 0."), ("de", "Fliegt.", "Zauberstäbe: 0.")])
def test_a_card_entry_says_what_the_card_has_not_what_it_lacks(lang: str, flies: str, wands: str) -> None:
    """A yes/no clause field that is true reads as the clause ("Flies."); false, and a value equal to the
    field's default ("Wands: 0"), is left out."""
    dragon = next(e for e in entries_of(MF, lang) if e.anchor == "card-dragon")
    imp = next(e for e in entries_of(MF, lang) if e.anchor == "card-imp")
    said = [line.text for line in dragon.lines]
    assert flies in said and wands not in said and not any(": " + w in t for t in said for w in ("no.", "nein.", "false."))
    assert any(t.startswith(wands[:-3]) for t in (line.text for line in imp.lines))  # the imp has 1 wand


@pytest.mark.parametrize("lang,flag,ability", [("en", "Has a magic ability.", "Magic ability:"),
                                               ("de", "Hat eine Magiefähigkeit.", "Magiefähigkeit:")])
def test_an_internal_field_has_no_line_in_a_card_entry_and_no_column(lang: str, flag: str, ability: str) -> None:
    """A flag marked `internal` (the creature's "has a magic ability", which its "Magic ability:" entry
    already tells) is left out of the card entries, the card tables and what a card shows."""
    sphinx = next(e for e in entries_of(MF, lang) if e.anchor == "card-sphinx")
    said = [line.text for line in sphinx.lines]
    assert ability in said and flag not in said
    tables = [t for s in book(MF, (), lang).sections for t in s.tables]
    assert not any(h.lower() == flag[:-1].lower() for t in tables for h in t.headers)


def definitions(game: Path, variants: tuple[str, ...], lang: str) -> Section:
    return next(s for s in book(game, variants, lang).sections if s.anchor == "definitions")


def formula_rows(game: Path, variants: tuple[str, ...], lang: str) -> dict[str, str]:
    """The modders' appendix: each function's name in the rules file with its generated formula."""
    section = next(s for s in book(game, variants, lang).sections if s.anchor == "formulas")
    return {row[0]: row[1] for t in section.tables for row in t.rows}


@pytest.mark.parametrize("lang,words", [("en", "+1 for a flyer"), ("de", "+1 für Fliegende")])
def test_a_function_note_is_its_definition_and_the_formula_moves_to_the_appendix(lang: str, words: str) -> None:
    """`function … note TEXT = …` is told by its sentence in "Definitions"; the generated formula is kept
    for modders in the appendix, so a changed rule still changes the book."""
    said = [p for p in definitions(MF, (), lang).paragraphs if words in p]
    assert len(said) == 1 and "function-speed" not in [e.anchor for e in entries_of(MF, lang)]
    assert "+" in formula_rows(MF, (), lang)["speed"] and formula_rows(MF, (), lang)["speed"] != said[0]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_internal_function_has_no_definition_but_a_formula(lang: str) -> None:
    """`internal function` names a lookup the rules say in words where used ("the guard at card place 3")."""
    assert len(definitions(MM, (), lang).paragraphs) == 5 and not definitions(MM, (), lang).entries
    assert not any("guard card" in p or "Wächterkarte" in p for p in definitions(MM, (), lang).paragraphs)
    assert "guard" in formula_rows(MM, (), lang)


@pytest.mark.parametrize("lang,base,variant", [
    ("en", "nothing at level 1, 1 gold at level 2 and 2 gold at level 3", "nothing at levels 1 and 2, 1 gold at level 3"),
    ("de", "bei Level 1 nichts, bei Level 2 1 Gold und bei Level 3 2 Gold", "bei Level 1 und 2 nichts, bei Level 3 1 Gold")])
def test_a_definition_names_consts_by_place_so_a_variant_changes_it(lang: str, base: str, variant: str) -> None:
    """`{owner_fee}` in a function's note is the const's value as the values table says it."""
    def cost(variants: tuple[str, ...]) -> str:
        return definitions(MM, variants, lang).paragraphs[-1]
    assert base in cost(()) and "{" not in cost(())
    assert variant in cost(("billiges_verdraengen",))


def test_no_shipped_definition_prints_as_a_formula() -> None:
    """Every function of the shipped games is worded by a note or marked internal (what check warns about)."""
    from dsl.validate import formula_definitions
    assert {g.name: formula_definitions(read_ruleset(g).items) for g in (MM, FF, MF)} == \
        {g.name: [] for g in (MM, FF, MF)}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_rule_told_where_it_is_called_has_no_second_entry(lang: str) -> None:
    """A phase that is one call of a rule used nowhere else tells that rule's steps, and the rule gets no
    entry of its own ("End of the round" printed once); a rule with a note of its own keeps its entry."""
    anchors = [e.anchor for e in entries_of(MF, lang)]
    assert "phase-upkeep" in anchors and "rule-end-of-round" not in anchors
    assert "rule-flip-stairs" not in anchors and anchors.count("rule-third-turn") == 1
    upkeep = next(e for e in entries_of(MF, lang) if e.anchor == "phase-upkeep")
    assert len(upkeep.lines) > 3


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_card_lists_of_one_kind_make_one_reference_chapter(lang: str) -> None:
    """Creatures written in three files are one "Reference: creature", not three chapters of that name."""
    titles = [s.title for s in book(MF, (), lang).sections]
    assert len(titles) == len(set(titles)), titles
    creatures = next(s for s in book(MF, (), lang).sections if s.anchor == "reference-creatures-01-25")
    assert {"card-arachne", "card-sphinx", "card-catapult"} <= {e.anchor for e in creatures.entries}


@pytest.mark.parametrize("game", [MF, FF, MM])
def test_a_card_table_has_a_cell_under_every_heading_and_one_row_per_different_card(game: Path) -> None:
    tables = [t for s in book(game, (), "en").sections for t in s.tables if t.caption and " — " in t.caption]
    assert tables
    for t in tables:
        assert all(len(row) == len(t.headers) for row in t.rows), t.caption
        assert len({tuple(r) for r in t.rows}) == len(t.rows), t.caption


def test_a_card_table_shows_what_is_printed_not_the_state_in_play() -> None:
    """A field only defaulted ("is poisoned", "mark") is state in play: no column; equal cards count."""
    creatures = next(t for s in book(MF, (), "en").sections for t in s.tables if "flies" in t.headers)
    assert "is poisoned" not in creatures.headers and "mark" not in creatures.headers
    skeleton = next(r for r in creatures.rows if r[0] == "Skeleton")
    assert skeleton[creatures.headers.index("Copies")] == "3"


def test_the_places_table_has_no_column_of_blanks() -> None:
    """Every column of the places table says something of some place: "Holds at most" is there for Magical
    Friends' preview alone, which holds one card."""
    places = next(t for s in book(MF, (), "en").sections for t in s.tables if t.caption == "Places for cards")
    at_most = places.headers.index("Holds at most")
    assert [row[0] for row in places.rows if row[at_most]] == ["Preview"]
    assert all(any(row[i] for row in places.rows) for i in range(2, len(places.headers)))


@pytest.mark.parametrize("lang,values,holds", [("en", "There are five wizards: Donny Darkmatter", "Each player has one; it holds their wizard powers"),
                                               ("de", "Es gibt fünf Magier: Donny Darkmatter", "Jeder Spieler hat einen eigenen solchen Platz; hier liegen seine Magiermächte")])
def test_a_variants_new_list_kind_and_place_say_what_they_are(lang: str, values: str, holds: str) -> None:
    """A variant chapter's "New: Place …" is not an empty heading: values, printed fields, cards held."""
    chapter = next(s for s in book(MF, (), lang).sections if s.anchor == "variant-maechtige-magier")
    named = [e for e in chapter.entries if e.code in ("mage", "mage_power", "power_box", "powers")]
    assert len(named) >= 4 and all(e.lines for e in named)
    said = [line.text for e in named for line in e.lines]
    assert any(t.startswith(values) for t in said) and any(t.startswith(holds) for t in said), said


def test_a_reaction_that_only_announces_is_no_rule_of_the_game() -> None:
    anchors = {e.anchor for e in entries_of(MF, "en")}
    assert "trigger-lava-rises" in anchors and not {"trigger-turn-log", "trigger-beaten-log"} & anchors


@pytest.mark.parametrize("game,lang,turn", [
    (MF, "en", "On their turn, each player takes one of six actions again and again: “Summon”, "),
    (MF, "de", "In seinem Zug führt jeder Spieler immer wieder eine von sechs Aktionen aus: „Beschwören“, "),
    (MM, "en", "In the “Play monster cards” phase, each player on their turn takes one of two actions: “Place a monster” or “Displace a monster”."),
    (MM, "de", "In der Phase „Monsterkarten spielen“ führt jeder Spieler in seinem Zug eine von zwei Aktionen aus: „Monster anlegen“ oder "),
    (FF, "en", "On their turn, each player takes one of three actions: “Move and battle”, “Move twice” or “Take power chips”."),
    (FF, "de", "In seinem Zug führt jeder Spieler eine von drei Aktionen aus: „Bewegen und kämpfen“, "),
])
def test_the_book_says_how_a_game_goes_right_after_the_goal(game: Path, lang: str, turn: str) -> None:
    """Readers learn a game from its flow first: the rounds and phases, the actions of a turn (of an
    `if`/`else` the general case, the special one after it as what it is instead, never alone) and who
    wins, from the rules themselves."""
    sections = book(game, (), lang).sections
    anchors = [s.anchor for s in sections]
    assert anchors.index("flow") == anchors.index("overview") + 1
    paragraphs = sections[anchors.index("flow")].paragraphs
    flow = " ".join(paragraphs)
    assert turn in flow
    assert ("At the end, whoever " if lang == "en" else "Am Ende gewinnt, wer ") in flow
    general = next(p for p in paragraphs if turn in p)
    assert not any(w in general for w in ("start chamber", "Startraum", "battle again", "nochmals kämpfen"))
    assert not any(w in flow for w in ("start chamber", "Startraum"))
    if game == FF:
        assert paragraphs[paragraphs.index(general) + 1] == {
            "en": "With 2 players, the choice is instead “Move, battle, move again and battle again”, "
                  "“Move twice and battle” or “Take power chips”.",
            "de": "Bei 2 Spielern stehen stattdessen zur Wahl: „Bewegen, kämpfen, wieder bewegen und nochmals "
                  "kämpfen“, „Zweimal bewegen und kämpfen“ oder „Kraftchips nehmen“."}[lang]


@pytest.mark.parametrize("lang,winner,phases", [
    ("en", "At the end, whoever has the most gold wins (see “Scoring”).", "Each round has three phases, in this order:"),
    ("de", "Am Ende gewinnt, wer am meisten Gold hat (siehe „Wertung“).",
     "Jede Runde besteht aus drei Phasen, die nacheinander abgehandelt werden:"),
])
def test_the_flow_counts_the_phases_and_names_what_the_winner_has_most_of(lang: str, winner: str, phases: str) -> None:
    """A score that counts a currency (`score(p) = p.gold`) names it: "whoever has the most gold", not
    "whoever scores most"; the phases are counted before they are listed."""
    sections = book(MM, (), lang).sections
    flow = " ".join(next(s for s in sections if s.anchor == "flow").paragraphs)
    assert winner in flow and phases in flow


def test_a_number_the_effect_says_is_not_listed_again() -> None:
    """A card's number its effect reads (`self.amount`) is said in the effect, not as a line of its own; a card
    without a number (the field's default) has no value line."""
    cards = {e.title: [line.text for line in e.lines] for s in book(FF, (), "en").sections for e in s.entries}
    assert "Extend the movement by up to 2 spaces (see “Extend the movement”)." in "\n".join(
        "\n".join(texts_of(line)) for s in book(FF, (), "en").sections for e in s.entries
        if e.title == "Movement +2" for line in e.lines)
    assert not any(t.startswith("Value") for t in cards["Movement +2"])
    assert not any(t.startswith("Value") for t in cards["Exchange 2 Monsters/Treasure Chests"])


def test_an_internal_rule_keeps_its_entry_but_its_calls_go_unsaid() -> None:
    """`internal rule note_beasts …` keeps a cache of what the board shows current: the book tells it once,
    in its own entry, and says nothing where it is called."""
    text = all_text(FF, (), "en")
    assert "Note the chambers with monsters (see “Note the chambers with monsters”)." not in text
    assert "Survey the corridors (see “Survey the corridors”)." not in text
    entries = {e.anchor: e for e in book(FF, (), "en").every_entry()}
    assert "rule-note-beasts" in entries


def test_an_internal_rule_with_a_note_is_told_by_its_note() -> None:
    """An `internal rule` with a `note` keeps a cache the board shows: its entry is the note (what the cache
    holds), not its steps, which would read as set-builder formulas ("The passable corridors become …")."""
    entries = {e.anchor: e for e in book(FF, (), "en").every_entry()}
    survey = entries["rule-survey"]
    assert not survey.lines and survey.note is not None and survey.note.startswith("The map shows which corridors")
    assert "The passable corridors become" not in all_text(FF, (), "en")


@pytest.mark.parametrize("game,lang", [(g, lang) for g in (MM, FF, MF) for lang in ("en", "de")])
def test_data_in_lists_is_named_not_spelled_out(game: Path, lang: str) -> None:
    """A constant of lists (a board's ways, the double-sided elements) is said by its name, never as
    "the list the list 1 and 11, …" in running text."""
    text = all_text(game, (), lang)
    assert ("the list the list" if lang == "en" else "die Liste die Liste") not in text
    assert ": the list the list" not in text and ": die Liste die Liste" not in text


@pytest.mark.parametrize("lang,start,flies", [
    ("en", "the player in the first seat", "whether it flies"),
    ("de", "der erste Spieler der Sitzreihenfolge", "ob sie fliegt")])
def test_tables_say_values_in_words_a_player_uses(lang: str, start: str, flies: str) -> None:
    """Not "the first of all players" or a bare "flies" among the fields a card shows."""
    components = next(s for s in book(MF, (), lang).sections if s.anchor == "components")
    values = {row[0]: row[1] for t in components.tables for row in t.rows if len(row) == 2}
    assert start in values.values()
    anatomy = next(s for s in book(MF, (), lang).sections if s.anchor == "card-anatomy")
    assert flies in anatomy.tables[0].rows[0][1]
