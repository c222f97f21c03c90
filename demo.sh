#!/usr/bin/env sh
# Builds tunnelctl and its emulator, then shows the tool at work against the emulator
# (seeded with a small demo account). Nothing leaves this machine.
#
# `./demo.sh tour` runs only the tour, against whatever the TUNNELCTL_* variables point at
# (the emulator runs it that way below; the test suite too).
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
}

if [ "${1:-}" = tour ]; then
  tour
  exit 0
fi

echo "Building tunnelctl and tunnelctl-mock (cargo build; a minute or two the first time)..." >&2
cargo build --workspace --locked
PATH="$PWD/target/debug:$PATH"
export PATH
echo "Starting the emulator with a demo account; the commands below run against it." >&2
exec tunnelctl-mock --demo exec -- sh "$PWD/$(basename "$0")" tour
