"""Applying the edits an agent proposes to a file, and turning results into editor edits.

See docs/patching.md. Everything here is pure (strings in, strings out, no I/O):

- :func:`parse_search_replace_blocks` / :func:`apply_search_replace` — SEARCH/REPLACE blocks
- :func:`apply_unified_diff` — unified diffs (repaired, parsed with ``unidiff``)
- both place edits with one lenient matcher (exact → trailing whitespace → whitespace →
  reindent → shrink context → similarity) and are atomic: on any failure
  :class:`EditApplyError` (with the nearest region per failed block) and no change
- :func:`unified_diff` — a result as a git-style diff
- ``patching.editor`` (imported on its own, it needs ``lsprotocol``): :func:`text_edits`,
  :func:`apply_text_edits` — results as LSP edits
"""

from .blocks import apply_search_replace, parse_search_replace_blocks
from .diffs import apply_unified_diff
from .matcher import SIMILARITY_MARGIN, SIMILARITY_THRESHOLD
from .model import (
    AppliedEdit,
    BlockFailure,
    EditApplyError,
    EditFormatError,
    EditOutcome,
    FailureKind,
    MatchStrategy,
    NearestRegion,
    PatchError,
    SearchReplace,
)
from .unified import unified_diff

__all__ = [
    "SIMILARITY_MARGIN",
    "SIMILARITY_THRESHOLD",
    "AppliedEdit",
    "BlockFailure",
    "EditApplyError",
    "EditFormatError",
    "EditOutcome",
    "FailureKind",
    "MatchStrategy",
    "NearestRegion",
    "PatchError",
    "SearchReplace",
    "apply_search_replace",
    "apply_unified_diff",
    "parse_search_replace_blocks",
    "unified_diff",
]
