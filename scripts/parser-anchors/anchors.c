/*
 * This source file is part of the ssdp-sim open source project
 *
 * Copyright (c) 2026 the ssdp-sim project authors
 * Licensed under Apache License v2.0
 *
 * See LICENSE for license information
 *
 * SPDX-License-Identifier: Apache-2.0
 */

/* The anchors of ssdp-bench's parse figure: picohttpparser and llhttp read the corpus ssdp-bench reads
 * (written by `ssdp-bench --only parse --probe-input DIR` as DIR/parse.datagrams: each datagram a 4-byte
 * big-endian length and its bytes), one thread, recognising the same 16 header names SSDPParser knows;
 * a datagram over 64 KiB is rejected unread, as SSDPParser rejects it. The parsers' code is not part of
 * this repository: `build` next to this file says where to get it and builds this against it;
 * `ssdp-bench --parser-anchors PROGRAM` runs `time1` and `rounds` beside its own parse.
 *
 * Usage:
 *   anchors diag   CORPUS              each datagram's result in both parsers
 *   anchors time   CORPUS [secs]       interleaved pico, llhttp x3, each >= secs of CPU (default 2)
 *   anchors time1  CORPUS PARSER [secs]   one parser's timed run
 *   anchors rounds CORPUS pico|llhttp|llhttpl N   exactly N rounds (for callgrind)
 * llhttpl is llhttp with lenient_optional_cr_before_lf (bare LF line ends accepted).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "picohttpparser.h"
#include "llhttp.h"

#ifdef __SSE4_2__
#error "__SSE4_2__ must not be defined for this measurement"
#endif

#define MAX_DGRAM 65536

typedef struct { const char *p; size_t len; } dgram_t;
static dgram_t *dg;
static size_t ndg;
static volatile uint64_t sink;

static void load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(sz);
    if (fread(buf, 1, sz, f) != (size_t)sz) { perror("read"); exit(1); }
    fclose(f);
    size_t cap = 128, off = 0;
    dg = malloc(cap * sizeof *dg);
    while (off + 4 <= (size_t)sz) {
        const unsigned char *u = (const unsigned char *)buf + off;
        size_t len = ((size_t)u[0] << 24) | ((size_t)u[1] << 16) | ((size_t)u[2] << 8) | u[3];
        off += 4;
        if (off + len > (size_t)sz) { fprintf(stderr, "truncated corpus\n"); exit(1); }
        if (ndg == cap) dg = realloc(dg, (cap *= 2) * sizeof *dg);
        /* copy each datagram into its own allocation, as a receive buffer would be */
        char *d = malloc(len ? len : 1);
        memcpy(d, buf + off, len);
        dg[ndg].p = d; dg[ndg].len = len; ndg++;
        off += len;
    }
    free(buf);
}

/* Recognise the 16 SSDP header names. Returns 1..16, or 0 if unknown. */
static int recognise(const char *n, size_t len) {
    if (len == 0) return 0;
    switch (len) {
    case 2:
        switch (n[0] | 0x20) {
        case 'm': return strncasecmp(n, "MX", 2) == 0 ? 1 : 0;
        case 's': return strncasecmp(n, "ST", 2) == 0 ? 2 : 0;
        case 'n': return strncasecmp(n, "NT", 2) == 0 ? 3 : 0;
        }
        return 0;
    case 3:
        switch (n[0] | 0x20) {
        case 'm': return strncasecmp(n, "MAN", 3) == 0 ? 4 : 0;
        case 'n': return strncasecmp(n, "NTS", 3) == 0 ? 5 : 0;
        case 'u': return strncasecmp(n, "USN", 3) == 0 ? 6 : 0;
        case 'e': return strncasecmp(n, "EXT", 3) == 0 ? 7 : 0;
        }
        return 0;
    case 4:
        return (n[0] | 0x20) == 'h' && strncasecmp(n, "HOST", 4) == 0 ? 8 : 0;
    case 6:
        return (n[0] | 0x20) == 's' && strncasecmp(n, "SERVER", 6) == 0 ? 9 : 0;
    case 8:
        return (n[0] | 0x20) == 'l' && strncasecmp(n, "LOCATION", 8) == 0 ? 10 : 0;
    case 10:
        return (n[0] | 0x20) == 'u' && strncasecmp(n, "USER-AGENT", 10) == 0 ? 11 : 0;
    case 13:
        return (n[0] | 0x20) == 'c' && strncasecmp(n, "CACHE-CONTROL", 13) == 0 ? 12 : 0;
    case 15:
        return (n[0] | 0x20) == 'b' && strncasecmp(n, "BOOTID.UPNP.ORG", 15) == 0 ? 13 : 0;
    case 17:
        return (n[0] | 0x20) == 'c' && strncasecmp(n, "CONFIGID.UPNP.ORG", 17) == 0 ? 14 : 0;
    case 19:
        switch (n[0] | 0x20) {
        case 'n': return strncasecmp(n, "NEXTBOOTID.UPNP.ORG", 19) == 0 ? 15 : 0;
        case 's': return strncasecmp(n, "SEARCHPORT.UPNP.ORG", 19) == 0 ? 16 : 0;
        }
        return 0;
    }
    return 0;
}

