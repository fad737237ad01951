"""`layoutcheck show` (placeholder until its issue lands)."""

HELP = "show (not available yet)"


def add_arguments(parser):
    parser.add_argument("rest", nargs="*")


def run(args):
    raise NotImplementedError("layoutcheck show is not implemented yet")
