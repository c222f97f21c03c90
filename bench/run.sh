#!/usr/bin/env bash
# The benchmark suite of tunnelctl. One command:
#
#     bench/run.sh [SCENARIO...]
#
# builds the release binaries, starts the release emulator on loopback, measures every
# scenario (or only those named, e.g. `bench/run.sh S1 S7`) side by side with its peer
# (hyperfine for time, /usr/bin/time -v for peak RSS) and writes bench/RESULTS.md.
# See bench/README.md.
#
# Environment (all optional):
#   BENCH_KEEP=1        keep the temporary directory (hyperfine JSON exports, scripts, logs)
#   BENCH_OUT=FILE      write the results somewhere else than bench/RESULTS.md
#   BENCH_SKIP_BUILD=1  use the release binaries already in target/release
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
OUT=${BENCH_OUT:-$HERE/RESULTS.md}
INVOCATION="bench/run.sh${*:+ $*}"
STARTED=$(date -u +%Y-%m-%dT%H:%M:%SZ)
T0=$SECONDS

log() { printf '\n== %s\n' "$*" >&2; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# The scenarios to run, in the order they run: those named on the command line, or all.
ALL_SCENARIOS="S1 S2 S3 S4 S5 S6 S9 S8 S7 S10 S11 S12 S13 S14 S15 S16 S17 S18 S19"
SCENARIOS=$(printf '%s ' "${@:-$ALL_SCENARIOS}" | tr '[:lower:]' '[:upper:]')
for s in $SCENARIOS; do
    [[ " $ALL_SCENARIOS " == *" $s "* ]] || die "no scenario $s (there are: $ALL_SCENARIOS)"
done
want() { [[ " $SCENARIOS " == *" $1 "* ]]; }
# S1 and S7 look at the binary alone, S13 at a handler of its own; every other scenario
# talks to the emulator.
NEEDS_EMULATOR=
for s in $SCENARIOS; do
    case $s in S1 | S7 | S13) ;; *) NEEDS_EMULATOR=1 ;; esac
done

# ---------------------------------------------------------------------------------------------
# 1. Tools: hyperfine, GNU time, curl, jq, python3, sqlite3, readelf (Debian/Ubuntu packages).
# ---------------------------------------------------------------------------------------------
need=()
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
[ -x /usr/bin/time ] || need+=(time)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v jq >/dev/null 2>&1 || need+=(jq)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
command -v readelf >/dev/null 2>&1 || need+=(binutils)
if ((${#need[@]})); then
    log "installing ${need[*]}"
    SUDO=
    [ "$(id -u)" = 0 ] || SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y --no-install-recommends "${need[@]}" ||
        { $SUDO apt-get update && $SUDO apt-get install -y --no-install-recommends "${need[@]}"; } ||
        die "could not install ${need[*]} with apt-get"
fi
# (Read whole first: `grep -q` leaving early would make time's write fail under pipefail.)
time_check=$(/usr/bin/time -v true 2>&1 || true)
grep -q 'Maximum resident set size' <<<"$time_check" || die "/usr/bin/time is not GNU time"

# ---------------------------------------------------------------------------------------------
# 2. Release binaries.
# ---------------------------------------------------------------------------------------------
# One package at a time: built together, cargo would give tunnelctl the features the emulator
# asks of their shared dependencies (tokio's multi-thread runtime, hyper's server), and the
# binary measured would be ~50 KB larger than the one `cargo install --path .` makes.
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
    # The binary alone, as cargo install and cargo deb build it (S7 measures the package's):
    # with the library asked for too, cargo builds the dependencies another way (object code
    # beside the LTO bitcode), in a second set of artifacts.
    log "cargo build --release --locked --bin tunnelctl"
    (cd "$ROOT" && cargo build --release --locked --bin tunnelctl)
    if [ -n "$NEEDS_EMULATOR" ]; then
        log "cargo build --release -p tunnelctl-mock --locked"
        (cd "$ROOT" && cargo build --release -p tunnelctl-mock --locked)
    fi
fi
TARGET_DIR=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])' 2>/dev/null ||
    echo "$ROOT/target")
T=$TARGET_DIR/release/tunnelctl
MOCK=$TARGET_DIR/release/tunnelctl-mock
[ -x "$T" ] || die "target/release/tunnelctl missing in $TARGET_DIR/release"
[ -z "$NEEDS_EMULATOR" ] || [ -x "$MOCK" ] || die "tunnelctl-mock missing in $TARGET_DIR/release"

# ---------------------------------------------------------------------------------------------
# 3. Emulator on loopback, a clean environment for tunnelctl, cleanup on exit.
# ---------------------------------------------------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tunnelctl-bench.XXXXXX")
MOCK_PID=
PG_DATA= PG_BIN= PG_ROOT= EXTRA_MOCKS=()
cleanup() {
    for pid in "${EXTRA_MOCKS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    if [ -n "$PG_DATA" ]; then
        pg_as "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w stop >/dev/null 2>&1 || true
        rm -rf "$PG_ROOT"
    fi
    if [ -n "$MOCK_PID" ]; then
        kill "$MOCK_PID" 2>/dev/null || true
        wait "$MOCK_PID" 2>/dev/null || true
    fi
    if [ -n "${BENCH_KEEP:-}" ]; then
        printf 'bench: kept %s\n' "$TMP" >&2
    else
        rm -rf "$TMP"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Only loopback: no proxy may see these requests.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

KEY=bench-key
API= AGENT= # no emulator: only S1 and S7 were asked for
if [ -n "$NEEDS_EMULATOR" ]; then
    log "starting the emulator"
    "$MOCK" --port 0 --agent-port 0 --api-key "$KEY" --ready-file "$TMP/ready" \
        --inspect-db-size 1073741824 >"$TMP/mock.out" 2>"$TMP/mock.err" &
    MOCK_PID=$!
    for _ in $(seq 100); do
        [ -s "$TMP/ready" ] && grep -q '^agent API: ' "$TMP/mock.out" && break
        kill -0 "$MOCK_PID" 2>/dev/null || die "the emulator exited: $(cat "$TMP/mock.err")"
        sleep 0.1
    done
    [ -s "$TMP/ready" ] || die "the emulator did not become ready"
    API=$(head -n1 "$TMP/ready")
    AGENT=$(sed -n 's/^agent API: //p' "$TMP/mock.out")
    case "$API $AGENT" in
    http://127.0.0.1:*" http://127.0.0.1:"*) ;;
    *) die "unexpected emulator URLs: $API $AGENT" ;;
    esac
    echo "management API $API, agent API $AGENT" >&2
fi

: >"$TMP/config.toml" # an empty config file: only the environment below counts
export TUNNELCTL_API_URL=$API TUNNELCTL_API_KEY=$KEY TUNNELCTL_AGENT_URL=$AGENT
export TUNNELCTL_CONFIG=$TMP/config.toml
unset TUNNELCTL_PROFILE NO_COLOR TUNNELCTL_FORCE_TTY
# The capture history of every scenario is a file of its own in $TMP, never the user's.
export TUNNELCTL_HISTORY_FILE=$TMP/history.sqlite3

AUTH="Authorization: Bearer $KEY"
SV="Service-Version: 2"
ctl() { curl -sS --fail-with-body -X "$1" "$API/_mock/$2" ${3:+-H 'Content-Type: application/json' -d "$3"}; }
api() { curl -sS --fail-with-body -H "$AUTH" -H "$SV" "$@"; }

