"""What makes a result trustworthy: the test inventory of the original and the candidate, and
the intent check (mutants of the component under test that the original test kills must be
killed by the candidate too)."""

from .inventory import compare, read_inventory, test_counts
from .models import (
    FidelityReport,
    Finding,
    IntentReport,
    Inventory,
    InventoryRow,
    InventoryTest,
    Mutant,
    MutantOutcome,
)

__all__ = [
    "FidelityReport",
    "Finding",
    "IntentReport",
    "Inventory",
    "InventoryRow",
    "InventoryTest",
    "Mutant",
    "MutantOutcome",
    "compare",
    "read_inventory",
    "test_counts",
]
