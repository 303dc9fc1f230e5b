"""Shared pytest setup for the whole suite."""
from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers so `-m "not browser"` works and typos in markers are noticed."""
    config.addinivalue_line(
        "markers", "browser: opens pages in headless Chromium (skips without it, unless "
        "REGELWERK_REQUIRE_BROWSER=1)")
