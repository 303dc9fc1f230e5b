"""The Lark side of parsing: the grammar's parser, its tree turned into the typed AST, and syntax errors
turned into diagnostics with a caret. Imported only when a file is parsed (dsl.parser), not on a cache hit."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Optional

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from dsl import ast as A
from dsl.errors import Diagnostic, RulesError, error_at
from dsl.limits import MAX_TEXT
from dsl.parser import GRAMMAR_PATH


@lru_cache(maxsize=1)
def grammar() -> Lark:
    """The one LALR parser, built once per process (Lark caches the tables on disk too)."""
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", strict=True,
                propagate_positions=True, maybe_placeholders=True, cache=True)


def _nodes(children: list[Any], cls: type) -> list[Any]:
    return [c for c in children if isinstance(c, cls)]


def _one(children: list[Any], cls: type) -> Any:
    found = _nodes(children, cls)
    return found[0] if found else None


def _internal(children: list[Any]) -> bool:
    """Whether a var, const or field is marked `internal`: bookkeeping no player tracks."""
    return any(isinstance(c, Tree) and c.data == "internal" for c in children)


def _unsaid(children: list[Any]) -> bool:
    """Whether a var or field is marked `unsaid`: the rulebook leaves its changes out."""
    return any(isinstance(c, Tree) and c.data == "unsaid" for c in children)


def _changes(children: list[Any]) -> list[A.ChangeTold]:
    """A var's or field's `told` texts, one per change they tell ("add", "sub", "set", a value)."""
    return list(_tagged(children, "told"))


def _secret(children: list[Any]) -> bool:
    """Whether a var or currency is marked `hidden`: only its own seat sees it."""
    return any(isinstance(c, Tree) and c.data == "secret" for c in children)




class _Tagged(tuple):  # type: ignore[type-arg]
    """A small (tag, value) pair passed upward between transformer callbacks."""


def _tag(tag: str, value: Any) -> _Tagged:
    return _Tagged((tag, value))


def _local_text(children: list[Any]) -> tuple[Optional[A.Text], list[Any]]:
    """A local's optional noun text, which follows its name, and the other children."""
    if len(children) > 1 and isinstance(children[1], A.Text):
        return children[1], [children[0], *children[2:]]
    return None, children


def _tagged(children: list[Any], tag: str) -> list[Any]:
    return [c[1] for c in children if isinstance(c, _Tagged) and c[0] == tag]


def _note(children: list[Any]) -> Optional[A.Text]:
    found: Optional[A.Text] = (_tagged(children, "note") or [None])[0]
    return found


