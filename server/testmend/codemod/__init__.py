"""The deterministic Enzyme → React Testing Library tier (works with no model)."""

from .capture import capture_dom
from .conventions import detect_conventions
from .convert import convert_enzyme_test, is_enzyme_free, test_names
from .models import (
    CapturedElement,
    CapturedQuery,
    CodemodOptions,
    CodemodResult,
    DomCapture,
    FindRecord,
    HelperMapping,
    Note,
    RenderHelper,
    TestInfo,
)

__all__ = [
    "CapturedElement",
    "CapturedQuery",
    "CodemodOptions",
    "CodemodResult",
    "DomCapture",
    "FindRecord",
    "HelperMapping",
    "Note",
    "RenderHelper",
    "TestInfo",
    "capture_dom",
    "convert_enzyme_test",
    "detect_conventions",
    "is_enzyme_free",
    "test_names",
]
