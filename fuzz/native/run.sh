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
# verify.c three times: the default (two blocks of sixteen bytes a turn through plain strings with SSE2 on x86,
# else eight), eight at a time (-DOMV_NO_SSE2, renamed omv_canonical_swar) and the portable byte loop
# (-DOMV_SCALAR_ONLY, renamed omv_canonical_scalar); the driver runs all three on every input and
# aborts when they disagree.
cflags=(-std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
        -Wall -Wextra -Werror -I"$src")
${CC:-gcc} "${cflags[@]}" -c "$src/verify.c" -o "$out/verify-default.o"
${CC:-gcc} "${cflags[@]}" -DOMV_NO_SSE2 -Domv_canonical=omv_canonical_swar -Domv_table_id=omv_table_id_swar \
  -c "$src/verify.c" -o "$out/verify-swar.o"
${CC:-gcc} "${cflags[@]}" -DOMV_SCALAR_ONLY -Domv_canonical=omv_canonical_scalar -Domv_table_id=omv_table_id_scalar \
  -c "$src/verify.c" -o "$out/verify-scalar.o"
${CC:-gcc} "${cflags[@]}" -DOMV_DIFFERENTIAL fuzz/native/driver.c "$out/verify-default.o" "$out/verify-swar.o" "$out/verify-scalar.o" \
  -o "$out/driver"
rng=${FUZZ_NATIVE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "fuzz_native: rng seed $rng (FUZZ_NATIVE_SEED=$rng replays it)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/driver" "$seconds" "$seeds" "$rng"
