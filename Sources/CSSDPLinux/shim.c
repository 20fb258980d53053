//===----------------------------------------------------------------------===//
//
// This source file is part of the ssdp-sim open source project
//
// Copyright (c) 2026 the ssdp-sim project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifdef __linux__
#define _GNU_SOURCE
#include <sys/socket.h>
#include "CSSDPLinux.h"

_Static_assert(sizeof(CSSDPLinux_mmsghdr) == sizeof(struct mmsghdr), "CSSDPLinux_mmsghdr is struct mmsghdr");

int CSSDPLinux_sendmmsg(int sockfd, CSSDPLinux_mmsghdr *msgvec, unsigned int vlen, int flags) {
    return sendmmsg(sockfd, (struct mmsghdr *)msgvec, vlen, flags);
}
#endif
