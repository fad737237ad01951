"""The paper's numbered examples (sections 2.1.4-2.3 and 4 of arXiv 2601.05972) as checks.

Section 4.1.5 has one unnumbered worked example; it is listed as "4.1.5".  Example
2.3.8.9 is left out: its inputs lost their strides in the available text.

Each entry holds the example's number, the operation with its inputs, the value the paper
prints (transcribed, never adjusted), and a function computing it with the spec.
``run_examples()`` compares them.  A disagreement is recorded in the findings register
(``layoutcheck/findings.toml``, oracle "paper", op "examples", check = the number), with
the brute-force evidence; the expected value here stays the paper's.

Values are compared as text after removing spaces and CuTe's static marks (the paper does
not mark static integers): layouts in CuTe notation, nested tuples as ``(2,(3,4))``,
predicates as ``True``/``False``, profiles with ``*``.  Paper notation ``L_P`` pairs with
commas are written here in CuTe's ``S:D``.
"""

from dataclasses import dataclass
from typing import Callable

from layoutcheck.spec import algebra as A
from layoutcheck.spec import division as DV
from layoutcheck.spec import flat as F
from layoutcheck.spec import nested as N
from layoutcheck.spec import tuples as T
from layoutcheck.spec.layout import parse, values

from layoutcheck.errors import LayoutError
from layoutcheck.findings import paper_finding
from layoutcheck.layout import LayoutBase

__all__ = ["Example", "EXAMPLES", "run_examples", "format_value"]


@dataclass(frozen=True)
class Example:
    number: str
    op: str
    paper: str
    compute: Callable[[], object]


def format_value(v):
    """The comparable text of a computed value (see the module docstring)."""
    if isinstance(v, LayoutBase):
        text = str(v)
    elif isinstance(v, bool):
        text = str(v)
    elif isinstance(v, (tuple, list)) and not isinstance(v, str):
        inner = ",".join(format_value(x) for x in v)
        text = f"[{inner}]" if isinstance(v, list) else f"({inner})"
    else:
        text = str(v)
    return text.replace("_", "").replace(" ", "")


def _norm(text):
    return text.replace(" ", "").replace("_", "")


P = parse
EXAMPLES = []


def ex(number, op, paper, compute):
    EXAMPLES.append(Example(number, op, paper, compute))


def _rldp(X):
    """(rank, len, depth) of a profile or nested tuple, as in 2.2.1.4."""
    return (T.rank(X), T.length(X), T.depth(X))


# --- 2.1.4 flat coalesce --------------------------------------------------------------
ex("2.1.4.2", "is_flat_coalesced((3,5,2):(7,21,4))", "False",
   lambda: F.is_flat_coalesced(P("(3,5,2):(7,21,4)")))
ex("2.1.4.3", "is_flat_coalesced((2,7,6):(1,3,10))", "True",
   lambda: F.is_flat_coalesced(P("(2,7,6):(1,3,10)")))
ex("2.1.4.4", "is_flat_coalesced(():())", "True", lambda: F.is_flat_coalesced(P("():()")))
ex("2.1.4.11", "flat_coalesce((2,2,2,2,2):(8,16,1024,2048,4096))", "(4,8):(8,1024)",
   lambda: F.flat_coalesce(P("(2,2,2,2,2):(8,16,1024,2048,4096)")))
ex("2.1.4.12", "flat_coalesce((3,4,1,5):(1,8,3,32))", "(3,20):(1,8)",
   lambda: F.flat_coalesce(P("(3,4,1,5):(1,8,3,32)")))

# --- 2.1.5 compact --------------------------------------------------------------------
ex("2.1.5.2", "is_flat_compact((2,2,2,2):(1,2,4,8))", "True",
   lambda: F.is_flat_compact(P("(2,2,2,2):(1,2,4,8)")))
ex("2.1.5.3", "is_flat_compact((3,64,32):(2048,32,1))", "True",
   lambda: F.is_flat_compact(P("(3,64,32):(2048,32,1)")))