FACTS=$TMP/facts.txt # key=value lines for the report
: >"$FACTS"
fact() { printf '%s=%s\n' "$1" "$2" >>"$FACTS"; }

# save_http_files DIR: the agent's captures, one .http file each in DIR (the raw request, then
# the raw response): what `grep -rl` searches in S12 and S18.
save_http_files() {
    curl -s "$AGENT/requests/http" | python3 -c '
import base64, json, os, sys
d = sys.argv[1]
for r in json.load(sys.stdin)["requests"]:
    with open(os.path.join(d, r["id"] + ".http"), "wb") as f:
        f.write(base64.b64decode(r["request"]["raw"] or ""))
        f.write(b"\r\n")
        f.write(base64.b64decode((r.get("response") or {}).get("raw") or ""))
' "$1"
}

# hyperfine NAME [options and commands...]: runs without a shell (-N), exports JSON.
hf() {
    local name=$1
    shift
    hyperfine -N --style basic --export-json "$TMP/$name.json" "$@"
}

# rss NAME RUNS CMD...: peak RSS (KiB) of CMD with stdout to /dev/null, RUNS times.
rss() {
    local name=$1 runs=$2 vals=() i v
    shift 2
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -v -o "$TMP/time.txt" "$@" >/dev/null 2>&1 || true
        v=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$TMP/time.txt")
        vals+=("$v")
    done
    fact "$name" "${vals[*]}"
    echo "$name peak RSS (KiB): ${vals[*]}" >&2
}

# ---------------------------------------------------------------------------------------------
# S1 start-up.
# ---------------------------------------------------------------------------------------------
if want S1; then
    log "S1 start-up"
    # The floor any Rust binary pays to start on this machine (loader, libc, runtime set-up):
    # a program that does nothing, built with tunnelctl's own release profile and linked as
    # tunnelctl is (position-independent, Rust's default: the bound is <= 1.5x of it).
    FLOOR=$TMP/floor
    mkdir -p "$FLOOR/src"
    echo 'fn main() {}' >"$FLOOR/src/main.rs"
    {
        printf '[package]\nname = "floor"\nversion = "0.0.0"\nedition = "2021"\n\n[workspace]\n\n'
        awk '/^\[/ { p = ($0 == "[profile.release]") } p' "$ROOT/Cargo.toml"
    } >"$FLOOR/Cargo.toml"
    grep -q '^\[profile.release\]' "$FLOOR/Cargo.toml" || die "S1: no [profile.release] in Cargo.toml"
    cargo build --release --quiet --manifest-path "$FLOOR/Cargo.toml" --target-dir "$FLOOR/target" ||
        die "S1: could not build the minimal Rust program"
    fact s1_floor_source "fn main() {} (built with tunnelctl's [profile.release])"
    # Pages each start faults in (GNU time's minor faults): a count, where time is noise.
    fact s1_faults "$(/usr/bin/time -f %R "$T" --version 2>&1 >/dev/null | tail -n 1)"
    fact s1_floor_faults "$(/usr/bin/time -f %R "$FLOOR/target/release/floor" 2>&1 >/dev/null | tail -n 1)"
    hf s1 --warmup 20 --min-runs 100 --max-runs 300 \
        "$T --version" \
        "curl --version" \
        "/usr/bin/true" \
        "$FLOOR/target/release/floor"
    # The bound against the minimal program is the tight one (1.5x of well under a millisecond),
    # and a shared machine drifts between hyperfine's blocks of runs (all of one command, then
    # all of the next). So that ratio is measured with the two programs run by turns.
    python3 "$ROOT/bench/interleave.py" 1000 "$TMP/s1_interleaved.json" \
        "$T --version" "$FLOOR/target/release/floor" || die "S1: the interleaved runs failed"
fi

# ---------------------------------------------------------------------------------------------
# S2 one read.
# ---------------------------------------------------------------------------------------------
if want S2; then
    log "S2 one read"
    ctl POST reset >/dev/null
    ID=$(ctl POST seed '{"ip_policy_count": 10}' | jq -r '.ip_policies[-1]')
    URL="$API/ip_policies/$ID"
    [ "$("$T" ip-policies get "$ID" --json | jq -r .id)" = "$ID" ] || die "S2: tunnelctl did not read $ID"
    [ "$(api "$URL" | jq -r .id)" = "$ID" ] || die "S2: curl did not read $ID"
    hf s2 --warmup 20 --min-runs 100 --max-runs 300 \
        "$T ip-policies get $ID --json" \
        "curl -s -H '$AUTH' -H '$SV' $URL" \
        "bash -c \"curl -s -H '$AUTH' -H '$SV' $URL | jq .\""
fi

# ---------------------------------------------------------------------------------------------
# S3 a long list: 10,000 policies, 100 pages of 100.
# ---------------------------------------------------------------------------------------------
if want S3; then
    log "S3 a long list"
    ctl POST reset >/dev/null
    ctl POST config '{"page_size": 100, "latency_ms": 0}' >/dev/null
    ctl POST seed '{"ip_policy_count": 10000}' >/dev/null
    # The 100 page URLs, collected once by following next_page_uri.
    PAGES=$TMP/s3-pages.curlrc
    : >"$PAGES"
    u="$API/ip_policies"
    n=0
    while [ "$u" != null ]; do
        printf 'url = "%s"\n' "$u" >>"$PAGES"
        u=$(api "$u" | jq -r .next_page_uri)
        n=$((n + 1))
    done
    [ "$n" = 100 ] || die "S3: expected 100 pages, found $n"
    LOOP="u=$API/ip_policies; while [ \"\$u\" != null ]; do p=\$(curl -sf -H \"$AUTH\" -H \"$SV\" \"\$u\") || exit 1; jq -c \".ip_policies[]\" <<<\"\$p\"; u=\$(jq -r .next_page_uri <<<\"\$p\"); done"
    c=$("$T" ip-policies list --json | jq length)
    [ "$c" = 10000 ] || die "S3: tunnelctl listed $c policies, not 10000"
    c=$(bash -c "$LOOP" | wc -l)
    [ "$c" = 10000 ] || die "S3: the curl+jq loop printed $c policies, not 10000"
    c=$(curl -s -H "$AUTH" -H "$SV" -K "$PAGES" -w '%{stderr}%{num_connects}\n' 2>&1 >/dev/null | awk '{s += $1} END {print s}')
    [ "$c" = 1 ] || die "S3: the one curl process opened $c connections, not 1"
    c=$(curl -s -H "$AUTH" -H "$SV" -K "$PAGES" | grep -o '"id":"ipp_' | wc -l)
    [ "$c" = 10000 ] || die "S3: the one curl process fetched $c policies, not 10000"
    hf s3 --warmup 3 --min-runs 20 --max-runs 100 \
        "$T ip-policies list --json" \
        "curl -s -H '$AUTH' -H '$SV' -K $PAGES"
    # The loop takes seconds a run (two jq starts a page): fewer runs.
    hf s3loop --warmup 1 --runs 3 \
        "bash -c '$LOOP'"
fi

