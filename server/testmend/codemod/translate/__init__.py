"""The parts of the Enzyme → RTL converter (``codemod.convert``), one concern per module. Each
is a class built on the one below it, so a part calls only itself and the parts below:

1. ``state.py`` — the parsed file, edits and notes so far (``ConverterState``)
2. ``imports.py`` — Enzyme imports, the project's helpers, other imports, tests (``ImportScanner``)
3. ``scan.py`` — render calls, wrapper bindings, refs to class instances (``Scanner``)
4. ``chains.py`` — ``base.find(a).at(1).text()`` read into a base and operations (``Chains``)
5. ``captured.py`` — the DOM capture's verified queries for a selection (``CapturedQueries``)
6. ``targets.py`` — selectors and chains → targets, and the code that reads them (``Targets``)
7. ``recording.py`` — recording stubs for children's props (``Recordings``)
8. ``rerender.py`` — ``setProps`` → ``rerender`` (``Rerenders``)
9. ``interactions.py`` — ``simulate``, class internals, helpers taking a wrapper (``Interactions``)
10. ``assertions.py`` — ``expect(…)`` on wrappers (``Assertions``)
11. ``statements.py`` — the walk over statements (``Statements``)
12. ``finishing.py`` — unused bindings, wrapper types, the imports (``Finishing``)

Beside the chain: ``tables.py`` (Enzyme's methods, events, roles: data) and
``helper_modules.py`` (selection helpers the tests' own modules export).
"""
