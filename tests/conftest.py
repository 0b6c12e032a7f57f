"""The suite's fixtures live in one plugin (``support/fixtures.py``); helpers in ``support/``."""

pytest_plugins = ["tests.support.fixtures"]
