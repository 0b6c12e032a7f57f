"""The language server face of testmend (``testmend serve``); see docs/lsp.md."""
