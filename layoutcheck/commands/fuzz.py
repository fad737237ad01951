"""`layoutcheck fuzz` (placeholder until its issue lands)."""

HELP = "fuzz (not available yet)"


def add_arguments(parser):
    parser.add_argument("rest", nargs="*")


def run(args):
    raise NotImplementedError("layoutcheck fuzz is not implemented yet")