ex("2.1.5.4", "is_flat_compact(():())", "True", lambda: F.is_flat_compact(P("():()")))

# --- 2.1.6 complements ----------------------------------------------------------------
ex("2.1.6.2", "is_disjoint((3):(5), (5):(1))", "True",
   lambda: F.is_disjoint(P("(3):(5)"), P("(5):(1)")))
ex("2.1.6.3", "is_disjoint((4,2,10):(1400,2,20), (2,5,7,2):(1,4,200,5600))", "True",
   lambda: F.is_disjoint(P("(4,2,10):(1400,2,20)"), P("(2,5,7,2):(1,4,200,5600)")))
ex("2.1.6.7", "[injective, complementable] of (2,2):(1,3)", "[True,False]",
   lambda: [len(set(values(P("(2,2):(1,3)")))) == 4,
            F.is_flat_complementable(P("(2,2):(1,3)"))])
ex("2.1.6.8", "[is_disjoint((8,8):(2,32), B_k)], B = (2,2):(1,16), (2,2):(16,1), "
   "(5,2,2,1):(256,1,16,0)", "[True,True,True]",
   lambda: [F.is_disjoint(P("(8,8):(2,32)"), P(b))
            for b in ("(2,2):(1,16)", "(2,2):(16,1)", "(5,2,2,1):(256,1,16,0)")])
ex("2.1.6.12", "[is_flat_complementable((4,1,1,4,4):(64,0,0,1,8)), "
   "is_flat_complementable((4,4,4):(64,1,1))]", "[True,False]",
   lambda: [F.is_flat_complementable(P("(4,1,1,4,4):(64,0,0,1,8)")),
            F.is_flat_complementable(P("(4,4,4):(64,1,1)"))])
ex("2.1.6.13", "[is_flat_complementable((10,2):(4,80)), is_flat_complementable((10,2):(80,4))]",
   "[True,False]", lambda: [F.is_flat_complementable(P("(10,2):(4,80)")),
                            F.is_flat_complementable(P("(10,2):(80,4)"))])
ex("2.1.6.17", "flat_complement((8,8):(1,8))", "():()",
   lambda: F.flat_complement(P("(8,8):(1,8)")))
ex("2.1.6.18", "flat_complement((2,2):(2,8))", "(2,2):(1,4)",
   lambda: F.flat_complement(P("(2,2):(2,8)")))
ex("2.1.6.19", "flat_complement((3,3,8):(16,96,1))", "(2,2):(8,48)",
   lambda: F.flat_complement(P("(3,3,8):(16,96,1)")))
ex("2.1.6.27", "[is_N_complement((2,2):(1,50), B, 100)], B = (25):(2), (5,5):(2,10)",
   "[True,True]", lambda: [F.is_N_complement(P("(2,2):(1,50)"), P(b), 100)
                           for b in ("(25):(2)", "(5,5):(2,10)")])
ex("2.1.6.28", "[is_N_complement((4):(63), B, 252)], B = (7,9):(1,7), (9,7):(7,1)",
   "[True,True]", lambda: [F.is_N_complement(P("(4):(63)"), P(b), 252)
                           for b in ("(7,9):(1,7)", "(9,7):(7,1)")])
ex("2.1.6.30", "flat_complement((3,10):(80,4), 2400)", "(4,2,10):(1,40,240)",
   lambda: F.flat_complement(P("(3,10):(80,4)"), 2400))

# --- 2.1.7 flat composition, division, product (paper's B∘A = flat_composition(B, A)) --
ex("2.1.7.3", "flat_composition((80):(10), (2,3):(5,6))", "(2,3):(50,60)",
   lambda: F.flat_composition(P("(80):(10)"), P("(2,3):(5,6)")))
ex("2.1.7.4", "flat_composition((64,32):(1,64), (128,128):(0,0))", "(128,128):(0,0)",
   lambda: F.flat_composition(P("(64,32):(1,64)"), P("(128,128):(0,0)")))
