# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""What the plain-socket responders of the namespace tests share: a UDP socket on port 1900 joined to
239.255.255.250 on loopback. Run them only inside a private network namespace (unshare -n)."""
import signal
import socket
import struct


def group_socket():
    """A socket bound to 0.0.0.0:1900 and joined to the SSDP group on loopback."""
    # A child of Foundation's Process inherits the spawning thread's blocked signals; unblock the ones
    # that must stop a responder, or `kill` leaves it running until its deadline.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("0.0.0.0", 1900))
    group = struct.pack("4s4s", socket.inet_aton("239.255.255.250"), socket.inet_aton("127.0.0.1"))
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, group)
    return sock
