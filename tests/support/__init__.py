"""What the tests share: the example app and its copies, git, engine and model helpers, the
local model endpoints, and the checks that nothing was left behind. Test files import from
here, never from each other; the fixtures are a pytest plugin (``fixtures.py``)."""