ex("2.1.7.5", "flat_composition((2048,2048):(1,2048), (64,32):(2,256))", "(64,32):(2,256)",
   lambda: F.flat_composition(P("(2048,2048):(1,2048)"), P("(64,32):(2,256)")))
ex("2.1.7.6", "is_flat_composable((2,2,6):(12,6,1), (4):(2))", "False",
   lambda: F.is_flat_composable(P("(2,2,6):(12,6,1)"), P("(4):(2)")))
ex("2.1.7.10", "flat_divide_paper((2,2,2,2):(1,4,2,8), (2,2):(4,2))", "(2,2,2,2):(4,2,1,8)",
   lambda: DV.flat_divide_paper(P("(2,2,2,2):(1,4,2,8)"), P("(2,2):(4,2)")))
ex("2.1.7.11", "flat_divide_paper((3,5,9,6):(54,0,6,1), (6,3):(135,1))", "(6,3,5,9):(1,54,0,6)",
   lambda: DV.flat_divide_paper(P("(3,5,9,6):(54,0,6,1)"), P("(6,3):(135,1)")))
ex("2.1.7.14", "flat_product_paper((2,2,2):(1,2,4), (2,2,2):(1,2,4))",
   "(2,2,2,2,2,2):(1,2,4,8,16,32)",
   lambda: DV.flat_product_paper(P("(2,2,2):(1,2,4)"), P("(2,2,2):(1,2,4)")))
ex("2.1.7.15", "flat_product_paper((2,2,2):(1,2,4), (3,5):(5,1))", "(2,2,2,3,5):(1,2,4,40,8)",
   lambda: DV.flat_product_paper(P("(2,2,2):(1,2,4)"), P("(3,5):(5,1)")))

# --- 2.1.8 tractable flat layouts ---------------------------------------------------------
for _n, _l, _v in [("2.1.8.2", "(12):(17)", "True"), ("2.1.8.3", "(2,4,32):(1,2,8)", "True"),
                   ("2.1.8.4", "(2,4,32):(128,32,1)", "True"),
                   ("2.1.8.5", "(3,3,1,3,3,1,3):(81,1,0,9,3,0,27)", "True"),
                   ("2.1.8.6", "(3,7,7):(0,15,0)", "True"),
                   ("2.1.8.7", "(2,2,2,2):(1,2048,16,64)", "True"),
                   ("2.1.8.9", "(4,8):(3,3)", "False")]:
    ex(_n, f"is_flat_tractable({_l})", _v, (lambda l=_l: F.is_flat_tractable(P(l))))

# --- 2.2 nested tuples ------------------------------------------------------------------
ex("2.2.1.4", "[(rank, len, depth)] of *, (*,*,*), (((*,*),*,*),*,*), (((),()),(*,(*,*)))",
   "[(1,1,0),(3,3,1),(3,6,3),(2,3,3)]",
   lambda: [_rldp(x) for x in ("*", ("*",) * 3, ((("*", "*"), "*", "*"), "*", "*"),
                               (((), ()), ("*", ("*", "*"))))])
ex("2.2.1.6", "modes of ((*,*),(()),(*,(*,*)))", "[(*,*),(()),(*,(*,*))]",
   lambda: [N.as_profile(T.mode(((1, 1), ((),), (1, (1, 1))), i)) for i in range(3)])
ex("2.2.1.9", "substitute([(*,*), (*,*,*)], (*,*))", "((*,*),(*,*,*))",
   lambda: N.as_profile(N.substitute([(1, 1), (1, 1, 1)], ("*", "*"))))
ex("2.2.2.2", "flattening and profile of (2,(2,2)), 25, (((2,2,2),8),64), ((),(32,()),(4,8))",
   "[(2,2,2),(*,(*,*)),(25),*,(2,2,2,8,26),(((*,*,*),*),*),(32,4,8),((),(*,()),(*,*))]",
   lambda: [y for x in ((2, (2, 2)), 25, (((2, 2, 2), 8), 64), ((), (32, ()), (4, 8)))
            for y in (T.flatten(x), N.as_profile(x))])
