#!/usr/bin/env python3
"""Runs the benchmark scenarios of the performance issue side by side with their peers, on
loopback against the release emulator, and writes bench/RESULTS.md.

Times are medians from hyperfine; peak memory is GNU time's "Maximum resident set size".
Every comparison is made within one run on one machine, so the ratios are what counts.
"""
import json
import math
import os
import platform
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TCTL = os.path.join(ROOT, "target/release/tunnelctl")
MOCK = os.path.join(ROOT, "target/release/tunnelctl-mock")
KEY = "bench_key_0123456789abcdef0123456789"
TMP = tempfile.mkdtemp(prefix="tunnelctl-bench-")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT, AGENT_PORT = free_port(), free_port()
API = f"http://127.0.0.1:{PORT}"
AGENT = f"http://127.0.0.1:{AGENT_PORT}/api"
HDRS = f"-H 'Authorization: Bearer {KEY}' -H 'Service-Version: 2'"

ENV = dict(os.environ)
for k in list(ENV):
    if k.startswith("TUNNELCTL_"):
        del ENV[k]
ENV.update(TUNNELCTL_API_URL=API, TUNNELCTL_API_KEY=KEY, TUNNELCTL_AGENT_URL=AGENT,
           TUNNELCTL_CONFIG=os.path.join(TMP, "config.toml"), NO_COLOR="1")


