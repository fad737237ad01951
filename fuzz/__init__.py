"""The fuzzer: ``strategies`` (public hypothesis strategies of CuTe values), ``checks`` (the
differential checks and algebraic laws), ``campaign`` (the gate behind ``layoutcheck fuzz``:
budgets, batched oracles, steering, shrinking, reports, Dask and Redis), ``mutation`` (the
mutation tables that measure the gate) and ``pytest_plugin``."""
