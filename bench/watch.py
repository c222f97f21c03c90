#!/usr/bin/env python3
"""S16: `tunnelctl sessions watch` over 5,000 sessions on a pseudo-terminal (called by run.sh).

Usage: watch.py TUNNELCTL API_URL FACTS  (TUNNELCTL_API_URL and _API_KEY in the environment)

The emulator holds 5,000 sessions served in pages of 100 (as the service pages), no latency,
no rate limit.

1. First full screen: from the start of `sessions watch` on an 80x24 pseudo-terminal to the
   screen showing "5000 online" in its title and a session on every row of the table, against
   `sessions list --json > /dev/null` of the same sessions, from its start to its exit. Runs
   taken by turns (one of each, then again), after one warm-up run of each; medians.
2. An hour of refreshes, shortened: `--rate off sessions watch --every 1s` (no pacing but the
   one-second floor), 100 refreshes. Between two refreshes the fleet churns a little: 10 agents
   restarted (each session gone, a new one linked to it), 10 sessions stopped, 10 new ones.
   A refresh is counted by the list pages the emulator answered (each refresh reads them all;
   the churn keeps 5,000 sessions, so each reads as many). RSS (VmRSS) ~0.4 s after each of
   the refreshes 8 to 12 and 96 to 100 (between two refreshes, each time); the lowest of each five
   is the RSS after the 10th and after the 100th.
3. Frame time during those refreshes: j and k pressed by turns every ~0.1 s from the 10th
   refresh to the 100th, each timed from the key to the frame with the current row (reverse
   video) moved. The key often lands while a refresh is read or taken in: it waits for it.
4. Peak RSS (VmHWM) at the end.

Appends key=value lines to FACTS.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request

from ptybench import PtyProgram, call, fact_writer, pct

T, API, FACTS = sys.argv[1:4]
ROWS, COLS = 24, 80
SESSIONS = 5000
REFRESHES = 100
# Agents restarted, sessions stopped and new sessions between two refreshes: 20 rows gone a
# refresh, 1,800 from the 10th to the 100th, megabytes if gone rows were never dropped.
CHURN = 10
# RSS is read after each of these refreshes; "after the 10th" and "after the 100th" are the
# lowest of the five readings around each: one reading moves by up to ~1.4 MB with what the
# allocator keeps at the top of its heap or gives back (seen alternating between two values
# from one refresh to the next); the lowest is the floor, which a leak would raise.
EARLY = tuple(range(8, 13))
LATE = tuple(range(REFRESHES - 4, REFRESHES + 1))
fact = fact_writer(FACTS)
KEY = os.environ["TUNNELCTL_API_KEY"]


def api_post(path):
    """A management API POST with the key (a session's restart or stop)."""
    req = urllib.request.Request(f"{API}{path}", data=b"{}", method="POST",
                                 headers={"Authorization": f"Bearer {KEY}", "Service-Version": "2",
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status


def env():
    return dict(os.environ, TERM="xterm-256color", NO_COLOR="1")


def watch(*flags):
    return PtyProgram([T, *flags, "sessions", "watch", "--every", "1s"], env(), ROWS, COLS, "bench S16")


def full(screen):
    """The first screen, whole: every session counted, a session on each row of the table."""
    lines = screen.text().splitlines()
    return f"{SESSIONS} online" in lines[0] and all("ts_" in line for line in lines[2:ROWS - 1])


def pages_answered():
    stats = json.loads(call("GET", f"{API}/_mock/stats"))
    return int(stats["by_status"].get("200", 0))


call("POST", f"{API}/_mock/reset")
call("POST", f"{API}/_mock/config",
     {"page_size": 100, "latency_ms": 0, "rate_limit": None, "restart_delay_ms": 0})
call("POST", f"{API}/_mock/seed", {"session_count": SESSIONS})
listed = json.loads(subprocess.run([T, "sessions", "list", "--json"], check=True,
                                   capture_output=True).stdout)
if len(listed) != SESSIONS:
    raise SystemExit(f"bench S16: sessions list --json listed {len(listed)} sessions, not {SESSIONS}")
linux = [s["id"] for s in listed if s["os"] == "linux"]
others = [s["id"] for s in listed if s["os"] != "linux"]

# 1. First full screen, against the list ------------------------------------------------------
firsts, lists = [], []
for n in range(8):
    t0 = time.monotonic()
    subprocess.run([T, "sessions", "list", "--json"], check=True, stdout=subprocess.DEVNULL)
    t_list = time.monotonic() - t0
    w = watch()
    t_first = w.wait_screen(full, limit=120) - w.started
    w.quit()
    if n > 0:  # the first of each is the warm-up
        lists.append(t_list)
        firsts.append(t_first)
fact("s16_first_samples", " ".join(f"{v:.4f}" for v in firsts))
fact("s16_list_samples", " ".join(f"{v:.4f}" for v in lists))
print(f"S16: first full screen {statistics.median(firsts) * 1000:.0f} ms, "
      f"sessions list --json {statistics.median(lists) * 1000:.0f} ms", file=sys.stderr)

# 2, 3. 100 refreshes with churn, key presses during them --------------------------------------
call("DELETE", f"{API}/_mock/stats")
w = watch("--rate", "off")
w.wait_screen(full, limit=120)
per_refresh = pages_answered()
if per_refresh < SESSIONS // 100:
    raise SystemExit(f"bench S16: the first refresh read {per_refresh} pages")
rng = random.Random(16)


def current_row(screen):
    rows = [r for r in screen.reversed_rows() if 1 < r < ROWS - 1]
    return rows[0] if len(rows) == 1 else -1


done = 1
rss = {}
frames = []
churned = 0
sample_at = None
key = b"j"
next_poll = time.monotonic()
while done < REFRESHES or sample_at is not None:
    now = time.monotonic()
    if now >= next_poll:
        next_poll = now + 0.1
        seen = pages_answered() // per_refresh
        if seen > done:
            done = seen
            if done in EARLY + LATE:
                # Read between two refreshes: the one counted taken in, the next not started.
                sample_at = (done, now + 0.4)
            if done < REFRESHES:
                # The fleet churns: agents restarted (back under a new session), sessions
                # stopped, new ones; as many of each, so every refresh reads as many pages.
                for _ in range(CHURN):
                    api_post(f"/tunnel_sessions/{linux.pop(rng.randrange(len(linux)))}/restart")
                    api_post(f"/tunnel_sessions/{others.pop(rng.randrange(len(others)))}/stop")
                call("POST", f"{API}/_mock/seed", {"session_count": CHURN})
                churned += 1
    if sample_at is not None and now >= sample_at[1]:
        rss[sample_at[0]] = w.status_kib("VmRSS")
        sample_at = None
    if done >= 10 and done < REFRESHES:
        before = current_row(w.screen)
        t0 = time.monotonic()
        os.write(w.fd, key)
        t1 = w.wait_screen(lambda s, before=before: current_row(s) not in (-1, before), limit=30)
        frames.append(t1 - t0)
        key = b"k" if key == b"j" else b"j"
        # ~0.1 s between presses, whatever the answer took: a steady stream over the refreshes.
        end = t0 + 0.1
        while time.monotonic() < end:
            w.pump(max(0.0, end - time.monotonic()))
    else:
        w.pump(0.05)
peak = w.peak_rss_kib()
w.quit()
fact("s16_sessions", str(SESSIONS))
fact("s16_pages_per_refresh", str(per_refresh))
fact("s16_refreshes", str(done))
fact("s16_churn", str(CHURN))
fact("s16_churn_rounds", str(churned))
fact("s16_frame_samples", " ".join(f"{v:.5f}" for v in frames))
fact("s16_frame_p50", f"{statistics.median(frames):.5f}")
fact("s16_frame_p95", f"{pct(frames, 95):.5f}")
rss10 = min(rss[n] for n in EARLY)
rss100 = min(rss[n] for n in LATE)
fact("s16_rss_samples", " ".join(f"{n}:{rss[n]}" for n in EARLY + LATE))
fact("s16_rss10_kib", str(rss10))
fact("s16_rss100_kib", str(rss100))
fact("s16_peak_kib", str(peak))
print(f"S16: frame p50 {statistics.median(frames) * 1000:.1f} ms, p95 {pct(frames, 95) * 1000:.1f} ms "
      f"({len(frames)} keys); RSS {rss10 / 1024:.1f} MiB after refresh 10, {rss100 / 1024:.1f} MiB "
      f"after {REFRESHES}; peak {peak / 1024:.1f} MiB", file=sys.stderr)
