"""layoutcheck.impl (being built)."""
