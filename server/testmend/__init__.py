"""testmend: migrate React test suites from Enzyme to React Testing Library."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("testmend")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0"
