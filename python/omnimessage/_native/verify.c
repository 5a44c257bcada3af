/* The canonical-form verifier: see verify.h. Facts from schema/README.md (canonical form) and the
 * Rust binding's one-pass grammar (rust/src/grammar.rs, number.rs, strings.rs); every branch that
 * is not sure answers 0, and the Python slow path decides. One vector path (skip_plain, SSE2) beside
 * the portable scalar code. */
#include <stdint.h>
#include <string.h>

#if !defined(OMV_NO_SSE2) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define OMV_SSE2 1
#include <emmintrin.h>
#endif

#include "verify.h"
#include "generated/omv_table.h"

const char omv_table_id[] = OMV_TABLE_ID;

/* Verbatim values may not reach this close to the depth limit (the slow path decides those). */
#define DEPTH_LIMIT (OMV_MAX_DEPTH - 8)

typedef struct {
    const unsigned char *p, *end;
    int depth;
} cur;

#define PEEK(c) ((c)->p < (c)->end ? (int)*(c)->p : -1)

/* 1 for the bytes a string cannot hold raw: `"`, `\`, controls. Non-ASCII bytes need a closer look
 * in verbatim values only (skip_plain's `non_ascii`): outside them msgspec has decoded every string
 * into a str, and its decoder refuses ill-formed UTF-8 (see verify.h). */
static const unsigned char SPECIAL[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static int is_digit(int b) { return b >= '0' && b <= '9'; }

#if defined(_MSC_VER)
#include <intrin.h>
static unsigned first_bit(unsigned mask) {
    unsigned long i;
    _BitScanForward(&i, mask);
    return (unsigned)i;
}
#else
#define first_bit(mask) ((unsigned)__builtin_ctz(mask))
#endif

/* Skips the plain bytes of a string and stops on the first other one: `"`, `\`, a control byte,
 * and when `non_ascii` is set, a non-ASCII byte.
 * Sixteen bytes at a time with SSE2 (every x86-64 has it; two blocks a turn), else eight at a time (SWAR, portable C: the
 * lowest flagged byte is exact, so on a little-endian machine the count of trailing zeros finds
 * it); the byte loop finishes. OMV_NO_SSE2 builds the SWAR path on x86 too, OMV_SCALAR_ONLY the
 * byte loop alone: `make fuzz` builds all three and compares them (fuzz/native/run.sh). */
#if !defined(OMV_SCALAR_ONLY) && defined(OMV_SSE2)
/* The bytes of the 16 at p that skip_plain stops on, as a bit mask (bit i: byte i). */
static unsigned special16(const unsigned char *p, int non_ascii) {
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20),
                  last_control = _mm_set1_epi8(0x1F);
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* signed, a byte from 0x80 up is below 0x20 too; unsigned (min), controls alone */
    __m128i low = non_ascii ? _mm_cmplt_epi8(x, space) : _mm_cmpeq_epi8(_mm_min_epu8(x, last_control), x);
    __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)), low);
    return (unsigned)_mm_movemask_epi8(special);
}
#endif

static void skip_plain(cur *c, int non_ascii) {
#if !defined(OMV_SCALAR_ONLY) && defined(OMV_SSE2)
    /* 32 bytes a turn while they last (one test and one branch for two blocks: long text is the
     * common string), then one block of 16 */
    while (c->end - c->p >= 32) {
        unsigned mask = special16(c->p, non_ascii) | special16(c->p + 16, non_ascii) << 16;
        if (mask) {
            c->p += first_bit(mask);
            return;
        }
        c->p += 32;
    }
    if (c->end - c->p >= 16) {
        unsigned mask = special16(c->p, non_ascii);
        if (mask) {
            c->p += first_bit(mask);
            return;
        }
        c->p += 16;
    }
#elif !defined(OMV_SCALAR_ONLY)
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    while (c->end - c->p >= 8) {
        uint64_t x;
        memcpy(&x, c->p, 8);
        uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
        uint64_t special = ((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x);
        special = (special | (non_ascii ? x : 0)) & highs;
        if (special) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            c->p += __builtin_ctzll(special) >> 3;
            return;
#else
            break;
#endif
        }
        c->p += 8;
    }
#endif
    const unsigned high = non_ascii ? 0x80 : 0;
    while (c->p < c->end && !SPECIAL[*c->p] && !(*c->p & high)) c->p++;
}