/* ---------------- picohttpparser ---------------- */
/* result: >0 complete (bytes consumed), -2 incomplete (no final blank line), -1 error,
 * -3 oversize (rejected unread). Headers are recognised for complete and incomplete
 * results (on -2, headers[0..num_headers) are fully parsed lines). */
static int pico_parse(const char *p, size_t len, uint64_t *acc) {
    if (len > MAX_DGRAM) return -3;
    struct phr_header headers[64];
    size_t num_headers = 64;
    int minor_version, r;
    if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
        int status; const char *msg; size_t msg_len;
        r = phr_parse_response(p, len, &minor_version, &status, &msg, &msg_len, headers, &num_headers, 0);
        *acc += (uint64_t)status;
    } else {
        const char *method, *path; size_t method_len, path_len;
        r = phr_parse_request(p, len, &method, &method_len, &path, &path_len, &minor_version, headers, &num_headers, 0);
        if (r != -1) *acc += method_len + path_len;
    }
    if (r == -1) return -1;
    uint32_t seen = 0;
    for (size_t i = 0; i < num_headers; i++) {
        if (headers[i].name == NULL) continue; /* continuation line */
        int k = recognise(headers[i].name, headers[i].name_len);
        seen |= 1u << k;
        *acc += headers[i].value_len;
    }
    *acc += seen;
    return r;
}

/* ---------------- llhttp ---------------- */
typedef struct { uint64_t acc; uint32_t seen; } ll_ctx;

static int ll_on_header_field(llhttp_t *p, const char *at, size_t len) {
    ll_ctx *c = p->data;
    c->seen |= 1u << recognise(at, len);
    return 0;
}
static int ll_on_header_value(llhttp_t *p, const char *at, size_t len) {
    ll_ctx *c = p->data;
    (void)at;
    c->acc += len;
    return 0;
}
static llhttp_settings_t ll_settings;

/* result: 0 ok (execute and finish both OK), else llhttp_errno (execute error, or
 * finish error shown as 1000+errno), -3 oversize */
static int ll_parse(const char *p, size_t len, uint64_t *acc, int lenient, int *exec_err) {
    if (len > MAX_DGRAM) return -3;
    llhttp_t parser;
    ll_ctx c = {0, 0};
    llhttp_init(&parser, HTTP_BOTH, &ll_settings);
    if (lenient) llhttp_set_lenient_optional_cr_before_lf(&parser, 1);
    parser.data = &c;
    llhttp_errno_t e = llhttp_execute(&parser, p, len);
    int r = 0;
    if (exec_err) *exec_err = e;
    if (e != HPE_OK) {
        r = e;
    } else {
        llhttp_errno_t f = llhttp_finish(&parser);
        if (f != HPE_OK) r = 1000 + f;
    }
    *acc += c.acc + c.seen + parser.status_code + parser.method;
    return r;
}

/* ---------------- rounds ---------------- */
enum { P_PICO, P_LL, P_LLL };
static const char *pname[] = {"pico", "llhttp", "llhttp-lenientLF"};

