// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
//
// How many tests the test process runs at once, set before Swift Testing starts.
//
// Nearly every test here is async, so Swift Testing, left alone, starts them all together: a hundred live
// tests with real sockets, simulators, Python clients and Chromium at once on a two-core machine, each
// timing its datagrams by the wall clock (an answer drawn at the end of an MX window has 100 ms to
// arrive). They then fail for want of CPU, not for a bug. Five tests per core at once keeps the machine
// busy and the timings honest: the whole suite passed at that width where it failed unbounded, and most
// of its tests wait on sockets and timers, not the CPU (at three per core the CPU was idle 40 % of the
// run, while the serial suites waited for places; docs/tests-and-ci.md has the figures).
//
// Swift Testing reads SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH when it starts; a constructor runs
// when the test bundle loads, before that. A width already in the environment is kept.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "CSSDPTestSettings.h"

__attribute__((constructor)) static void cssdp_limit_parallel_tests(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char width[24];
    snprintf(width, sizeof width, "%ld", 5 * (cores < 1 ? 1 : cores));
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", width, 0);
}
