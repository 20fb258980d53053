// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
// The test process's own settings, applied when it loads (settings.c).
#ifndef CSSDP_TEST_SETTINGS_H
#define CSSDP_TEST_SETTINGS_H

/// How many tests run at once for each core (Swift Testing's parallelization width).
#define CSSDP_TESTS_PER_CORE 8

/// The width settings.c gave Swift Testing, or 0 when the environment already had one (kept as it was).
long cssdp_test_width_set(void);

#endif
