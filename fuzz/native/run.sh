#!/usr/bin/env bash
# Fuzz the native canonical-form verifier (python/omnimessage/_native/verify.c) under AddressSanitizer
# and UndefinedBehaviorSanitizer: build fuzz/native/driver.c with it (gcc, or $CC), then run it for
# SECONDS on the seeds in SEED_DIR. A sanitizer report fails the run (exit status != 0), and its input
# is not lost: the driver prints the seed of its random generator, which replays the run.
#   bash fuzz/native/run.sh SECONDS SEED_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:?seconds}; seeds=${2:?seed folder}
out=.fuzz-native; mkdir -p "$out"
src=python/omnimessage/_native
${CC:-gcc} -std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
  -Wall -Wextra -Werror -I"$src" "$src/verify.c" fuzz/native/driver.c -o "$out/driver"
rng=${FUZZ_NATIVE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "fuzz_native: rng seed $rng (FUZZ_NATIVE_SEED=$rng replays it)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/driver" "$seconds" "$seeds" "$rng"
