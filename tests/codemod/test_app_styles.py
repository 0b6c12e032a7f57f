"""Suites in the styles of real applications (a redux store, a router, shared setup functions)
migrated offline into a copy of the example app, then run by its real jest, eslint and tsc."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.apps import FIXTURES
from tests.support.codemod import broken_tests, migrate_offline, untranslated

APPS = FIXTURES / "codemod" / "apps"


def add_component(app: Path, name: str) -> Path:
    """The fixture folder ``apps/<name>`` copied into the app's components."""
    folder = app / "src" / "components" / name.title()
    shutil.copytree(APPS / name, folder)
    return folder


async def test_setup_functions_returning_the_wrapper_become_setups_returning_the_render(
    example_copy: Path,
) -> None:
    """``const setup = async () => { …; wrapper = mount(<Provider><Router>…); wrapper.update();
    return { wrapper: wrapper as ReactWrapper, history, store } }`` called as ``const { wrapper,
    history } = await setup()`` in every test, and a function returning the wrapper alone."""
    folder = add_component(example_copy, "orders")
    file = "src/components/Orders/OrderList.test.tsx"
    result = await migrate_offline(example_copy, file, write=True)
    assert result.status == "succeeded", result.reasons
    assert result.summary.tests_passing == result.summary.tests_total == 4
    assert result.lint_messages == [] == result.type_messages
    assert untranslated(result) == []
    content = result.content
    assert "ReactWrapper" not in content and ".update()" not in content
    # The tests destructure only what they still use; the setup returns the render result.
    assert "const { history } = await setup([{ id: 7, title: 'Chairs' }]);" in content
    assert "const { store } = await setup();" in content
    assert "return { wrapper: view, history, store };" in content
    # What the suite checked, it still checks.
    module = folder / "OrderList.tsx"
    assert await broken_tests(
        example_copy, file, module, "{ type: 'orders/refresh' }", "{ type: 'orders/reload' }"
    ) == ["OrderList asks for fresh orders"]
    assert await broken_tests(
        example_copy, file, module, "`/orders/${order.id}`", "`/order/${order.id}`"
    ) == ["OrderList opens an order"]
    assert await broken_tests(example_copy, file, module, "No orders yet", "Nothing here") == [
        "OrderList says when there are none"
    ]