# ---------------------------------------------------------------------------------------------
# S4 memory: ndjson over 1,000 and 100,000 items.
# --rate off: 100,000 items are 1,000 pages, which the default pacing (120 requests per 60 s)
# would spread over ~8 minutes; pacing only sleeps, it does not change the memory.
# ---------------------------------------------------------------------------------------------
if want S4; then
    log "S4 memory"
    for n in 1000 100000; do
        ctl POST reset >/dev/null
        ctl POST seed "{\"ip_policy_count\": $n}" >/dev/null
        c=$("$T" --rate off ip-policies list -o ndjson | wc -l)
        [ "$c" = "$n" ] || die "S4: tunnelctl printed $c lines, not $n"
        rss "s4_rss_$n" 5 "$T" --rate off ip-policies list -o ndjson
    done
    fact s4_cmd "$T --rate off ip-policies list -o ndjson > /dev/null"
fi

# ---------------------------------------------------------------------------------------------
# S5 a fleet: restart 500 sessions, 25 ms per answer, --parallel 16, no rate limit.
# Each run gets 500 fresh Linux sessions (a restart removes the session): --prepare resets the
# emulator, seeds them and writes their ids to a file the measured command reads. The measured
# commands run inside `bash -c` (for $(cat ids) and the loop); that ~1 ms is not subtracted.
# ---------------------------------------------------------------------------------------------
if want S5; then
    log "S5 a fleet"
    IDS=$TMP/s5-ids
    cat >"$TMP/s5-prepare.sh" <<EOF
set -euo pipefail
curl -sS --fail-with-body -X POST "$API/_mock/reset" >/dev/null
python3 -c 'import json; print(json.dumps({"sessions": [{"os": "linux"}] * 500}))' |
  curl -sS --fail-with-body -X POST -H 'Content-Type: application/json' --data-binary @- "$API/_mock/seed" |
  jq -r '.sessions[]' > "$IDS.tmp"
[ "\$(wc -l < "$IDS.tmp")" = 500 ]
mv "$IDS.tmp" "$IDS"
EOF
    ctl POST config '{"latency_ms": 25}' >/dev/null
    S5_CTL="$T --rate off sessions restart \$(cat $IDS) --parallel 16"
    S5_LOOP="for id in \$(cat $IDS); do curl -sf -X POST -H \"$AUTH\" -H \"$SV\" -H \"Content-Type: application/json\" -d {} \"$API/tunnel_sessions/\$id/restart\" || exit 1; done"
    # One checked run: every restart answered 204.
    bash "$TMP/s5-prepare.sh"
    bash -c "$S5_CTL" >/dev/null 2>&1 || die "S5: tunnelctl sessions restart failed"
    c=$(ctl GET stats | jq '.by_status["204"] // 0')
    [ "$c" = 500 ] || die "S5: $c restarts answered 204, not 500: $(ctl GET stats)"
    hf s5 --warmup 1 --runs 10 --prepare "bash $TMP/s5-prepare.sh" \
        "bash -c '$S5_CTL'"
    hf s5loop --runs 3 --prepare "bash $TMP/s5-prepare.sh" \
        "bash -c '$S5_LOOP'"
    ctl POST config '{"latency_ms": 0}' >/dev/null
    fact s5_ideal_s "$(python3 -c 'import math; print(math.ceil(500 / 16) * 0.025)')"
fi

# ---------------------------------------------------------------------------------------------
# S6 captured traffic: 1,000 captures with 64 KiB request bodies (nothing evicted).
# ---------------------------------------------------------------------------------------------
if want S6; then
    log "S6 captured traffic"
    ctl POST reset >/dev/null
    ctl POST config '{"inspect_db_size": 1073741824}' >/dev/null
    c=$(ctl POST agent/captures '[{"body_size": 65536, "repeat": 1000}]' | jq length)
    [ "$c" = 1000 ] || die "S6: seeded $c captures, not 1000"
    c=$(curl -s "$AGENT/requests/http" | jq '.requests | length')
    [ "$c" = 1000 ] || die "S6: the agent lists $c captures, not 1000"
    c=$("$T" local requests list --json | jq length)
    [ "$c" = 1000 ] || die "S6: tunnelctl listed $c captures, not 1000"
    fact s6_answer_bytes "$(curl -s "$AGENT/requests/http" | wc -c)"
    fact s6_tunnelctl_bytes "$("$T" local requests list --json | wc -c)"
    S6_PEER="curl -s $AGENT/requests/http | jq -c ."
    hf s6 --warmup 1 --runs 5 \
        "$T local requests list --json" \
        "bash -c '$S6_PEER'"
    rss s6_rss_tunnelctl 3 "$T" local requests list --json
    rss s6_rss_curl_jq 3 bash -c "$S6_PEER"
    fact s6_rss_cmd "$T local requests list --json > /dev/null"
    fact s6_rss_peer_cmd "bash -c '$S6_PEER' > /dev/null"
    ctl POST reset >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# S9 filtering captured traffic: 10,000 captures of four kinds, `local requests list` with
# filters against `curl | jq` with the same filter (both print the matches as one array).
# ---------------------------------------------------------------------------------------------
if want S9; then
    log "S9 filtered captures"
    ctl POST reset >/dev/null
    ctl POST config '{"inspect_db_size": 1073741824}' >/dev/null
    c=$(ctl POST agent/captures '[
      {"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe?attempt=1", "status_code": 200,
       "headers": {"Content-Type": "application/json", "Stripe-Signature": "t=1,v1=abc"},
       "body": "{\"type\":\"invoice.paid\",\"data\":{\"amount\":2500,\"note\":\"'"$(printf 'x%.0s' $(seq 400))"'\"}}",
       "response_body": "{\"ok\":true}", "repeat": 2500},
      {"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/github", "status_code": 500,
       "headers": {"Content-Type": "application/json", "X-GitHub-Event": "push"},
       "body_size": 512, "response_body": "internal error", "repeat": 2500},
      {"tunnel_name": "web (http)", "method": "GET", "uri": "/status", "status_code": 200,
       "headers": {"Accept": "*/*"}, "response_body": "{\"up\":true}", "repeat": 2500},
      {"tunnel_name": "api (http)", "method": "PUT", "uri": "/items/7", "status_code": 404,
       "headers": {"Content-Type": "text/plain"}, "body": "rename", "response_body": "not found", "repeat": 2500}
    ]' | jq length)
    [ "$c" = 10000 ] || die "S9: seeded $c captures, not 10000"
    fact s9_answer_bytes "$(curl -s "$AGENT/requests/http" | wc -c)"
    # The same filters in both: method, status class and path glob; then text in either message.
    S9A_FLAGS="--method POST --status 5xx --path /hooks/*"
    S9A_JQ='[.requests[] | select(.request.method == "POST" and ((.response.status_code // 0) / 100 | floor) == 5 and (.request.uri | test("^/hooks/")))]'
    S9B_FLAGS="--grep invoice.paid"
    S9B_JQ='[.requests[] | select([.request.raw, .response.raw] | map(. // "" | @base64d | ascii_downcase | contains("invoice.paid")) | any)]'
    s9_check() { # s9_check NAME FLAGS JQ EXPECTED: both find the same EXPECTED matches
        local - a b
        set -f # FLAGS is split into words, its globs kept as they are
        # shellcheck disable=SC2086
        a=$("$T" local requests list $2 --json | jq length)
        b=$(curl -s "$AGENT/requests/http" | jq -c "$3" | jq length)
        [ "$a" = "$4" ] && [ "$b" = "$4" ] || die "S9 $1: tunnelctl found $a, curl | jq $b, not $4"
        fact "s9_${1}_matches" "$a"
    }
    s9_check a "$S9A_FLAGS" "$S9A_JQ" 2500
    s9_check b "$S9B_FLAGS" "$S9B_JQ" 2500
    printf '%s\n' "$S9A_JQ" >"$TMP/s9a.jq"
    printf '%s\n' "$S9B_JQ" >"$TMP/s9b.jq"
    hf s9a --warmup 1 --runs 5 \
        "$T local requests list $S9A_FLAGS --json" \
        "bash -c 'curl -s $AGENT/requests/http | jq -c -f $TMP/s9a.jq'"
    hf s9b --warmup 1 --runs 5 \
        "$T local requests list $S9B_FLAGS --json" \
        "bash -c 'curl -s $AGENT/requests/http | jq -c -f $TMP/s9b.jq'"
    fact s9a_jq "$S9A_JQ"
    fact s9b_jq "$S9B_JQ"
    ctl POST reset >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# S8 a hostile page: one answer of ~15 MiB (under the 16 MiB bound) holding ~1.4 million tiny
