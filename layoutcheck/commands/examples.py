"""`layoutcheck examples` (placeholder until its issue lands)."""

HELP = "examples (not available yet)"


def add_arguments(parser):
    parser.add_argument("rest", nargs="*")


def run(args):
    raise NotImplementedError("layoutcheck examples is not implemented yet")