ex("2.2.2.7", "[(rank, len, depth, size)] of 27, (2,10,5), (((3,4),2,2),8,9), "
   "(((),()),(2,(5,5)))", "[(1,1,0,27),(3,3,1,100),(3,6,3,3096),(2,3,3,50)]",
   lambda: [_rldp(x) + (T.size(x),) for x in (27, (2, 10, 5), (((3, 4), 2, 2), 8, 9),
                                              (((), ()), (2, (5, 5))))])
ex("2.2.2.11", "modes of ((3),4,((10,10),12))", "[(3),4,((10,10),12)]",
   lambda: [T.mode(((3,), 4, ((10, 10), 12)), i) for i in range(3)])
ex("2.2.2.12", "modes of (32,5,6,64)", "[32,5,6,64]",
   lambda: [T.mode((32, 5, 6, 64), i) for i in range(4)])
ex("2.2.2.15", "entries of ((3),4,((10,10),12))", "(3,4,10,10,12)",
   lambda: N.entries(((3,), 4, ((10, 10), 12))))
ex("2.2.2.16", "entries of (32,5,6,64)", "(32,5,6,4)", lambda: N.entries((32, 5, 6, 64)))
ex("2.2.2.20", "is_congruent on the seven pairs", "[True,True,True,True,False,False,False]",
   lambda: [N.is_congruent(a, b) for a, b in [
       (27, 100), ((2, 2), (8, 64)), (((4, 8), (4, 8)), ((1, 1), (5, 10))),
       (((64, (8, 8)), (25, (5, 5))), ((2, (3, 5)), (7, (11, 13)))), (27, (100,)),
       ((2, 2), (8, 64, 128)), (((4, 8), (4, 8)), (((1, 1), (5, 10)),))]])
ex("2.2.3.2", "substitute([64,16,4], (*,(*,*)))", "(64,(32,4))",
   lambda: N.substitute([64, 16, 4], ("*", ("*", "*"))))
ex("2.2.3.3", "substitute([(2,2),(3,3),(5,5),(7,7)], ((*,*),(*,*)))",
   "(((2,2),(3,3)),((5,5),(7,7)))",
   lambda: N.substitute([(2, 2), (3, 3), (5, 5), (7, 7)], (("*", "*"), ("*", "*"))))
ex("2.2.3.4", "substitute([(12)], *)", "(12)", lambda: N.substitute([(12,)], "*"))
ex("2.2.3.5", "substitute([2,2,(5,5)], (*,*,*))", "(2,2,(5,5))",
   lambda: N.substitute([2, 2, (5, 5)], ("*", "*", "*")))
ex("2.2.4.3", "refines on the four pairs", "[True,True,True,True]",
   lambda: [N.refines(a, b) for a, b in [
       ((2, (2, 2)), 8), (((2, 2), (3, 3), (5, 5)), (4, 9, 25)), ((64,), 64),
       ((8, ((2, 2, 2), ((1, 4), (2, 2)))), (8, (8, 8)))]])
ex("2.2.4.6", "relative_modes(((( 2,2),(3,3)),(25,(6,(2,3)))), ((4,9),(25,36)))",
   "((2,2),(3,3),25,(6,(2,3)))",
   lambda: N.relative_modes((((2, 2), (3, 3)), (25, (6, (2, 3)))), ((4, 9), (25, 36))))
ex("2.2.4.12", "relative_flatten((((2,2),(3,3)),((5,5),(7,7))), ((4,9),(25,49)))",
   "((2,2),(3,3),(5,5),(7,7))",
   lambda: N.relative_flatten((((2, 2), (3, 3)), ((5, 5), (7, 7))), ((4, 9), (25, 49))))

