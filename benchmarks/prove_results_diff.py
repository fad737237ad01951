"""Compare lemma, rank, result of a `layoutcheck prove` table with a reference table.

Usage: prove_results_diff.py REFERENCE.txt NEW.txt  (exit 1 when a result or the tail line
"all 26 lemmas as expected" differs; changed query counts are listed)."""
import sys


def rows(path):
    out, tail = [], None
    for line in open(path):
        p = line.split()
        if len(p) >= 5 and p[2] in ("proved", "refuted", "unknown"):
            out.append((p[0], p[1], p[2], p[4]))
        if line.startswith("all ") and "lemmas as expected" in line:
            tail = line.strip()
    return out, tail

ref, rt = rows(sys.argv[1])
new, nt = rows(sys.argv[2])
bad = 0
if [r[:3] for r in ref] != [r[:3] for r in new]:
    bad = 1
    for a, b in zip(ref, new):
        if a[:3] != b[:3]:
            print("DIFF", a, b)
    if len(ref) != len(new):
        print("row count", len(ref), len(new))
for a, b in zip(ref, new):
    if a[:3] == b[:3] and a[3] != b[3]:
        print(f"queries {a[0]} {a[1]}: {a[3]} -> {b[3]}")
print("tail:", nt)
if nt != "all 26 lemmas as expected":
    bad = 1
print("RESULTS IDENTICAL" if not bad else "RESULTS DIFFER")
sys.exit(bad)