# items, served by a static file server on loopback, in every output mode: peak RSS against
# 32 MB + 10x the answer, and the time it takes.
# ---------------------------------------------------------------------------------------------
if want S8; then
    log "S8 a hostile page"
    mkdir -p "$TMP/www"
    python3 - "$TMP/www/ip_policies" <<'PY'
import sys
item = '{"id":"a"}'
n = (15 * 1024 * 1024 - 100) // (len(item) + 1)
with open(sys.argv[1], "w") as f:
    f.write('{"ip_policies":[' + ",".join([item] * n) + '],"uri":"/ip_policies","next_page_uri":null}')
PY
    fact s8_answer_bytes "$(stat -c %s "$TMP/www/ip_policies")"
    fact s8_items "$(grep -o '{"id"' "$TMP/www/ip_policies" | wc -l)"
    python3 -m http.server 0 --bind 127.0.0.1 --directory "$TMP/www" >"$TMP/www.log" 2>&1 &
    WWW_PID=$!
    for _ in $(seq 50); do grep -q 'port' "$TMP/www.log" && break; sleep 0.1; done
    WWW="http://127.0.0.1:$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$TMP/www.log" | head -n1)"
    s8() { # s8 NAME TTY ARGS...: checks the command, then its time and peak RSS
        local name=$1 tty=$2
        shift 2
        local envs=(env TUNNELCTL_API_URL="$WWW")
        [ "$tty" = 1 ] && envs+=(TUNNELCTL_FORCE_TTY=1 COLUMNS=100)
        "${envs[@]}" "$T" --rate off ip-policies list "$@" >"$TMP/s8.out" 2>"$TMP/s8.err" || true
        fact "s8_${name}_lines" "$(wc -l <"$TMP/s8.out")"
        fact "s8_${name}_cmd" "${envs[*]:1} tunnelctl ip-policies list$(printf ' %q' "$@")"
        # -i: the refused whole-array jq exits 1 by design; each output is checked in the report.
        hf "s8_$name" -i --runs 3 "$(printf '%q ' "${envs[@]}" "$T" --rate off ip-policies list "$@")"
        rss "s8_rss_$name" 3 "${envs[@]}" "$T" --rate off ip-policies list "$@"
    }
    s8 tsv 0
    s8 table 1
    s8 json 0 --json
    s8 json_tty 1 --json
    s8 ndjson 0 -o ndjson
    s8 jq_each 0 --jq '.[] | .id'
    s8 jq_whole 0 --jq length
    kill "$WWW_PID" 2>/dev/null || true
fi

