"""The campaign behind ``layoutcheck fuzz``: every selected check against every selected oracle,
in a time budget or a fixed number of cases (``runner``); one (check, oracle) pair across its
rounds (``pairs``); how the budget is shared (``budget``); batched oracles (``batched``);
steering away from known regions (``steer``); known findings (``recognise``); the report
(``report``); Dask clusters (``cluster``) and the example database (``exampledb``); where new
random choices come from (``provider``); a baseline each case is compared with (``baseline``);
re-running explicit cases (``replay``)."""

from layoutcheck.fuzz.campaign.replay import replay_cases, replay_report
from layoutcheck.fuzz.campaign.runner import run_campaign, run_check

__all__ = ["run_campaign", "run_check", "replay_report", "replay_cases"]
