/* Mutation fuzzer of the native canonical-form verifier (python/omnimessage/_native/verify.c),
 * built with gcc -fsanitize=address,undefined by `make fuzz` (fuzz/native/run.sh): no libFuzzer
 * needed. Seeds are the files of a folder (the decode corpus: conformance fixtures, canonical
 * lines); each round copies a seed (or a splice of two) into an exactly sized heap buffer, applies
 * a few random byte edits, and runs the verifier, so a read past the line is a sanitizer report.
 *
 * Built with -DOMV_DIFFERENTIAL, every input also goes through the SWAR build (-DOMV_NO_SSE2) and
 * the portable scalar build (-DOMV_SCALAR_ONLY) of the verifier: all three must agree.
 *
 *   driver SECONDS SEED_DIR [RNG_SEED]   -> prints "Done N runs (A accepted)" and exits 0
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify.h"

#ifdef OMV_DIFFERENTIAL
/* verify.c built twice more (fuzz/native/run.sh): eight bytes at a time (-DOMV_NO_SSE2) and the
 * byte loop alone (-DOMV_SCALAR_ONLY). All three must agree. */
int omv_canonical_swar(const unsigned char *data, size_t n);
int omv_canonical_scalar(const unsigned char *data, size_t n);

static int check(const unsigned char *data, size_t n) {
    int a = omv_canonical(data, n), b = omv_canonical_swar(data, n), s = omv_canonical_scalar(data, n);
    if (a != b || a != s) {
        fprintf(stderr, "the vector, SWAR and scalar verifiers disagree (%d, %d, %d) on %zu bytes:\n", a, b, s, n);
        fwrite(data, 1, n, stderr);
        abort();
    }
    return a;
}
#else
#define check omv_canonical
#endif

typedef struct {
    unsigned char *data;
    size_t len;
} blob;

static uint64_t rng_state;

static uint64_t next(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static const char *const TOKENS[] = {
    "\"", "\\", "\\u", "\\ud800", "\\u00e9", "\\u001f", "\\/", "{", "}", "[", "]", ",", ":", " ", "\n",
    "-0", "0.5", "1e21", "1.0", "9007199254740992", "null", "true", "\xc3\xa9", "\xed\xa0\x80", "\xf4\x90\x80\x80",
    "\"type\":", "\"payload\":", "\"timestamp\":", "\"fidelity\":{}", "\"origin\":[\"a\"]", "\xff",
};

static blob load(const char *path) {
    blob b = {0, 0};
    FILE *f = fopen(path, "rb");
    if (!f) return b;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n > 0 && n < (1L << 22)) {
        b.data = malloc((size_t)n);
        if (b.data && fread(b.data, 1, (size_t)n, f) == (size_t)n) b.len = (size_t)n;
    }
    fclose(f);
    return b;
}

/* One mutated input into `out` (capacity `cap`); its length. */
static size_t mutate(const blob *seeds, size_t nseeds, unsigned char *out, size_t cap) {
    const blob *a = &seeds[next() % nseeds];
    size_t len = a->len < cap ? a->len : cap;
    memcpy(out, a->data, len);
    int edits = 1 + (int)(next() % 4);
    for (int i = 0; i < edits; i++) {
        size_t at = len ? (size_t)(next() % (len + 1)) : 0;
        switch (next() % 6) {
        case 0: /* flip a byte */
            if (at < len) out[at] ^= (unsigned char)(1u << (next() % 8));
            break;
        case 1: /* a random byte */
            if (at < len) out[at] = (unsigned char)next();
            break;
        case 2: /* delete a run */
            if (at < len) {
                size_t n = 1 + (size_t)(next() % 8);
                if (n > len - at) n = len - at;
                memmove(out + at, out + at + n, len - at - n);
                len -= n;
            }
            break;
        case 3: { /* insert a token */
            const char *t = TOKENS[next() % (sizeof TOKENS / sizeof *TOKENS)];
            size_t n = strlen(t);
            if (len + n <= cap) {
                memmove(out + at + n, out + at, len - at);
                memcpy(out + at, t, n);
                len += n;
            }
            break;
        }
        case 4: /* truncate */
            len = at;
            break;
        default: { /* splice the tail of another seed */
            const blob *b = &seeds[next() % nseeds];
            size_t from = b->len ? (size_t)(next() % b->len) : 0, n = b->len - from;
            if (at + n > cap) n = cap - at;
            memcpy(out + at, b->data + from, n);
            len = at + n;
        }
        }
    }
    return len;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SECONDS SEED_DIR [RNG_SEED]\n", argv[0]);
        return 2;
    }
    double seconds = atof(argv[1]);
    rng_state = argc > 3 ? strtoull(argv[3], 0, 10) | 1 : (uint64_t)time(0) | 1;
    DIR *d = opendir(argv[2]);
    if (!d) {
        perror(argv[2]);
        return 2;
    }
    size_t nseeds = 0, capseeds = 64;
    blob *seeds = malloc(capseeds * sizeof *seeds);
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != 0) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", argv[2], e->d_name);
        blob b = load(path);
        if (!b.len) continue;
        if (nseeds == capseeds) seeds = realloc(seeds, (capseeds *= 2) * sizeof *seeds);
        seeds[nseeds++] = b;
    }
    closedir(d);
    if (nseeds == 0) {
        fprintf(stderr, "%s: no seeds in %s\n", argv[0], argv[2]);
        return 2;
    }
    size_t cap = 1 << 16, accepted = 0, seed_accepted = 0;
    unsigned char *scratch = malloc(cap);
    for (size_t i = 0; i < nseeds; i++) { /* every seed as is, exactly sized */
        unsigned char *buf = malloc(seeds[i].len);
        memcpy(buf, seeds[i].data, seeds[i].len);
        seed_accepted += (size_t)check(buf, seeds[i].len);
        free(buf);
    }
    unsigned long long runs = 0;
    clock_t stop = clock() + (clock_t)(seconds * CLOCKS_PER_SEC);
    while (clock() < stop) {
        for (int k = 0; k < 256; k++, runs++) {
            size_t len = mutate(seeds, nseeds, scratch, cap);
            unsigned char *buf = malloc(len ? len : 1);
            memcpy(buf, scratch, len);
            accepted += (size_t)check(buf, len);
            free(buf);
        }
    }
    free(scratch);
    for (size_t i = 0; i < nseeds; i++) free(seeds[i].data);
    free(seeds);
    printf("seeds: %zu (%zu canonical)\nDone %llu runs (%zu accepted)\n", nseeds, seed_accepted, runs, accepted);
    return 0;
}