static void do_round(int which) {
    uint64_t acc = 0;
    for (size_t i = 0; i < ndg; i++) {
        int r;
        if (which == P_PICO) r = pico_parse(dg[i].p, dg[i].len, &acc);
        else r = ll_parse(dg[i].p, dg[i].len, &acc, which == P_LLL, NULL);
        acc += (uint64_t)(int64_t)r;
    }
    sink += acc;
}

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double timed_run(int which, double secs) {
    for (int i = 0; i < 50; i++) do_round(which); /* warm-up */
    uint64_t rounds = 0;
    double t0 = cpu_now(), t;
    do {
        for (int i = 0; i < 100; i++) do_round(which);
        rounds += 100;
        t = cpu_now() - t0;
    } while (t < secs);
    double rate = rounds * (double)ndg / t / 1e6;
    printf("%-8s rounds=%llu cpu=%.3fs  %.3f M datagrams/s  (%.1f ns/datagram)\n", pname[which],
           (unsigned long long)rounds, t, rate, 1e3 / rate);
    fflush(stdout);
    return rate;
}

static int which_of(const char *s) {
    if (!strcmp(s, "pico")) return P_PICO;
    if (!strcmp(s, "llhttp")) return P_LL;
    if (!strcmp(s, "llhttpl")) return P_LLL;
    fprintf(stderr, "unknown parser %s\n", s); exit(2);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: see source\n"); return 2; }
    llhttp_settings_init(&ll_settings);
    ll_settings.on_header_field = ll_on_header_field;
    ll_settings.on_header_value = ll_on_header_value;
    load(argv[2]);
    if (!strcmp(argv[1], "diag")) {
        int cnt[3][5] = {{0}};
        printf("%zu datagrams\n", ndg);
        for (size_t i = 0; i < ndg; i++) {
            uint64_t a = 0;
            int rp = pico_parse(dg[i].p, dg[i].len, &a);
            int ee, rl = ll_parse(dg[i].p, dg[i].len, &a, 0, &ee);
            int el, rll = ll_parse(dg[i].p, dg[i].len, &a, 1, &el);
            printf("#%2zu len=%5zu pico=%-5d llhttp=%-5s%-4d llhttp-lenientLF=%-5s%d\n", i, dg[i].len, rp,
                   rl >= 1000 ? "fin:" : "", rl >= 1000 ? rl - 1000 : rl, rll >= 1000 ? "fin:" : "",
                   rll >= 1000 ? rll - 1000 : rll);
            cnt[0][rp > 0 ? 0 : rp == -2 ? 1 : rp == -1 ? 2 : 3]++;
            cnt[1][rl == 0 ? 0 : rl >= 1000 ? 1 : rl > 0 ? 2 : 3]++;
            cnt[2][rll == 0 ? 0 : rll >= 1000 ? 1 : rll > 0 ? 2 : 3]++;
        }
        printf("pico:   complete=%d incomplete(-2)=%d error(-1)=%d oversize=%d\n", cnt[0][0], cnt[0][1], cnt[0][2], cnt[0][3]);
        printf("llhttp: ok=%d finish-error=%d execute-error=%d oversize=%d\n", cnt[1][0], cnt[1][1], cnt[1][2], cnt[1][3]);
        printf("llhttp-lenientLF: ok=%d finish-error=%d execute-error=%d oversize=%d\n", cnt[2][0], cnt[2][1], cnt[2][2], cnt[2][3]);
        return 0;
    }
    if (!strcmp(argv[1], "time")) {
        double secs = argc > 3 ? atof(argv[3]) : 2.0;
        int reps = 3;
        for (int r = 0; r < reps; r++) {
            timed_run(P_PICO, secs);
            timed_run(P_LL, secs);
        }
        return 0;
    }
    if (!strcmp(argv[1], "time1")) { /* single parser timed run */
        timed_run(which_of(argv[3]), argc > 4 ? atof(argv[4]) : 2.0);
        return 0;
    }
    if (!strcmp(argv[1], "rounds")) {
        int which = which_of(argv[3]);
        long n = atol(argv[4]);
        for (long i = 0; i < n; i++) do_round(which);
        printf("sink=%llu\n", (unsigned long long)sink);
        return 0;
    }
    fprintf(stderr, "unknown mode\n");
    return 2;
}
