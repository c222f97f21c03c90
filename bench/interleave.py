#!/usr/bin/env python3
"""Times two commands run by turns, one run of each after the other, for a ratio that a
drifting machine does not skew.

Usage: interleave.py RUNS OUT.json 'COMMAND A' 'COMMAND B'

hyperfine times one command's runs as a block, then the next command's: on a shared machine
the load changes between the blocks by more than a sub-millisecond difference. Here each
round runs A then B, or B then A (by turns), so both see the same moment. Each command is
split as a shell would (no shell runs it) and started with stdout and stderr on /dev/null.
OUT.json holds each command's median and quartiles in seconds and the ratio of A's median
to B's.
"""
import json
import os
import shlex
import statistics
import sys
import time

runs, out_path, a, b = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
commands = [shlex.split(a), shlex.split(b)]
null = os.open(os.devnull, os.O_WRONLY)
actions = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]


def once(argv):
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    took = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"interleave: {shlex.join(argv)} failed")
    return took


for _ in range(20):  # warm-up: caches, the page cache, the CPU's frequency
    for argv in commands:
        once(argv)
times = [[], []]
for i in range(runs):
    for k in (0, 1) if i % 2 == 0 else (1, 0):
        times[k].append(once(commands[k]))


def summary(command, samples):
    q = statistics.quantiles(samples, n=4)
    return {"command": command, "runs": len(samples), "median": statistics.median(samples),
            "p25": q[0], "p75": q[2]}


result = {"a": summary(a, times[0]), "b": summary(b, times[1])}
result["ratio"] = result["a"]["median"] / result["b"]["median"]
with open(out_path, "w") as f:
    json.dump(result, f, indent=1)