# --- 2.3.1-2.3.2 layouts ------------------------------------------------------------------
def _attrs(text):
    L = P(text)
    return (T.rank(L.shape), T.length(L.shape), T.depth(L.shape), T.size(L.shape),
            N.as_profile(L.shape))


ex("2.3.1.5", "(rank, len, depth, size, prof) of 10:4", "(1,1,0,10,*)", lambda: _attrs("10:4"))
ex("2.3.1.6", "(rank, len, depth, size, prof) of (7,(2,10,4),(3,7)):(1,(7,14,140),(560,1680))",
   "(3,6,2,11760,(*,(*,*,*),(*,*)))",
   lambda: _attrs("(7,(2,10,4),(3,7)):(1,(7,14,140),(560,1680))"))
ex("2.3.1.7", "(rank, len, depth, size, prof) of ((2,2,2,(2,2))):((1,0,8,(0,16)))",
   "(1,5,3,32,((*,*,*,(*,*))))", lambda: _attrs("((2,2,2,(2,2))):((1,0,8,(0,16)))"))
ex("2.3.1.8", "(2,(2,2)):(1,2,4) is not a layout", "LayoutError",
   lambda: _raises(lambda: P("(2,(2,2)):(1,2,4)")))
ex("2.3.1.10", "modes and entries of ((2,2),9):((3,6),12)",
   "[(2,2):(3,6),9:12,2:3,2:6,9:12]",
   lambda: [L for L in _modes_entries("((2,2),9):((3,6),12)")])
ex("2.3.1.15", "flattening of ((2,2,2,(2,2))):((1,0,8,(0,16)))", "(2,2,2,2,2):(1,0,8,0,16)",
   lambda: F.flat_layout(F.flat_modes(P("((2,2,2,(2,2))):((1,0,8,(0,16)))"))))
ex("2.3.1.18", "values of ((2,2),2):((3,0),10)", "[0,3,0,3,10,13,10,13]",
   lambda: values(P("((2,2),2):((3,0),10)")))
ex("2.3.1.20", "(8,8,8):(1,64,8) with profile (*,(*,*))", "(8,(8,8)):(1,(64,8))",
   lambda: _with_profile("(8,8,8):(1,64,8)", ("*", ("*", "*"))))
ex("2.3.1.21", "(128):(2) with profile *", "128:2", lambda: _with_profile("(128):(2)", "*"))
ex("2.3.1.25", "is_non_degenerate on L1..L4", "[True,True,False,False]",
   lambda: [_non_degenerate(x) for x in ("((2,2),1):((1,2),0)", "((8,8),(1,16)):((2,32),(0,128))",
                                         "((2,2),1):((1,2),4)",
                                         "((8,8),(1,16)):((2,32),(1024,128))")])
ex("2.3.2.7", "make_layout((3,7,2):(1,3,6), (2,(2,(4,3))):(5,(3,(2,2))))",
   "((3,7,2),(2,(2,(4,3)))):((1,3,6),(5,(3,(2,2))))",
   lambda: A.make_modes(P("(3,7,2):(1,3,6)"), P("(2,(2,(4,3))):(5,(3,(2,2)))")))
ex("2.3.2.11", "modes of ((5,(7,7)),2,(4,5)):((1,(35,5)),0,(1,8))",
   "[(5,(7,7)):(1,(35,5)),2:0,(4,5):(1,8)]",
   lambda: A.top_modes(P("((5,(7,7)),2,(4,5)):((1,(35,5)),0,(1,8))")))
ex("2.3.2.13", "(8,8,8):(1,8,64) substituted into (*,(*,*))", "(8,(8,8)):(1,(8,64))",
   lambda: N.substitute_layouts(A.top_modes(P("(8,8,8):(1,8,64)")), ("*", ("*", "*"))))
ex("2.3.2.14", "((2,2),(3,3),(5,5)):((2,1),(12,4),(180,36)) substituted into (*,(*,*))",
   "((2,2),((3,3),(5,5))):((2,1),((12,4),(180,36)))",
   lambda: N.substitute_layouts(A.top_modes(P("((2,2),(3,3),(5,5)):((2,1),(12,4),(180,36))")),
                                ("*", ("*", "*"))))
