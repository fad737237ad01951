"""Where a campaign keeps its failures between runs: the example database.

``open_store(spec)`` gives a store with ``load(pairs)`` (the stored cases, each an entry
``{"check", "oracle", "inputs"}``, inputs in CuTe notation) and ``commit(loaded, results)``
(after a run: a pair that ran forgets the stored cases it did not fail on again, and its new
failures are stored).  The spec is one of:

- ``None`` or a file path: the working directory's JSON file (``.layoutcheck/failures.json``,
  as in a single process);
- ``redis://HOST:PORT/N``: hypothesis' ``RedisExampleDatabase`` on a real Redis server, so
  every worker and machine that names the same server replays the same failures first (a
  unit of a cluster run opens the server itself, replays what other units stored, and stores
  its own failures when it ends);
- a store object (``ReplayStore``: a cluster unit's read-only copy of the driver's entries).

Each (check, oracle) pair is one key of the hypothesis database (``v1:CHECK/ORACLE``; in
Redis prefixed by ``KEY_PREFIX``), each stored case one value (the inputs as a JSON list).  Keys expire after
``EXPIRE`` without a run that reads them (hypothesis' rule, refreshed on every fetch).
"""

import json
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from layoutcheck.errors import LayoutError

__all__ = ["open_store", "JsonStore", "ExampleDbStore", "ReplayStore", "redis_store",
           "parse_redis_url", "new_failures", "KEY_PREFIX", "EXPIRE"]


DB_PATH = Path(".layoutcheck") / "failures.json"


def load_db(path=DB_PATH):
    try:
        with open(path) as f:
            return json.load(f).get("entries", [])
    except (OSError, ValueError):
        return []


def save_db(entries, path=DB_PATH):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    seen, out = set(), []
    for e in entries:
        key = (e["check"], e["oracle"], tuple(e["inputs"]))
        if key not in seen:
            seen.add(key)
            out.append(e)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"version": 1, "entries": out}, indent=1))
    os.replace(tmp, path)


KEY_PREFIX = b"layoutcheck:"  # the Redis key of a pair: KEY_PREFIX + b"v1:CHECK/ORACLE"
EXPIRE = timedelta(days=30)
CONNECT_TIMEOUT_S = 5


def new_failures(results):
    """The entries a run stores: each pair's new (not known) failure with its counterexample."""
    return [{"check": r["check"], "oracle": r["oracle"], "inputs": list(r["counterexample"])}
            for r in results if r["status"] in ("fail", "error") and r["counterexample"]
            and not r["known_finding"]]


def _ran(results):
    return {(r["check"], r["oracle"]) for r in results if r["status"] != "skipped"}


class JsonStore:
    """The JSON file of ``layoutcheck.fuzz.campaign.runner`` (``load_db`` / ``save_db``)."""

    def __init__(self, path=None):

        self.path = Path(path) if path else DB_PATH

    def describe(self):
        return str(self.path)

    def load(self, pairs=None):
        return load_db(self.path)   # every entry: those of pairs not run are kept by commit

    def commit(self, loaded, results):
        ran = _ran(results)
        keep = [e for e in loaded if (e["check"], e["oracle"]) not in ran] + new_failures(results)
        if keep or self.path.exists():
            save_db(keep, self.path)


class ReplayStore:
    """A fixed list of entries to replay and nothing stored (a cluster unit of a run whose
    database the driver keeps)."""

    def __init__(self, entries=()):
        self.entries = [dict(e) for e in entries]

    def describe(self):
        return f"{len(self.entries)} stored case(s) sent by the driver"

    def load(self, pairs=None):
        want = None if pairs is None else set(pairs)
        return [e for e in self.entries if want is None or (e["check"], e["oracle"]) in want]

    def commit(self, loaded, results):
        return None


def _key(check, oracle):
    return f"v1:{check}/{oracle}".encode()


def _value(inputs):
    return json.dumps(list(inputs), separators=(",", ":")).encode()


class ExampleDbStore:
    """Entries in a hypothesis ``ExampleDatabase`` (``fetch`` / ``save`` / ``delete``)."""

    def __init__(self, db, label, url=None):
        self.db, self.label, self.url = db, label, url

    def describe(self):
        return self.label

    def load(self, pairs):
        out = []
        for check, oracle in pairs:
            for raw in sorted(self.db.fetch(_key(check, oracle))):
                try:
                    inputs = json.loads(raw.decode())
                except (UnicodeDecodeError, ValueError):
                    continue  # not ours: another writer's value under this key
                if isinstance(inputs, list) and all(isinstance(x, str) for x in inputs):
                    out.append({"check": check, "oracle": oracle, "inputs": inputs})
        return out

    def save(self, entries):
        for e in entries:
            self.db.save(_key(e["check"], e["oracle"]), _value(e["inputs"]))

    def commit(self, loaded, results):
        ran, fresh = _ran(results), new_failures(results)
        keep = {(e["check"], e["oracle"], _value(e["inputs"])) for e in fresh}
        for e in loaded:
            pair = (e["check"], e["oracle"])
            if pair in ran and (*pair, _value(e["inputs"])) not in keep:
                self.db.delete(_key(*pair), _value(e["inputs"]))
        self.save(fresh)


def parse_redis_url(url):
    """(host, port, db index) of ``redis://HOST:PORT/N``; LayoutError otherwise."""
    parts = urlsplit(url)
    shown = redacted(url)
    if parts.scheme not in ("redis", "rediss"):
        raise LayoutError(f"--db {shown}: expected redis://HOST:PORT/N or a file path")
    try:
        port = parts.port or 6379
    except ValueError:
        raise LayoutError(f"--db {shown}: the port is not a number in 1..65535") from None
    if not parts.hostname:
        raise LayoutError(f"--db {shown}: no host (expected redis://HOST:PORT/N)")
    path = parts.path.strip("/") or "0"
    if not path.isdigit() or int(path) > 1 << 20:
        raise LayoutError(f"--db {shown}: the database number {path!r} is not an integer >= 0")
    if parts.query or parts.fragment:
        raise LayoutError(f"--db {shown}: options after ? or # are not supported")
    return parts.hostname, port, int(path)


def redacted(url):
    """The URL without its password (for messages)."""
    parts = urlsplit(str(url))
    if parts.password is None:
        return str(url)
    netloc = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{parts.username or ''}:***@{netloc}").geturl()


def redis_store(url):
    """An ``ExampleDbStore`` over ``RedisExampleDatabase`` at ``url``, after a ping (a server
    that does not answer is one LayoutError line, before any work)."""
    host, port, index = parse_redis_url(url)
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError as e:
        raise LayoutError(f"--db {redacted(url)} needs the redis package (pip install "
                          f"'layoutcheck[cluster]'): {e}") from None
    client = redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT_S,
                                  socket_timeout=60)
    try:
        client.ping()
    except redis.RedisError as e:
        raise LayoutError(f"--db {redacted(url)}: Redis at {host}:{port} does not answer: "
                          f"{' '.join(str(e).split())[:200]}") from None
    db = RedisExampleDatabase(client, expire_after=EXPIRE, key_prefix=KEY_PREFIX)
    return ExampleDbStore(db, f"redis://{host}:{port}/{index}", url=url)


def is_redis(spec):
    return isinstance(spec, str) and spec.split(":", 1)[0] in ("redis", "rediss")


def open_store(spec=None):
    """The store named by ``spec`` (see the module docstring)."""
    if hasattr(spec, "load") and hasattr(spec, "commit"):
        return spec
    if is_redis(spec):
        return redis_store(spec)
    return JsonStore(spec)
