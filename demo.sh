#!/usr/bin/env sh
# Builds tunnelctl and its emulator, then shows the tool at work against the emulator
# (seeded with a small demo account). Nothing leaves this machine.
#
# `./demo.sh tour` runs only the tour, against whatever the TUNNELCTL_* variables point at
# (the emulator runs it that way below; the test suite too). Its local half, where a tunnel
# forwards webhooks to a web app, runs when TUNNELCTL_DEMO_UPSTREAM names that app (the
# emulator's `--demo` serves one) and curl is installed.
set -eu
cd "$(dirname "$0")"

# Prints an argument so that it can be pasted into a shell: as is when it is plain, else in
# single quotes (a quote inside written as '\'').
quote() {
  case $1 in
    '' | *[!A-Za-z0-9_./:=@%+,-]*)
      printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
    *) printf '%s' "$1" ;;
  esac
}

# Prints the command as it would be typed, then runs it.
show() {
  printf '\n$'
  for arg in "$@"; do
    printf ' %s' "$(quote "$arg")"
  done
  printf '\n'
  "$@"
}

tour() {
  show tunnelctl sessions list
  show tunnelctl ip-policies create --description "office network"
  show tunnelctl ip-policies list
  show tunnelctl backends tunnel-group list
  show tunnelctl event-subscriptions list
  show tunnelctl sessions list --jq '.[] | select(.os == "linux") | .id'
  if [ -n "${TUNNELCTL_DEMO_TLS_EDGE:-}" ]; then
    show tunnelctl edges tls-termination get "$TUNNELCTL_DEMO_TLS_EDGE"
  fi
  if [ -n "${TUNNELCTL_DEMO_UPSTREAM:-}" ] && command -v curl >/dev/null 2>&1; then
    local_tour
  fi
}

# The local half: a tunnel to the demo's web app, webhooks through it, then what the agent
# captured, one decoded, one replayed with a change; then all of them kept in the history and
# one turned into a fixture that `test` checks against the app.
local_tour() {
  echo
  echo "# The local agent: a tunnel 'hook' to the demo's web app at $TUNNELCTL_DEMO_UPSTREAM"
  show tunnelctl local tunnels start --name hook --proto http --addr "$TUNNELCTL_DEMO_UPSTREAM"
  # Requests go to the `hook (http)` twin, which listens on 127.0.0.1 (its https address is
  # only a name on the emulator).
  hook=$(tunnelctl local tunnels get 'hook (http)' --jq .public_url)
  echo
  echo "# Three webhooks through $hook: JSON, a form, a gzip body"
  show curl -sS -o /dev/null -X POST "$hook/hooks/stripe" -H 'Content-Type: application/json' \
    --data-raw '{"type":"invoice.paid","data":{"amount":1200,"currency":"eur"}}'
  show curl -sS -o /dev/null -X POST "$hook/hooks/form" --data-urlencode 'name=Ada Lovelace' \
    --data-urlencode 'plan=pro'
  printf '{"event":"build.finished","status":"green"}' | gzip > "$work/body.gz"
  show curl -sS -o /dev/null -X POST "$hook/hooks/ci" -H 'Content-Type: application/json' \
    -H 'Content-Encoding: gzip' --data-binary "@$work/body.gz"
  show tunnelctl local requests list
  first=$(tunnelctl local requests list --path /hooks/stripe --jq '.[0].id')
  gzipped=$(tunnelctl local requests list --path /hooks/ci --jq '.[0].id')
  show tunnelctl local requests get "$gzipped"
  show tunnelctl local requests replay "$first" --set data.amount=2500
  echo
  echo "# Keep what came in past the agent's memory (a SQLite file), and make one a test"
  TUNNELCTL_HISTORY_FILE="$work/history.sqlite3"
  export TUNNELCTL_HISTORY_FILE
  show tunnelctl local requests record --once
  show tunnelctl local requests list --history --grep invoice.paid
  show tunnelctl local requests save "$first" --into "$work/hooks"
  show tunnelctl local requests test "$work/hooks" --to "$hook"
  show tunnelctl local tunnels stop hook --yes
}

if [ "${1:-}" = tour ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  tour
  exit 0
fi

echo "Building tunnelctl and tunnelctl-mock (cargo build; a minute or two the first time)..." >&2
cargo build --workspace --locked
PATH="$PWD/target/debug:$PATH"
export PATH
echo "Starting the emulator with a demo account; the commands below run against it." >&2
exec tunnelctl-mock --demo exec -- sh "$PWD/$(basename "$0")" tour
