"""`layoutcheck demo` (placeholder until its issue lands)."""

HELP = "demo (not available yet)"


def add_arguments(parser):
    parser.add_argument("rest", nargs="*")


def run(args):
    raise NotImplementedError("layoutcheck demo is not implemented yet")
