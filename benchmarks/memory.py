"""Peak working memory of ``impl.values`` over 2^30 elements written into ``out=``.

Run as a script (``python benchmarks/memory.py [log2_n]``); prints one JSON line.  The output
array (4 GiB of int32 for 2^30) is allocated and touched before measuring, so the tracemalloc
peak is the memory values() needs beyond it; the resident-set growth is reported too.
"""

import json
import resource
import sys
import time
import tracemalloc

import layoutcheck.impl as I
import numpy as np


def measure(log2_n=30):
    n = 1 << log2_n
    L = I.Layout((4, n // 64, 4, 4), (1, 64, 4, 16))
    out = np.empty(n, dtype=np.int32)
    out[::4096] = 0  # touch the pages so that they are not counted as values() memory
    out[:] = 0
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    t = time.perf_counter()
    I.values(L, out=out)
    seconds = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    probe = np.random.default_rng(1).integers(0, n, 1000)
    ok = all(int(out[i]) == L(int(i)) for i in probe)
    return {"elements": n, "output_MiB": out.nbytes / 2**20, "peak_beyond_output_MiB":
            peak / 2**20, "rss_growth_MiB": (rss1 - rss0) / 1024, "seconds": seconds,
            "ns_per_element": seconds / n * 1e9, "spot_check_ok": ok}


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 30)))
