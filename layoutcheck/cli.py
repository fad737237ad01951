"""The ``layoutcheck`` command.  Each subcommand lives in ``layoutcheck/commands/NAME.py``
and provides ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.

Exit status: 0 success, 1 a check failed, 2 usage/input/environment error.  Bad input is
reported as one line on stderr, never as a traceback.
"""

import argparse
import importlib
import sys

from .errors import LayoutError

COMMANDS = ["demo", "show", "op", "examples", "fuzz", "prove", "gpu"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"layoutcheck: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser():
    parser = _Parser(prog="layoutcheck", description=__import__("layoutcheck").__doc__.splitlines()[0])
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = importlib.import_module(f"layoutcheck.commands.{name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except LayoutError as e:
        print(f"layoutcheck {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"layoutcheck {args.command}: interrupted", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as e:  # an internal error: one line, unless --debug
        if args.debug:
            raise
        print(f"layoutcheck {args.command}: internal error: {type(e).__name__}: {e} "
              "(rerun with --debug for the traceback)", file=sys.stderr)
        return 2