@v_args(meta=True)
class _ToAst(Transformer):  # type: ignore[type-arg]
    """Lark tree → pydantic AST; every node keeps its file:line:col."""

    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file

    def _p(self, meta: Any) -> A.Pos:
        if getattr(meta, "empty", True):
            return A.Pos(file=self.file, line=0, col=0)
        return A.Pos(file=self.file, line=meta.line, col=meta.column)

    def _unquote(self, tok: Token) -> str:
        """A text in quotes; a very long one is an error (it would make every check slow)."""
        if len(tok) > MAX_TEXT + 2:
            raise RulesError([Diagnostic(self.file, tok.line or 1, tok.column or 1, f"this text has {len(tok) - 2} "
                                         f"characters; a text holds at most {MAX_TEXT}")])
        body = tok[1:-1]
        return body.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")

    def _int(self, tok: Token) -> int:
        try:
            return int(tok)
        except ValueError:  # Python refuses to convert thousands of digits
            raise RulesError([Diagnostic(self.file, tok.line or 1, tok.column or 1, "this number is too large")]) \
                from None

    # ---------------------------------------------------------------- texts, markers
    def start(self, meta: Any, ch: list[Any]) -> A.RulesFile:
        items = [c for c in ch if not isinstance(c, (A.VariantDef, A.ScenarioDef))]
        return A.RulesFile(pos=A.Pos(file=self.file, line=1, col=1), items=items,
                           variants=_nodes(ch, A.VariantDef), scenarios=_nodes(ch, A.ScenarioDef))

    def text(self, meta: Any, ch: list[Any]) -> A.Text:
        return A.Text(pos=self._p(meta), by_lang=dict(ch))

    def lang_text(self, meta: Any, ch: list[Any]) -> tuple[str, str]:
        return (str(ch[0].children[0]), self._unquote(ch[1]))

    def assumed(self, meta: Any, ch: list[Any]) -> A.Assumed:
        if ch and isinstance(ch[0], A.Text):
            return A.Assumed(pos=self._p(meta), why=ch[0].by_lang.get("en", ""), text=ch[0])
        return A.Assumed(pos=self._p(meta), why=self._unquote(ch[0]) if ch and ch[0] else "")

    def note(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("note", ch[0])

    def title(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("title", ch[0])

    # ---------------------------------------------------------------- definitions
    def game_def(self, meta: Any, ch: list[Any]) -> A.GameDef:
        players = _tagged(ch, "players")
        lo, hi = players[0] if players else (2, 2)
        languages = _tagged(ch, "languages")
        return A.GameDef(pos=self._p(meta), name=str(ch[0]), title=(_tagged(ch, "title") or [None])[0],
                         min_players=lo, max_players=hi, goal=(_tagged(ch, "goal") or [None])[0],
                         languages=languages[0] if languages else A.DEFAULT_LANGUAGES)

    def players_range(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("players", (self._int(ch[0]), self._int(ch[1])))

    def goal(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("goal", ch[0])

    def languages(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("languages", tuple(str(lang.children[0]) for lang in ch))

    def enum_def(self, meta: Any, ch: list[Any]) -> A.EnumDef:
        return A.EnumDef(pos=self._p(meta), name=str(ch[0]), title=(_tagged(ch, "title") or [None])[0],
                         values=_nodes(ch, A.EnumValue))

    def enum_value(self, meta: Any, ch: list[Any]) -> A.EnumValue:
        return A.EnumValue(pos=self._p(meta), name=str(ch[0]), text=ch[1])

    def kind_def(self, meta: Any, ch: list[Any]) -> A.KindDef:
        ids = _tagged(ch, "id")
        return A.KindDef(pos=self._p(meta), name=str(ch[0]), title=(_tagged(ch, "title") or [None])[0],
                         fields=_nodes(ch, A.FieldDef), id_template=ids[0] if ids else None,
                         named=(_tagged(ch, "named") or [None])[0])

    def field_def(self, meta: Any, ch: list[Any]) -> A.FieldDef:
        internal = _internal(ch)
        ch = [c for c in ch if not (isinstance(c, Tree) and c.data == "internal")]
        back = any(isinstance(c, Tree) and c.data == "back" for c in ch)
        default = self._literal(ch[2]) if ch[2] is not None else None
        negated: Optional[A.Text] = (_tagged(ch, "not") or [None])[0]
        return A.FieldDef(pos=self._p(meta), name=str(ch[0]), type=ch[1], back=back, text=_one(ch, A.Text),
                          default=default, negated=negated, internal=internal, told=_changes(ch), unsaid=_unsaid(ch))

    def change_told(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("told", A.ChangeTold(pos=self._p(meta), kind=str(ch[0].children[0]), text=ch[1]))

    def const_told(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("told", ch[0])

    def negated(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("not", ch[0])

    def kind_clause(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("is", ch[0])

    def id_template(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("id", self._unquote(ch[0]))

    def card_named(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("named", ch[0])

    def type_ref(self, meta: Any, ch: list[Any]) -> A.TypeRef:
        return A.TypeRef(pos=self._p(meta), name=str(ch[0]))

    def list_type(self, meta: Any, ch: list[Any]) -> A.TypeRef:
        return A.TypeRef(pos=self._p(meta), name="list", list_of=ch[0])

    def cards_def(self, meta: Any, ch: list[Any]) -> A.CardsDef:
        each = _tagged(ch, "each")
        columns = _tagged(ch, "columns")
        names = [str(c) for c in ch if isinstance(c, Token) and c.type == "NAME"]
        table = names[0] if len(names) == 3 else None
        return A.CardsDef(pos=self._p(meta), name=names[-2], zone=names[-1], table=table, assumed=_one(ch, A.Assumed),
                          each=each[0] if each else None, columns=columns[0] if columns else [],
                          rows=_nodes(ch, A.CardRow), cards=_nodes(ch, A.CardEntry))

    def cards_each(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("each", (str(ch[0]), str(ch[1])))

    def cards_columns(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("columns", [str(c) for c in ch])

    def cards_row(self, meta: Any, ch: list[Any]) -> A.CardRow:
        values = [self._literal(c) for c in ch if isinstance(c, (A.Literal_, A.Num, A.Str, A.BoolLit))]
        return A.CardRow(pos=self._p(meta), values=values, assumed=_one(ch, A.Assumed),
                         effects=_nodes(ch, A.EffectValue))

    def range_lit(self, meta: Any, ch: list[Any]) -> A.Literal_:
        low, high = self._int(ch[0]), self._int(ch[1])
        if high < low:
            raise error_at(self._p(meta), f"the range {low}..{high} runs backwards", f"write {high}..{low}")
        return A.Literal_(pos=self._p(meta), value=None, range=(low, high))

    def copies(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("copies", self._int(ch[0]))

    def card_entry(self, meta: Any, ch: list[Any]) -> A.CardEntry:
        copies = _tagged(ch, "copies")
        return A.CardEntry(pos=self._p(meta), name=str(ch[0]), title=(_tagged(ch, "title") or [None])[0],
                           note=_note(ch), values=_nodes(ch, A.FieldValue),
                           effects=_nodes(ch, A.EffectValue), copies=copies[-1] if copies else 1)

    def field_value(self, meta: Any, ch: list[Any]) -> A.FieldValue:
        return A.FieldValue(pos=self._p(meta), name=str(ch[0]), value=self._literal(ch[1]),
                            assumed=_one(ch, A.Assumed))

    def effect_value(self, meta: Any, ch: list[Any]) -> A.EffectValue:
        return A.EffectValue(pos=self._p(meta), name=str(ch[0]), body=ch[1])

    def literal(self, meta: Any, ch: list[Any]) -> A.Literal_:
        return self._literal(ch[0])

    def list_value(self, meta: Any, ch: list[Any]) -> A.Literal_:
        items = [self._literal(c) for c in ch if c is not None]
        return A.Literal_(pos=self._p(meta), value=None, items=items)

    def name_lit(self, meta: Any, ch: list[Any]) -> A.Literal_:
        return A.Literal_(pos=self._p(meta), value=str(ch[0]), is_name=True)

    def _literal(self, node: Any) -> A.Literal_:
        if isinstance(node, A.Literal_):
            return node
        return A.Literal_(pos=node.pos, value=node.value)

    def zone_def(self, meta: Any, ch: list[Any]) -> A.ZoneDef:
        opts = [c for c in ch if isinstance(c, _Tagged) and c[0] == "opt"]
        flags = [o[1] for o in opts]
        shape = _tagged(ch, "shape")
        caps = _tagged(ch, "capacity")
        names = [c for c in ch if isinstance(c, Token) and c.type == "NAME"]
        vis = [f for f in flags if f in ("public", "hidden", "owner")]
        shape_kind: Literal["single", "per_player", "indexed"] = shape[0][0] if shape else "single"
        size = shape[0][1] if shape else None
        at = _tagged(ch, "at")
        return A.ZoneDef(pos=self._p(meta), name=str(names[0]), text=_one(ch, A.Text), shape=shape_kind,
                         size=size, kind=str(names[1]), visibility=vis[-1] if vis else "public",
                         shuffled="shuffled" in flags, capacity=caps[0] if caps else None,
                         assumed=_one(ch, A.Assumed), at=at[0] if at else None)

    def per_player(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("shape", ("per_player", None))

    def indexed(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("shape", ("indexed", ch[0]))

    def zone_opt(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("opt", str(ch[0]))

    def zone_at(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("at", ch[0])

    def capacity(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("capacity", self._int(ch[-1]))

    def var_def(self, meta: Any, ch: list[Any]) -> A.VarDef:
        per_player = any(isinstance(c, Tree) and c.data == "per_player_var" for c in ch)
        flags = ("per_player_var", "secret", "internal", "unsaid")
        rest = [c for c in ch if not (isinstance(c, Tree) and c.data in flags) and c is not None
                and not isinstance(c, _Tagged)]
        return A.VarDef(pos=self._p(meta), name=str(rest[0]), per_player=per_player, type=rest[1], init=rest[2],
                        text=_one(rest[3:], A.Text), assumed=_one(rest[3:], A.Assumed), hidden=_secret(ch),
                        internal=_internal(ch), negated=(_tagged(ch, "not") or [None])[0], told=_changes(ch),
                        unsaid=_unsaid(ch))

    def const_def(self, meta: Any, ch: list[Any]) -> A.ConstDef:
        internal = _internal(ch)
        told = (_tagged(ch, "told") or [None])[0]
        negated = (_tagged(ch, "not") or [None])[0]
        ch = [c for c in ch if not (isinstance(c, Tree) and c.data == "internal") and c is not None
              and not isinstance(c, _Tagged)]
        return A.ConstDef(pos=self._p(meta), name=str(ch[0]), value=ch[1], text=_one(ch[2:], A.Text),
                          assumed=_one(ch[2:], A.Assumed), internal=internal, told=told, negated=negated)

    def currency_def(self, meta: Any, ch: list[Any]) -> A.CurrencyDef:
        rest = [c for c in ch[1:] if c is not None and not isinstance(c, (A.Text, A.Assumed, _Tagged))]
        bank = _tagged(ch, "bank")
        return A.CurrencyDef(pos=self._p(meta), name=str(ch[0]), text=_one(ch, A.Text), start=rest[0],
                             assumed=_one(ch, A.Assumed), hidden=_secret(ch), bank=bank[0] if bank else None)

    def currency_bank(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("bank", ch[0])

    def function_def(self, meta: Any, ch: list[Any]) -> A.FunctionDef:
        internal = _internal(ch)
        ch = [c for c in ch if not (isinstance(c, Tree) and c.data == "internal")]
        told, told_by = (_tagged(ch, "told") or [(None, None)])[0]
        return A.FunctionDef(pos=self._p(meta), name=str(ch[0]), params=ch[1] or [], text=_one(ch, A.Text),
                             body=ch[-1], negated=(_tagged(ch, "not") or [None])[0], note=_note(ch),
                             internal=internal, kind_clause=(_tagged(ch, "is") or [None])[0], told=told,
                             told_by=told_by)

    def params(self, meta: Any, ch: list[Any]) -> list[A.Param]:
        return list(ch)

    def param(self, meta: Any, ch: list[Any]) -> A.Param:
        return A.Param(pos=self._p(meta), name=str(ch[0]), type=ch[1], text=_one(ch, A.Text))

    def rule_def(self, meta: Any, ch: list[Any]) -> A.RuleDef:
        internal = _internal(ch)
        ch = [c for c in ch if not (isinstance(c, Tree) and c.data == "internal")]
        told, told_by = (_tagged(ch, "told") or [(None, None)])[0]
        return A.RuleDef(pos=self._p(meta), name=str(ch[0]), params=ch[1] or [], text=_one(ch, A.Text),
                         note=_note(ch), told=told, told_by=told_by, body=ch[-1], internal=internal)

    def rule_told(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("told", (ch[0], ch[1] if len(ch) > 1 else None))

    def rule_told_by(self, meta: Any, ch: list[Any]) -> A.ToldBy:
        return A.ToldBy(pos=self._p(meta), param=str(ch[0]), text=ch[1])

    def action_def(self, meta: Any, ch: list[Any]) -> A.ActionDef:
        label = _tagged(ch, "label")[0]
        body = [c for c in ch[2:] if not isinstance(c, (A.Text, A.Told, _Tagged)) and c is not None]
        return A.ActionDef(pos=self._p(meta), name=str(ch[0]), params=ch[1] or [], text=_one(ch, A.Text),
                           label=label, body=body, note=_note(ch), told=_one(ch, A.Told))

    def action_params(self, meta: Any, ch: list[Any]) -> list[A.ActionParam]:
        return list(ch)

    def action_param(self, meta: Any, ch: list[Any]) -> A.ActionParam:
        text, ch = _local_text(ch)
        return A.ActionParam(pos=self._p(meta), name=str(ch[0]), domain=ch[1], text=text)

    def action_label(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("label", self._unquote(ch[0]))

    def told(self, meta: Any, ch: list[Any]) -> A.Told:
        return A.Told(pos=self._p(meta), done=ch[0], infinitive=ch[1])

    def setup_def(self, meta: Any, ch: list[Any]) -> A.SetupDef:
        return A.SetupDef(pos=self._p(meta), body=ch[0])

    def round_def(self, meta: Any, ch: list[Any]) -> A.RoundDef:
        return A.RoundDef(pos=self._p(meta), repeat_while=ch[0], phases=_nodes(ch, A.PhaseDef))

    def phase_def(self, meta: Any, ch: list[Any]) -> A.PhaseDef:
        return A.PhaseDef(pos=self._p(meta), name=str(ch[0]), text=_one(ch, A.Text), note=_note(ch), body=ch[-1])

    def section_def(self, meta: Any, ch: list[Any]) -> A.SectionDef:
        return A.SectionDef(pos=self._p(meta), name=str(ch[0]), text=ch[1], note=_note(ch),
                            parts=[str(c) for c in ch[2:] if not isinstance(c, (A.Text, _Tagged)) and c is not None])

    def score_def(self, meta: Any, ch: list[Any]) -> A.ScoreDef:
        return A.ScoreDef(pos=self._p(meta), var=str(ch[0]), expr=ch[1], lowest=ch[2] is not None)

    def lowest_wins(self, meta: Any, ch: list[Any]) -> bool:
        return True

    def winner_def(self, meta: Any, ch: list[Any]) -> A.WinnerDef:
        return A.WinnerDef(pos=self._p(meta), var=str(ch[0]), expr=ch[1])

    def heuristic_def(self, meta: Any, ch: list[Any]) -> A.HeuristicDef:
        return A.HeuristicDef(pos=self._p(meta), var=str(ch[0]), expr=ch[1])

    def trigger_def(self, meta: Any, ch: list[Any]) -> A.TriggerDef:
        event, params = ch[0]
        name = str(ch[1]) if ch[1] is not None else None
        where = [c for c in ch[2:-1] if not isinstance(c, (A.Text, _Tagged))][0]
        return A.TriggerDef(pos=self._p(meta), event=event, params=[p[0] for p in params],
                            types=[p[1] for p in params], name=name, text=_one(ch[2:3], A.Text), where=where,
                            note=_note(ch), body=ch[-1])

    def event_pattern(self, meta: Any, ch: list[Any]) -> tuple[str, list[tuple[str, Optional[A.TypeRef]]]]:
        return str(ch[0]), [c for c in ch[1:] if c is not None]

    def event_param(self, meta: Any, ch: list[Any]) -> tuple[str, Optional[A.TypeRef]]:
        return str(ch[0]), ch[1]

    def event_def(self, meta: Any, ch: list[Any]) -> A.EventDef:
        return A.EventDef(pos=self._p(meta), name=str(ch[0]), params=ch[1] or [], text=ch[-1])

    # ---------------------------------------------------------------- pictures
    def picture_def(self, meta: Any, ch: list[Any]) -> A.PictureDef:
        return A.PictureDef(pos=self._p(meta), name=str(ch[0]), text=ch[1], entries=_nodes(ch, A.PictureEntry))

    def _picture_entry(self, meta: Any, what: Any, ch: list[Any]) -> A.PictureEntry:
        """One entry with its value (an expression), its style and its legend text, each at most once."""
        style: dict[str, Any] = {}
        for tag, value in (c for c in ch if isinstance(c, _Tagged)):
            if tag in style:
                raise error_at(self._p(meta), f"`{tag}` is given twice here", "give each style once")
            style[tag] = value
        values = [c for c in ch if not isinstance(c, (_Tagged, A.Text, Tree)) and c is not None]
        return A.PictureEntry(pos=self._p(meta), what=what, value=values[0] if values else None,
                              of=values[1] if len(values) > 1 else None, text=_one(ch, A.Text), **style)

    def picture_at(self, meta: Any, ch: list[Any]) -> A.PictureEntry:
        return self._picture_entry(meta, "at", ch)

    def picture_edges(self, meta: Any, ch: list[Any]) -> A.PictureEntry:
        return self._picture_entry(meta, str(ch[0].children[0]), ch[1:])

    def picture_nodes(self, meta: Any, ch: list[Any]) -> A.PictureEntry:
        return self._picture_entry(meta, "nodes", ch)

    def picture_others(self, meta: Any, ch: list[Any]) -> A.PictureEntry:
        return self._picture_entry(meta, "others", ch)

    def picture_labels(self, meta: Any, ch: list[Any]) -> A.PictureEntry:
        return self._picture_entry(meta, "labels", ch)

    def picture_numbered(self, meta: Any, ch: list[Any]) -> A.PictureEntry:
        return self._picture_entry(meta, "numbered", ch)

    def style_shape(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("shape", str(ch[0]))

    def style_colour(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("colour", self._unquote(ch[0]))

    def style_dashed(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("dashed", True)

    # ---------------------------------------------------------------- variants
    def variant_def(self, meta: Any, ch: list[Any]) -> A.VariantDef:
        return A.VariantDef(pos=self._p(meta), name=str(ch[0]), title=_tagged(ch, "title")[0],
                            ops=_nodes(ch, A.VariantOp))

    def _part(self, meta: Any, item: Any, op: str) -> Any:
        if isinstance(item, (A.VariantDef, A.ScenarioDef)):
            what = "variant" if isinstance(item, A.VariantDef) else "scenario"
            raise error_at(item.pos, f"a variant cannot {op} a {what}", f"write the {what} at the top level of a file")
        return item

    def variant_add(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        return A.VariantOp(pos=self._p(meta), op="add", item=self._part(meta, ch[0], "add"))

    def variant_replace(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        return A.VariantOp(pos=self._p(meta), op="replace", item=self._part(meta, ch[0], "replace"))

    def variant_remove(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        return A.VariantOp(pos=self._p(meta), op="remove", part=str(ch[0].children[0]), name=str(ch[1]))

    def variant_add_phase(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        pos_tree = next(c for c in ch if isinstance(c, Tree) and c.data == "position")
        phase = A.PhaseDef(pos=self._p(meta), name=str(ch[0]), text=_one(ch, A.Text), note=_note(ch), body=ch[-1])
        position: Literal["before", "after"] = "before" if str(pos_tree.children[0]) == "before" else "after"
        return A.VariantOp(pos=self._p(meta), op="add_phase", phase=phase, position=position, anchor=str(ch[-2]))

    def variant_replace_phase(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        phase = A.PhaseDef(pos=self._p(meta), name=str(ch[0]), text=_one(ch, A.Text), note=_note(ch), body=ch[-1])
        return A.VariantOp(pos=self._p(meta), op="replace_phase", phase=phase, name=str(ch[0]))

    def step_ref(self, meta: Any, ch: list[Any]) -> tuple[str, str]:
        return str(ch[0]), str(ch[1])

    def variant_replace_step(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        owner, name = ch[0]
        step = A.NamedStep(pos=self._p(meta), name=name, body=ch[1])
        return A.VariantOp(pos=self._p(meta), op="replace_step", owner=owner, name=name, stmt=step)

    def variant_remove_step(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        owner, name = ch[0]
        return A.VariantOp(pos=self._p(meta), op="remove_step", owner=owner, name=name)

    def variant_add_step(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        owner, anchor = ch[2]
        step = A.NamedStep(pos=self._p(meta), name=str(ch[0]), body=ch[3])
        position: Literal["before", "after"] = "before" if str(ch[1].children[0]) == "before" else "after"
        return A.VariantOp(pos=self._p(meta), op="add_step", owner=owner, name=str(ch[0]), anchor=anchor,
                           position=position, stmt=step)

    def variant_replace_require(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        owner, name = ch[0]
        require = A.Require(pos=self._p(meta), cond=ch[1], text=_one(ch[2:], A.Text), name=name)
        return A.VariantOp(pos=self._p(meta), op="replace_require", owner=owner, name=name, stmt=require)

    def variant_remove_require(self, meta: Any, ch: list[Any]) -> A.VariantOp:
        owner, name = ch[0]
        return A.VariantOp(pos=self._p(meta), op="remove_require", owner=owner, name=name)

    # ---------------------------------------------------------------- scenarios
    def scenario_def(self, meta: Any, ch: list[Any]) -> A.ScenarioDef:
        players = _tagged(ch, "players")
        seeds = _tagged(ch, "seed")
        seats: list[tuple[str, Optional[A.Text]]] = players[0] if players else []
        return A.ScenarioDef(pos=self._p(meta), name=str(ch[0]), title=_tagged(ch, "title")[0],
                             players=[n for n, _ in seats], seat_texts=[t for _, t in seats],
                             seed=seeds[0] if seeds else 0, variants=_tagged(ch, "variant"), steps=_nodes(ch, A.Step))

    def scenario_players(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("players", list(ch))

    def scenario_seat(self, meta: Any, ch: list[Any]) -> tuple[str, Optional[A.Text]]:
        return str(ch[0]), _one(ch, A.Text)

    def scenario_seed(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("seed", self._int(ch[0]))

    def scenario_variant(self, meta: Any, ch: list[Any]) -> _Tagged:
        return _tag("variant", str(ch[0]))

    def step_choose(self, meta: Any, ch: list[Any]) -> A.Step:
        return A.Step(pos=self._p(meta), kind="choose", seat=str(ch[0]), label=self._unquote(ch[1]))

    def step_chance(self, meta: Any, ch: list[Any]) -> A.Step:
        return A.Step(pos=self._p(meta), kind="chance", label=self._unquote(ch[0]))

    def step_expect(self, meta: Any, ch: list[Any]) -> A.Step:
        return A.Step(pos=self._p(meta), kind="expect", expr=ch[0])

    def step_legal(self, meta: Any, ch: list[Any]) -> A.Step:
        return A.Step(pos=self._p(meta), kind="legal", seat=str(ch[0]), label=self._unquote(ch[1]))

    def step_illegal(self, meta: Any, ch: list[Any]) -> A.Step:
        return A.Step(pos=self._p(meta), kind="illegal", seat=str(ch[0]), label=self._unquote(ch[1]))

    def step_arrange(self, meta: Any, ch: list[Any]) -> A.Step:
        return A.Step(pos=self._p(meta), kind="arrange", body=ch[0])

    def step_example(self, meta: Any, ch: list[Any]) -> A.Step:
        shows = ch[1] if len(ch) == 3 else []
        return A.Step(pos=self._p(meta), kind="example", label=str(ch[0]), shows=shows, text=ch[-1])

    def example_show(self, meta: Any, ch: list[Any]) -> list[Any]:
        return list(ch)

    # ---------------------------------------------------------------- statements
    def block(self, meta: Any, ch: list[Any]) -> list[Any]:
        return list(ch)

    def let_stmt(self, meta: Any, ch: list[Any]) -> A.Let:
        text, ch = _local_text(ch)
        return A.Let(pos=self._p(meta), name=str(ch[0]), value=ch[1], text=text)

    def let_choose(self, meta: Any, ch: list[Any]) -> A.LetChoose:
        text, ch = _local_text(ch)
        return A.LetChoose(pos=self._p(meta), name=str(ch[0]), seat=ch[1], options=ch[2],
                           told=ch[3] if len(ch) > 3 else None, text=text)

    def let_random(self, meta: Any, ch: list[Any]) -> A.LetRandom:
        text, ch = _local_text(ch)
        return A.LetRandom(pos=self._p(meta), name=str(ch[0]), options=ch[1], text=text)

    def set_stmt(self, meta: Any, ch: list[Any]) -> A.SetStmt:
        return A.SetStmt(pos=self._p(meta), target=ch[0], value=ch[1])

    def move_stmt(self, meta: Any, ch: list[Any]) -> A.Move:
        return A.Move(pos=self._p(meta), what=ch[0], to=ch[1], bottom=len(ch) > 2 and ch[2] is not None)

    def draw_stmt(self, meta: Any, ch: list[Any]) -> A.Draw:
        return A.Draw(pos=self._p(meta), count=ch[0], source=ch[1], to=ch[2])

    def reveal_stmt(self, meta: Any, ch: list[Any]) -> A.Reveal:
        return A.Reveal(pos=self._p(meta), what=ch[0], to=ch[1] if len(ch) > 1 else None)

    def pay_stmt(self, meta: Any, ch: list[Any]) -> A.Pay:
        def party(node: Any) -> Optional[A.Expr]:
            return None if isinstance(node, Tree) and node.data == "bank" else node
        return A.Pay(pos=self._p(meta), amount=ch[0], currency=str(ch[1]), payer=party(ch[2]),
                     payee=party(ch[3]), at_most_available=len(ch) > 4 and ch[4] is not None)

    def if_stmt(self, meta: Any, ch: list[Any]) -> A.If:
        other = ch[2] if len(ch) > 2 else None
        if isinstance(other, A.If):
            other = [other]
        return A.If(pos=self._p(meta), cond=ch[0], then=ch[1], other=other or [])

    def for_stmt(self, meta: Any, ch: list[Any]) -> A.For:
        text, ch = _local_text(ch)
        return A.For(pos=self._p(meta), var=str(ch[0]), source=ch[1], body=ch[2], text=text)

    def while_stmt(self, meta: Any, ch: list[Any]) -> A.While:
        return A.While(pos=self._p(meta), cond=ch[0], body=ch[1])

    def repeat_stmt(self, meta: Any, ch: list[Any]) -> A.Repeat:
        return A.Repeat(pos=self._p(meta), count=ch[0], body=ch[1])

    def break_stmt(self, meta: Any, ch: list[Any]) -> A.Break:
        return A.Break(pos=self._p(meta), text=ch[0] if ch else None)

    def choose_action(self, meta: Any, ch: list[Any]) -> A.ChooseAction:
        return A.ChooseAction(pos=self._p(meta), seat=ch[0], actions=[str(c) for c in ch[1:]])

    def call_stmt(self, meta: Any, ch: list[Any]) -> A.CallRule:
        return A.CallRule(pos=self._p(meta), rule=str(ch[0]), args=(ch[1] if len(ch) > 1 else None) or [])

    def run_stmt(self, meta: Any, ch: list[Any]) -> A.Run:
        return A.Run(pos=self._p(meta), target=ch[0], by=ch[1], as_self=ch[2])

    def modify_stmt(self, meta: Any, ch: list[Any]) -> A.Modify:
        mode = str(ch[2].children[0])
        until = str(ch[5].children[-1])
        return A.Modify(pos=self._p(meta), kind=str(ch[0]), field=str(ch[1]), mode=mode,  # type: ignore[arg-type]
                        value=ch[3], where=ch[4], until=until)

    def forbid_stmt(self, meta: Any, ch: list[Any]) -> A.Forbid:
        names = [str(c) for c in ch if isinstance(c, Token) and c.type == "NAME"]
        exprs = [c for c in ch if not isinstance(c, (Token, Tree))]
        until = str(ch[-1].children[-1])
        return A.Forbid(pos=self._p(meta), actions=names, where=exprs[0] if exprs else None, until=until)

    def turns_stmt(self, meta: Any, ch: list[Any]) -> A.Turns:
        return A.Turns(pos=self._p(meta), var=str(ch[0]), start=ch[1], until=ch[2], skip=ch[3], body=ch[4])

    def turns_in(self, meta: Any, ch: list[Any]) -> A.TurnsIn:
        return A.TurnsIn(pos=self._p(meta), var=str(ch[0]), order=ch[1], body=ch[2])

    def log_stmt(self, meta: Any, ch: list[Any]) -> A.Log:
        return A.Log(pos=self._p(meta), text=ch[0])

    def require_stmt(self, meta: Any, ch: list[Any]) -> A.Require:
        return A.Require(pos=self._p(meta), cond=ch[0], text=_one(ch[2:], A.Text),
                         name=str(ch[1]) if ch[1] is not None else None)

    def named_step(self, meta: Any, ch: list[Any]) -> A.NamedStep:
        return A.NamedStep(pos=self._p(meta), name=str(ch[0]), body=ch[1])

    def give_stmt(self, meta: Any, ch: list[Any]) -> A.Give:
        return A.Give(pos=self._p(meta), what=ch[0], to=ch[1])

    def end_stmt(self, meta: Any, ch: list[Any]) -> A.EndGame:
        return A.EndGame(pos=self._p(meta))

    def emit_stmt(self, meta: Any, ch: list[Any]) -> A.Emit:
        return A.Emit(pos=self._p(meta), event=str(ch[0]), args=(ch[1] if len(ch) > 1 else None) or [])

    # ---------------------------------------------------------------- expressions
    def cond_expr(self, meta: Any, ch: list[Any]) -> A.CondExpr:
        return A.CondExpr(pos=self._p(meta), cond=ch[0], then=ch[1], other=ch[2])

    def or_op(self, meta: Any, ch: list[Any]) -> A.BinOp:
        return A.BinOp(pos=self._p(meta), op="or", left=ch[0], right=ch[1])

    def and_op(self, meta: Any, ch: list[Any]) -> A.BinOp:
        return A.BinOp(pos=self._p(meta), op="and", left=ch[0], right=ch[1])

    def not_op(self, meta: Any, ch: list[Any]) -> A.Not:
        return A.Not(pos=self._p(meta), operand=ch[0])

    def compare(self, meta: Any, ch: list[Any]) -> A.BinOp:
        return A.BinOp(pos=self._p(meta), op=str(ch[1]), left=ch[0], right=ch[2])

    binop = compare

    def neg(self, meta: Any, ch: list[Any]) -> A.Neg:
        return A.Neg(pos=self._p(meta), operand=ch[0])

    def attr(self, meta: Any, ch: list[Any]) -> A.Attr:
        return A.Attr(pos=self._p(meta), obj=ch[0], name=str(ch[1]))

    def index(self, meta: Any, ch: list[Any]) -> A.Index:
        return A.Index(pos=self._p(meta), obj=ch[0], index=ch[1])

    def call(self, meta: Any, ch: list[Any]) -> A.Call:
        return A.Call(pos=self._p(meta), func=str(ch[0]), args=ch[1] or [])

    def call_comp(self, meta: Any, ch: list[Any]) -> A.CallComp:
        return A.CallComp(pos=self._p(meta), func=str(ch[0]), comp=ch[1])

    def int_lit(self, meta: Any, ch: list[Any]) -> A.Num:
        return A.Num(pos=self._p(meta), value=self._int(ch[0]))

    def str_lit(self, meta: Any, ch: list[Any]) -> A.Str:
        return A.Str(pos=self._p(meta), value=self._unquote(ch[0]))

    def true_lit(self, meta: Any, ch: list[Any]) -> A.BoolLit:
        return A.BoolLit(pos=self._p(meta), value=True)

    def false_lit(self, meta: Any, ch: list[Any]) -> A.BoolLit:
        return A.BoolLit(pos=self._p(meta), value=False)

    def name(self, meta: Any, ch: list[Any]) -> A.Name:
        return A.Name(pos=self._p(meta), name=str(ch[0]))

    def list_lit(self, meta: Any, ch: list[Any]) -> A.ListLit:
        return A.ListLit(pos=self._p(meta), items=ch[0] or [])

    def list_comp(self, meta: Any, ch: list[Any]) -> A.Comprehension:
        comp: A.Comprehension = ch[0]
        return comp

    def map_lit(self, meta: Any, ch: list[Any]) -> A.MapLit:
        return A.MapLit(pos=self._p(meta), items=list(ch))

    def args(self, meta: Any, ch: list[Any]) -> list[Any]:
        return list(ch)

    def map_item(self, meta: Any, ch: list[Any]) -> tuple[Any, Any]:
        return (ch[0], ch[1])

    def comprehension(self, meta: Any, ch: list[Any]) -> A.Comprehension:
        return A.Comprehension(pos=self._p(meta), expr=ch[0], var=str(ch[1]), source=ch[2], cond=ch[3], key=ch[4])


_EXPECTED_NAMES = {"NAME": "a name", "STRING": 'a text in quotes', "INT": "a whole number",
                   "SIGNED_INT": "a whole number", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('",
                   "RPAR": "')'", "COLON": "':'", "EQUAL": "'='", "COMMA": "','", "$END": "the end of the file"}


def _describe_expected(expected: set[str]) -> str:
    parser = grammar()
    names = []
    for term in sorted(expected):
        if term in _EXPECTED_NAMES:
            names.append(_EXPECTED_NAMES[term])
            continue
        try:
            pattern = parser.get_terminal(term).pattern
            names.append(f"'{pattern.value}'" if pattern.type == "str" else term.lower())
        except KeyError:
            names.append(term.lower())
    names = sorted(set(names))
    if len(names) > 8:
        return ", ".join(names[:8]) + ", …"
    return ", ".join(names)


def _shown(tok: Token) -> str:
    """A token as quoted in a message: its first line, shortened."""
    text = str(tok).split("\n")[0]
    return f"'{text[:40]}…'" if len(text) > 40 or "\n" in str(tok) else f"'{text}'"


@dataclass
class _Scan:
    """What a quick pass over the raw text finds: brackets still open at each offset, broken texts."""

    open_at: list[tuple[int, str, int, int]]  # (offset, bracket, line, col) of each opening bracket
    close_at: list[int]  # offsets of closing brackets
    broken_text: Optional[tuple[int, int, int]]  # (offset, line, col) of the first text not closed on its line


def _scan(source: str) -> _Scan:
    """Walks the text as the lexer does (texts, comments, brackets) without parsing it."""
    opens: list[tuple[int, str, int, int]] = []
    closes: list[int] = []
    broken: Optional[tuple[int, int, int]] = None
    line, line_start, i, n = 1, 0, 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\n":
            line, line_start = line + 1, i + 1
        elif ch == "#":
            while i + 1 < n and source[i + 1] != "\n":
                i += 1
        elif ch == '"':
            start, sline, scol = i, line, i - line_start + 1
            i += 1
            while i < n and source[i] != '"':
                if source[i] == "\\":
                    i += 1
                elif source[i] == "\n":
                    line, line_start = line + 1, i + 1
                    if broken is None:
                        broken = (start, sline, scol)
                i += 1
            if i >= n and broken is None:
                broken = (start, sline, scol)
        elif ch in "{([":
            opens.append((i, ch, line, i - line_start + 1))
        elif ch in "})]":
            closes.append(i)
        i += 1
    return _Scan(opens, closes, broken)


def _still_open(scan: _Scan, upto: int) -> Optional[tuple[int, str, int, int]]:
    """The innermost bracket opened before `upto` and not closed before it (brackets matched by nesting)."""
    stack: list[tuple[int, str, int, int]] = []
    events = sorted([(o[0], 0, o) for o in scan.open_at if o[0] < upto] +
                    [(c, 1, None) for c in scan.close_at if c < upto], key=lambda e: e[0])
    for _, closing, item in events:
        if closing:
            if stack:
                stack.pop()
        elif item is not None:
            stack.append(item)
    return stack[-1] if stack else None


_CLOSER = {"{": "}", "(": ")", "[": "]"}


def _syntax_error(exc: UnexpectedInput, file: str, source: str) -> RulesError:
    line, col = getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1
    offset = getattr(exc, "pos_in_stream", None)
    at_end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
    if at_end or offset is None:
        offset = len(source)
    scan = _scan(source)
    if scan.broken_text is not None and scan.broken_text[0] <= offset:
        _, tline, tcol = scan.broken_text
        return RulesError([Diagnostic(file, tline, tcol, "this text is not closed on its line",
                                      'a text ends with a second " on the same line')], {file: source})
    if at_end:
        body = source.rstrip()
        line = body.count("\n") + 1
        col = len(body) - (body.rfind("\n") + 1) + 1
        message = "unexpected end of file"
        still = _still_open(scan, len(source))
        if still is not None:
            hint = f"the '{still[1]}' at line {still[2]}, column {still[3]} is never closed by '{_CLOSER[still[1]]}'"
        elif isinstance(exc, UnexpectedToken):
            hint = f"expected {_describe_expected(set(exc.expected))}"
        else:
            hint = "a block or definition is not finished"
    elif isinstance(exc, UnexpectedToken) and (typo := _misspelled_keyword(source, offset)) is not None:
        word_at, word, keyword = typo
        before = source[:word_at]
        line, col = before.count("\n") + 1, word_at - (before.rfind("\n") + 1) + 1
        message, hint = f"unknown keyword '{word}'; did you mean '{keyword}'?", ""
    elif isinstance(exc, UnexpectedToken):
        message = f"unexpected {_shown(exc.token)}"
        hint = f"expected {_describe_expected(set(exc.expected))}"
        still = _still_open(scan, offset)
        if "RBRACE" in exc.expected and still is not None and still[1] == "{" and still[2] < line:
            hint += f"; is a '}}' missing? the '{{' at line {still[2]}, column {still[3]} is still open"
    elif isinstance(exc, UnexpectedCharacters):
        bad = source[offset] if 0 <= offset < len(source) else "?"
        message = f"unexpected character {bad!r}"
        hint = "names are lower-case letters, digits and '_'; texts go in double quotes"
    else:
        message, hint = str(exc).splitlines()[0], ""
    here = source.split("\n")[line - 1] if 1 <= line <= source.count("\n") + 1 else ""
    if here.split("#")[0].replace('\\"', "").count('"') % 2:
        hint = 'the quotes on this line do not pair up: is a " missing or one too many?'
    return RulesError([Diagnostic(file, line, col, message, hint)], {file: source})


_NAME = re.compile(r"([a-z_][a-z0-9_]*)")
_OPENING_NAME = re.compile(r"[ \t]*([a-z_][a-z0-9_]*)")  # the first word of a line


@lru_cache(maxsize=1)
def _keywords() -> tuple[str, ...]:
    """The grammar's word tokens, the candidates for a misspelt keyword."""
    return tuple(sorted(t.pattern.value for t in grammar().terminals
                        if t.pattern.type == "str" and t.pattern.value.isidentifier()))


def _misspelled_keyword(source: str, offset: int) -> Optional[tuple[int, str, str]]:
    """(offset, word, keyword) when the unexpected name, or the word opening its line, is a near miss of a
    keyword with which the parse gets past this line; the check re-parses, so a real name is never blamed."""
    line_start = source.rfind("\n", 0, offset) + 1
    opening = _OPENING_NAME.match(source, line_start)
    here = _NAME.match(source, offset)
    candidates = [(m.start(1), m.group(1)) for m in (here, opening) if m is not None]
    for at, word in dict.fromkeys(candidates):
        if word in _keywords():
            continue
        for keyword in difflib.get_close_matches(word, _keywords(), n=3, cutoff=0.6):
            fixed = source[:at] + keyword + source[at + len(word):]
            end_of_line = fixed.find("\n", at)
            try:
                grammar().parse(fixed)
            except UnexpectedInput as again:
                further = getattr(again, "pos_in_stream", None)
                if further is None or end_of_line == -1 or further <= end_of_line:
                    continue
            except RecursionError:
                continue
            return at, word, keyword
    return None


def _deepest(source: str) -> tuple[int, int]:
    """Line and column of the most deeply nested bracket, where a too-deep expression is."""
    depth = best = 0
    where = (1, 1)
    scan = _scan(source)
    for item in sorted([(o[0], 1, o[2], o[3]) for o in scan.open_at] + [(c, -1, 0, 0) for c in scan.close_at]):
        depth += item[1]
        if depth > best:
            best, where = depth, (item[2], item[3])
    if best < 50:  # not the brackets: a very long chain of operators, on the longest line
        lines = source.split("\n")
        longest = max(range(len(lines)), key=lambda i: len(lines[i]))
        where = (longest + 1, len(lines[longest]) - len(lines[longest].lstrip()) + 1)
    return where


def parse_lark(source: str, file: str) -> A.RulesFile:
    """Parse one file's text; raises RulesError (never a Lark exception) on bad input."""
    try:
        tree = grammar().parse(source)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, file, source) from None
    except RecursionError:
        line, col = _deepest(source)
        raise RulesError([Diagnostic(file, line, col, "this is nested too deeply to read",
                                     "split it up with `let` or a `function`")], {file: source}) from None
    try:
        result: A.RulesFile = _ToAst(file).transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, RulesError):
            inner.sources.setdefault(file, source)
            raise inner from None
        if isinstance(inner, RecursionError):
            line, col = _deepest(source)
            raise RulesError([Diagnostic(file, line, col, "this is nested too deeply to read",
                                         "split it up with `let` or a `function`")], {file: source}) from None
        meta = getattr(exc.obj, "meta", None)
        line, col = (getattr(meta, "line", 1), getattr(meta, "column", 1)) if meta is not None else (1, 1)
        raise RulesError([Diagnostic(file, line or 1, col or 1, f"cannot read this {exc.rule.replace('_', ' ')}: "
                                     f"{str(inner).splitlines()[0]}")], {file: source}) from None
    except RecursionError:
        line, col = _deepest(source)
        raise RulesError([Diagnostic(file, line, col, "this is nested too deeply to read",
                                     "split it up with `let` or a `function`")], {file: source}) from None
    return result
