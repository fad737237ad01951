"""layoutcheck.proofs (being built)."""
