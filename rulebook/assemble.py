"""Builds the rulebook of a ruleset (with variants) in one language from its AST and its compiled
program: the sections a rulebook has, in the order a rulebook uses. Knows no game."""
from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from dsl import ast as A
from dsl.loader import RulesetSource
from dsl.steps import named_part, owners
from dsl.validate import part_key
from interpreter.compile.pictures import board_of
from interpreter.runtime.program import Program
from rulebook.examples import attach, examples_of, play_example
from rulebook.flow import fixed_rounds, turn_choices
from rulebook.order import Part, by_section, replaced_in_setup, same
from rulebook.model import (Assumption, Change, Entry, Example, Line, Picture, Rulebook, Section, Table,
                            inner_first)
from rulebook.phrases import IT_PLACE, PLACEHOLDER, MissingRendering, Phrase, catalogue, fill
from rulebook.picture import render_svg
from rulebook.shared import shared
from rulebook.idioms import yes_or_no
from rulebook.sentences import Speaker, score_parts, sum_terms, text_of, times_term


def restates(title: str, definition: str, articles: frozenset[str] = frozenset()) -> bool:
    """Whether a definition says nothing its title has not: it opens with the title's words ("the strong tokens
    when …" of "the strong tokens"), or uses no word the title does not ("A is the home row" of "row A is the home
    row"; "the player has spent tokens" of "a player has spent tokens": no word but an article, which says nothing
    new, as a title says "a player" where its definition says "the player")."""
    said, defined = (re.findall(r"\w[\w'’-]*", text.lower()) for text in (title, definition))
    return defined[:len(said)] == said or set(defined) - articles <= set(said)


def _tied(score: A.ScoreDef) -> str:
    """The message suffix of a score with tie-breaks: only players still tied after them share the win."""
    return "_tied" if len(score_parts(score.expr)) > 1 else ""


def _slug(*parts: str) -> str:
    return "-".join(p.replace("_", "-").replace("#", "-") for p in parts if p)


