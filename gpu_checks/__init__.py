"""layoutcheck.gpu_checks (being built)."""
