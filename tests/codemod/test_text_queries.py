"""Which text query finds the element that shows a text, from the capture's texts of the page
(each element's own text, whether it is inside what the find selected, all of its text)."""

from __future__ import annotations

from testmend.codemod.translate.text_queries import TextQuery, text_query

PAGE = [
    ("Settings", False, "Settings"),
    ("Sure?", True, "Sure?"),
    ("A new version is available: .", True, "A new version is available: 2.0 ."),
    ("2.0", True, "2.0"),
    ("Delete", False, "Delete"),
]


def test_the_element_showing_the_text_inside_is_found_by_it() -> None:
    assert text_query([PAGE], "Sure?", whole=True, negated=False) == TextQuery("'Sure?'")
    assert text_query([PAGE], "Sure?", whole=False, negated=False) == TextQuery("'Sure?'")
    assert text_query([PAGE], "Sure", whole=False, negated=False) == TextQuery("/Sure/")


def test_a_text_shown_outside_or_twice_has_no_query() -> None:
    assert text_query([PAGE], "Settings", whole=False, negated=False) is None
    twice = [*PAGE, ("Sure?", False, "Sure?")]
    assert text_query([twice], "Sure?", whole=False, negated=False) is None


def test_a_text_shown_with_a_childs_is_found_by_the_elements_own_part() -> None:
    query = text_query([PAGE], "A new version is available: 2.0", whole=False, negated=False)
    assert query == TextQuery("/A new version is available:/", part=True)
    # All of an element's text is no part of it: `toHaveText` asks for exactly that.
    assert text_query([PAGE], "A new version is available: 2.0", whole=True, negated=False) is None


def test_a_part_that_selects_other_elements_too_has_no_query() -> None:
    soon = "A new version is available: soon"
    page = [*PAGE, (soon, False, soon)]
    assert text_query([page], "A new version is available: 2.0", whole=False, negated=False) is None


def test_an_absent_text_is_absent_from_the_whole_page() -> None:
    assert text_query([PAGE], "Really?", whole=False, negated=True) == TextQuery("/Really\\?/")
    assert text_query([PAGE], "Delete", whole=False, negated=True) is None


def test_every_run_must_agree() -> None:
    other = [("Sure?", True, "Sure?"), ("Sure?", True, "Sure?")]
    assert text_query([PAGE, PAGE], "Sure?", whole=False, negated=False) == TextQuery("'Sure?'")
    assert text_query([PAGE, other], "Sure?", whole=False, negated=False) is None


def test_a_text_testing_library_reads_otherwise_has_no_query() -> None:
    assert text_query([PAGE], " Sure?", whole=False, negated=False) is None
    assert text_query([PAGE], "", whole=False, negated=False) is None


def test_a_few_letters_in_both_are_no_part_to_find_an_element_by() -> None:
    # The innermost holder's own text shares only "ion" with the text asserted.
    page = [("Nearest region: .", True, "Nearest region: north station .")]
    assert text_query([page], "north station", whole=False, negated=False) is None
