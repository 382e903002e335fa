#!/bin/sh
# Builds tally into directory $1 as a library with link-time rules ships:
# libtally.a (generic), libtally-quiet.a (a prebuilt variant), tally.bc (its
# code and spec for respec link to specialize), tally.rules; and the clients.
set -e
inputs=$(dirname "$0")
out=$1
mkdir -p "$out"
cd "$out"
cp "$inputs/tally.rules" .
clang -c -O2 -fPIC "$inputs/tally.c" -o tally.o
ar rcs libtally.a tally.o
clang -c -O2 -fPIC -DTALLY_BUILD='"quiet"' "$inputs/tally.c" -o tally-quiet.o
ar rcs libtally-quiet.a tally-quiet.o
respec embed "$inputs/tally_spec.c" "$inputs/tally.c" --emit-llvm -o tally.bc
include=$(respec --version | sed -n 's/^include: //p')
clang -c -O2 "$inputs/client.c" -o client.o
clang -c -O2 -DTHREADS "$inputs/client.c" -o client-threads.o
clang -c -O2 -DTHREADS -DHIDDEN "$inputs/client.c" -o client-hidden.o
clang -c -O2 -DQUIET -I"$include" "$inputs/client.c" -o client-quiet.o
