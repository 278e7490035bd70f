"""The generated repository needs no third-party pytest plugin: the suites these tests start
skip plugin autoloading (about 3 s per pytest start on a loaded 2-core machine). Module-scoped,
so that the setting ends with these modules and never reaches other tests of the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module", autouse=True)
def no_plugin_autoload() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        yield
