"""layoutcheck.oracles (being built)."""
