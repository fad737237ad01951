"""layoutcheck.fuzz (being built)."""