static int hex_value(int b) {
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

/* One well-formed UTF-8 sequence of two to four bytes at c->p (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF); advances past it. */
static int utf8_sequence(cur *c) {
    const unsigned char *p = c->p;
    size_t left = (size_t)(c->end - p);
    unsigned b = p[0];
    if (b >= 0xC2 && b <= 0xDF) {
        if (left < 2 || (p[1] & 0xC0) != 0x80) return 0;
        c->p += 2;
        return 1;
    }
    if (b >= 0xE0 && b <= 0xEF) {
        unsigned lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
        if (left < 3 || p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80) return 0;
        c->p += 3;
        return 1;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        unsigned lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
        if (left < 4 || p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        c->p += 4;
        return 1;
    }
    return 0;
}

/* A string at c->p (its opening quote). canonical: JSON.stringify's escapes only (\" \\ \b \f \n
 * \r \t, \u00xx in lower-case hex for the other controls; lone surrogates, which only a streaming
 * fragment may hold, are left to the slow path). Otherwise (verbatim values) any JSON escape, a
 * surrogate one only as half of a pair, and raw bytes well-formed UTF-8 (outside verbatim values
 * msgspec has checked that: verify.h). */
static int string(cur *c, int canonical) {
    c->p++;
    for (;;) {
        skip_plain(c, !canonical);
        if (c->p >= c->end) return 0;
        unsigned b = *c->p;
        if (b == '"') {
            c->p++;
            return 1;
        }
        if (b < 0x20) return 0;
        if (b >= 0x80) { /* and the run of non-ASCII characters it begins */
            do {
                if (!utf8_sequence(c)) return 0;
            } while (c->p < c->end && *c->p >= 0x80);
            continue;
        }
        /* a backslash */
        if (c->end - c->p < 2) return 0;
        int e = c->p[1];
        if (e == '"' || e == '\\' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
            c->p += 2;
            continue;
        }
        if (e == '/' && !canonical) {
            c->p += 2;
            continue;
        }
        if (e != 'u' || c->end - c->p < 6) return 0;
        int v = 0;
        for (int i = 2; i < 6; i++) {
            int h = hex_value(c->p[i]);
            if (h < 0 || (canonical && c->p[i] >= 'A' && c->p[i] <= 'F')) return 0;
            v = v * 16 + h;
        }
        if (v >= 0xD800 && v <= 0xDFFF) { /* in a verbatim value, a whole pair only */
            if (canonical || v >= 0xDC00 || c->end - c->p < 12 || c->p[6] != '\\' || c->p[7] != 'u') return 0;
            int lo = 0;
            for (int i = 8; i < 12; i++) {
                int h = hex_value(c->p[i]);
                if (h < 0) return 0;
                lo = lo * 16 + h;
            }
            if (lo < 0xDC00 || lo > 0xDFFF) return 0;
            c->p += 12;
            continue;
        }
        if (canonical && (v >= 0x20 || v == 0x08 || v == 0x09 || v == 0x0A || v == 0x0C || v == 0x0D)) return 0;
        c->p += 6;
    }
}

/* A number outside verbatim values, in the spelling JSON.stringify gives its double: an integer
 * within +/-(2^53-1) (no `-0`), or a plain decimal of at most 15 significant digits between 1e-6
 * and 1e21 with no trailing zero (15 digits always survive the double, so they are its shortest
 * spelling). Exponents and longer spellings are left to the slow path. */
static int number(cur *c) {
    const unsigned char *p = c->p, *end = c->end;
    int neg = 0;
    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    const unsigned char *int_start = p;
    if (p >= end || !is_digit(*p)) return 0;
    if (*p == '0') {
        p++;
        if (p < end && is_digit(*p)) return 0;
    } else {
        while (p < end && is_digit(*p)) p++;
    }
    size_t int_len = (size_t)(p - int_start);
    int zero = int_len == 1 && *int_start == '0';
    if (p < end && (*p == 'e' || *p == 'E')) return 0;
    if (p < end && *p == '.') {
        const unsigned char *frac = ++p;
        while (p < end && is_digit(*p)) p++;
        size_t frac_len = (size_t)(p - frac);
        if (frac_len == 0 || p[-1] == '0') return 0;
        if (p < end && (*p == 'e' || *p == 'E')) return 0;
        size_t significant;
        if (zero) {
            size_t zeros = 0;
            while (zeros < frac_len && frac[zeros] == '0') zeros++;
            if (zeros > 5) return 0; /* below 1e-6 JSON.stringify writes an exponent */
            significant = frac_len - zeros;
        } else {
            if (int_len > 21) return 0;
            significant = int_len + frac_len;
        }
        if (significant > 15) return 0;
        c->p = p;
        return 1;
    }
    if (neg && zero) return 0;
    if (int_len > 16 || (int_len == 16 && memcmp(int_start, "9007199254740991", 16) > 0)) return 0;
    c->p = p;
    return 1;
}

/* The n bytes at a are b's: names, tags and literals are short, so an inlined compare beats a
 * library call. */
static int same(const unsigned char *a, const char *b, size_t n) {
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) return 0;
    }
    for (; n > 0; n--)
        if (*a++ != (unsigned char)*b++) return 0;
    return 1;
}

