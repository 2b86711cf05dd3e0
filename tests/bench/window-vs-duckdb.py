#!/usr/bin/env python3
"""`streamlab window` against DuckDB on the same 1 M-event JSON Lines file, in the same run.

Issue 16 asks for `streamlab window` to be at least twice as fast as DuckDB counting the same
file per key and tumbling 60 s window (`read_json` + `GROUP BY`, one thread, best of three).
DuckDB does less (no watermark, no late panes, no ordering of the output), so the comparison is
about reading the input, which is most of the work for both.

The input is the native benchmark's workload (`streamlab_sim::window::workload`): the same
SplitMix64 stream, one event per millisecond with bounded disorder over 10 k keys, written as
the contract's lines, `{"key": "user-00123", "time": 1700000}`, and cached in the target
directory since it never changes. The CLI is the release build, run with stdout to /dev/null.

Run: python3 tests/bench/window-vs-duckdb.py [--events N] [--runs N] [--no-build]
                                             [--baseline OLD_STREAMLAB_BINARY]
Prints both best times and the ratio (and the baseline's time, to show a change before and
after in one run); the contenders take turns in every round. Exits 0 with a note when duckdb
is not installed.
"""

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = os.path.join(ROOT, "target")
BINARY = os.path.join(TARGET, "release", "streamlab")
MASK_64 = (1 << 64) - 1
# `reference_config(Tumbling { size_ms: 60_000 })`.
CONFIG = (
    '{"window": {"type": "tumbling", "size": 60000}, '
    '"max_out_of_orderness": 5000, "allowed_lateness": 10000, "late": "drop"}\n'
)


def reference_events(count, keys):
    """The pairs `workload::reference_events` yields: (key index, event time in ms)."""
    state = 0x5EED

    def below(bound):
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK_64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK_64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK_64
        return (z ^ (z >> 31)) % bound

    for clock_ms in range(count):
        if below(100) == 0:
            delay_ms = below(20_000)
        else:
            delay_ms = below(4_000)
        key = below(keys)
        yield key, max(clock_ms - delay_ms, 0)


def input_file(events, keys):
    """Writes the workload once (it is deterministic) and returns its path."""
    path = os.path.join(TARGET, f"window-bench-{events}-events-{keys}-keys.jsonl")
    if not os.path.exists(path):
        partial = path + ".partial"
        with open(partial, "w") as out:
            for key, time_ms in reference_events(events, keys):
                out.write(f'{{"key": "user-{key:05}", "time": {time_ms}}}\n')
        os.replace(partial, path)
    return path


def best_of_each(runs, works):
    """The best time of each of `works` over `runs` rounds, the works taking turns in every
    round: this machine drifts between faster and slower spells, and taking turns puts every
    contender through the same spells (one after the other would time each in its own)."""
    best_s = [float("inf")] * len(works)
    for _ in range(runs):
        for index, work in enumerate(works):
            start = time.perf_counter()
            work()
            best_s[index] = min(best_s[index], time.perf_counter() - start)
    return best_s


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-build", action="store_true", help="use target/release as it is")
    parser.add_argument("--baseline", help="another streamlab binary to time the same way")
    args = parser.parse_args()

    try:
        import duckdb
    except ImportError:
        print("window-vs-duckdb: skipped, the duckdb Python package is not installed")
        return 0

    if not args.no_build:
        subprocess.run(
            ["cargo", "build", "--release", "--locked", "-p", "streamlab-cli"],
            cwd=ROOT,
            check=True,
        )
    path = input_file(args.events, args.keys)
    config_path = os.path.join(TARGET, "window-bench-tumbling-60s.json")
    with open(config_path, "w") as out:
        out.write(CONFIG)

    def window(binary):
        with open(path, "rb") as stdin, open(os.devnull, "wb") as stdout:
            subprocess.run(
                [binary, "window", "--config", config_path], stdin=stdin, stdout=stdout, check=True
            )

    connection = duckdb.connect()
    connection.execute("SET threads = 1")
    # The columns are named so DuckDB does not sample the file to guess them; that is the
    # faster of the two ways for it, so the comparison does not flatter streamlab.
    query = (
        "CREATE OR REPLACE TABLE counts AS "
        "SELECT key, floor(time / 60000) AS w, count(*) AS n "
        f"FROM read_json('{path}', format = 'newline_delimited', "
        "columns = {'key': 'VARCHAR', 'time': 'BIGINT'}) GROUP BY ALL"
    )

    def duckdb_query():
        connection.execute(query)

    works = [lambda: window(BINARY), duckdb_query]
    if args.baseline:
        works.append(lambda: window(args.baseline))
    streamlab_s, duckdb_s, *baseline = best_of_each(args.runs, works)
    if args.baseline:
        baseline_s = baseline[0]
    groups = connection.execute("SELECT count(*) FROM counts").fetchone()[0]
    ratio = duckdb_s / streamlab_s
    print(f"input: {path} ({os.path.getsize(path) / 1e6:.1f} MB, {args.events} events)")
    if args.baseline:
        print(f"baseline {args.baseline}, best of {args.runs}: {baseline_s:.3f} s")
    print(f"streamlab window (release, tumbling 60 s), best of {args.runs}: {streamlab_s:.3f} s")
    print(
        f"duckdb {duckdb.__version__} (threads=1, read_json + GROUP BY, {groups} groups), "
        f"best of {args.runs}: {duckdb_s:.3f} s"
    )
    verdict = "met" if ratio >= 2 else "missed"
    print(f"ratio duckdb / streamlab: {ratio:.2f}x (target >= 2x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