ex("2.3.2.15", "(16):(1) substituted into *", "16:1",
   lambda: N.substitute_layouts(A.top_modes(P("(16):(1)")), "*"))

# --- 2.3.3 coalesce -------------------------------------------------------------------------
ex("2.3.3.2", "is_coalesced((2,(2,2)):(1,(16,512)))", "False",
   lambda: A.is_coalesced(P("(2,(2,2)):(1,(16,512))")))
ex("2.3.3.3", "[is_coalesced((64):(2)), is_coalesced(64:2)]", "[False,True]",
   lambda: [A.is_coalesced(P("(64):(2)")), A.is_coalesced(P("64:2"))])
ex("2.3.3.4", "[is_coalesced(1:8), is_coalesced(1:0)]", "[False,True]",
   lambda: [A.is_coalesced(P("1:8")), A.is_coalesced(P("1:0"))])
ex("2.3.3.5", "is_coalesced(():())", "False", lambda: A.is_coalesced(P("():()")))
ex("2.3.3.8", "coalesce(():())", "1:0", lambda: A.coalesce(P("():()")))
ex("2.3.3.9", "coalesce((1,1):(2,4))", "1:0", lambda: A.coalesce(P("(1,1):(2,4)")))
ex("2.3.3.10", "coalesce((512):(4))", "512:4", lambda: A.coalesce(P("(512):(4)")))
ex("2.3.3.11", "coalesce((2,2,2):(1,2,4))", "8:1", lambda: A.coalesce(P("(2,2,2):(1,2,4)")))
ex("2.3.3.12", "coalesce(((2,2,2),(5,5)):((1,2,4),(10,50)))", "(8,25):(1,10)",
   lambda: A.coalesce(P("((2,2,2),(5,5)):((1,2,4),(10,50))")))
ex("2.3.4.2", "relative modes of ((2,2),((3,3),(5,(1,5)))):((1,2),((6,18),(90,(0,450)))) over "
   "(4,(9,25))", "[(2,2):(1,2),(3,3):(6,18),(5,(1,5)):(90,(0,450))]",
   lambda: list(N.layout_relative_modes(
       P("((2,2),((3,3),(5,(1,5)))):((1,2),((6,18),(90,(0,450))))"), (4, (9, 25)))))

# --- 2.3.5 compact layouts ------------------------------------------------------------------
ex("2.3.5.2", "is_compact on A, B, C", "[True,False,False]",
   lambda: [F.is_flat_compact(P(x)) for x in ("((2,2),(2,2)):((1,4),(2,8))",
                                              "((2,2),(2,2)):((1,4),(2,32))",
                                              "((2,2),(2,2)):((1,4),(2,0))")])
ex("2.3.5.3", "is_compact on L1, L2, L3", "[True,True,True]",
   lambda: [F.is_flat_compact(P(x)) for x in ("(2,(2,2)):(8,(1,4))",
                                              "((8,1),(8,32)):((2,0),(16,128))", "64:1")])
ex("2.3.5.4", "is_compact((2,(2,2)):(4,(8,16)))", "False",
   lambda: F.is_flat_compact(P("(2,(2,2)):(4,(8,16))")))

# --- 2.3.6 complements ----------------------------------------------------------------------
ex("2.3.6.10", "complement(((4,2),(2,2)):((3,24),(192,96)), 768)", "(3,2,2,2):(1,12,48,384)",
   lambda: A.complement(P("((4,2),(2,2)):((3,24),(192,96))"), 768))
ex("2.3.6.11", "complement(((16,4),64):((1,16),64), 4096)", "1:0",
   lambda: A.complement(P("((16,4),64):((1,16),64)"), 4096))
ex("2.3.6.12", "complement(((16,4),64):((1,16),64), 8192)", "2:4096",
   lambda: A.complement(P("((16,4),64):((1,16),64)"), 8192))
