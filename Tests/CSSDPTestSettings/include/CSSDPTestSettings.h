// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
// The test process's own settings, applied when it loads (settings.c). Nothing to call.
#ifndef CSSDP_TEST_SETTINGS_H
#define CSSDP_TEST_SETTINGS_H
#endif