/* At c->p, the quoted name (len bytes, no quote or backslash in it: every key and tag of the table):
 * its bytes and then the closing quote; advances past that quote. */
static int quoted(cur *c, const char *name, size_t len) {
    const unsigned char *k = c->p + 1;
    if ((size_t)(c->end - k) <= len || k[len] != '"' || !same(k, name, len)) return 0;
    c->p = k + len + 1;
    return 1;
}

static int literal(cur *c, const char *word, size_t len) {
    if ((size_t)(c->end - c->p) < len || !same(c->p, word, len)) return 0;
    c->p += len;
    return 1;
}

/* Space and tab only: a raw LF or CR inside a verbatim value is not proven here (a message is one
 * line; the slow path refuses it as `line_break`, schema/README.md section 1.5). */
static void skip_ws(cur *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) c->p++;
}

/* Any JSON number (verbatim values keep their spelling); in a scalar map, only the spellings
 * msgspec reads as an int or a float without doubt (no exponent, at most 18 integer digits). */
static int any_number(cur *c, int scalar_map) {
    const unsigned char *start;
    if (PEEK(c) == '-') c->p++;
    start = c->p;
    if (PEEK(c) == '0') {
        c->p++;
    } else if (is_digit(PEEK(c))) {
        while (is_digit(PEEK(c))) c->p++;
    } else {
        return 0;
    }
    if (scalar_map && c->p - start > 18) return 0;
    if (PEEK(c) == '.') {
        c->p++;
        if (!is_digit(PEEK(c))) return 0;
        while (is_digit(PEEK(c))) c->p++;
    }
    if (PEEK(c) == 'e' || PEEK(c) == 'E') {
        if (scalar_map) return 0;
        c->p++;
        if (PEEK(c) == '+' || PEEK(c) == '-') c->p++;
        if (!is_digit(PEEK(c))) return 0;
        while (is_digit(PEEK(c))) c->p++;
    }
    return 1;
}

/* Any JSON value inside a verbatim value (whitespace allowed), within the depth limit. */
static int verbatim_value(cur *c) {
    int b = PEEK(c);
    if (b == '"') return string(c, 0);
    if (b == '-' || is_digit(b)) return any_number(c, 0);
    if (b == 't') return literal(c, "true", 4);
    if (b == 'f') return literal(c, "false", 5);
    if (b == 'n') return literal(c, "null", 4);
    if (b != '{' && b != '[') return 0;
    int close = b == '{' ? '}' : ']';
    if (++c->depth > DEPTH_LIMIT) return 0;
    c->p++;
    skip_ws(c);
    if (PEEK(c) == close) {
        c->p++;
        c->depth--;
        return 1;
    }
    for (;;) {
        if (close == '}') {
            if (PEEK(c) != '"' || !string(c, 0)) return 0;
            skip_ws(c);
            if (PEEK(c) != ':') return 0;
            c->p++;
            skip_ws(c);
        }
        if (!verbatim_value(c)) return 0;
        skip_ws(c);
        b = PEEK(c);
        if (b == close) break;
        if (b != ',') return 0;
        c->p++;
        skip_ws(c);
    }
    c->p++;
    c->depth--;
    return 1;
}

/* A verbatim value: an object (any members), or a scalar map (member values strings, numbers,
 * booleans). */