class Assembler:
    """One rulebook: the variant-applied items rendered by a Speaker; the base game's items by a
    second Speaker, for the old text of each change."""

    def __init__(self, src: RulesetSource, variants: Sequence[str], lang: str) -> None:
        self.src = src
        self.variants = list(variants)
        self.lang = lang
        self.cat = catalogue(lang)
        self.shared = shared(src, variants)
        self.items: list[A.Node] = self.shared.items
        self.base_items: list[A.Node] = shared(src, ()).items
        self.sp = Speaker(lang, self.shared.symbols)
        self.base_sp = Speaker(lang, shared(src, ()).symbols)
        self.ui = {k: str(v) for k, v in self.cat.table("ui").items()}
        self._changes: Optional[Section] = None

    @property
    def program(self) -> Program:
        """The compiled ruleset, for what only the engine computes: the cards, values by player count."""
        return self.shared.program

    # ------------------------------------------------------------ small helpers
    def t(self, text: Optional[A.Text], what: str, pos: A.Pos) -> str:
        return text_of(text, self.lang, what, pos)

    def say(self, key: str, node: A.Node, form: str = "default", **args: Any) -> str:
        return self.sp.sentence(key, node, form, **args)

    def of(self, cls: type) -> list[Any]:
        return [i for i in self.items if isinstance(i, cls)]

    def one(self, cls: type) -> Any:
        found = self.of(cls)
        return found[0] if found else None

    def word(self, key: str, form: str = "nom", **args: str) -> str:
        """An interface text of the catalogue with its places filled (titles, captions, labels); `form`
        picks the text's form, e.g. the gender of the noun it speaks of."""
        return self.cat.contract(fill(self.cat.pattern(f"ui.{key}"), form, args))

    def bare(self, text: Optional[A.Text], what: str, pos: A.Pos) -> str:
        """A display text without its leading article, for headings and tables: its adjectives as they stand
        alone („erster Stapel“, not „erste Stapel“)."""
        return self.sp.noun(text, what, pos).np("label").form("nom")

    def title_of(self, item: Any) -> str:
        """How a part is called in headings: its display text (a cards table: its kind's), or its name in
        the rules file."""
        if isinstance(item, A.CardsDef) and item.name in self.sp.sym.kinds:
            item = self.sp.sym.kinds[item.name]
        for attr in ("text", "title"):
            text = getattr(item, attr, None)
            if isinstance(text, A.Text) and self.lang in text.by_lang:
                word = self.bare(text, "", item.pos)
                if isinstance(item, A.FunctionDef):
                    word = self.sp.function_title(item, word)
                return self.capital(word)
        if isinstance(item, A.TriggerDef):  # a reaction is called by what it waits for: "Whenever a player …"
            return self.sp.sentence("item.trigger", item, event=self.sp.event(item)).rstrip(":\u00a0 ")
        return str(getattr(item, "name", "")).replace("_", " ")

    @staticmethod
    def capital(word: str) -> str:
        return word[:1].upper() + word[1:]

    def source_file(self, pos: A.Pos) -> str:
        """A position's file relative to the rulesets folder, so the text is the same on any machine."""
        path = Path(pos.file)
        try:
            return str(path.resolve().relative_to(self.src.folder.resolve().parent))
        except ValueError:
            return path.name

    # ------------------------------------------------------------ the book
    def build(self) -> Rulebook:
        game: A.GameDef = self.one(A.GameDef)
        title = self.t(game.title, "game", game.pos) if game else self.src.name
        subtitle = ""
        if self.variants:
            names = [self.t(self.src.variants[v].title, f"variant '{v}'", self.src.variants[v].pos)
                     for v in self.variants]
            subtitle = self.word("variant_of", game=title)
            title = self.word("variant_title", game=title, variants=", ".join(names))
        sections = ([self.changes()] if self.variants else []) + [
            self.overview(game), self.flow(), self.components(), self.card_anatomy(), self.setup(), self.round(), self.actions(),
            self.special_rules(), self.game_end(), self.definitions()] + self.variant_chapters() + \
            self.references() + [self.bots()]
        self.place_examples([s for s in sections if s is not None])
        sections += [self.formulas([s for s in sections if s is not None]), self.assumptions()]
        return Rulebook(lang=self.lang, title=title, subtitle=subtitle,
                        sections=[s for s in sections if s is not None], ui=self.ui)

    def section(self, anchor: str, key: str, template: str = "entries", **fmt: str) -> Section:
        return Section(anchor=anchor, title=self.word(key, **fmt), template=template)

    def overview(self, game: Optional[A.GameDef]) -> Section:
        sec = self.section("overview", "overview", "text")
        if game is not None:
            if game.goal is not None:
                sec.paragraphs.append(self.t(game.goal, "goal", game.pos))
            sec.paragraphs.append(self.word("players", min=str(game.min_players), max=str(game.max_players)))
        return sec

    def flow(self) -> Optional[Section]:
        """How a game goes, before the details: the rounds and their phases, the actions a turn offers,
        the end and the winner."""
        rnd: Optional[A.RoundDef] = self.one(A.RoundDef)
        if rnd is None:
            return None
        sec = self.section("flow", "flow", "text")
        sec.paragraphs.append(self.rounds_sentence(rnd))
        for choice in turn_choices(rnd.phases, self.of(A.RuleDef)):
            part = self.sp.quoted(self.title_of(choice.part))
            if isinstance(choice.part, A.PhaseDef):  # "in the phase “Play cards”", not "in “Play cards”"
                part = self.word("flow_phase", name=part)
            key = "item.flow_choose" + ("_again" if choice.again else "") + ("_turn" if choice.turn else "")
            if choice.turn and not isinstance(choice.part, A.PhaseDef):  # the turn names itself: "On their turn, …"
                key += "_own"
            sec.paragraphs.append(self.say(key, choice.part, part=part, count=self.number_word(len(choice.actions)),
                                           actions=self.sp.action_list(choice.actions, choice.part)))
            for cond, actions in choice.instead:  # "With 2 players, they are these instead: …"
                counts = self.sp.player_counts(cond)
                if counts is not None:
                    sec.paragraphs.append(self.say("item.flow_choose_instead", choice.part, counts=counts,
                                                   actions=self.sp.action_list(actions, choice.part)))
        score: Optional[A.ScoreDef] = self.one(A.ScoreDef)
        if self.ends_at_once():
            sec.paragraphs.append(self.say("item.flow_ends_early", rnd, title=self.sp.quoted(self.ui["game_end"])))
        if score is not None:
            key = "item.flow_winner_lowest" if score.lowest else "item.flow_winner"
            counted = self.scored_currency(score)
            named = counted.text if counted else self.scored_function(score)
            what = self.bare(named, f"score '{score.var}'", score.pos) if named else ""
            sec.paragraphs.append(self.say(key + ("_of" if named else ""), score, what=what,
                                           title=self.sp.quoted(self.ui["scoring"])))
        return sec

    def scored_currency(self, score: A.ScoreDef) -> Optional[A.CurrencyDef]:
        """The currency a score counts first (`score(p) = p.gold`): the winner is who has the most of it."""
        first = score.expr.items[0] if isinstance(score.expr, A.ListLit) and score.expr.items else score.expr
        if isinstance(first, A.Attr) and isinstance(first.obj, A.Name) and first.obj.name == score.var:
            return self.sp.sym.currencies.get(first.name)
        return None

    def scored_function(self, score: A.ScoreDef) -> Optional[A.Text]:
        """What a score counts first when it is a function of the player named "the gold {p:vgen}" ("{p}'s
        gold"): its noun without the player, so the winner is "who has the most gold"."""
        first = score.expr.items[0] if isinstance(score.expr, A.ListLit) and score.expr.items else score.expr
        if not (isinstance(first, A.Call) and len(first.args) == 1 and isinstance(first.args[0], A.Name)
                and first.args[0].name == score.var):
            return None
        fn = self.sp.sym.functions.get(first.func)
        text = fn.text.by_lang.get(self.lang, "") if fn is not None and fn.text is not None else ""
        noun = re.sub(r"^\{\w+(?::\w+)?\}'s |(?: of| de| d'| von)? ?\{\w+(?::\w+)?\}$", "", text)
        return A.Text(pos=fn.pos, by_lang={self.lang: noun}) if fn is not None and noun and "{" not in noun else None

    def rounds_sentence(self, rnd: A.RoundDef, sp: Optional[Speaker] = None) -> str:
        """How many rounds (a fixed number said as it is) and the phases of each, in order (of two or more)."""
        sp = sp or self.sp
        phases = sp.join([sp.quoted(self.title_of(p)) for p in rnd.phases])
        count = fixed_rounds(rnd.repeat_while, sp.sym.consts)
        head = sp.sentence("item.rounds_fixed", rnd, count=sp.expr(count)) if count is not None else \
            sp.sentence("item.rounds_while", rnd, "sub", cond=sp.expr(rnd.repeat_while))
        if len(rnd.phases) == 1:  # the round is its one phase, whose section follows: nothing to count
            return head
        # "three phases", not "these phases": the reader counts them before reading them
        return f"{head} {sp.sentence('item.round_phases', rnd, phases=phases, count=self.number_word(len(rnd.phases)))}"

    def number_word(self, n: int) -> str:
        """A small count as a word ("three phases"), a larger one in digits."""
        return str(self.cat.pattern(f"number_word.{n}")) if self.cat.has(f"number_word.{n}") else str(n)

    # ------------------------------------------------------------ components
    def components(self) -> Section:
        sec = self.section("components", "components", "tables")
        sec.tables.append(self.zone_table())
        for kind in self.program.kinds.values():
            cards = [c for c in self.program.cards if c.kind == kind.name]
            if cards:
                sec.tables.append(self.card_table(kind.ast, cards))
        values = self.values_table()
        if values.rows:
            sec.tables.append(values)
        sec.paragraphs += [self.secret_rule(item) for item in [*self.of(A.CurrencyDef), *self.of(A.VarDef)]
                           if item.hidden]
        sec.pictures = [self.picture(pic) for pic in self.of(A.PictureDef)]
        return sec

    def picture(self, pic: A.PictureDef) -> Picture:
        """The board drawn for the most players the game allows, titled and keyed in this language."""
        game = self.shared.game(self.program.max_players)
        keyed = [e for e in pic.entries if e.text is not None]
        texts = [(e, self.capital(self.bare(e.text, f"picture '{pic.name}'", e.pos))) for e in keyed]
        title = self.t(pic.text, f"picture '{pic.name}'", pic.pos)
        svg = render_svg(pic.name, title, board_of(game, pic), texts, self.label_text)
        return Picture(anchor=_slug("picture", pic.name), title=title, svg=svg, file=f"{pic.name}.{self.lang}.svg")

    def label_text(self, value: Any) -> str:
        """A node's label: a number or text as it is, an enum value by its display text without article."""
        if isinstance(value, str) and value in self.sp.sym.enum_values:
            text = self.sp.sym.enum_values[value]
            return self.bare(text, f"value '{value}'", text.pos)
        return self.value_text(value)

    def zone_row(self, z: A.ZoneDef, kind: Optional[A.KindDef] = None) -> list[str]:
        """A place as the table of places shows it: name, cards, layout, visibility, capacity."""
        ui = self.ui
        kind = kind or self.program.kinds[z.kind].ast
        if z.shape == "per_player":
            layout = ui["one_each"]
        elif z.shape == "indexed" and z.size is not None:
            const = self.sp.sym.consts.get(z.size.name) if isinstance(z.size, A.Name) else None
            size = const.value if const is not None and isinstance(const.value, A.Num) else z.size  # a count, by value
            said = self.sp.expr(size)
            gender = "fem" if self.sp.noun(z.text, f"zone '{z.name}'", z.pos).feminine() else "nom"  # « numérotées »
            if isinstance(size, A.Name) and size.name == "player_count":  # as players say it: "one per player"
                layout = self.word("numbered_per_player", gender)
            else:
                layout = self.word("numbered" if isinstance(size, A.Num) else "numbered_up_to", gender,
                                   size=said.form("dat" if not isinstance(size, A.Num) else "nom"))
        else:
            layout = ""
        vis = [ui[z.visibility]] + ([ui["shuffled"]] if z.shuffled else [])
        return [self.only_for(z.name, self.bare(z.text, f"zone '{z.name}'", z.pos)),
                self.bare(kind.title, f"kind '{kind.name}'", kind.pos), layout, ", ".join(vis),
                str(z.capacity) if z.capacity else ""]

    def named_lines(self, item: Any, ops: Sequence[A.VariantOp]) -> list[Line]:
        """What a variant's new list of values, kind of card or place is: its values, the fields its cards
        show, or the cards it holds and how they lie (of a kind the base game or the variant has)."""
        if isinstance(item, A.EnumDef):  # "There are three colours: …"
            values = ", ".join(self.bare(v.text, f"value '{v.name}'", v.pos) for v in item.values)
            kind = self.sp.noun(item.title, f"enum '{item.name}'", item.pos).plural()
            return [Line(self.say("item.enum_values", item, values=values, kind=kind,
                                  count=self.number_word(len(item.values))))]
        if isinstance(item, A.KindDef):
            fields = [self.sp.noun(f.text, f"field '{f.name}'", f.pos).np("def") for f in item.fields
                      if f.type.name != "effect"]  # "the wizard, the round … and the cost", not a list of labels
            return [Line(self.say("item.kind_fields", item, fields=self.sp.join(fields)))] if fields else []
        if isinstance(item, A.ZoneDef):
            own = next((op.item for op in ops if isinstance(op.item, A.KindDef) and op.item.name == item.kind), None)
            _, kind, layout, vis, _ = self.zone_row(item, own)
            held = own or self.sp.sym.kinds[item.kind]
            kinds = self.sp.noun(held.title, f"kind '{held.name}'", held.pos).plural()  # „Hier liegen Magiermächte“
            each = item.shape == "per_player"  # "Each player has one; it holds …", not "one per player" among the cards
            return [Line(self.say("item.zone_holds_each" if each else "item.zone_holds", item, kind=kind, kinds=kinds,
                                  how=", ".join(w for w in ("" if each else layout, vis) if w)))]
        return []

    def zone_table(self) -> Table:
        ui = self.ui
        rows = [[self.capital(row[0]), row[1], row[2], "" if self.is_piece(self.program.kinds[z.kind].ast) else row[3],
                 row[4]] for z, row in ((z, self.zone_row(z)) for z in self.of(A.ZoneDef))]  # a pawn lies no way up
        headers = [ui["zone"], ui["kind"], ui["layout"], ui["visibility"], ui["capacity"]]
        kept = [i for i in range(len(headers)) if i < 2 or any(row[i] for row in rows)]  # no column of blanks
        return Table([headers[i] for i in kept], [[row[i] for i in kept] for row in rows], ui["zones"])

    def card_table(self, kind: A.KindDef, cards: list[Any]) -> Table:
        """The cards of a kind in one place, a column per printed field (a field only defaulted is state in
        play); equal cards make one row with their number of copies."""
        printed = self.printed_fields(kind.name)
        shown = [i for i, f in enumerate(kind.fields)
                 if f.type.name != "effect" and not f.internal and (f.name in printed or f.back)]
        titled = any(isinstance(c.ast, A.CardEntry) and c.ast.title for c in cards)
        headers = ([self.ui["card"]] if titled else []) + \
            [self.sideless(self.bare(kind.fields[i].text, f"field '{kind.fields[i].name}'", kind.fields[i].pos),
                           kind.fields[i]) for i in shown]
        counted: dict[tuple[str, ...], int] = {}
        for c in cards:
            title = [self.bare(c.ast.title, "card", c.ast.pos) if isinstance(c.ast, A.CardEntry) and c.ast.title
                     else "—"] if titled else []
            row = tuple(title + [self.value_text(c.values[i], kind.fields[i].type.name) for i in shown])
            counted[row] = counted.get(row, 0) + 1
        rows = [list(row) for row in counted]
        if any(n > 1 for n in counted.values()):
            headers.append(self.ui["copies"])
            rows = [list(row) + [str(n)] for row, n in counted.items()]
        zone = self.sp.sym.zones[cards[0].zone]
        caption = self.word("cards_caption", kind=self.bare(kind.title, f"kind '{kind.name}'", kind.pos), count=str(len(cards)),
                            zone=self.bare(zone.text, f"zone '{zone.name}'", zone.pos))
        return Table(headers, rows, caption)

    def card_anatomy(self) -> Optional[Section]:
        """Each kind's fields under the side they are printed on: the front (what its card data gives, and what the
        back shows, said once) and the back (its `back` fields); and a sentence per kind on what a face-down card gives away."""
        sec = self.section("card-anatomy", "card_anatomy", "text")
        rows = []
        for kind in self.program.kinds.values():
            ast: A.KindDef = kind.ast
            if not any(c.kind == kind.name for c in self.program.cards):
                continue
            name = self.capital(self.bare(ast.title, f"kind '{ast.name}'", ast.pos))
            printed = self.printed_fields(ast.name)
            fields = [self.only_for(f.name, self.field_label(ast, f))
                      for f in ast.fields if f.name in printed and not f.internal and not f.back]
            if self.is_piece(ast):  # a pawn: no face to show, no back to describe
                continue
            back = self.back_labels(ast)
            front = ", ".join(fields) or "—"
            if back:  # a face-up card shows its back's fields too: said once, not listed twice
                front = self.ui["front_and_back"].format(fields=front) if fields else self.ui["front_only_back"]
            rows.append([name, front, ", ".join(back) or self.ui["back_nothing"]])
            sec.paragraphs.append(self.back_sentence(ast))
        if not rows:
            return None
        sec.tables.append(Table([self.ui["card_kind"], self.ui["front"], self.ui["back"]], rows))
        return sec

    def is_piece(self, kind: A.KindDef) -> bool:
        """A kind with nothing printed on it that lies face up everywhere (a pawn): it has no face or back to tell."""
        return not any(f.back for f in kind.fields) and not self.printed_fields(kind.name) and \
            all(z.visibility == "public" and not z.shuffled for z in self.of(A.ZoneDef) if z.kind == kind.name)

    def field_label(self, kind: A.KindDef, f: A.FieldDef) -> str:
        """A field as a list of what a card shows: its noun, a yes/no clause as "whether it flies"."""
        text = f.text.by_lang.get(self.lang, "") if f.text is not None else ""
        if IT_PLACE not in text:
            return self.bare(f.text, f"field '{f.name}'", f.pos)
        it = self.sp.pronoun(self.sp.noun(kind.title, f"kind '{kind.name}'", kind.pos).gender)
        return self.sp.msg("stmt.take_on_whether", f, clause=self.sp.clause(f, text, {"it": it})).form("nom")

    def sideless(self, label: str, f: A.FieldDef) -> str:
        """A back field's label without closing words that name the back ("highest strength"): the back column
        and the card tables hold only what is printed, and the card anatomy says the side."""
        side = " " + self.ui["on_back"]
        return label[:-len(side)] if f.back and label.endswith(side) else label

    def back_labels(self, kind: A.KindDef) -> list[str]:
        """The back column's fields, without words that name the side the column says; a pair `F_min`, `F_max`
        beside a field `F` whose labels say F's noun is said with that noun once ("lowest and highest strength")."""
        by_name = {f.name: f for f in kind.fields}
        labels: list[str] = []
        for f in (f for f in kind.fields if f.back):
            base = f.name[:-4] if f.name.endswith(("_min", "_max")) else ""
            low, high = by_name.get(base + "_min"), by_name.get(base + "_max")
            if base in by_name and low is not None and high is not None and low.back and high.back:
                noun = self.bare(by_name[base].text, f"field '{base}'", by_name[base].pos)
                said = [re.fullmatch(rf"(.+) {re.escape(noun)}", self.sideless(self.field_label(kind, g), g))
                        for g in (low, high)]
                if all(said):
                    if f is low:  # said once, where the pair's first field stands
                        labels.append(f"{self.sp.join([m.group(1) for m in said if m is not None]).form('nom')} {noun}")
                    continue
            labels.append(self.sideless(self.field_label(kind, f), f))
        return labels

    def back_sentence(self, kind: A.KindDef) -> str:
        """What a face-down card of a kind gives away; a pair of fields `F_min`, `F_max` beside a field `F`
        is said as the range of F ("its level and power range")."""
        noun = self.sp.noun(kind.title, f"kind '{kind.name}'", kind.pos)
        if not any(f.back for f in kind.fields):
            nothing = self.word("face_down_nothing", cards=noun.plural())
            return nothing[:1].upper() + nothing[1:]
        by_name = {f.name: f for f in kind.fields}
        bare: list[str] = []
        said: list[str] = []  # with its article, in the case the sentence asks for
        for f in (f for f in kind.fields if f.back):
            base = f.name[:-4] if f.name.endswith(("_min", "_max")) else ""
            if base in by_name and by_name.get(base + "_min", f).back and by_name.get(base + "_max", f).back:
                if f.name.endswith("_min"):
                    field = self.sp.noun(by_name[base].text, f"field '{base}'", by_name[base].pos)
                    bare.append(self.word("back_range", field=field.np("bare").form("nom"),
                                          field_gen=field.np("def").form("gen")))
                    said.append(bare[-1])
                continue
            field = self.sp.noun(f.text, f"field '{f.name}'", f.pos)
            bare.append(field.np("bare").form("nom"))
            said.append(field.np("def").form("acc"))
        return self.word("face_down_shows", card=noun.np("each").form("nom"), card_gen=noun.np("each").form("gen"),
                         fields=self.sp.join(bare).form("nom"), fields_acc=self.sp.join(said).form("acc"))

    def printed_fields(self, kind: str) -> set[str]:
        """The fields a kind's card data sets; one only defaulted is the card's state in play, not its print."""
        names: set[str] = set()
        for cards in self.of(A.CardsDef):
            if cards.name == kind:
                names.update(cards.columns, [cards.each[0]] if cards.each else [])
                names.update(e.name for r in cards.rows for e in r.effects)
                names.update(v.name for c in cards.cards for v in [*c.values, *c.effects])
        return names

    def value_text(self, value: Any, enum: str = "") -> str:
        """A value as a table shows it; an enum value by the text its own enum (`enum`, a field's type) gives it."""
        if isinstance(value, bool):  # a table's yes/no: "flies: yes", not "flies: true"
            return self.sp.word("yes" if value else "no")
        if isinstance(value, str) and value in self.sp.sym.enum_values:
            text = self.sp.sym.enum_text(value, enum)
            return self.t(text, f"value '{value}'", text.pos)
        if isinstance(value, list):
            return ", ".join(self.value_text(v) for v in value)
        return "" if value is None else str(value)

    def values_table(self) -> Table:
        rows = []
        for cur in self.of(A.CurrencyDef):
            rows.append([self.word("per_player", what=self.bare(cur.text, f"currency '{cur.name}'", cur.pos)),
                         self.secret(self.cell(cur.start), cur.hidden)])
        setup = [s for setup in self.of(A.SetupDef) for s in setup.body]
        for var in self.of(A.VarDef):
            if not var.internal and not replaced_in_setup(var.name, setup):
                name = self.bare(var.text, f"var '{var.name}'", var.pos)
                rows.append([self.only_for(var.name, self.word("per_player", what=name) if var.per_player else name),
                             self.secret(self.cell(var.init), var.hidden)])
        after = []
        for const in (c for c in self.of(A.ConstDef) if not c.internal):
            said = self.const_clause(const)
            if said is not None:
                after.append(self.only_for(const.name, said))
                continue
            rows.append([self.only_for(const.name, self.bare(const.text, f"const '{const.name}'", const.pos)),
                         self.const_value(const)])
        return Table([self.ui["what"], self.ui["value"]], [[self.capital(name), value] for name, value in rows],
                     self.ui["values"], after)

    def const_clause(self, const: A.ConstDef) -> Optional[str]:
        """A yes/no constant with a `not` text as the sentence it means ("Jokers do not stack."), not a
        name followed by "yes" or "no"; None for any other constant."""
        if not isinstance(const.value, A.BoolLit) or const.negated is None or const.text is None:
            return None
        text = const.text if const.value.value else const.negated
        clause = self.t(text, f"const '{const.name}'", const.pos)
        return self.sp.sentence("item.const_clause", const, clause=clause)

    def secret_rule(self, item: Union[A.VarDef, A.CurrencyDef]) -> str:
        """The sentence telling players to keep a `hidden` value to themselves."""
        key = "item.hidden" if isinstance(item, A.VarDef) else "item.hidden_currency"
        return self.sp.sentence(key, item, name=self.sp.noun(item.text, f"var '{item.name}'", item.pos).np("your"))

    def secret(self, value: str, hidden: bool) -> str:
        """A start value, marked when only its own player sees the value."""
        return f"{value} ({self.ui['secret']})" if hidden else value

    def const_value(self, const: A.ConstDef) -> str:
        return self.table_word(const.value) or self.cat.contract(self.sp.const_table(const).form("nom"))

    def cell(self, e: A.Expr) -> str:
        """An expression as a table shows it: a noun phrase, with the language's contractions."""
        return self.table_word(e) or self.cat.contract(self.sp.expr(e).form("nom"))

    def table_word(self, e: A.Expr) -> str:
        """A value a table says in a word, not as the rules compute it: yes or no, none for an empty list,
        the first player by seat ("" for any other)."""
        if isinstance(e, A.BoolLit):
            return self.sp.word("yes" if e.value else "no")
        if isinstance(e, A.ListLit) and not e.items:
            return self.ui["none_yet"]
        if isinstance(e, A.Call) and e.func == "first" and len(e.args) == 1 \
                and isinstance(e.args[0], A.Name) and e.args[0].name == "players":
            return self.ui["first_seat"]
        return ""

    # ------------------------------------------------------------ rules
    def entry(self, item: Any, prefix: str, lines: list[Line], note: Optional[A.Text] = None,
              title: str = "") -> Entry:
        name = str(getattr(item, "name", "") or "")
        return Entry(anchor=_slug(prefix, name), title=title or self.title_of(item), code=name, lines=lines,
                     note=self.t(note, "note", item.pos) if note else None)

    # ------------------------------------------------------------ where each rule and action is told
    def unplaced(self, cls: type) -> list[Any]:
        """The rules or actions no part of the game's flow uses: told in a chapter of their own (a rule
        told where it is called has none)."""
        inside = {id(part) for parts in self.shared.placed.values() for part in parts}
        return [i for i in self.of(cls) if id(i) not in inside and i.name not in self.shared.in_place]

    def part_entry(self, part: Part) -> Entry:
        if isinstance(part, A.ActionDef):
            return self.entry(part, "action", self.action_lines(part), part.note)
        if part.internal and part.note is not None:  # a cache: its note says what it keeps, its steps are formulas
            return self.entry(part, "rule", [], part.note)
        return self.entry(part, "rule", self.sp.lines(part.body), part.note)

    def inner(self, key: str) -> list[Entry]:
        return self.told(self.shared.placed.get(key, []))

    def told(self, parts: Sequence[Part]) -> list[Entry]:
        """The entries of these parts, those of a `section` inside its entry (no section: in place)."""
        out: list[Entry] = []
        for sec, inside in by_section(parts, self.of(A.SectionDef)):  # a rule that only resets bookkeeping has none
            entries = [self.part_entry(part) for part in inside if part.name not in self.sp.sym.silent]
            if sec is None:
                out += entries
            else:
                out.append(self.entry(sec, "section", [], sec.note))
                out[-1].entries = entries
        return out

    def setup(self) -> Section:
        sec = self.section("setup", "setup")
        for i, setup in enumerate(self.of(A.SetupDef)):
            lines = [Line(self.say("item.setup_intro", setup), self.sp.lines(setup.body))]
            sec.entries.append(Entry(anchor=_slug("setup-rules", str(i + 1) if i else ""), title=self.ui["setup_steps"],
                                     code="setup", lines=lines, entries=[] if i else self.inner("setup")))
        table = self.player_count_table()
        if table is not None and sec.entries:
            sec.entries[0].table = table
        return sec

    def player_count_table(self) -> Optional[Table]:
        """Values that differ by player count: tables keyed by it, computed constants, zone families."""
        prog = self.program
        counts = list(range(prog.min_players, prog.max_players + 1))
        games = [self.shared.game(n) for n in counts]
        columns: list[tuple[str, list[str]]] = []
        for idx, const in enumerate(self.of(A.ConstDef)):
            values = [g.consts[idx] for g in games]
            key = self.sp.sym.keys.get(const.name)  # a table looked up by anything but the player count is none
            by_count = key is None or isinstance(key, A.Name) and key.name == "player_count"
            if isinstance(values[0], dict) and set(values[0]) >= set(counts) and by_count:
                columns.append((self.bare(const.text, f"const '{const.name}'", const.pos), [str(v[n]) for v, n in zip(values, counts)]))
            elif len({repr(v) for v in values}) > 1:
                columns.append((self.bare(const.text, f"const '{const.name}'", const.pos), [self.value_text(v) for v in values]))
        for spec in prog.zones:
            if spec.shape == "indexed":
                sizes = [str(sum(1 for f in g.zone_family if f == spec.family_id)) for g in games]
                if len(set(sizes)) > 1:
                    zone = self.bare(spec.ast.text, f"zone '{spec.name}'", spec.ast.pos)
                    columns.append((self.word("zone_count", zone=zone), sizes))
        if not columns:
            return None
        rows = [[str(n)] + [col[1][i] for col in columns] for i, n in enumerate(counts)]
        return Table([self.ui["player_count"]] + [c[0] for c in columns], rows, self.ui["per_player_count"])

    def round(self) -> Optional[Section]:
        rnd: Optional[A.RoundDef] = self.one(A.RoundDef)
        if rnd is None:
            return None
        sec = self.section("round", "round")
        sec.paragraphs.append(self.rounds_sentence(rnd))
        for p in rnd.phases:
            entry = self.entry(p, "phase", self.sp.lines(p.body), p.note)
            entry.entries = self.inner(f"phase:{p.name}")
            sec.entries.append(entry)
        return sec

    def action_lines(self, action: A.ActionDef) -> list[Line]:
        params, whether = [], []
        guards: list[A.Stmt] = []
        for p in action.params:
            ref = self.sp.bind(p.name, p.domain, p.text)
            domain = p.domain
            if isinstance(domain, A.CondExpr) and isinstance(domain.other, A.ListLit) and not domain.other.items:
                cond, domain = domain.cond, domain.then  # `if C then L else []`: chosen from L, and only allowed if C
                self.sp.domains.add(id(domain))
                if not any(isinstance(s, A.Require) and same(s.cond, cond) for s in action.body):
                    guards.append(A.Require(pos=p.domain.pos, cond=cond))
            if isinstance(p.domain, A.ListLit) and len(p.domain.items) == 1:  # no choice: said as its one value
                ref.every, ref.value = self.sp.expr(p.domain.items[0]), p.domain.items[0]
                continue
            if yes_or_no(p.domain) and p.text is not None and self.lang in p.text.by_lang:  # "… and whether it goes forward"
                ref.clause = self.sp.clause(p, self.sp.literal(p.text.by_lang[self.lang]), {})
                whether.append(self.sp.msg("item.action_param_whether", p, clause=ref.clause))
            else:
                one = self.sp.one_among(ref, domain)
                params.append(one if one is not None else
                              self.sp.msg("item.action_param", p, name=self.sp.var(p.name), domain=self.sp.expr(domain)))
        key = "item.action_choose_whether" if params and whether else "item.action_decide" if whether \
            else "item.action_choose"  # „… und entscheide, ob …“: a yes or no is decided, not chosen
        head = [Line(self.say(key, action, params=self.sp.join(params or whether), whether=self.sp.join(whether)))] \
            if params or whether else []
        return head + self.sp.lines([*guards, *action.body])  # an action that changes nothing is told by its title alone

    def actions(self) -> Optional[Section]:
        acts = self.unplaced(A.ActionDef)
        if not acts:
            return None
        sec = self.section("actions", "actions")
        sec.entries = self.told(acts)
        return sec

    def trigger_lines(self, trig: A.TriggerDef) -> list[Line]:
        event = self.sp.event(trig)
        where = self.sp.trigger_where(trig)
        if trig.event == "round_start" and isinstance(where, A.BinOp) and where.op == "==" \
                and isinstance(where.left, A.Name) and where.left.name == "round" and isinstance(where.right, A.Num):
            head = self.say("item.trigger_round", trig, "sub", round=str(where.right.value))  # "At the start of round 1:"
        elif where is not None:
            head = self.say("item.trigger_where", trig, "sub", event=event, cond=self.sp.expr(where))
        else:
            head = self.say("item.trigger", trig, "sub", event=event)
        return [Line(head, self.sp.lines(trig.body))]

    def special_rules(self) -> Optional[Section]:
        sec = self.section("special-rules", "special_rules")
        sec.entries = self.told(self.unplaced(A.RuleDef))
        seen: dict[tuple[str, str], int] = {}
        for trig in self.of(A.TriggerDef):
            key = part_key(trig, seen)
            seen[key] = 1
            if all(isinstance(s, A.Log) for s in trig.body):
                continue  # it only announces, for the play screen: no rule of the game
            sec.entries.append(Entry(anchor=_slug("trigger", key[1]), title=self.title_of(trig), code=key[1],
                                     lines=self.trigger_lines(trig),
                                     note=self.t(trig.note, "note", trig.pos) if trig.note else None))
        return sec if sec.entries else None

    def function_line(self, fn: A.FunctionDef) -> Line:
        """A function's title, then its definition; a definition that only restates the title ("the strong tokens:
        the strong tokens when …", "row A is the home row: A is the home row") is said one level further down (Speaker.unfolded): a reader learns what the title means (review rv19 K14); one
        that calls a function whose text goes on from the title's is said from where they part (Speaker.continued)."""
        name = self.sp.function_phrase(fn, [Phrase(self.sp.var(p.name)) for p in fn.params], fn)
        body = self.sp.expr(fn.body)
        if restates(name.form("nom"), body.form("nom"), self.articles()):
            deeper = self.sp.unfolded(fn.body)
            body = self.sp.expr(deeper) if deeper is not None else self.sp.as_written(fn.body)
        else:  # „die Kraft von einem Spieler: diejenige mit seinem Stapel“, not „…: seine Kraft mit seinem Stapel“
            body = self.sp.continued(fn, body) or body
        line = Line(self.say("item.function", fn, name=self.sp.with_symbols(fn, name), body=body))
        self.sp.symbolised.pop(id(fn.body), None)  # the letters name the parameters in this line alone
        return line

    def articles(self) -> frozenset[str]:
        """The words of the catalogue's definite and indefinite articles, in every form."""
        tables = self.sp.cat.data.get("articles", {})
        forms = [t.get(det) for t in tables.values() if isinstance(t, dict) for det in ("def", "indef")] \
            if isinstance(tables, dict) else []
        return frozenset(w.lower() for f in forms for w in (f.values() if isinstance(f, dict) else [f])
                         if isinstance(w, str) and w)

    def definition_lines(self, fn: A.FunctionDef) -> list[Line]:
        """A function's `note` is its definition in a player's words, told instead of the formula."""
        if fn.note is None:
            return [self.function_line(fn)]
        text = self.t(fn.note, "note", fn.pos)
        names = {m.group(1) for m in PLACEHOLDER.finditer(text)}
        unknown = names - set(self.sp.sym.consts)
        if unknown:
            raise MissingRendering(fn.note.pos, f"the note of function '{fn.name}' names {', '.join(sorted(unknown))}",
                                   "a note's {placeholders} name the game's consts, said by their values")
        return [Line(fill(text, "nom", {n: self.const_value(self.sp.sym.consts[n]) for n in names}))]

    def definitions(self) -> Optional[Section]:
        """The terms a player needs, a glossary of sentences; a function marked `internal` only names a lookup
        the rules say in words. A function without a sentence keeps a titled entry, so its formula stands out."""
        fns = [f for f in self.of(A.FunctionDef) if not f.internal]
        if not fns:
            return None
        sec = self.section("definitions", "definitions")
        sec.paragraphs = [self.definition_lines(f)[0].text for f in fns if f.note is not None]
        sec.entries = [self.entry(f, "function", self.definition_lines(f)) for f in fns if f.note is None]
        return sec

    def formulas(self, sections: list[Section]) -> Optional[Section]:
        """For modders: each part's name in the rules file (the chapters for players show none) and every
        function's generated formula (the rules part tells definitions in sentences)."""
        named = list(dict.fromkeys((e.title, e.code) for s in sections for e in inner_first(s.entries) if e.code))
        fns = self.of(A.FunctionDef)
        if not named and not fns:
            return None
        sec = self.section("formulas", "formulas_appendix", "tables")
        sec.paragraphs.append(self.ui["formulas_intro"])
        if named:
            sec.tables.append(Table(headers=[self.ui["what"], self.capital(self.ui["rules_name"])],
                                    rows=[list(row) for row in named], caption=self.ui["names_caption"]))
        if fns:
            sec.tables.append(Table(headers=[self.capital(self.ui["rules_name"]), self.ui["formula"]],
                                    rows=[[f.name, self.function_line(f).text] for f in fns],
                                    caption=self.ui["formulas_caption"]))
        return sec

    def score_line(self, score: A.ScoreDef) -> Line:
        """A list-valued score ranks by its first entry; the others break ties, in order (`concat([x], L)`:
        the list L after x breaks them)."""
        parts = score_parts(score.expr)
        if len(parts) > 1:
            first, *rest = (self.sp.expr(e) for e in parts)
            return Line(self.say("item.score_ties", score, var=self.sp.var(score.var), expr=first,
                                 ties=self.sp.join(rest, "then_last")))
        return Line(self.say("item.score", score, var=self.sp.var(score.var), expr=self.sp.expr(score.expr)))

    def winner_line(self, winner: A.WinnerDef, score: Optional[A.ScoreDef]) -> Line:
        """Who may win, and among them who does; after the score's tie-breaks only players still tied share it."""
        lowest = "_lowest" if score is not None and score.lowest else ""
        tied = _tied(score) if score is not None else ""
        return Line(self.say(f"item.can_win{lowest}{tied}", winner, var=self.sp.var(winner.var),
                             cond=self.sp.expr(winner.expr)))

    def heuristic_line(self, heur: A.HeuristicDef) -> Line:
        """The bots' rating in words: its sum term by term ("their gold plus 2 times …"; three or more terms with
        commas), not a formula; a number times things said in the plural counts them ("2 times the number of …")."""
        said = [self.rating_term(t) for t in sum_terms(heur.expr)]
        plus = self.sp.msg("item.heuristic_and" if len(said) == 2 else "item.heuristic_plus", heur)
        return Line(self.say("item.heuristic", heur, var=self.sp.var(heur.var),
                             expr=Phrase(lambda f: plus.form(f).join(p.form(f) for p in said))))

    def rating_term(self, t: A.Expr) -> Phrase:
        """One term of the bots' rating: "2 times x", "2 times the number of …" where x is said in the plural."""
        k = times_term(t)
        if k is None:
            return self.sp.expr(t)
        term = self.sp.expr(k[1])
        return self.sp.msg("item.heuristic_times_count" if term.agree == "pl" else "item.heuristic_times", t,
                           times=self.sp.expr(k[0]), term=term)

    def end_lines(self) -> list[Line]:
        score: Optional[A.ScoreDef] = self.one(A.ScoreDef)
        winner: Optional[A.WinnerDef] = self.one(A.WinnerDef)
        lines = [self.score_line(score)] if score is not None else []
        if winner is not None:
            lines.append(self.winner_line(winner, score))
        elif score is not None:
            lines.append(Line(self.say(self.winner_key(score), score)))
        return lines

    @staticmethod
    def winner_key(score: A.ScoreDef) -> str:
        """Who wins by the score; after tie-breaks only players still tied share the win."""
        return f"item.winner_{'lowest' if score.lowest else 'default'}{_tied(score)}"

    def game_end(self) -> Section:
        sec = self.section("game-end", "game_end")
        rnd: Optional[A.RoundDef] = self.one(A.RoundDef)
        at_once = self.ends_at_once()
        for cond, part in at_once:  # the game ends in the middle of a round: said first, where it happens
            sec.paragraphs.append(self.say("item.ends_at_once", cond, "sub", cond=self.sp.expr(cond), rule=part))
        count = fixed_rounds(rnd.repeat_while, self.sp.sym.consts) if rnd is not None else None
        if rnd is not None and count is not None:
            sec.paragraphs.append(self.say("item.rounds_fixed_end_else" if at_once else "item.rounds_fixed_end", rnd,
                                           count=self.sp.expr(count)))
        elif rnd is not None and not (isinstance(rnd.repeat_while, A.Not)
                                      and any(same(rnd.repeat_while.operand, cond) for cond, _ in at_once)):
            over = A.Not(pos=rnd.pos, operand=rnd.repeat_while)  # said unless it only repeats an at-once end
            sec.paragraphs.append(self.say("item.round_repeat_end_else" if at_once else "item.round_repeat_end", rnd,
                                           "sub", cond=self.sp.expr(over)))
        sec.entries.append(Entry(anchor="scoring", title=self.ui["scoring"], code="score", lines=self.end_lines()))
        return sec

    def ends_at_once(self) -> list[tuple[A.Expr, str]]:
        """Each `if COND { end game }` of a rule or action whose condition reads no local, with the title of
        the part it is in: the game ends there at once, not when the round ends."""
        found = []
        for part in self.of(A.RuleDef) + self.of(A.ActionDef):
            for node in A.found(part, A.If):  # a part's statements are in its body
                if any(isinstance(t, A.EndGame) for t in node.then) \
                        and not any(isinstance(n, A.Name) and n.name not in self.sp.sym.functions
                                    and n.name not in self.sp.sym.vars and n.name not in self.sp.sym.consts
                                    for n in A.walk(node.cond)):
                    found.append((node.cond, self.t(part.text, f"part '{part.name}'", part.pos)))
        return found

    def bots(self) -> Optional[Section]:
        """How bots rate a position: no rule of the game, so an appendix after the rules."""
        heur: Optional[A.HeuristicDef] = self.one(A.HeuristicDef)
        if heur is None:
            return None
        sec = self.section("bots", "bots_appendix")
        sec.paragraphs.append(self.ui["bots_intro"])
        sec.entries.append(Entry(anchor="heuristic", title=self.part_word("heuristic"), code="heuristic",
                                 lines=[self.heuristic_line(heur)]))
        return sec

    def card_lines(self, card: A.CardEntry, speaker: Optional[Speaker] = None, counted: bool = False) -> list[Line]:
        """A card's count, values and effects; `counted`: its family has cards of several copies, so a single
        card says "1 in the game" too (else a reader takes it for one more of the unlabelled kind)."""
        sp = speaker or self.sp
        kind = sp.sym.kinds.get(self.card_kind(card))
        lines = []
        if card.copies > 1 or counted:
            lines.append(Line(sp.sentence("item.copies" if card.copies > 1 else "item.copies_one", card,
                                          count=str(card.copies))))
        said = effect_numbers(card.effects)
        for value in card.values:
            fdef = next((f for f in kind.fields if f.name == value.name), None) if kind else None
            if fdef is not None and fdef.internal:
                continue  # a flag its other lines tell ("Magic ability: …" says it has one)
            name = self.field_title(kind, value.name, value.pos)
            if fdef is not None and fdef.default is not None and fdef.default.value == value.value.value \
                    and not isinstance(value.value.value, bool):
                continue  # "Wands: 0" where no wands is what a card has unless it says otherwise
            if value.name in said and isinstance(value.value.value, int) and not isinstance(value.value.value, bool):
                continue  # its effect says the number ("Extend the movement by up to 2 spaces"): not a line again
            if isinstance(value.value.value, bool):  # a card says what it has ("Flies."), not what it lacks
                if value.value.value:
                    clause = fdef is not None and fdef.text is not None and IT_PLACE in fdef.text.by_lang.get(self.lang, "")
                    lines.append(Line(sp.sentence("item.flag_true", value, name=name) if clause else sp.sentence(
                        "item.const", value, name=name, value=self.value_text(True))))
                continue
            lines.append(Line(sp.sentence("item.const", value, name=name,
                                          value=self.value_text(value.value.value, fdef.type.name if fdef else ""))))
        printed = {v.name: v.value.value for v in card.values
                   if isinstance(v.value.value, int) and not isinstance(v.value.value, bool)}
        return lines + self.effect_lines(kind, card.effects, sp, printed)

    def effect_lines(self, kind: Optional[A.KindDef], effects: list[A.EffectValue], sp: Speaker,
                     printed: Optional[dict[str, int]] = None) -> list[Line]:
        """A card's effects; `printed`: its own numbers, said in place of "the amount of this card"."""
        lines = []
        sp.printed = printed or {}
        sp.self_kind = kind.name if kind is not None else None
        try:
            for effect in effects:
                body = sp.lines(effect.body)
                head = sp.sentence("item.effect", effect, field=self.field_title(kind, effect.name, effect.pos))
                lines.append(Line(head, body or [Line(sp.sentence("item.no_effect", effect))]))
        finally:
            sp.printed, sp.self_kind = {}, None
        return lines

    def literal_text(self, lit: A.Literal_) -> str:
        """A value as a table shows it; a range `3..35` as "3–35"."""
        return f"{lit.range[0]}–{lit.range[1]}" if lit.range is not None else self.value_text(lit.value)

    def row_title(self, cards: A.CardsDef, row: A.CardRow) -> str:
        kind = self.sp.sym.kinds.get(cards.name)
        text = ", ".join(self.word("field_value", field=self.field_title(kind, col, row.pos), value=self.literal_text(v))
                         for col, v in zip(cards.columns, row.values))
        return text[:1].upper() + text[1:]

    def card_kind(self, card: A.CardEntry) -> str:
        found: A.CardsDef = next(c for c in self.of(A.CardsDef) + [
            i for i in self.base_items if isinstance(i, A.CardsDef)] if card in c.cards)
        return found.name

    def field_title(self, kind: Optional[A.KindDef], name: str, pos: A.Pos) -> str:
        fdef = next((f for f in kind.fields if f.name == name), None) if kind else None
        return self.bare(fdef.text, f"field '{name}'", pos) if fdef else name

    def references(self) -> list[Section]:
        """A reference chapter per kind of card: the card lists of one kind (written in several files)
        make one chapter."""
        out: list[Section] = []
        by_kind: dict[str, Section] = {}
        for cards in self.of(A.CardsDef):
            rows = [r for r in cards.rows if r.effects]
            if not cards.cards and not rows:
                continue
            kind = self.sp.sym.kinds[cards.name]
            effects = {e.name for r in rows for e in r.effects} | {e.name for c in cards.cards for e in c.effects}
            users = self.variants_using(effects)
            said = self.word("reference_variant", variants=users) if users else ""
            if cards.name in by_kind and said in ("", *by_kind[cards.name].paragraphs):
                by_kind[cards.name].entries += self.reference_entries(cards, kind, rows)
                continue
            sec = self.section(_slug("reference", cards.table or cards.name), "reference",
                               kind=self.bare(kind.title, f"kind '{kind.name}'", kind.pos))
            by_kind.setdefault(cards.name, sec)
            if said:
                sec.paragraphs.append(said)
            sec.entries = self.reference_entries(cards, kind, rows)
            out.append(sec)
        return out

    def reference_entries(self, cards: A.CardsDef, kind: A.KindDef, rows: list[A.CardRow]) -> list[Entry]:
        """The entries of one card list: each row with effects, then each titled card."""
        entries = [Entry(anchor=_slug("row", f"{cards.table or cards.name}-{i + 1}"),
                         title=self.row_title(cards, r), code="",
                         lines=self.effect_lines(kind, r.effects, self.sp)) for i, r in enumerate(rows)]
        counted = any(c.copies > 1 for c in cards.cards)
        return entries + [self.entry(c, "card", self.card_lines(c, counted=counted), c.note, title=self.title_of(c))
                          for c in cards.cards]


    # ------------------------------------------------------------ parts only a variant uses
    @cached_property
    def used_by_other_variants(self) -> dict[str, list[str]]:
        """Each name this book's rules never use that a variant not in this book does, with the titles of
        those variants: what is printed for that variant only (card fronts only a variant reads)."""
        here = self.shared.names_used
        out: dict[str, list[str]] = {}
        for name, variant in self.src.variants.items():
            if name not in self.variants:
                title = self.sp.quoted(self.t(variant.title, f"variant '{name}'", variant.pos))
                for used in sorted(shared(self.src, ()).variant_names_used(name) - here):
                    out.setdefault(used, []).append(title)
        return out

    def variants_using(self, names: set[str]) -> str:
        """The variants that alone use all these names, joined; empty when this book's rules use one."""
        users = [self.used_by_other_variants.get(n) for n in sorted(names)]
        if not names or not all(users):
            return ""
        return self.sp.join(sorted({t for u in users if u for t in u})).form("nom")

    def only_for(self, name: str, text: str) -> str:
        """A part's name, marked when only another variant uses it."""
        users = self.variants_using({name})
        return self.word("only_variant", what=text, variants=users) if users else text

    # ------------------------------------------------------------ worked examples
    def place_examples(self, sections: list[Section]) -> None:
        """Each example scenario of this book, played, in the entry of the action, rule or phase it names,
        numbered in the order the book shows them."""
        found: dict[str, list[Example]] = {}
        for scen in examples_of(self.src, self.variants):
            part, example = play_example(self.shared.played(scen), self.lang, self.word,
                                         lambda text, pos: self.t(text, "example", pos))
            found.setdefault(part, []).append(example)
        attach(inner_first([e for sec in sections for e in sec.entries]), found)
        number, previous = 0, None
        for entry in inner_first([e for sec in sections for e in sec.entries]):
            for example in entry.examples:
                number += 1
                example.title = self.word("example_title", number=str(number), title=example.title)
                moves = example.moves
                if moves and moves == previous:  # a second example of one position says that it is the same
                    example.moves = [self.word("example_as_before", number=str(number - 1), move=moves[0])] + moves[1:]
                previous = moves

    # ------------------------------------------------------------ assumptions
    def assumptions(self) -> Section:
        sec = self.section("assumptions", "assumptions", "assumptions")
        for node, owner in self.shared.assumed:
            assert node.assumed is not None
            why = node.assumed.text.by_lang.get(self.lang, "") if node.assumed.text else node.assumed.why
            sec.assumptions.append(Assumption(what=self.describe(node, owner), why=why,
                                              file=self.source_file(node.assumed.pos), line=node.assumed.pos.line))
        if not sec.assumptions:
            sec.paragraphs.append(self.ui["no_assumptions"])
        return sec

    def describe(self, node: Any, owner: Any) -> str:
        if isinstance(node, A.CardsDef):
            kind = self.sp.sym.kinds[node.name]
            return self.bare(kind.title, f"kind '{kind.name}'", kind.pos)
        if isinstance(node, A.CardRow):
            return self.word("assumed_in", owner=self.title_of(owner),
                             what=", ".join(self.literal_text(v) for v in node.values))
        if isinstance(node, A.FieldValue):
            owning = self.sp.sym.kinds.get(self.card_kind(owner)) if isinstance(owner, A.CardEntry) else None
            fdef = next((f for f in owning.fields if f.name == node.name), None) if owning else None
            text = fdef.text.by_lang.get(self.lang, "") if fdef is not None and fdef.text is not None else ""
            if isinstance(node.value.value, bool) and IT_PLACE in text:  # "The joker flies", not "The joker: flies yes"
                said = self.sp.clause(node, text, {"it": Phrase(self.title_of(owner))})
                return self.cat.contract(said.form("main" if node.value.value else "neg"))
            value = self.word("assumed_value", field=self.field_title(owning, node.name, node.pos),
                              value=self.value_text(node.value.value))
            return self.word("assumed_in", owner=self.title_of(owner), what=value)
        return self.title_of(node)

    # ------------------------------------------------------------ changes
    def part_word(self, part: str) -> str:
        return str(self.cat.pattern(f"part.{part}"))

    def changes(self) -> Section:
        """The chapter on what the variants change, said once (a base game's chapter on the variant asks first)."""
        if self._changes is None:
            self._changes = self._changed()
        return self._changes

    def _changed(self) -> Section:
        sec = self.section("changes", "changes", "changes")
        base = {part_key(i, {}): i for i in self.base_items if not isinstance(i, A.TriggerDef) or i.name}
        rnd = next((i for i in self.base_items if isinstance(i, A.RoundDef)), None)
        base_phases = {p.name: p for p in rnd.phases} if rnd else {}
        for name in self.variants:
            for op in self.src.variants[name].ops:
                sec.changes.append(self.change(op, base, base_phases))
        return sec

    def change(self, op: A.VariantOp, base: dict[tuple[str, str], Any], phases: dict[str, A.PhaseDef]) -> Change:
        if op.op in ("add", "replace"):
            assert op.item is not None
            key = part_key(op.item, {})
            new = self.item_lines(op.item, self.sp)
            old = self.item_lines(base[key], self.base_sp) if op.op == "replace" and key in base else []
            change = Change("added" if op.op == "add" else "replaced", self.what(key[0], op.item), old, new)
            if op.op == "replace" and key in base and self.title_of(base[key]) != self.title_of(op.item):
                change.renamed = self.sp.quoted(self.title_of(base[key]))
            return change
        if op.op == "remove":
            key = (str(op.part), str(op.name))
            gone = phases.get(key[1]) if key[0] == "phase" else base.get(key)
            old = self.item_lines(gone, self.base_sp) if gone is not None else []
            return Change("removed", self.what(key[0], gone) if gone is not None else key[1], old, [])
        if op.op.endswith(("_step", "_require")):
            return self.step_change(op)
        assert op.phase is not None
        new = self.sp.lines(op.phase.body)
        what = self.what("phase", op.phase)
        if op.op == "add_phase":
            anchor = phases.get(str(op.anchor))
            where = self.part_word(str(op.position))
            what = self.word("phase_placed", what=what, position=where,
                             anchor=self.sp.quoted(self.title_of(anchor) if anchor else str(op.anchor)))
            return Change("added", what, [], new)
        old_phase = phases.get(op.phase.name)
        return Change("replaced", what, self.base_sp.lines(old_phase.body) if old_phase else [], new)

    def variant_chapters(self) -> list[Section]:
        """In the base game's book, a short chapter per variant to read on top of the base rules: each
        part it adds, replaces or removes, with the new text only (its own book shows before and after);
        an internal function is left to the appendix of formulas, as in the base game's definitions."""
        if self.variants:
            return []
        out = []
        for name, variant in self.src.variants.items():
            title = self.t(variant.title, f"variant '{name}'", variant.pos)
            sec = self.section(_slug("variant", plain_slug(name)), "variant_chapter", variant=title)
            sec.paragraphs.append(self.ui["variant_chapter_intro"])
            changes = said_changes(self.src, [name], self.lang).changes().changes
            for i, (op, change) in enumerate(zip(variant.ops, changes)):
                if isinstance(op.item, (A.FunctionDef, A.VarDef)) and op.item.internal:
                    continue  # bookkeeping for the rules' own use, as in the base game's values and definitions
                what = change.what if not change.renamed else self.word("instead_of", what=change.what, old=change.renamed)
                sec.entries.append(Entry(anchor=_slug("variant", plain_slug(name), str(i + 1)), code=op_code(op),
                                         title=self.word(f"change_{change.kind}", what=what),
                                         lines=self.named_lines(op.item, variant.ops) if isinstance(op.item, NAMED_ONLY) else change.new or change.old))
            out.append(sec)
        return out

    def step_change(self, op: A.VariantOp) -> Change:
        """One step or requirement changed: its own text before and after, under the part that holds it."""
        held = owners(self.base_items).get(str(op.owner)) or owners(self.items).get(str(op.owner))
        assert held, f"the loader lets no step of an unknown '{op.owner}' through"
        part, owner = held[0]
        for sp, items in ((self.sp, self.items), (self.base_sp, self.base_items)):
            rule = (owners(items).get(str(op.owner)) or held)[0][1]
            if isinstance(rule, A.RuleDef):
                sp.enter(rule.body)  # the rule's parameters, as in its own entry ("the player", "you")
            for p in getattr(owner, "params", []):
                if isinstance(p, A.ActionParam):
                    sp.bind(p.name, p.domain, p.text)
        old = named_part(owner, str(op.name)) if op.op != "add_step" else None
        new = op.stmt if not op.op.startswith("remove") else None
        kind = "added" if op.op == "add_step" else "removed" if new is None else "replaced"
        what = self.word("require_of" if op.op.endswith("require") else "step_of", what=self.what(part, owner))
        return Change(kind, what, self.base_sp.lines([old]) if old else [], self.sp.lines([new]) if new else [])

    def what(self, part: str, item: Any) -> str:
        """A changed part by its kind and title; a yes/no constant said as a sentence is a rule to the reader."""
        said = "rule" if isinstance(item, A.ConstDef) and self.const_clause(item) is not None else part
        return self.word("part_named", part=self.part_word(said), name=self.sp.quoted(self.title_of(item)))

    def item_lines(self, item: Any, sp: Speaker) -> list[Line]:
        """Any part of a ruleset as generated lines, for the old and new side of a change."""
        swap, self.sp = self.sp, sp
        try:
            return self._item_lines(item)
        finally:
            self.sp = swap

    def _item_lines(self, item: Any) -> list[Line]:
        sp = self.sp
        if isinstance(item, (A.RuleDef, A.PhaseDef, A.SetupDef)):
            return sp.lines(item.body)
        if isinstance(item, A.ActionDef):
            return self.action_lines(item)
        if isinstance(item, A.TriggerDef):
            return self.trigger_lines(item)
        if isinstance(item, A.FunctionDef):
            return self.definition_lines(item)
        if isinstance(item, A.ScoreDef):
            return [self.score_line(item)] + ([Line(self.say(self.winner_key(item), item))] if item.lowest else [])
        if isinstance(item, A.WinnerDef):
            return [self.winner_line(item, self.one(A.ScoreDef))]
        if isinstance(item, A.HeuristicDef):
            return [self.heuristic_line(item)]
        if isinstance(item, A.ConstDef):
            said = self.const_clause(item)
            if said is not None:
                return [Line(said)]
            return [Line(sp.sentence("item.const", item, name=self.bare(item.text, f"const '{item.name}'", item.pos),
                                     value=self.const_value(item)))]
        if isinstance(item, (A.VarDef, A.CurrencyDef)):
            init = item.init if isinstance(item, A.VarDef) else item.start
            lines = [Line(sp.sentence("item.const", item, name=self.bare(item.text, f"var '{item.name}'", item.pos),
                                      value=sp.expr(init)))]
            if item.hidden:
                lines.append(Line(self.secret_rule(item)))
            return lines
        if isinstance(item, A.CardsDef):
            return [Line(self.row_title(item, r), self.effect_lines(sp.sym.kinds.get(item.name), r.effects, sp))
                    for r in item.rows if r.effects] + [Line(self.title_of(c), self.card_lines(
                        c, sp, any(d.copies > 1 for d in item.cards))) for c in item.cards]
        if isinstance(item, A.RoundDef):
            return [Line(self.rounds_sentence(item, sp))]
        return [Line(sp.sentence("item.part", item, name=self.title_of(item)))]  # enum, kind, zone, game


