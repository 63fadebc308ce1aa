#!/usr/bin/env python3
"""A long fuzz campaign of the executor, outside pytest: the generator of
tests/core/test_fuzz.py (random SVP64 pairs: uniform 24-bit RM for every
SVP64-capable row, Rc=1 variants included; VL 0..127; strict and permissive
machines) for as many instructions as asked, reporting the rate and every
escaping Python exception with the batch seed that reproduces it.

    python tools/fuzz_campaign.py --pairs 1000000            # the nightly size
    python tools/fuzz_campaign.py --pairs 20000 --words 20000 --seed 7

Each batch of --batch instructions runs run_batch(seed, n, pairs) of
test_fuzz.py; a failing batch prints its seed (rerun it there to get the
traceback, whose note names the words and SVSTATE).  Exit status 1 if
anything escaped.
"""
import argparse
import os
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=0, help="SVP64 pairs to execute")
    ap.add_argument("--words", type=int, default=0, help="32-bit words to execute")
    ap.add_argument("--seed", type=int, default=1, help="first batch seed")
    ap.add_argument("--batch", type=int, default=1000, help="instructions per batch")
    args = ap.parse_args(argv)
    sys.path[:0] = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "core")]
    import test_fuzz
    escapes = 0
    for what, total, pairs in (("pairs", args.pairs, True), ("words", args.words, False)):
        done, seed, t0 = 0, args.seed, time.monotonic()
        while done < total:
            n = min(args.batch, total - done)
            try:
                test_fuzz.run_batch(seed, n, pairs)
            except Exception as e:  # noqa: BLE001 -- the campaign reports every escape
                escapes += 1
                print(f"ESCAPE in {what} batch seed {seed} (n={n}): "
                      f"{type(e).__name__}: {e}", flush=True)
                traceback.print_exception(e, limit=-3)
            done += n
            seed += 1
            rate = done / max(time.monotonic() - t0, 1e-9)
            if done % (args.batch * 20) == 0 or done == total:
                print(f"{what}: {done:,}/{total:,} ({rate:,.0f}/s), {escapes} escapes",
                      flush=True)
    print(f"done: {escapes} escapes")
    return 1 if escapes else 0


if __name__ == "__main__":
    sys.exit(main())
