"""Files that ship inside the package (prompt templates, the JavaScript testmend hands jest or
writes into a project), loaded one way: ``importlib.resources``, relative to the package that
owns them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path


@cache
def read_asset(package: str, name: str) -> str:
    """The text of ``name`` (a path relative to ``package``'s folder)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def asset_path(package: str, name: str) -> Path:
    """The file ``name`` of ``package`` on disk, for a program that reads it itself (node's
    ``--require``, jest's ``--testResultsProcessor``). testmend is installed as files (a wheel or
    an editable install), never from a zip: such an install is refused here, clearly."""
    resource = resources.files(package).joinpath(name)
    if not isinstance(resource, Path):
        raise RuntimeError(
            f"{package}/{name} is not a file on disk: install testmend from a wheel or source, "
            "not as a zip archive"
        )
    return resource
