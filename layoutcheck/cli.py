"""The ``layoutcheck`` command.  Each subcommand lives in ``layoutcheck/commands/NAME.py``
and provides ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.

Exit status: 0 success, 1 a check failed, 2 usage/input/environment error.  Bad input is
reported as one line on stderr (a usage error of a subcommand also prints that
subcommand's usage), never as a traceback.  ``--debug`` prints the traceback of an
internal error, which still exits 2: exit 1 means "a check failed" only.  Nothing a command
does (a ``SystemExit`` or ``KeyboardInterrupt`` from deep inside, a closed stdout) turns
into exit 0.
"""

import argparse
import importlib
import os
import sys
import traceback

import layoutcheck
from layoutcheck.errors import LayoutError
from layoutcheck.fuzz.checks.bounds import eval_limit
from layoutcheck.oracles import isolation
from layoutcheck.oracles.cpp.toolchain import compile_timeout
from layoutcheck.spec.limits import enumeration_limit

COMMANDS = ["demo", "show", "op", "examples", "fuzz", "prove", "gpu", "report", "fetch", "matrix", "bisect"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def shadowed_package():
    """A one-line explanation when ``import layoutcheck`` found a folder named layoutcheck
    that is not this package (e.g. Python started in the clone's parent folder, whose
    ``layoutcheck/`` checkout is then an empty namespace package); None when all is well."""
    pkg = sys.modules.get("layoutcheck")
    if pkg is not None and getattr(pkg, "__file__", None) is None:
        where = ", ".join(getattr(pkg, "__path__", [])) or "?"
        return (f"layoutcheck: 'import layoutcheck' found the folder {where}, not the installed "
                "package (a folder named layoutcheck in the current directory shadows it); run "
                "from another directory or use .venv/bin/layoutcheck")
    return None


def build_parser():
    doc = (layoutcheck.__doc__ or "layoutcheck").strip().splitlines()[0]
    parser = _Parser(prog="layoutcheck", description=doc)
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    parser._commands = {}
    for name in COMMANDS:
        module = importlib.import_module(f"layoutcheck.commands.{name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
        parser._commands[name] = p
    return parser


def main(argv=None):
    why = shadowed_package()
    if why:
        print(why, file=sys.stderr)
        return 2
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if not getattr(args, "_run", None):
        parser.error(f"unrecognized arguments: {' '.join(extra)}" if extra else
                     f"a COMMAND is required: {', '.join(COMMANDS)} (layoutcheck -h)")
    if extra:  # the subcommand's own usage, not the top level's
        parser._commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    name = f"layoutcheck {args.command}"
    try:
        check_environment()
        status = args._run(args)
    except LayoutError as e:
        print(f"{name}: {_one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _quiet_stdout()
        print(f"{name}: output closed before the end (broken pipe)", file=sys.stderr)
        return 2
    except SystemExit as e:  # raised inside a command: never a silent success
        print(f"{name}: internal error: SystemExit({e.code!r}) inside the command", file=sys.stderr)
        return 2
    except RecursionError:
        print(f"{name}: internal error: RecursionError (input nested too deeply?)", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{name}: out of memory", file=sys.stderr)
        return 2
    except Exception as e:  # an internal error: one line, or the traceback with --debug
        if args.debug:
            traceback.print_exc()
        else:
            print(f"{name}: internal error: {type(e).__name__}: {_one_line(e)} "
                  "(rerun with --debug for the traceback)", file=sys.stderr)
        return 2
    if not isinstance(status, int) or isinstance(status, bool) or status not in (0, 1, 2):
        print(f"{name}: internal error: the command returned {status!r}", file=sys.stderr)
        return 2
    return status


def check_environment():
    """The LAYOUTCHECK_* settings every command may use, checked up front (LayoutError)."""
    enumeration_limit()
    eval_limit()
    isolation.IsolatedOracle("check", None)  # reads the timeout / start / memory settings
    compile_timeout()


def _one_line(e):
    text = " ".join(str(e).split())
    return text if len(text) <= 2000 else text[:1997] + "..."


def _quiet_stdout():
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush
    cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
