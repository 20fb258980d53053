// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
//
// The test process's settings for Swift Testing, set before it starts: how many tests run at once, and
// no backtrace for every error thrown.
//
// Nearly every test here is async, so Swift Testing, left alone, starts them all together: a hundred live
// tests with real sockets, simulators, Python clients and Chromium at once on a two-core machine, each
// timing its datagrams by the wall clock (an answer drawn at the end of an MX window has 100 ms to
// arrive). They then fail for want of CPU, not for a bug. Eight tests per core at once keeps the machine
// busy and the timings honest: most tests wait on sockets, timers and the programs they run, not the
// CPU, and at fewer places the one-at-a-time suites waited for theirs while the CPU idled (three per
// core: idle 40 % of the run; five: the suite 210 s; eight: 165-186 s; unbounded it fails;
// docs/tests-and-ci.md has the figures).
//
// Swift Testing also takes a backtrace of every error thrown anywhere in the test process (a hook on
// swift_willThrow), to say where a test's uncaught error came from. Here that is millions of errors the
// code under test throws and catches by design: the fuzzers' malformed datagrams, the devices' refusals.
// Unwinding the stack for each cost a third of the fuzzers' CPU and a sixth of the whole suite's
// (docs/tests-and-ci.md has the figures), so it is off. A test that fails on an error still names the
// error and the test; SWT_SWIFT_ERROR_BACKTRACING_ENABLED=1 turns the backtraces back on.
//
// Swift Testing reads both variables when it starts; a constructor runs when the test bundle loads,
// before that. A value already in the environment is kept.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "CSSDPTestSettings.h"

static long width_set = 0;

long cssdp_test_width_set(void) { return width_set; }

__attribute__((constructor)) static void cssdp_apply_test_settings(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (getenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH") == NULL) {
        char width[24];
        width_set = CSSDP_TESTS_PER_CORE * (cores < 1 ? 1 : cores);
        snprintf(width, sizeof width, "%ld", width_set);
        setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", width, 1);
    }
    setenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED", "0", 0);
}
