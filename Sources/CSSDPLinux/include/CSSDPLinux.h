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

// sendmmsg(2), which Swift's Glibc module does not expose (it is a GNU extension): the source-address
// socket sends a batch of datagrams, each with its own source address, in one system call.

#ifndef C_SSDP_LINUX_H
#define C_SSDP_LINUX_H

#ifdef __linux__
#include <sys/socket.h>

/// `struct mmsghdr`: one message of a batch and, after the call, how many bytes of it were sent.
typedef struct {
    struct msghdr msg_hdr;
    unsigned int msg_len;
} CSSDPLinux_mmsghdr;

/// sendmmsg(2): sends up to `vlen` messages; returns how many were sent, or -1 with errno set.
int CSSDPLinux_sendmmsg(int sockfd, CSSDPLinux_mmsghdr *msgvec, unsigned int vlen, int flags);
#endif

#endif
