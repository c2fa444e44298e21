"""Async tests here run on asyncio through anyio's pytest plugin (anyio comes with httpx)."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
