"""The checks the fuzzer runs: ``catalogue`` (every check, by name), ``base`` (what a check is
made of), and one module per concept: ``algebra``, ``coordinates``, ``swizzle``; ``targets``
(how checks reach oracles) and ``bounds`` (bounded evaluation)."""
