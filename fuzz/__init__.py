"""layoutcheck.fuzz: hypothesis strategies (public: ``layoutcheck.fuzz.strategies.layouts``), the
differential and algebraic checks (``properties``), the campaign runner behind
``layoutcheck fuzz`` (``run_campaign``), the pytest plugin and the mutation test.

Kept light: the pytest plugin imports this package on every pytest run.
"""

__all__ = ["run_campaign", "replay_report", "CHECKS"]


def __getattr__(name):
    if name in ("run_campaign", "replay_report"):
        import layoutcheck.fuzz.campaign.runner as campaign
        return getattr(campaign, name)
    if name == "CHECKS":
        from layoutcheck.fuzz.checks.algebra import CHECKS
        return CHECKS
    raise AttributeError(name)
