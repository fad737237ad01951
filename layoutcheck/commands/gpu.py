"""`layoutcheck gpu` (placeholder until its issue lands)."""

HELP = "gpu (not available yet)"


def add_arguments(parser):
    parser.add_argument("rest", nargs="*")


def run(args):
    raise NotImplementedError("layoutcheck gpu is not implemented yet")
