#!/usr/bin/env python3
"""S10: `tunnelctl local inspect` on a pseudo-terminal (called by run.sh).

Usage: inspect.py TUNNELCTL AGENT_URL MOCK_URL FACTS

1. Row latency: a tunnel to a small upstream; each of 30 requests is sent through its edge
   while the inspector runs, and timed from the moment it is sent to the moment its row is on
   the parsed screen (so the upper bound of "reaching the agent to its row on screen").
2. With 10,000 captures in the agent: the time from a key press (j, k, alternately) to the
   frame showing the selection moved, 60 presses.
3. The inspector's peak RSS (VmHWM) after that, and the size of the agent's answer.
4. 1 MB captures arriving continuously (ten a second for 30 s, the agent keeping 400 MB of
   them): the inspector runs with `--max-memory 32MiB`; its peak RSS after 100 captures and at
   the end (a budget by bytes keeps the second from growing with the count).

The screen is parsed by the small terminal model of bench/ptybench.py, so a row counts only
once it is drawn whole.
Appends key=value lines to FACTS.
"""
import json
import os
import socket
import statistics
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from ptybench import PtyProgram, call, fact_writer, pct

T, AGENT, MOCK, FACTS = sys.argv[1:5]
ROWS, COLS = 24, 80


fact = fact_writer(FACTS)


class Inspector(PtyProgram):
    def __init__(self, env, args=()):
        super().__init__([T, "local", "inspect", *args], env, ROWS, COLS, "bench S10")


class Upstream(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *a):
        pass


def env():
    e = dict(os.environ, TUNNELCTL_AGENT_URL=AGENT, TERM="xterm-256color", NO_COLOR="1")
    return e


# 1. Row latency ------------------------------------------------------------------------------
call("POST", f"{MOCK}/_mock/reset")
up = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
threading.Thread(target=up.serve_forever, daemon=True).start()
call("POST", f"{AGENT}/tunnels", {"name": "bench", "proto": "http", "addr": str(up.server_address[1])})
edges = json.loads(call("GET", f"{MOCK}/_mock/agent/edges"))
port = next(e["edge_port"] for e in edges if e["name"] == "bench (http)")
ins = Inspector(env())
ins.wait_for(lambda s: "live" in s)
latencies = []
for n in range(30):
    token = uuid.uuid4().hex[:12]
    path = f"/b/{token}"

    def visit(path=path):
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
            s.recv(4096)

    t0 = time.monotonic()
    threading.Thread(target=visit, daemon=True).start()
    t1 = ins.wait_for(lambda s, path=path: any(path in line and "GET" in line for line in s.splitlines()))
    latencies.append(t1 - t0)
    time.sleep(0.3)  # requests arrive at a human pace, at a random point of the poll cycle
    time.sleep((n % 5) * 0.05)
ins.quit()
fact("s10_latency_samples", " ".join(f"{v:.4f}" for v in latencies))
fact("s10_latency_p50", f"{statistics.median(latencies):.4f}")
fact("s10_latency_p95", f"{pct(latencies, 95):.4f}")

# 2, 3. 10,000 captures: frame time on a key press, peak RSS -----------------------------------
call("POST", f"{MOCK}/_mock/reset")
call("POST", f"{MOCK}/_mock/agent/captures",
     [{"method": "POST", "uri": "/hooks/stripe", "headers": {"Content-Type": "application/json"},
       "body": json.dumps({"event": "invoice.paid", "amount": 4200, "note": "x" * 300}),
       "response_body": "{\"ok\":true}", "repeat": 10000}])
answer = len(call("GET", f"{AGENT}/requests/http"))
ins = Inspector(env())
ins.wait_for(lambda s: "10000 captured" in s, limit=120)
time.sleep(0.5)


def marked_row(s):
    for i, line in enumerate(s.splitlines()):
        if "\u25b6" in line:
            return i
    return -1


frames = []
for n in range(60):
    before = marked_row(ins.screen.text())
    key = b"j" if n % 2 == 0 else b"k"
    t0 = time.monotonic()
    os.write(ins.fd, key)
    t1 = ins.wait_for(lambda s, before=before: marked_row(s) not in (-1, before), limit=10)
    frames.append(t1 - t0)
    time.sleep(0.05)
rss = ins.peak_rss_kib()
ins.quit()
fact("s10_frame_samples", " ".join(f"{v:.5f}" for v in frames))
fact("s10_frame_p50", f"{statistics.median(frames):.5f}")
fact("s10_frame_p95", f"{pct(frames, 95):.5f}")
fact("s10_rss_kib", str(rss))
fact("s10_answer_bytes", str(answer))
fact("s10_captures", "10000")
print(f"S10: row latency p50 {statistics.median(latencies) * 1000:.0f} ms, p95 {pct(latencies, 95) * 1000:.0f} ms; "
      f"frame p50 {statistics.median(frames) * 1000:.1f} ms, p95 {pct(frames, 95) * 1000:.1f} ms; "
      f"peak RSS {rss / 1024:.1f} MiB with a {answer / 1e6:.1f} MB answer", file=sys.stderr)

# 4. 1 MB captures arriving continuously: memory by bytes, not by count -------------------------
BUDGET = 32 * 1024 * 1024
call("POST", f"{MOCK}/_mock/reset")
call("POST", f"{MOCK}/_mock/config", {"inspect_db_size": 400 * 1000 * 1000})
ins = Inspector(env(), ["--max-memory", "32MiB"])
ins.wait_for(lambda s: "live" in s)
rss_at_100 = 0
for n in range(300):
    t0 = time.monotonic()
    call("POST", f"{MOCK}/_mock/agent/captures",
         [{"method": "POST", "uri": f"/upload/{n}", "body_size": 1000000,
           "headers": {"Content-Type": "application/octet-stream"}}])
    ins.pump(max(0.0, 0.1 - (time.monotonic() - t0)))
    if n == 99:
        ins.wait_for(lambda s: "/upload/99" in s, limit=30)
        rss_at_100 = ins.peak_rss_kib()
ins.wait_for(lambda s: "/upload/299" in s, limit=30)
time.sleep(1.0)
ins.pump(0.1)
rss_end = ins.peak_rss_kib()
ins.quit()
fact("s10_stream_budget_bytes", str(BUDGET))
fact("s10_stream_rss_100_kib", str(rss_at_100))
fact("s10_stream_rss_kib", str(rss_end))
fact("s10_stream_captures", "300")
print(f"S10 stream: peak RSS {rss_at_100 / 1024:.1f} MiB after 100 captures of 1 MB, "
      f"{rss_end / 1024:.1f} MiB after 300 (budget {BUDGET >> 20} MiB)", file=sys.stderr)