def control(path, body=None, method=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(API + path, data=data, method=method or ("POST" if data else "GET"),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        text = r.read()
    return json.loads(text) if text.strip() else None


def hyperfine(name, commands, runs, warmup=3, prepare=None, shell=False):
    """Median seconds of each command."""
    out = os.path.join(TMP, f"{name}.json")
    args = ["hyperfine", "--style", "basic", "--runs", str(runs), "--warmup", str(warmup), "--export-json", out]
    if not shell:
        args.append("-N")
    if prepare:
        args += ["--prepare", prepare]
    subprocess.run(args + commands, env=ENV, check=True, stdout=sys.stderr)
    with open(out) as f:
        return [r["median"] for r in json.load(f)["results"]]


def peak_rss_kb(command):
    """Peak RSS of a shell command's main process, from GNU time."""
    r = subprocess.run(["/usr/bin/time", "-v", "bash", "-c", f"exec {command}"], env=ENV,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    for line in r.stderr.splitlines():
        if "Maximum resident set size" in line:
            return int(line.split(":")[1])
    raise RuntimeError(r.stderr)


def ms(s):
    return f"{s * 1000:.1f} ms"


rows = []  # (scenario, measure, value, bound, pass)


def row(scenario, measure, value, bound, ok):
    rows.append((scenario, measure, value, bound, "PASS" if ok else "FAIL"))
    print(f"{scenario}: {measure} = {value} ({bound}) {'PASS' if ok else 'FAIL'}", file=sys.stderr)


def s1():
    t, c, true = hyperfine("s1", [f"{TCTL} --version", "curl --version", "/usr/bin/true"], runs=300, warmup=30)
    row("S1 start-up", "tunnelctl --version", ms(t), "", True)
    row("S1 start-up", "curl --version", ms(c), "", True)
    row("S1 start-up", "/usr/bin/true", ms(true), "", True)
    row("S1 start-up", "tunnelctl / curl", f"{t / c:.2f}x", "<= 0.5x", t / c <= 0.5)
    row("S1 start-up", "tunnelctl / true", f"{t / true:.2f}x", "<= 3x", t / true <= 3)


def s2():
    control("/_mock/reset", {})
    pid = control("/_mock/seed", {"ip_policy_count": 1})["ip_policies"][0]
    url = f"{API}/ip_policies/{pid}"
    curl = f"curl -s {HDRS} {url}"
    # curl | jq needs a shell; the other two are measured without one.
    t, c = hyperfine("s2a", [f"{TCTL} ip-policies get {pid} --json", curl], runs=200, warmup=20)
    (cj,) = hyperfine("s2b", [f"{curl} | jq ."], runs=100, warmup=10, shell=True)
    row("S2 one read", "tunnelctl get --json", ms(t), "", True)
    row("S2 one read", "curl -s", ms(c), "", True)
    row("S2 one read", "curl -s | jq .", ms(cj), "", True)
    row("S2 one read", "tunnelctl / curl", f"{t / c:.2f}x", "<= 0.5x", t / c <= 0.5)
    row("S2 one read", "tunnelctl / (curl | jq)", f"{t / cj:.2f}x", "", True)


def s3():
    control("/_mock/reset", {})
    control("/_mock/seed", {"ip_policy_count": 10000})
    urls, url = [], f"{API}/ip_policies"
    while url:
        urls.append(url)
        req = urllib.request.Request(url, headers={"Authorization": f"Bearer {KEY}", "Service-Version": "2"})
        with urllib.request.urlopen(req) as r:
            url = json.loads(r.read())["next_page_uri"]
    assert len(urls) == 100, len(urls)
    cfg = os.path.join(TMP, "pages.curl")
    with open(cfg, "w") as f:
        f.write(f'header = "Authorization: Bearer {KEY}"\nheader = "Service-Version: 2"\nsilent\n')
        for u in urls:
            f.write(f'url = "{u}"\noutput = "/dev/null"\n')
    loop = os.path.join(TMP, "loop.sh")
    with open(loop, "w") as f:
        f.write(f"""url={API}/ip_policies
while [ -n "$url" ] && [ "$url" != null ]; do
  page=$(curl -s {HDRS} "$url")
  printf '%s' "$page" | jq -c '.ip_policies[]'
  url=$(printf '%s' "$page" | jq -r .next_page_uri)
done
""")
    t, floor = hyperfine("s3a", [f"{TCTL} ip-policies list --json", f"curl --config {cfg}"], runs=20, warmup=2)
    (lp,) = hyperfine("s3b", [f"bash {loop}"], runs=3, warmup=0)
    row("S3 10,000 items / 100 pages", "tunnelctl list --json", ms(t), "", True)
    row("S3 10,000 items / 100 pages", "curl + jq loop", ms(lp), "", True)
    row("S3 10,000 items / 100 pages", "one curl, keep-alive (floor)", ms(floor), "", True)
    row("S3 10,000 items / 100 pages", "loop / tunnelctl", f"{lp / t:.1f}x faster", ">= 10x", lp / t >= 10)
    row("S3 10,000 items / 100 pages", "tunnelctl / floor", f"{t / floor:.2f}x", "<= 1.3x", t / floor <= 1.3)


def s4():
    rss = {}
    for n in (1000, 100000):
        control("/_mock/reset", {})
        control("/_mock/seed", {"ip_policy_count": n})
        rss[n] = peak_rss_kb(f"{TCTL} ip-policies list -o ndjson")
    small, big = rss[1000] / 1024, rss[100000] / 1024
    row("S4 memory", "peak RSS, 1,000 items", f"{small:.1f} MB", "", True)
    row("S4 memory", "peak RSS, 100,000 items", f"{big:.1f} MB", "<= 12 MB", big <= 12)
    row("S4 memory", "100,000 / 1,000", f"{big / small:.2f}x", "<= 1.25x", big / small <= 1.25)


def s5():
    control("/_mock/reset", {})
    control("/_mock/config", {"latency_ms": 25, "restart_delay_ms": 3600000})
    ids = os.path.join(TMP, "ids")
    seed = os.path.join(TMP, "seed.sh")
    body = json.dumps({"sessions": [{"os": "linux"}] * 500})
    with open(seed, "w") as f:
        f.write(f"""curl -s -XPOST {API}/_mock/reset -H 'Content-Type: application/json' -d '{{}}' >/dev/null
curl -s -XPOST {API}/_mock/seed -H 'Content-Type: application/json' -d '{body}' | jq -r '.sessions[]' > {ids}
""")
    loop = os.path.join(TMP, "restart-loop.sh")
    with open(loop, "w") as f:
        f.write(f"""for id in $(cat {ids}); do
  curl -s -o /dev/null -XPOST {HDRS} -H 'Content-Type: application/json' -d '{{}}' {API}/tunnel_sessions/$id/restart
done
""")
    tool = os.path.join(TMP, "restart-tool.sh")
    with open(tool, "w") as f:
        f.write(f"exec {TCTL} --rate off sessions restart --parallel 16 --quiet $(cat {ids})\n")
    (t,) = hyperfine("s5a", [f"bash {tool}"], runs=10, warmup=1, prepare=f"bash {seed}")
    (lp,) = hyperfine("s5b", [f"bash {loop}"], runs=2, warmup=0, prepare=f"bash {seed}")
    control("/_mock/config", {"latency_ms": 0, "restart_delay_ms": 200})
    ideal = math.ceil(500 / 16) * 0.025
    row("S5 restart 500 (25 ms each)", "tunnelctl --parallel 16", ms(t), "", True)
    row("S5 restart 500 (25 ms each)", "curl loop", ms(lp), "", True)
    row("S5 restart 500 (25 ms each)", "ideal ceil(500/16) x 25 ms", ms(ideal), "", True)
    row("S5 restart 500 (25 ms each)", "tunnelctl / ideal", f"{t / ideal:.2f}x", "<= 1.25x", t / ideal <= 1.25)
    row("S5 restart 500 (25 ms each)", "loop / tunnelctl", f"{lp / t:.1f}x faster", ">= 10x", lp / t >= 10)


def s6():
    control("/_mock/reset", {})
    control("/_mock/agent/captures", [{"tunnel_name": "web (http)", "method": "POST", "uri": "/hook",
                                       "body_size": 65536, "repeat": 1000}])
    size = len(subprocess.run(["curl", "-s", f"{AGENT}/requests/http"], capture_output=True, check=True).stdout)
    peer = f"curl -s {AGENT}/requests/http | jq -c ."
    (t,) = hyperfine("s6a", [f"{TCTL} local requests list --json"], runs=10, warmup=2)
    (cj,) = hyperfine("s6b", [peer], runs=5, warmup=1, shell=True)
    rss = peak_rss_kb(f"{TCTL} local requests list --json") * 1024
    jq_rss = peak_rss_kb(f"bash -c {shlex.quote(peer + ' > /dev/null')}") * 1024
    row("S6 1,000 captured x 64 KB", "JSON answer size", f"{size / 1e6:.1f} MB", "", True)
    row("S6 1,000 captured x 64 KB", "tunnelctl list --json", ms(t), "", True)
    row("S6 1,000 captured x 64 KB", "curl | jq -c .", ms(cj), "", True)
    row("S6 1,000 captured x 64 KB", "tunnelctl / (curl | jq)", f"{t / cj:.2f}x", "<= 1.0x", t / cj <= 1.0)
    row("S6 1,000 captured x 64 KB", "tunnelctl peak RSS / answer", f"{rss / size:.2f}x ({rss / 1e6:.0f} MB)", "<= 2x", rss / size <= 2)
    row("S6 1,000 captured x 64 KB", "(jq's peak RSS, for reference)", f"{jq_rss / 1e6:.0f} MB", "", True)


def s7():
    size = os.path.getsize(TCTL) / 1e6
    row("S7 size", "stripped release binary", f"{size:.2f} MB", "<= 8 MB", size <= 8)


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = "unknown"
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError):
        pass
    return f"{os.cpu_count()} cores, {cpu}, {mem} memory, {platform.system()} {platform.release()}"


def main():
    proc = subprocess.Popen([MOCK, "--port", str(PORT), "--agent-port", str(AGENT_PORT), "--api-key", KEY,
                             "--inspect-db-size", "2000000000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                control("/_mock/stats")
                break
            except OSError:
                time.sleep(0.05)
        for scenario in (s1, s2, s3, s4, s5, s6, s7):
            scenario()
    finally:
        proc.terminate()
        proc.wait()
    lines = [
        "# Benchmark results",
        "",
        f"Produced by `bench/run.sh` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        f"Machine: {machine()}.",
        "Times are medians of hyperfine runs; memory is GNU time's peak RSS. Everything ran in one",
        "run on this machine against the release emulator on loopback.",
        "",
        "| scenario | measure | value | bound | result |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {a} | {b} | {c} | {d} | {e} |" for a, b, c, d, e in rows]
    failed = [r for r in rows if r[4] == "FAIL"]
    lines += ["", f"{len(rows) - len(failed)} rows pass, {len(failed)} fail."]
    with open(os.path.join(ROOT, "bench/RESULTS.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
