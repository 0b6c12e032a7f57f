"""The MCP face: testmend's engine for agentic IDEs (VS Code, Claude Code, Cursor), as tools an
agent calls by name. Like ``cli/`` and ``lsp/`` it translates and decides nothing: the runs, the
checks and the acceptance policy are the engine's. See docs/mcp.md."""