# ---------------------------------------------------------------------------------------------
# S7 size of the binary the Debian package installs (the release build, stripped).
# ---------------------------------------------------------------------------------------------
if want S7; then
    log "S7 size"
    fact s7_built_bytes "$(stat -c %s "$T")"
    # What users get: the binary the Debian package installs, packed by cargo-deb from the
    # release build above (--no-build) and extracted here, never installed. cargo-deb comes
    # from the registry, as CONTRIBUTING.md says, when missing.
    if ! command -v cargo-deb >/dev/null 2>&1; then
        log "cargo install cargo-deb --locked"
        cargo install cargo-deb --locked || die "could not install cargo-deb"
    fi
    command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb is needed for S7"
    (cd "$ROOT" && cargo deb -p tunnelctl --locked --no-build --output "$TMP/deb" >/dev/null) ||
        die "cargo deb failed"
    dpkg-deb -x "$(ls "$TMP"/deb/*.deb)" "$TMP/deb/tree"
    T_DEB=$TMP/deb/tree/usr/bin/tunnelctl
    [ -x "$T_DEB" ] || die "the Debian package holds no usr/bin/tunnelctl"
    fact s7_deb "$(basename "$(ls "$TMP"/deb/*.deb)")"
    fact s7_installed_bytes "$(stat -c %s "$T_DEB")"
    cp "$T_DEB" "$TMP/tunnelctl.stripped"
    if command -v strip >/dev/null 2>&1; then
        strip "$TMP/tunnelctl.stripped"
        fact s7_strip "strip"
    else
        fact s7_strip "none (no strip tool; the release profile strips)"
    fi
    fact s7_bytes "$(stat -c %s "$TMP/tunnelctl.stripped")"
    # Position-independent (ELF type DYN), and the shared libraries it needs at every start.
    fact s7_elf_type "$(readelf -h "$T_DEB" | awk '$1 == "Type:" { print $2 }')"
    fact s7_needed "$(readelf -d "$T_DEB" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
fi

# ---------------------------------------------------------------------------------------------
# S10 the inspector: `local inspect` on a pseudo-terminal (bench/inspect.py drives it and parses
# its screen): time from a request to its row on screen, frame time on a key press with 10,000
# captures, peak RSS.
# ---------------------------------------------------------------------------------------------
if want S10; then
    log "S10 local inspect"
    python3 "$HERE/inspect.py" "$T" "$AGENT" "$API" "$FACTS"
fi

# ---------------------------------------------------------------------------------------------
# S11 recording: `record --once` of 10,000 captures of ~2 KB into a new history, against what
# the two tools it stands for take together, measured in the same run: one curl of the same
# captures from the agent, and SQLite's own shell storing the same JSON under a unique ID (WAL,
# one transaction).
# ---------------------------------------------------------------------------------------------
if want S11; then
    log "S11 record"
    ctl POST reset >/dev/null
    ctl POST config '{"inspect_db_size": 1073741824}' >/dev/null
    BODY=$(python3 -c 'import json; print(json.dumps(json.dumps({"type": "invoice.paid", "data": {"object": {"id": "in_1", "customer": "cus_9", "lines": [{"amount": 100 + i, "description": "item %d of the order" % i} for i in range(32)]}}})))')
    c=$(ctl POST agent/captures '[{"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe",
        "headers": {"Content-Type": "application/json", "Stripe-Signature": "t=1,v1=abc", "User-Agent": "Stripe/1.0"},
        "body": '"$BODY"', "response_body": "{\"ok\":true}", "repeat": 10000}]' | jq length)
    [ "$c" = 10000 ] || die "S11: seeded $c captures, not 10000"
    S11_FILE=$TMP/s11.sqlite3
    rm -f "$S11_FILE"*
    TUNNELCTL_HISTORY_FILE=$S11_FILE "$T" local requests record --once 2>/dev/null
    c=$(TUNNELCTL_HISTORY_FILE=$S11_FILE "$T" local requests list --history --jq length)
    [ "$c" = 10000 ] || die "S11: record kept $c captures, not 10000"
    fact s11_answer_bytes "$(curl -s "$AGENT/requests/http" | wc -c)"
    fact s11_capture_bytes "$(curl -s "$AGENT/requests/http?limit=1" | jq -r '.requests[0].request.raw' | base64 -d | wc -c)"
    fact s11_file_bytes "$(stat -c %s "$S11_FILE")"
    # What keeping the same captures in SQLite costs with SQLite's own shell, the answer already
    # fetched: each capture's JSON and its ID in a table with the ID unique, in WAL mode, in one
    # transaction, no search index. With the curl, the floor under any tool that fetches the
    # captures and keeps the agent's JSON unchanged in SQLite.
    curl -s -o "$TMP/s11-answer.json" "$AGENT/requests/http"
    S11_SQL=$TMP/s11-sql.sqlite3
    cat >"$TMP/s11.sql" <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
CREATE TABLE captures (id TEXT NOT NULL UNIQUE, json TEXT NOT NULL);
INSERT INTO captures SELECT value ->> 'id', value FROM json_each(readfile('$TMP/s11-answer.json'), '\$.requests');
COMMIT;
SQL
    sqlite3 "$S11_SQL" <"$TMP/s11.sql" >/dev/null
    [ "$(sqlite3 "$S11_SQL" 'SELECT count(*) FROM captures')" = 10000 ] || die "S11: sqlite3 did not keep 10000 captures"
    fact s11_sqlite3_version "$(sqlite3 --version | cut -d' ' -f1)"
    # Every run starts from no history: --prepare removes it (and its -wal and -shm).
    TUNNELCTL_HISTORY_FILE=$S11_FILE hf s11 --warmup 1 --runs 10 \
        --prepare "rm -f $S11_FILE $S11_FILE-wal $S11_FILE-shm $S11_SQL $S11_SQL-wal $S11_SQL-shm" \
        "$T local requests record --once" \
        "curl -s -o /dev/null $AGENT/requests/http" \
        "bash -c \"sqlite3 $S11_SQL <$TMP/s11.sql\""
    ctl POST reset >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# S12 searching the history: `list --history --grep WORD` over 100,000 kept captures where one
# matches, against `grep -rl WORD` over the same captures saved one .http file each.
# ---------------------------------------------------------------------------------------------
if want S12; then
    log "S12 search"
    ctl POST reset >/dev/null
    ctl POST config '{"inspect_db_size": 1073741824}' >/dev/null
    WORD=zanzibarquux
    c=$(ctl POST agent/captures '[
      {"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/github", "status_code": 200,
       "headers": {"Content-Type": "application/json", "X-GitHub-Event": "push"},
       "body": "{\"ref\":\"refs/heads/main\",\"commits\":[{\"message\":\"fix the parser\",\"author\":\"dev\"}]}",
       "response_body": "ok", "repeat": 50000},
      {"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe", "status_code": 500,
       "headers": {"Content-Type": "application/x-www-form-urlencoded"},
       "body": "type=invoice.paid&customer=cus_42&amount=2500",
       "response_body": "internal error", "repeat": 49999},
      {"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe", "status_code": 200,
       "headers": {"Content-Type": "application/json"},
       "body": "{\"type\":\"charge.refunded\",\"note\":\"'$WORD'\"}", "response_body": "ok"}
    ]' | jq length)
    [ "$c" = 100000 ] || die "S12: seeded $c captures, not 100000"
    S12_FILE=$TMP/s12.sqlite3
    rm -f "$S12_FILE"*
    TUNNELCTL_HISTORY_FILE=$S12_FILE "$T" local requests record --once 2>/dev/null
    # The same captures, one .http file each (the raw request, then the raw response).
    S12_DIR=$TMP/s12-files
    mkdir -p "$S12_DIR"
    save_http_files "$S12_DIR"
    c=$(find "$S12_DIR" -name '*.http' | wc -l)
    [ "$c" = 100000 ] || die "S12: wrote $c files, not 100000"
    ctl POST reset >/dev/null # the agent holds nothing: only the history answers
    c=$(TUNNELCTL_HISTORY_FILE=$S12_FILE "$T" local requests list --history --grep "$WORD" --jq length)
    [ "$c" = 1 ] || die "S12: tunnelctl found $c captures, not 1"
    c=$(grep -rl "$WORD" "$S12_DIR" | wc -l)
    [ "$c" = 1 ] || die "S12: grep found $c files, not 1"
    c=$(TUNNELCTL_HISTORY_FILE=$S12_FILE "$T" local requests list --history -o ndjson | wc -l)
    [ "$c" = 100000 ] || die "S12: the history holds $c captures, not 100000"
    fact s12_file_bytes "$(stat -c %s "$S12_FILE")"
    fact s12_files_bytes "$(du -sb "$S12_DIR" | cut -f1)"
    fact s12_word "$WORD"
    TUNNELCTL_HISTORY_FILE=$S12_FILE hf s12 --warmup 3 --min-runs 10 --max-runs 50 \
        "$T local requests list --history --grep $WORD --json" \
        "grep -rl $WORD $S12_DIR"
    ctl POST reset >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# S17-S19 need a PostgreSQL server: a private cluster from the distribution's package, started
# here in $TMP on a loopback port (as the package's `postgres` user when run as root: the server
# refuses root), stopped on exit. psql is the peer of S17.
# ---------------------------------------------------------------------------------------------
pg_as() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
PGURL_BASE=
pg_start() {
    [ -n "$PG_DATA" ] && return
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
    if [ ! -x "$PG_BIN/initdb" ]; then
        log "installing postgresql"
        SUDO=
        [ "$(id -u)" = 0 ] || SUDO=sudo
        $SUDO apt-get install -y --no-install-recommends postgresql ||
            { $SUDO apt-get update && $SUDO apt-get install -y --no-install-recommends postgresql; } ||
            die "could not install postgresql"
        PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
    fi
    # A folder of its own: $TMP is the bench user's alone, and the server's user must reach it.
    local root port
    root=$(mktemp -d "${TMPDIR:-/tmp}/tunnelctl-bench-pg.XXXXXX")
    PG_ROOT=$root
    printf 'bench-pg-password' >"$root/pw"
    if [ "$(id -u)" = 0 ]; then chown -R postgres: "$root"; fi
    pg_as "$PG_BIN/initdb" -D "$root/data" -U postgres -A scram-sha-256 --pwfile="$root/pw" \
        -E UTF8 --locale=C >/dev/null
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    PG_DATA=$root/data
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$root/server.log" -w \
        -o "-p $port -k $PG_DATA -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=256MB" \
        start >/dev/null
    export PGPASSWORD=bench-pg-password PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres
    PGURL_BASE="postgres://postgres@127.0.0.1:$port"
    fact pg_version "$("$PG_BIN/postgres" --version | awk '{print $3}')"
}
psql_q() { psql -X -q -A -t -v ON_ERROR_STOP=1 "$@"; }

# ---------------------------------------------------------------------------------------------
# S17 recording into PostgreSQL: `record --once` of S11's 10,000 captures into the team store,
# against one curl of the same captures plus psql keeping the fetched answer's captures (each
# one's ID, unique, and JSON; one transaction), both timed in the same run. Each run starts
# from an empty table (the store's schema made once, as a team's is).
# ---------------------------------------------------------------------------------------------
if want S17; then
    log "S17 record into PostgreSQL"
    pg_start
    psql_q -d postgres -c 'CREATE DATABASE s17' >/dev/null
    S17_URL=$PGURL_BASE/s17
    ctl POST reset >/dev/null
    ctl POST config '{"inspect_db_size": 1073741824}' >/dev/null
    BODY=$(python3 -c 'import json; print(json.dumps(json.dumps({"type": "invoice.paid", "data": {"object": {"id": "in_1", "customer": "cus_9", "lines": [{"amount": 100 + i, "description": "item %d of the order" % i} for i in range(32)]}}})))')
    c=$(ctl POST agent/captures '[{"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe",
        "headers": {"Content-Type": "application/json", "Stripe-Signature": "t=1,v1=abc", "User-Agent": "Stripe/1.0"},
        "body": '"$BODY"', "response_body": "{\"ok\":true}", "repeat": 10000}]' | jq length)
    [ "$c" = 10000 ] || die "S17: seeded $c captures, not 10000"
    TUNNELCTL_HISTORY_URL=$S17_URL "$T" local requests record --once 2>/dev/null
    c=$(psql_q -d s17 -c 'SELECT count(*) FROM tunnelctl.captures')
    [ "$c" = 10000 ] || die "S17: record kept $c captures, not 10000"
    curl -s -o "$TMP/s17-answer.json" "$AGENT/requests/http"
    fact s17_answer_bytes "$(stat -c %s "$TMP/s17-answer.json")"
    # The answer read by psql itself (a backquoted shell command in \set), then kept in one
    # transaction.
    {
        printf '\\set answer `cat %s`\n' "$TMP/s17-answer.json"
        printf '%s\n' 'BEGIN;' \
            'CREATE TABLE IF NOT EXISTS peer (id text PRIMARY KEY, json text NOT NULL);' \
            "INSERT INTO peer SELECT r ->> 'id', r::text FROM json_array_elements((:'answer')::json -> 'requests') r;" \
            'COMMIT;'
    } >"$TMP/s17.sql"
    psql_q -d s17 -f "$TMP/s17.sql" >/dev/null
    [ "$(psql_q -d s17 -c 'SELECT count(*) FROM peer')" = 10000 ] || die "S17: psql did not keep 10000 captures"
    TUNNELCTL_HISTORY_URL=$S17_URL hf s17 --warmup 1 --runs 10 \
        --prepare "psql -X -q -d s17 -c 'TRUNCATE tunnelctl.captures; DROP TABLE IF EXISTS peer'" \
        "$T local requests record --once" \
        "curl -s -o /dev/null $AGENT/requests/http" \
        "psql -X -q -d s17 -f $TMP/s17.sql"
    ctl POST reset >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# S18 searching the team store: `list --history --grep WORD` over 200,000 kept captures in
# PostgreSQL where one matches, against `grep -rl WORD` over the same captures as files.
# ---------------------------------------------------------------------------------------------
if want S18; then
    log "S18 search the team store"
    pg_start
    psql_q -d postgres -c 'CREATE DATABASE s18' >/dev/null
    S18_URL=$PGURL_BASE/s18
    WORD=zanzibarquux
    S18_DIR=$TMP/s18-files
    mkdir -p "$S18_DIR"
    # Two rounds of 100,000 (the agent holds one round at a time).
    for round in 1 2; do
        ctl POST reset >/dev/null
        ctl POST config '{"inspect_db_size": 1073741824}' >/dev/null
        if [ $round = 1 ]; then
            last='{"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/other", "body": "round one", "response_body": "ok"}'
        else
            last='{"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe", "status_code": 200, "headers": {"Content-Type": "application/json"}, "body": "{\"type\":\"charge.refunded\",\"note\":\"'$WORD'\"}", "response_body": "ok"}'
        fi
        c=$(ctl POST agent/captures '[
          {"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/github", "status_code": 200,
           "headers": {"Content-Type": "application/json", "X-GitHub-Event": "push"},
           "body": "{\"ref\":\"refs/heads/main\",\"commits\":[{\"message\":\"fix the parser\",\"author\":\"dev\"}]}",
           "response_body": "ok", "repeat": 50000},
          {"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe", "status_code": 500,
           "headers": {"Content-Type": "application/x-www-form-urlencoded"},
           "body": "type=invoice.paid&customer=cus_42&amount=2500",
           "response_body": "internal error", "repeat": 49999}, '"$last"']' | jq length)
        [ "$c" = 100000 ] || die "S18: seeded $c captures, not 100000"
        TUNNELCTL_HISTORY_URL=$S18_URL "$T" local requests record --once 2>/dev/null
        save_http_files "$S18_DIR"
    done
    ctl POST reset >/dev/null # the agent holds nothing: only the store answers
    c=$(psql_q -d s18 -c 'SELECT count(*) FROM tunnelctl.captures')
    [ "$c" = 200000 ] || die "S18: the store holds $c captures, not 200000"
    c=$(find "$S18_DIR" -name '*.http' | wc -l)
    [ "$c" = 200000 ] || die "S18: wrote $c files, not 200000"
    psql_q -d s18 -c 'VACUUM ANALYZE tunnelctl.captures' >/dev/null
    c=$(TUNNELCTL_HISTORY_URL=$S18_URL "$T" local requests list --history --grep "$WORD" --jq length)
    [ "$c" = 1 ] || die "S18: tunnelctl found $c captures, not 1"
    c=$(grep -rl "$WORD" "$S18_DIR" | wc -l)
    [ "$c" = 1 ] || die "S18: grep found $c files, not 1"
    fact s18_db_bytes "$(psql_q -d s18 -c "SELECT pg_total_relation_size('tunnelctl.captures')")"
    fact s18_files_bytes "$(du -sb "$S18_DIR" | cut -f1)"
    fact s18_word "$WORD"
    TUNNELCTL_HISTORY_URL=$S18_URL hf s18 --warmup 3 --min-runs 10 --max-runs 50 \
        "$T local requests list --history --grep $WORD --json" \
        "grep -rl $WORD $S18_DIR"
fi

# ---------------------------------------------------------------------------------------------
# S19 many recorders into one store: 8 emulated agents of 2,500 captures each, 8 `record
# --once` at once into one PostgreSQL store, against one recorder keeping the same 20,000 from
# one agent alone. Every capture kept once.
# ---------------------------------------------------------------------------------------------
if want S19; then
    log "S19 8 recorders at once"
    pg_start
    psql_q -d postgres -c 'CREATE DATABASE s19' >/dev/null
    S19_URL=$PGURL_BASE/s19
    SEED='{"tunnel_name": "web (http)", "method": "POST", "uri": "/hooks/stripe",
        "headers": {"Content-Type": "application/json"},
        "body": "{\"type\":\"invoice.paid\",\"data\":{\"amount\":2500,\"currency\":\"eur\"}}",
        "response_body": "{\"ok\":true}"'
    AGENTS=()
    for i in $(seq 8); do
        "$MOCK" --port 0 --agent-port 0 --api-key "$KEY" --ready-file "$TMP/ready$i" \
            --inspect-db-size 1073741824 >"$TMP/mock$i.out" 2>/dev/null &
        EXTRA_MOCKS+=($!)
    done
    for i in $(seq 8); do
        for _ in $(seq 100); do
            [ -s "$TMP/ready$i" ] && grep -q '^agent API: ' "$TMP/mock$i.out" && break
            sleep 0.1
        done
        a=$(sed -n 's/^agent API: //p' "$TMP/mock$i.out")
        m=$(head -n1 "$TMP/ready$i")
        [ -n "$a" ] || die "S19: emulator $i did not start"
        c=$(curl -sS -X POST -H 'Content-Type: application/json' "$m/_mock/agent/captures" \
            -d "[$SEED, \"repeat\": 2500}]" | jq length)
        [ "$c" = 2500 ] || die "S19: seeded $c captures on agent $i, not 2500"
        AGENTS+=("$a")
    done
    ctl POST reset >/dev/null
    ctl POST config '{"inspect_db_size": 1073741824}' >/dev/null
    c=$(ctl POST agent/captures "[$SEED, \"repeat\": 20000}]" | jq length)
    [ "$c" = 20000 ] || die "S19: seeded $c captures, not 20000"
    {
        for a in "${AGENTS[@]}"; do
            printf 'TUNNELCTL_AGENT_URL=%s %s local requests record --once 2>/dev/null &\n' "$a" "$T"
        done
        printf 'wait\n'
    } >"$TMP/s19-eight.sh"
    TUNNELCTL_HISTORY_URL=$S19_URL bash "$TMP/s19-eight.sh"
    c=$(psql_q -d s19 -c 'SELECT count(*) FROM tunnelctl.captures')
    [ "$c" = 20000 ] || die "S19: 8 recorders kept $c captures, not 20000"
    c=$(psql_q -d s19 -c 'SELECT count(*) FROM (SELECT source, id FROM tunnelctl.captures GROUP BY 1, 2 HAVING count(*) > 1) d')
    [ "$c" = 0 ] || die "S19: $c captures kept twice"
    fact s19_sources "$(psql_q -d s19 -c 'SELECT count(DISTINCT source) FROM tunnelctl.captures')"
    TUNNELCTL_HISTORY_URL=$S19_URL hf s19 --warmup 1 --runs 10 \
        --prepare "psql -X -q -d s19 -c 'TRUNCATE tunnelctl.captures'" \
        "bash $TMP/s19-eight.sh" \
        "$T local requests record --once"
    ctl POST reset >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# S13 webhook fixtures: 200 fixtures (a Stripe-signed JSON webhook each, with its expectation)
# against a local handler that answers in about 5 ms. `local requests test --parallel 8` (each
# request signed again, sent and its answer checked) against one `curl -Z` process sending the
# same 200 requests, 8 at a time, and against a shell loop running `send` once per file.
# ---------------------------------------------------------------------------------------------
if want S13; then
    log "S13 webhook fixtures"
    S13=$TMP/s13
    mkdir -p "$S13/hooks"
    python3 - "$TMP/s13-handler.log" <<'PY' &
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The answer in one write, sent at once: head and body written apart would wait on
    # Nagle's algorithm and the client's delayed ACK (40 ms on Linux) on a kept-alive
    # connection.
    wbufsize = -1
    disable_nagle_algorithm = True

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(0.005)
        body = json.dumps({"received": True, "path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

# A backlog of 5 (the default) drops the connections of a burst: their SYN is sent again
# after a second.
ThreadingHTTPServer.request_queue_size = 256
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(sys.argv[1], "w") as f:
    f.write(f"port {server.server_address[1]}\n")
server.serve_forever()
PY
    HANDLER_PID=$!
    for _ in $(seq 50); do grep -q '^port' "$TMP/s13-handler.log" 2>/dev/null && break; sleep 0.1; done
    HANDLER="http://127.0.0.1:$(sed -n 's/^port //p' "$TMP/s13-handler.log")"
    export TUNNELCTL_WEBHOOK_SECRET_STRIPE=whsec_bench_s13_secret
    # The fixtures, and the same requests as a curl config (signed once, as captured).
    python3 - "$S13" "$HANDLER" <<'PY'
import hashlib, hmac, json, os, sys, time
root, handler = sys.argv[1], sys.argv[2]
secret = os.environ["TUNNELCTL_WEBHOOK_SECRET_STRIPE"]
with open(os.path.join(root, "curl.cfg"), "w") as cfg:
    for i in range(200):
        name, path = f"post-hooks-n{i:03d}", f"/hooks/n{i:03d}"
        body = json.dumps({"type": "invoice.paid", "data": {"n": i, "amount": 100 * i}})
        t = int(time.time())
        sig = hmac.new(secret.encode(), f"{t}.{body}".encode(), hashlib.sha256).hexdigest()
        head = (f"POST {path} HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\n"
                f"Stripe-Signature: t={t},v1={sig}\r\nContent-Length: {len(body)}\r\n\r\n")
        with open(os.path.join(root, "hooks", name + ".http"), "w") as f:
            f.write(head + body)
        snapshot = json.dumps({"received": True, "path": path})
        with open(os.path.join(root, "hooks", name + ".expect.toml"), "w") as f:
            f.write('status = 200\njq = [".received == true"]\n\n[headers]\n'
                    'Content-Type = "application/json*"\n\n'
                    f"[body]\njson = '{snapshot}'\n")
        with open(os.path.join(root, name + ".json"), "w") as f:
            f.write(body)
        cfg.write(("next\n" if i else "") + f'url = "{handler}{path}"\n'
                  f'data-binary = "@{root}/{name}.json"\n'
                  f'header = "Content-Type: application/json"\n'
                  f'header = "Stripe-Signature: t={t},v1={sig}"\n'
                  'output = "/dev/null"\nwrite-out = "%{http_code}\\n"\n')
PY
    # Both must do the work before they are timed: every fixture passes, curl gets 200 each time.
    "$T" local requests test "$S13/hooks" --to "$HANDLER" --parallel 8 >"$TMP/s13.out" 2>&1 ||
        die "S13: the fixtures do not pass: $(tail -n 5 "$TMP/s13.out")"
    fact s13_passed "$(grep -c '^PASS' "$TMP/s13.out")"
    codes=$(curl -sS -Z --parallel-max 8 -K "$S13/curl.cfg" | sort | uniq -c | tr -s ' ')
    [ "$codes" = " 200 200" ] || die "S13: curl got $codes"
    printf '%s\n' "for f in $S13/hooks/*.http; do $T local requests send \"\$f\" --to $HANDLER >/dev/null || exit 1; done" >"$TMP/s13-loop.sh"
    bash "$TMP/s13-loop.sh" || die "S13: the send loop fails"
    hf s13 --warmup 1 --runs 5 \
        "$T local requests test $S13/hooks --to $HANDLER --parallel 8" \
        "curl -sS -Z --parallel-max 8 -K $S13/curl.cfg" \
        "bash $TMP/s13-loop.sh"
    unset TUNNELCTL_WEBHOOK_SECRET_STRIPE
    kill "$HANDLER_PID" 2>/dev/null || true
fi

# ---------------------------------------------------------------------------------------------
# S14 plan of an account of 2,000 resources: 500 IP policies, 500 backends, 500 destinations and
# 500 subscriptions (each naming a destination), exported, then planned. `plan` must send the
# list pages and nothing else (20 pages of 100); it is timed against one kept-alive curl
# fetching the same 20 pages.
# ---------------------------------------------------------------------------------------------
if want S14; then
    log "S14 plan of 2,000 resources"
    ctl POST reset >/dev/null
    ctl POST config '{"page_size": 100, "latency_ms": 0, "rate_limit": null}' >/dev/null
    python3 -c 'import json; print(json.dumps({
        "ip_policy_count": 500,
        "backends": [{"description": f"backend {i}", "labels": {"app": f"a{i}", "env": "prod"}} for i in range(500)],
        "event_destinations": [{"description": f"dest {i}", "target": {"kinesis": {"stream_arn": f"arn:aws:kinesis:us-east-1:1:stream/s{i}", "auth": {"role": {"role_arn": "arn:aws:iam::1:role/r"}}}}} for i in range(500)]}))' |
        curl -sS --fail-with-body -X POST -H 'Content-Type: application/json' --data-binary @- "$API/_mock/seed" |
        jq -c '{event_subscriptions: [.event_destinations[] | {description: "sub", sources: [{type: "ip_policy_created.v0"}], destination_ids: [.]}]}' |
        curl -sS --fail-with-body -X POST -H 'Content-Type: application/json' --data-binary @- "$API/_mock/seed" >/dev/null
    S14_FILE=$TMP/s14.toml
    "$T" --rate off export --out "$S14_FILE"
    PAGES=$TMP/s14-pages.curlrc
    : >"$PAGES"
    n=0
    for path in ip_policies backends/tunnel_group event_destinations event_subscriptions; do
        u="$API/$path"
        while [ "$u" != null ]; do
            printf 'url = "%s"\n' "$u" >>"$PAGES"
            u=$(api "$u" | jq -r .next_page_uri)
            n=$((n + 1))
        done
    done
    [ "$n" = 20 ] || die "S14: expected 20 pages, found $n"
    ctl DELETE requests >/dev/null
    "$T" plan -f "$S14_FILE" --exit-code 2>"$TMP/s14.err" ||
        die "S14: the plan of the export is not clean: $(cat "$TMP/s14.err")"
    grep -q '(2000 resource(s) checked)' "$TMP/s14.err" || die "S14: $(cat "$TMP/s14.err")"
    all=$(ctl GET requests | jq length)
    pages=$(ctl GET requests | jq '[.[] | select(.method == "GET" and (.path | test("^/(ip_policies|backends/tunnel_group|event_destinations|event_subscriptions)$")))] | length')
    [ "$pages" = 20 ] && [ "$all" = 20 ] || die "S14: plan sent $all requests, $pages of them list pages (20 expected)"
    fact s14_requests "$all"
    c=$(curl -s -H "$AUTH" -H "$SV" -K "$PAGES" -w '%{stderr}%{num_connects}\n' 2>&1 >/dev/null | awk '{s += $1} END {print s}')
    [ "$c" = 1 ] || die "S14: the one curl process opened $c connections, not 1"
    hf s14 --warmup 3 --min-runs 20 --max-runs 100 \
        "$T plan -f $S14_FILE" \
        "curl -s -H '$AUTH' -H '$SV' -K $PAGES"
    # The bound is checked on the two run by turns, as S1's is: a shared machine drifts
    # between hyperfine's blocks by more than the few milliseconds the bound allows.
    python3 "$ROOT/bench/interleave.py" 200 "$TMP/s14_interleaved.json" \
        "$T plan -f $S14_FILE" "curl -s -H '$AUTH' -H '$SV' -K $PAGES" ||
        die "S14: the interleaved runs failed"
    rss s14_rss 5 "$T" plan -f "$S14_FILE"
fi

# ---------------------------------------------------------------------------------------------
# S15 apply of 300 creates under the rate limit. The emulator enforces 120 requests per 6 s (the
# service's 120 per 60 s, ten times faster so that a run takes seconds, not minutes) and
# tunnelctl paces itself to the same (--rate 120/6). The 304 requests (4 list pages, 300
# creates) fit in no fewer than 2 full windows after the first: 12 s is the ideal paced time.
# No answer may be a 429.
# ---------------------------------------------------------------------------------------------
if want S15; then
    log "S15 apply of 300 creates under the rate limit"
    S15_FILE=$TMP/s15.toml
    python3 -c 'print("".join(f"[ip_policies.p{i:03d}]\ndescription = \"policy {i}\"\n\n" for i in range(300)))' >"$S15_FILE"
    cat >"$TMP/s15-prepare.sh" <<EOF
set -euo pipefail
curl -sS --fail-with-body -X POST "$API/_mock/reset" >/dev/null
curl -sS --fail-with-body -X POST -H 'Content-Type: application/json' \
  -d '{"rate_limit": {"max": 120, "per_ms": 6000}, "latency_ms": 0}' "$API/_mock/config" >/dev/null
EOF
    bash "$TMP/s15-prepare.sh"
    "$T" --rate 120/6 apply -f "$S15_FILE" --yes >/dev/null 2>"$TMP/s15.err" ||
        die "S15: apply failed: $(tail -n 3 "$TMP/s15.err")"
    c=$(ctl GET state | jq '.ip_policies | length')
    [ "$c" = 300 ] || die "S15: $c policies made, not 300"
    fact s15_429 "$(ctl GET stats | jq '.rate_limited // 0')"
    fact s15_requests "$(ctl GET requests | jq length)"
    hf s15 --runs 3 --prepare "bash $TMP/s15-prepare.sh" \
        "$T --rate 120/6 apply -f $S15_FILE --yes"
    # The stats of the last timed run (each run starts from a reset).
    fact s15_429_last "$(ctl GET stats | jq '.rate_limited // 0')"
    ctl POST config '{"rate_limit": null}' >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# S16 the fleet live: `sessions watch` over 5,000 sessions (50 pages of 100) on a pseudo-terminal
# (bench/watch.py drives it and parses its screen): the first full screen against
# `sessions list --json`, frame time on a key press during refreshes, RSS after the 10th and the
# 100th refresh of a fleet that churns, peak RSS.
# ---------------------------------------------------------------------------------------------
if want S16; then
    log "S16 sessions watch"
    python3 "$HERE/watch.py" "$T" "$API" "$FACTS"
    ctl POST reset >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# The machine, then the report.
# ---------------------------------------------------------------------------------------------
fact nproc "$(nproc)"
fact cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
fact mem_kib "$(sed -n 's/^MemTotal:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/meminfo)"
fact os "$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -s), kernel $(uname -r), $(uname -m)"
fact versions "$(hyperfine --version), $(curl --version | head -n1 | cut -d' ' -f1-2), $(jq --version), $(rustc --version 2>/dev/null || echo rustc ?)"
fact commit "$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$ROOT" && [ -n "$(git status --porcelain -- src mock Cargo.toml Cargo.lock 2>/dev/null)" ] && echo ' (with uncommitted changes to src/mock/Cargo)')"
fact started "$STARTED"
fact invocation "$INVOCATION"
fact scenarios "$SCENARIOS"
fact elapsed_s "$((SECONDS - T0))"

# The report names no machine paths: the build folder and the temporary folder are shown
# by their role.
python3 "$HERE/report.py" "$TMP" "$FACTS" |
    sed -e "s|$TARGET_DIR/release/|target/release/|g" -e "s|$TMP/|\$TMP/|g" >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
log "wrote $OUT in $((SECONDS - T0)) s"
cat "$OUT"
