"""Shared test settings: hypothesis profiles, the scale of `slow` tests, the `differential` mark.

`slow` tests size themselves with ``scaled(n)``: full size by default, scaled down in
CI by ``CARDSIM_SLOW_SCALE`` (e.g. 0.02), never below a floor that still means
something.

`differential` marks the tests that play a compiled engine against its reference engine
(most of the suite's time): the modules of ``DIFFERENTIAL_MODULES`` and every test whose
name, parameters included, says it compares the engines (``DIFFERENTIAL_NAMES``). `long` marks
the modules of ``LONG_MODULES``, which take minutes in all (re-running every committed study,
OpenSpiel's searches, killing workers, the browser and the notebooks), and, by
``@pytest.mark.long`` in their modules, single tests of ten seconds or more that train models or
play a study at scale. ``-m "not slow and not differential
and not long"`` is the quick subset: the rules, policies, studies and tools without them.
"""
import os
import re

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", deadline=None, max_examples=400,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _scaled(n: int, floor: int = 200) -> int:
    """``n`` times ``CARDSIM_SLOW_SCALE`` (default 1), at least ``floor``."""
    return max(floor, int(n * float(os.environ.get("CARDSIM_SLOW_SCALE", "1"))))


@pytest.fixture
def scaled():
    """The ``scaled(n, floor)`` function as a fixture, for `slow` tests."""
    return _scaled


DIFFERENTIAL_MODULES = {"moska/test_compiled.py", "moska/test_compiled_policies.py", "molotow/test_differential.py",
                        "uno/test_differential.py"}
"""Modules of differential tests (their other tests check the compiled engine's state API with the reference)."""
DIFFERENTIAL_NAMES = re.compile(r"reference.*(equal|same|the_compiled)|(equal|same|the_compiled).*reference"
                               r"|both_engines")
"""The name of a test that compares the engines: ``test_compiled_equals_reference...``, ``..._on_both_engines``,
a conformance check ``[...-reference_equals_compiled]``."""


LONG_MODULES = {"test_committed_results.py", "envs/test_openspiel.py", "study/test_study_kill.py",
                "test_notebooks.py", "test_site.py", "study/test_study_html.py"}
"""Modules whose tests take minutes in all (each module's own docstring says what it drives)."""


def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(__file__)
    for item in items:
        module = os.path.relpath(str(item.path), here).replace(os.sep, "/")
        if module in DIFFERENTIAL_MODULES or DIFFERENTIAL_NAMES.search(item.name):
            item.add_marker("differential")
        if module in LONG_MODULES:
            item.add_marker("long")


@pytest.fixture(autouse=True)
def _signal_handlers_restored():
    """Each test leaves SIGINT and SIGTERM as it found them: a handler left behind (ignored SIGINT, as a run
    worker's ``die_with_parent`` sets it) would pass on to every process a later test starts, and a child that
    ignores Ctrl-C never answers the kill tests."""
    import signal

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, handler in before.items():
        if signal.getsignal(s) is not handler:
            signal.signal(s, handler)