# Parts a change names in its title and has nothing more to say about in a short chapter.
NAMED_ONLY = (A.EnumDef, A.KindDef, A.ZoneDef)


def effect_numbers(effects: Sequence[A.EffectValue]) -> set[str]:
    """The fields a card's effects read as `self.F`: the effect says their number on that card. A field
    the effect changes is said as that field ("its number is now …"), so the card still prints it."""
    own = [n for e in effects for n in A.walk(e.body)
           if isinstance(n, A.Attr) and isinstance(n.obj, A.Name) and n.obj.name == "self"]
    changed = {n.target.name for e in effects for n in A.walk(e.body) if isinstance(n, A.SetStmt)
               and isinstance(n.target, A.Attr) and isinstance(n.target.obj, A.Name) and n.target.obj.name == "self"}
    return {n.name for n in own} - changed


def plain_slug(name: str) -> str:
    """A variant's name as part of an anchor."""
    return "".join(ch if ch.isalnum() else "-" for ch in name)


def op_code(op: A.VariantOp) -> str:
    """The name in the rules file of the part a variant operation changes."""
    if op.owner:
        return f"{op.owner}.{op.name}" if op.name else str(op.owner)
    named = op.item if op.item is not None else op.phase
    return str(getattr(named, "name", "") or op.name or "")


# The Assembler of a variant's book that has said its changes only (for a chapter of the base game's book): its
# own book goes on from there, as the changes are what a book says first. Taken once; each holds its source alive.
_said_changes: dict[tuple[int, tuple[str, ...], str], Assembler] = {}
MEMORY = 64


def said_changes(src: RulesetSource, variants: Sequence[str], lang: str) -> Assembler:
    """The Assembler of this book that has said its changes only, kept for the book itself."""
    key = (id(src), tuple(variants), lang)
    found = _said_changes.get(key)
    if found is None or found.src is not src:
        if len(_said_changes) >= MEMORY:
            _said_changes.clear()
        found = Assembler(src, variants, lang)
        found.changes()
        _said_changes[key] = found
    return found


def build_rulebook(src: RulesetSource, variants: Sequence[str], lang: str) -> Rulebook:
    """The rulebook; a name without a display text or a construct without a sentence raises
    MissingRendering with the position to report."""
    found = _said_changes.pop((id(src), tuple(variants), lang), None)
    return (found if found is not None and found.src is src else Assembler(src, variants, lang)).build()
