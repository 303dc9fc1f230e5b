"""The engine, the language package and the rulebook generator are mypy-clean (strict, as configured in pyproject.toml)."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean() -> None:
    """Type hints are part of the code's contract; a regression fails here, not in review."""
    api = pytest.importorskip("mypy.api")
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "dsl"),
                                str(ROOT / "interpreter"), str(ROOT / "rulebook")])
    assert status == 0, out + err
