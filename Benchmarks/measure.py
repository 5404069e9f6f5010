#!/usr/bin/env python3
"""Times several commands in one run, round-robin, and prints one table row per command.

    python3 Benchmarks/measure.py RUNS [--tsv FILE] LABEL COMMAND [LABEL COMMAND ...]

COMMAND is one string, split like a shell would (no shell runs it). Each command runs once to
warm up, then RUNS times, taking turns with the others so that a noisy moment on a shared
machine falls on every row alike. Its output goes to /dev/null; it must exit 0 (otherwise this
stops with its status, since timing a failure means nothing).

Per row: median and min-max wall time in ms, median CPU time (user + system, of the child) in
ms, and peak RSS in MB (the largest resident set of any timed run, getrusage of the child).
With --tsv, also appends "label<TAB>median_ms<TAB>cpu_ms<TAB>peak_kib" lines to FILE.
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(command):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write(child.stderr.read().decode(errors="replace"))
        sys.exit(f"{' '.join(command)} exited with {code}")
    child.stderr.close()
    rss_kib = usage.ru_maxrss if sys.platform != "darwin" else usage.ru_maxrss // 1024
    return elapsed * 1000, (usage.ru_utime + usage.ru_stime) * 1000, rss_kib


def main():
    args = sys.argv[1:]
    if not args or not args[0].isdigit():
        sys.exit(__doc__)
    runs, args = int(args[0]), args[1:]
    tsv = None
    if args[:1] == ["--tsv"]:
        tsv, args = args[1], args[2:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    rows = [(args[i], shlex.split(args[i + 1])) for i in range(0, len(args), 2)]
    results = {label: [] for label, _ in rows}
    for _, command in rows:
        run_once(command)
    for _ in range(runs):
        for label, command in rows:
            results[label].append(run_once(command))
    for label, _ in rows:
        wall = [r[0] for r in results[label]]
        cpu = [r[1] for r in results[label]]
        peak = max(r[2] for r in results[label])
        print(
            f"| {label} | {statistics.median(wall):,.1f} | {min(wall):,.1f}–{max(wall):,.1f} "
            f"| {statistics.median(cpu):,.1f} | {peak / 1024:,.1f} |"
        )
        if tsv:
            with open(tsv, "a", encoding="utf-8") as out:
                out.write(f"{label}\t{statistics.median(wall):.3f}\t{statistics.median(cpu):.3f}\t{peak}\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
