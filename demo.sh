#!/usr/bin/env sh
# Builds tunnelctl and its emulator, then shows the tool at work against the emulator
# (seeded with a small demo account). Nothing leaves this machine.
set -eu
cd "$(dirname "$0")"
cargo build --quiet --workspace --locked
PATH="$PWD/target/debug:$PATH"
export PATH
exec tunnelctl-mock --demo exec -- sh -c '
  show() { printf "\n\$ %s\n" "$*"; "$@"; }
  show tunnelctl sessions list
  show tunnelctl ip-policies create --description "office network"
  show tunnelctl ip-policies list
  show tunnelctl backends tunnel-group list
  show tunnelctl event-subscriptions list
  show tunnelctl sessions list --jq ".[] | select(.os == \"linux\") | .id"
'
