"""`layoutcheck op` (placeholder until its issue lands)."""

HELP = "op (not available yet)"


def add_arguments(parser):
    parser.add_argument("rest", nargs="*")


def run(args):
    raise NotImplementedError("layoutcheck op is not implemented yet")
