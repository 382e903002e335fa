#!/bin/sh
# Builds the streams library into directory $1: libstreams.a (generic),
# streams.bc (its code, for respec link), streams.rules; and four clients.
set -e
inputs=$(dirname "$0")
out=$1
mkdir -p "$out"
cd "$out"
cp "$inputs/streams.rules" .
clang -c -O2 -fPIC "$inputs/streams.c" -o streams.o
ar rcs libstreams.a streams.o
echo 'void respec_streams_spec(void) {}' > spec.c
respec embed spec.c "$inputs/streams.c" --emit-llvm -o streams.bc
clang -c -O2 -I"$inputs" "$inputs/client.c" -o client.o
clang -c -O2 -I"$inputs" -DCOUNT "$inputs/client.c" -o client-count.o
clang -c -O2 -I"$inputs" -DOWN_TABLE "$inputs/client.c" -o client-own.o
clang -c -O2 -I"$inputs" -DLATE "$inputs/client.c" -o client-late.o