ex("2.3.6.13", "complement(((16,4),64):((8,1),128), 16384)", "(2,2):(4,8192)",
   lambda: A.complement(P("((16,4),64):((8,1),128)"), 16384))

# --- 2.3.7 composition (paper's B∘A = composition(B, A)) -------------------------------------
ex("2.3.7.5", "composition((100):(7), (3,5):(10,2))", "(3,5):(70,14)",
   lambda: A.composition(P("(100):(7)"), P("(3,5):(10,2)")))
ex("2.3.7.6", "composition((2,2,6):(12,6,1), (4):(2))", "((2,2)):((6,1))",
   lambda: A.composition(P("(2,2,6):(12,6,1)"), P("(4):(2)")))
ex("2.3.7.8", "composition((4,4,4,4):(2,4,8,16), ((2,4),8):((4,8),8))",
   "((2,(2,2)),(2,4)):((4,(8,8)),(8,8))",
   lambda: A.composition(P("(4,4,4,4):(2,4,8,16)"), P("((2,4),8):((4,8),8)")))
ex("2.3.7.9", "composition((9,8,3,8):(24,3,1,384), ((3,(2,2)),24):((3,(9,18)),72))",
   "((3,(2,2)),(3,8)):((72,(3,6)),(1,384))",
   lambda: A.composition(P("(9,8,3,8):(24,3,1,384)"), P("((3,(2,2)),24):((3,(9,18)),72)")))

# --- 2.3.8 logical division -------------------------------------------------------------------
for _n, _a, _b, _v in [
        ("2.3.8.2", "(4,8):(1,4)", "(2,2):(1,4)", "((2,2),(2,4)):((1,4),(2,8))"),
        ("2.3.8.4", "(4,8):(1,4)", "(2,2):(4,1)", "((2,2),(2,4)):((4,1),(2,8))"),
        ("2.3.8.6", "(4,8):(1,4)", "(2,4):(2,4)", "((2,4),(2,2)):((2,4),(1,16))"),
        ("2.3.8.7", "(4,6):(1,40)", "6:4", "(6,4):(40,1)"),
        ("2.3.8.8", "(4,6,2,4,2,5):(36,1,18,0,0,144)", "(4,10):(1,192)",
         "((4,(2,5)),(6,2,4)):((36,(0,144)),(1,18,0))")]:
    ex(_n, f"logical_divide({_a}, {_b})", _v, (lambda a=_a, b=_b: DV.logical_divide(P(a), P(b))))

# --- 2.3.9 logical product --------------------------------------------------------------------
for _n, _a, _b, _v in [
        ("2.3.9.3", "(2,2):(5,10)", "(3,5):(5,1)", "((2,2),(3,5)):((5,10),(20,1))"),
        ("2.3.9.4", "(3,3):(6,1)", "(10,12):(24,2)", "((3,3),(10,12)):((6,1),(216,18))"),
        ("2.3.9.5", "(2,10):(1680,4)", "(4,9):(2,56)",
         "((2,10),((2,2),(3,3))):((1680,4),((2,40),(560,3360)))"),
        ("2.3.9.6", "(4,(2,2)):(9,(1,3))", "((2,4),8):((1,4),2)",
         "((4,(2,2)),((2,4),8)):((9,(1,3)),((36,144),72))")]:
    ex(_n, f"logical_product({_a}, {_b})", _v, (lambda a=_a, b=_b: DV.logical_product(P(a), P(b))))

# --- 2.3.10 tractable layouts -----------------------------------------------------------------
for _n, _l, _v in [("2.3.10.2", "(((12))):((17))", "True"),
                   ("2.3.10.3", "((2,4),32):((1,2),8)", "True"),
                   ("2.3.10.4", "(2,(4,32)):(128,(32,1))", "True"),
                   ("2.3.10.5", "((3,3),(1,3),(3,1,3)):((81,1),(0,8),(3,0,27))", "True"),
                   ("2.3.10.6", "((3,7,7)):((0,15,0))", "True"),
                   ("2.3.10.7", "(2,(2,(2,2))):(1,(2048,(16,64)))", "True"),
                   ("2.3.10.8", "((8,8),(5,5)):((8,1),(10,2))", "False")]:
    ex(_n, f"is_tractable({_l})", _v, (lambda l=_l: A.is_tractable(P(l))))


