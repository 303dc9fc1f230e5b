"""What the passes over generated code's trees share: which nodes have a scope of their own, a fast walk, which code
cannot fail (pure) and which helpers are pure graph searches."""
from __future__ import annotations

import ast

OWN_SCOPE = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)  # nodes with a scope of their own


def walked(node: ast.AST) -> list[ast.AST]:
    """node and every node below it, in ast.walk's order, at a third of its cost (no generators): the analyses
    ask it of every part they look at, the parts of parts too."""
    out = [node]
    i = 0
    while i < len(out):
        for name in out[i]._fields:
            value = getattr(out[i], name, None)
            if isinstance(value, list):
                out += [v for v in value if isinstance(v, ast.AST)]
            elif isinstance(value, ast.AST):
                out.append(value)
        i += 1
    return out


_PURE = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.IfExp,
         ast.Tuple, ast.expr_context, ast.cmpop, ast.boolop, ast.unaryop)


def pure(node: ast.AST) -> bool:
    """Whether evaluating generated code node calls nothing but `len` and computes nothing that can fail: reads,
    comparisons and truth values only (a rules error comes from a helper call or an arithmetic step)."""
    return all(isinstance(n, _PURE) or isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len"
               for n in walked(node))


# The graph searches of helpers.py: pure functions of their arguments, none of which answers None.
GRAPH_SEARCHES = frozenset(("_frontier", "_reached_stops", "_within", "_shortest_path", "_neighbours", "_successors",
                            "_predecessors", "_steps_ahead", "_graph_distance"))
