"""`layoutcheck prove` (placeholder until its issue lands)."""

HELP = "prove (not available yet)"


def add_arguments(parser):
    parser.add_argument("rest", nargs="*")


def run(args):
    raise NotImplementedError("layoutcheck prove is not implemented yet")
