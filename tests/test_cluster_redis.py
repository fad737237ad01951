"""The example database on a real Redis server: hypothesis' RedisExampleDatabase
shared by every worker of a Dask cluster and by a run in another folder ("another machine"),
so a failure found by one is replayed first by the others.  The server is a real
``redis-server`` started on a loopback port by the test (skips with the reason if none)."""

import json

import layoutcheck.fuzz.campaign.runner as C
import pytest
from cluster_support import COALESCE_BUG as BROKEN
from cluster_support import redis_binary, redis_server
from layoutcheck.fuzz.campaign.exampledb import KEY_PREFIX, open_store, parse_redis_url

from layoutcheck.errors import LayoutError

redis = pytest.importorskip("redis", reason="the redis client is not installed "
                            "(pip install 'layoutcheck[cluster]')")
BINARY, WHY = redis_binary()
pytestmark = pytest.mark.skipif(BINARY is None, reason=str(WHY))

ORACLE = "module:lc_redis_broken"
CHECK = "law.coalesce.function"


@pytest.fixture(scope="module")
def server():
    with redis_server() as url:
        yield url


@pytest.fixture
def oracle(tmp_path, monkeypatch):
    folder = tmp_path / "oracle"
    folder.mkdir()
    (folder / "lc_redis_broken.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(folder))
    from layoutcheck.oracles import get_oracle
    why = get_oracle("pycute").unavailable_reason()
    if why:
        pytest.skip(f"the broken oracle is a patched pycute: {why}")
    return ORACLE


def _row(report):
    return next(r for r in report["results"] if r["check"] == CHECK)


def _client(url):
    host, port, index = parse_redis_url(url)
    return redis.Redis(host=host, port=port, db=index)


def test_the_store_keeps_sets_of_cases_per_pair(server):
    client = _client(server)
    client.flushdb()
    store = open_store(server)
    a = {"check": "law.x", "oracle": "o", "inputs": ["(2,2):(1,2)"]}
    b = {"check": "law.x", "oracle": "o", "inputs": ["4:1", "2:1"]}
    store.save([a, b, a])
    assert sorted(map(json.dumps, store.load([("law.x", "o")]))) == sorted(map(json.dumps, [a, b]))
    assert client.keys(KEY_PREFIX + b"*") == [KEY_PREFIX + b"v1:law.x/o"]
    passed = {"check": "law.x", "oracle": "o", "status": "pass", "counterexample": None,
              "known_finding": None}
    store.commit(store.load([("law.x", "o")]), [passed])  # it ran and no longer fails
    assert store.load([("law.x", "o")]) == []


def test_a_bad_or_silent_server_is_one_layout_error(server):
    with pytest.raises(LayoutError, match="does not answer"):
        open_store("redis://127.0.0.1:1/0")
    for bad in ("redis://h:99999/0", "redis://:6379/0", "redis://h:1/x", "redis://h:1/0?a=1"):
        with pytest.raises(LayoutError, match="--db"):
            parse_redis_url(bad)


def test_a_failure_found_on_one_cluster_is_replayed_first_everywhere(server, oracle, tmp_path,
                                                                    monkeypatch):
    client = _client(server)
    client.flushdb()
    machine_a, machine_b = tmp_path / "a", tmp_path / "b"
    machine_a.mkdir()
    machine_b.mkdir()
    run = dict(oracles=[oracle], checks=[CHECK, "diff.size"], max_examples=40, db_path=server)

    monkeypatch.chdir(machine_a)  # a 2-worker cluster finds the bug and stores it in Redis
    first = C.run_campaign(cluster="local:2", seed=11, **run)
    row = _row(first)
    assert row["check"] == CHECK and row["status"] == "fail" and not row["known_finding"]
    stored = client.smembers(KEY_PREFIX + f"v1:{CHECK}/{oracle}".encode())
    assert json.dumps(row["counterexample"], separators=(",", ":")).encode() in stored
    assert not (machine_a / ".layoutcheck").exists()  # Redis, not the local file

    monkeypatch.chdir(machine_b)  # elsewhere, another seed: every worker replays it first
    second = C.run_campaign(cluster="local:2", seed=99, **run)
    again = _row(second)
    assert again["status"] == "fail" and again["counterexample"] == row["counterexample"]
    assert again["cases"] == second["cluster"]["shards"]  # one replayed case per unit, no fuzzing
    assert again["rounds"] == 0  # no unit started a hypothesis run on this pair

    third = C.run_campaign(seed=5, **run)  # a run in one process reads the same database
    assert _row(third)["cases"] == 1 and _row(third)["counterexample"] == row["counterexample"]
    assert _row(third)["rounds"] == 0


def test_cli_with_a_redis_database(server, oracle, tmp_path, monkeypatch, capsys):
    from layoutcheck.cli import main
    _client(server).flushdb()
    monkeypatch.chdir(tmp_path)
    argv = ["fuzz", "--against", oracle, "--checks", CHECK, "--max-examples", "30",
            "--db", server, "--report", "r.json"]
    assert main(argv) == 1
    first = json.loads((tmp_path / "r.json").read_text())["results"][0]
    assert main(argv + ["--seed", "7"]) == 1
    second = json.loads((tmp_path / "r.json").read_text())["results"][0]
    assert second["cases"] == 1 and second["counterexample"] == first["counterexample"]
    assert second["rounds"] == 0
    capsys.readouterr()
