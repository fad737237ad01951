"""`layoutcheck fetch ORACLE@VERSION...`: download releases of an implementation into the cache.

``cute-cpp@3.8`` and ``pycute@3.8`` fetch the wheel ``nvidia-cutlass`` (its headers and pycute),
``cute-dsl@4.4.0`` installs ``nvidia-cutlass-dsl`` into a folder of its own; a range
(``cute-cpp@3.3..4.2``) fetches every release in it.  Nothing is installed into the
environment: the cache is ``$LAYOUTCHECK_CACHE`` (default ``~/.cache/layoutcheck``), under
``versions/``.  A versioned oracle fetches on first use; this command does it ahead of time,
where the package index is reachable (``oracles/fetch.py``).  ``--list`` shows the releases
and what is cached.  Exit 0 when every release is in the cache, 2 otherwise (one line).
"""

from layoutcheck.errors import LayoutError
from layoutcheck.oracles.fetch import DslTarget, cached, fetch
from layoutcheck.oracles.versions import ORACLE_PACKAGES, cache_root, releases

HELP = "download releases of CuTe C++, pycute or the CuTe DSL into the cache (cute-cpp@3.8, cute-dsl@4.4.0)"


def add_arguments(parser):
    parser.add_argument("specs", metavar="ORACLE@VERSION", nargs="*",
                        help="cute-cpp@3.8, pycute@3.5.1, cute-dsl@4.4.0, a range cute-cpp@3.3..4.2, "
                             "or @latest")
    parser.add_argument("--list", action="store_true",
                        help="list the releases of each package and what the cache holds")
    parser.add_argument("--refresh", action="store_true",
                        help="with --list: read the release lists from the package index again")


def run(args):
    if args.list:
        for package in dict.fromkeys(ORACLE_PACKAGES.values()):
            known = releases(package, refresh=args.refresh)
            print(f"{package} ({known.source}): {' '.join(known.versions)}")
        print(f"cache: {cache_root()}")
        for package, version, size in cached():
            print(f"  {package} {version}: {size / 1e6:.1f} MB")
        return 0
    if not args.specs:
        raise LayoutError("name what to fetch, e.g. layoutcheck fetch cute-cpp@3.8 (or --list)")
    for text in args.specs:
        for got in fetch(text):
            where = got.package_dir if isinstance(got, DslTarget) else (
                got.pycute_path / "pycute" if text.startswith("pycute") else got.include_dir)
            print(f"{text.split('@')[0]}@{got.version}: {where}")
    return 0
