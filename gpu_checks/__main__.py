"""``python -m layoutcheck.gpu_checks [options]``: the same as ``layoutcheck gpu``, without
importing the other subcommands (the device script runs it where z3 etc. are absent)."""

import argparse
import sys

from layoutcheck.commands import gpu
from layoutcheck.errors import LayoutError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m layoutcheck.gpu_checks", description=gpu.HELP)
    gpu.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return gpu.run(args)
    except LayoutError as e:
        print(f"layoutcheck gpu: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
