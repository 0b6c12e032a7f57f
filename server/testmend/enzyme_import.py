"""What an Enzyme import looks like, as text: shared by the project inspection, the codemod and
the language server (which must answer before anything heavy is imported)."""

from __future__ import annotations

import re

ENZYME_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*)(['"])(enzyme(?:/[^'"\n]*)?)\1"""
)
"""An import or require of ``enzyme`` (or a module inside it); group 2 is the module name."""