# --- 4.1.4 / 4.1.5 composition by mutual refinement, 4.2 division and product ------------------
for _n, _b, _a, _v in [
        ("4.1.4.1", "(2,2):(2,1)", "(4):(1)", "((2,2)):((2,1))"),
        ("4.1.4.2", "(12,3,6):(1,72,12)", "(6,6):(6,1)", "((2,3),6):((6,72),1)"),
        ("4.1.4.3", "(16,16):(16,1)", "(8,8):(8,1)", "((2,4),8):((128,1),16)"),
        ("4.1.4.4", "(8,8,8):(64,8,1)", "(16,16):(16,1)", "((4,4),(8,2)):((16,1),(64,8))"),
        ("4.1.4.5", "(10,360):(2,60)", "(6,6):(5,60)", "((2,3),6):((10,60),360)"),
        ("4.1.5", "(8,8):(3,7)", "(4,4):(4,1)", "((2,2),4):((12,7),3)")]:
    ex(_n, f"composition({_b}, {_a})", _v, (lambda a=_a, b=_b: A.composition(P(b), P(a))))
ex("4.2.1.1", "logical_divide((8,8):(8,1), (2,2):(1,4))", "((2,2),(2,2)):((8,32),(16,1))",
   lambda: DV.logical_divide(P("(8,8):(8,1)"), P("(2,2):(1,4)")))
ex("4.2.2.1", "[complement((2,2):(1,2), 100), logical_product((2,2):(1,2), (5,5):(5,1))]",
   "[(25):(4),((2,2),(5,5)):((1,2),(20,4))]",
   lambda: [A.complement(P("(2,2):(1,2)"), 100), DV.logical_product(P("(2,2):(1,2)"),
                                                                  P("(5,5):(5,1)"))])


# --- helpers used above -------------------------------------------------------------------------
def _raises(fn):
    try:
        fn()
    except LayoutError:
        return "LayoutError"
    return "no error"


def _modes_entries(text):
    L = P(text)
    return list(A.top_modes(L)) + [_entry(m) for m in F.flat_modes(L)]


def _entry(m):
    return Layout(m[0], m[1])


def _with_profile(text, prof):
    L = P(text)
    return N.substitute_layouts([_entry(m) for m in F.flat_modes(L)], prof)


def _non_degenerate(text):
    return all(d == 0 for s, d in F.flat_modes(P(text)) if s == 1)


# --- sections 3 and 4.1.1: the categories' examples (spec/categories.py, spec/mutual_refinement.py)
from layoutcheck.spec.layout import Layout
from layoutcheck.spec.mutual_refinement import EXAMPLES_4_1_1  # noqa: E402
from layoutcheck.spec.theorems import EXAMPLES_3  # noqa: E402

for _x in EXAMPLES_3 + EXAMPLES_4_1_1:
    ex(*_x)


# --- the runner ------------------------------------------------------------------------------------
def run_examples():
    """Compute every example; a list of dicts {example, status, paper, computed, op,
    finding} (finding: the id of the registered finding for a disagreement, else None)."""
    out = []
    for e in EXAMPLES:
        try:
            computed = format_value(e.compute())
        except LayoutError as err:
            cond = f"[{err.condition}] " if err.condition else ""
            computed = f"LayoutError: {cond}{err}"
        status = "agrees" if _norm(computed) == _norm(e.paper) else "disagrees"
        finding = paper_finding(e.number) if status == "disagrees" else None
        out.append({"example": e.number, "status": status, "paper": e.paper,
                    "computed": computed, "op": e.op, "finding": finding})
    return out
