"""Shared test options: ``--runslow`` enables the long sweeps marked ``slow``."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="run the long sweeps too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="long sweep: run with --runslow (make fuzz)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
