#!/usr/bin/env python3
"""Runs a command several times and prints one table row: median wall time, min-max, peak RSS.

    python3 Benchmarks/measure.py LABEL RUNS -- COMMAND [ARG...]

The command's output goes to /dev/null; it must exit 0 (otherwise this stops with its status,
since timing a failure means nothing). One warm-up run is not counted. Peak RSS is the largest
resident set of any timed run (getrusage of the child).
"""
import os
import statistics
import subprocess
import sys
import time


def run_once(command):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.stderr.write(child.stderr.read().decode(errors="replace"))
        sys.exit(f"{' '.join(command)} exited with {child.returncode}")
    rss_kib = usage.ru_maxrss if sys.platform != "darwin" else usage.ru_maxrss // 1024
    return elapsed, rss_kib


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    label, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
    run_once(command)
    times, peak = [], 0
    for _ in range(runs):
        elapsed, rss = run_once(command)
        times.append(elapsed * 1000)
        peak = max(peak, rss)
    print(
        f"| {label} | {statistics.median(times):,.1f} | {min(times):,.1f}–{max(times):,.1f} "
        f"| {peak / 1024:,.1f} |"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
