"""Fixtures shared by the browser tests: one headless Chromium and one `mj serve` for the whole session."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def chromium():
    from server.browser import browser, missing

    reason = missing()
    if reason:
        if os.environ.get("MJ_REQUIRE_BROWSER") == "1":
            pytest.fail(f"MJ_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(f"browser tests need Debian's chromium and playwright: {reason}")
    with browser() as instance:
        yield instance


@pytest.fixture(scope="session")
def url(chromium):
    from server.browser import running_server

    with running_server() as address:
        yield address