static int verbatim(cur *c, int scalar_map) {
    if (PEEK(c) != '{') return 0;
    if (!scalar_map) return verbatim_value(c);
    if (++c->depth > DEPTH_LIMIT) return 0;
    c->p++;
    skip_ws(c);
    if (PEEK(c) == '}') {
        c->p++;
        c->depth--;
        return 1;
    }
    for (;;) {
        if (PEEK(c) != '"' || !string(c, 0)) return 0;
        skip_ws(c);
        if (PEEK(c) != ':') return 0;
        c->p++;
        skip_ws(c);
        int b = PEEK(c);
        if (b == '"') {
            if (!string(c, 0)) return 0;
        } else if (b == 't') {
            if (!literal(c, "true", 4)) return 0;
        } else if (b == 'f') {
            if (!literal(c, "false", 5)) return 0;
        } else if (!any_number(c, 1)) {
            return 0;
        }
        skip_ws(c);
        b = PEEK(c);
        if (b == '}') break;
        if (b != ',') return 0;
        c->p++;
        skip_ws(c);
    }
    c->p++;
    c->depth--;
    return 1;
}

static int object(cur *c, int kind, unsigned ref);

/* A value of a field of kind `kind`, canonical (no whitespace). */
static int value(cur *c, int kind, unsigned ref) {
    int b = PEEK(c);
    if (kind == OMV_VERBATIM_OBJECT || kind == OMV_VERBATIM_SCALAR_MAP)
        return verbatim(c, kind == OMV_VERBATIM_SCALAR_MAP);
    if (b == '"') return string(c, 1);
    if (b == '-' || is_digit(b)) return number(c);
    if (b == 't') return literal(c, "true", 4);
    if (b == 'f') return literal(c, "false", 5);
    if (b == 'n') return literal(c, "null", 4);
    if (b == '{') return (kind == OMV_STRUCT || kind == OMV_UNION) && object(c, kind, ref);
    if (b != '[') return 0;
    if (++c->depth > DEPTH_LIMIT) return 0;
    c->p++;
    if (PEEK(c) == ']') {
        c->p++;
        c->depth--;
        return 1;
    }
    for (;;) {
        if (!value(c, kind, ref)) return 0;
        b = PEEK(c);
        if (b == ']') break;
        if (b != ',') return 0;
        c->p++;
    }
    c->p++;
    c->depth--;
    return 1;
}

/* An object of struct `ref` (kind OMV_STRUCT) or of a member of union `ref` (OMV_UNION): every
 * key a later field than the one before (so no duplicates, and the canonical order). */
static int object(cur *c, int kind, unsigned ref) {
    const omv_union *u = kind == OMV_UNION ? &OMV_UNIONS[ref] : 0;
    const omv_struct *st = &OMV_STRUCTS[u ? OMV_UNION_MEMBERS[u->first] : ref];
    int chosen = u == 0; /* a union member is known once its `type` is read */
    unsigned next = 0;
    if (++c->depth > DEPTH_LIMIT) return 0;
    c->p++;
    if (PEEK(c) == '}') {
        c->p++;
        c->depth--;
        return chosen;
    }
    for (;;) {
        /* the key: a field from `next` on, matched in place */
        if (PEEK(c) != '"') return 0;
        unsigned i = next;
        while (i < st->count && !quoted(c, OMV_FIELDS[st->first + i].name, OMV_FIELDS[st->first + i].len)) i++;
        if (i >= st->count) return 0; /* unknown, out of order or repeated */
        if (PEEK(c) != ':') return 0;
        c->p++;
        if (!chosen && i > u->tag_at) return 0;
        next = i + 1;
        const omv_field *f = &OMV_FIELDS[st->first + i];
        if (f->kind == OMV_TAG) {
            if (PEEK(c) != '"') return 0;
            if (!chosen) {
                unsigned m = 0;
                for (; m < u->count; m++) {
                    const omv_struct *s = &OMV_STRUCTS[OMV_UNION_MEMBERS[u->first + m]];
                    if (s->tag != 0 && quoted(c, s->tag, s->tag_len)) break;
                }
                if (m == u->count) return 0;
                st = &OMV_STRUCTS[OMV_UNION_MEMBERS[u->first + m]];
                chosen = 1;
            } else if (st->tag == 0 || !quoted(c, st->tag, st->tag_len)) {
                return 0;
            }
        } else if (!value(c, f->kind, f->ref)) {
            return 0;
        }
        int b = PEEK(c);
        if (b == '}') break;
        if (b != ',') return 0;
        c->p++;
    }
    c->p++;
    c->depth--;
    return chosen;
}

int omv_canonical(const unsigned char *data, size_t n) {
    cur c;
    c.p = data;
    c.end = data + n;
    c.depth = 0;
    if (n > 0 && data[n - 1] == '\n') c.end--;
    if (PEEK(&c) != '{') return 0;
    if (!object(&c, OMV_UNION, OMV_ROOT_UNION)) return 0;
    return c.p == c.end;
}
