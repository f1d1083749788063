#!/usr/bin/env python3
"""Median wall time of each command, the commands run in turn, run after run.

Usage: alternate_medians.py RUNS CMD1 [:: CMD2 ...]   (commands separated by a "::" word)
Prints one line per command: its median in milliseconds. Each command is started with
posix_spawn and waited for (no shell, no `date` processes in the measurement), stdout and
stderr to /dev/null, in the caller's environment. Alternating run by run: a machine that
changes speed during the benchmark moves every command alike, not their ratios.
"""
import os
import statistics
import sys
import time


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    runs = int(argv[1])
    cmds, cur = [], []
    for word in argv[2:]:
        if word == "::":
            cmds.append(cur)
            cur = []
        else:
            cur.append(word)
    cmds.append(cur)
    if runs < 1 or any(not c for c in cmds):
        sys.stderr.write("alternate_medians.py: RUNS >= 1 and no empty command\n")
        return 2
    devnull = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]

    def once(argv):
        t0 = time.perf_counter_ns()
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=devnull)
        os.waitpid(pid, 0)
        return (time.perf_counter_ns() - t0) / 1e6

    for c in cmds:  # warm the page cache for every command alike
        once(c)
    times = [[] for _ in cmds]
    for _ in range(runs):
        for i, c in enumerate(cmds):
            times[i].append(once(c))
    for t in times:
        print("%.2f" % statistics.median(t))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
