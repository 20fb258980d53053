#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Fuzzes the HTTP side of running simulated devices on loopback and checks they keep answering.

Usage: http_fuzz.py [--seed N] [--requests N] [--workers K] [--timeout S] LOCATION_URL [LOCATION_URL ...]

Each LOCATION is the description URL of a device `ssdp-sim serve` runs (the "location"s of its JSON
"started" line). The fuzzer reads each description and every service description (SCPD): the services'
control, event and SCPD URLs, each action's in-arguments and their state variables' dataType, allowed
values and range; it tries GET /query/device-info (a Roku's ECP) and reads the description's
Application-URL header (DIAL). Then it sends a seeded random mix of requests, one per TCP connection:

  soap      every action of every service, arguments drawn from valid values, boundary values of each
            UPnP type, XML-special, long, unicode and control characters, missing and extra arguments
  envelope  SOAPACTION headers quoted, bare, wrong, injected; bodies that are not XML, truncated, deep,
            with entities, CDATA, comments, a DOCTYPE, invalid UTF-8
  time      AVTransport: SetAVTransportURI with DIDL-Lite whose res@duration is huge or malformed,
            Seek by REL_TIME / TIME_DELTA with huge targets, and sequences (load, seek, play, position)
  gena      SUBSCRIBE / UNSUBSCRIBE with every header combination and weird CALLBACK, TIMEOUT, SID, NT;
            subscribe, renew and unsubscribe in sequence
  http      request lines and headers: unknown methods, HTTP/0.9, the HTTP/2 preface, no Host, absurd
            and duplicate Content-Length, chunked bodies, traversal, percent-encoding, control
            characters, long URIs, pipelining, incomplete requests
  roku      ECP queries, key presses, launches and input (Roku devices only)
  dial      DIAL app status, launch, stop, hide, dial_data, CORS (DIAL devices only)
  docs      descriptions and SCPDs with every method

The same seed gives the same requests: scenario i is drawn from (seed, i) alone, whatever the number of
workers (only the SIDs a device hands out, and the ports, differ from run to run). A scenario is one
request, or a few in order on the same device (subscribe, renew, unsubscribe; load, seek, play, ask the
position). A request that gets no answer (refused, reset, closed, or nothing within --timeout) is
followed by a GET of the device's description: when that fails too, the server is down, and the fuzzer
prints to standard error the request that most likely brought it down (the one the server had read:
the kernel closes that connection with a FIN, the others with a reset), each other worker's latest
request, and the --only to replay them, and stops. After the batch it GETs every description once more.

Standard output: ONE JSON line,
  {"requests": N, "statuses": {"200": n, ...}, "no_answer": {"closed": n, ...}, "timeouts": N,
   "errors": N, "still_serving": true, "seconds": S, "rate": R, "by_kind": {...}, "notifies": N,
   "anomalies": {...}, "crash": {...} or null, ...}
statuses counts the answers by status code; no_answer the requests without one (closed, reset,
timeout, refused), most of them incomplete requests the fuzzer half-closes on purpose; errors those
refused, reset or closed unasked; notifies the event messages its own subscriber (on 127.0.0.1)
received. Standard error: every anomaly found (answers that are not well-formed XML, event bodies that
are not, 200s for values outside their type, range or allowed list, connections kept open after the
answer, 5xx, a wrong Content-Length, ...), one JSON line each with a count and the first example, and
the request that brought the server down, if one did.
Exit status 0 when every device still answers, 1 otherwise, 2 on bad usage or when a description can
not be read at the start.

Other options: --only I[,J...] sends just those scenarios (to replay one that crashed the server);
--dump I prints scenario I's requests without sending anything after discovery; --kinds and
--skip-kinds choose the kinds above; --skip-matching REGEX leaves out requests whose bytes match (to
get past a crash that is already known); --max-seconds bounds the run's time.

Loopback only: every request goes to the LOCATIONs' hosts, which must be loopback addresses, and every
GENA CALLBACK the fuzzer writes names a loopback address (or none the device can use), so the device's
event messages stay on loopback too. Bounded in count (--requests) and time (--max-seconds).
"""

import argparse
import base64
import ipaddress
import json
import random
import re
import socket
import struct
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET

DEVICE_NS = "urn:schemas-upnp-org:device-1-0"
SERVICE_NS = "urn:schemas-upnp-org:service-1-0"

# The services whose real stacks (miniupnpd, MiniDLNA) check no allowed lists and ranges: the simulator
# does as they do (DeviceControl.swift; ArgumentCheck.typesOnly in the IGD and MiniDLNA behaviours), so a 200 for a value outside
# a list or range there is by design, not an anomaly.
MINI_STACK = {"WANIPConnection", "WANPPPConnection", "WANCommonInterfaceConfig", "Layer3Forwarding", "ContentDirectory"}

INT_RANGES = {
    "ui1": (0, 2**8 - 1),
    "ui2": (0, 2**16 - 1),
    "ui4": (0, 2**32 - 1),
    "ui8": (0, 2**64 - 1),
    "i1": (-(2**7), 2**7 - 1),
    "i2": (-(2**15), 2**15 - 1),
    "i4": (-(2**31), 2**31 - 1),
    "i8": (-(2**63), 2**63 - 1),
    "int": (-(2**31), 2**31 - 1),
}

# Playback times (AVTransport H+:MM:SS[.F+]) around the edges of a 64-bit count of milliseconds:
# 2562047788015:12:55.807 is the most that fits (2^63-1 ms), 153722867280912930 h overflows already when
# made minutes.
HUGE_TIMES = [
    "9999999999999999:00:00",
    "+2562047788015:00:00",
    "2562047788015:00:00",
    "2562047788015:59:59.999",
    "2562047788016:00:00",
    "153722867280912930:00:00",
    "153722867280912931:00:00",
    "9223372036854775807:00:00",
    "99999999999999999999:00:00",
    "+9999999999999999:00:00",
    "-9999999999999999:00:00",
    "2562047788015:12:55.807",
    "2562047788015:12:55",
    "2562047788015:12:55.808",
    "596523:14:07",
    "1193046:28:15",
]
# Positions that fit in 64 bits of milliseconds, 0.8 s and 0 ms below the top: a player there overflows
# the moment its position moves on.
NEAR_TOP = ["2562047788015:12:55", "2562047788015:12:55.807", "+2562047788015:12:55.807"]
ODD_TIMES = [
    "-0:00:01",
    "-1:00:00",
    "0:60:00",
    "0:00:60",
    "0:-1:00",
    "0:-0:00",
    "::",
    "1:2",
    "1:2:3:4",
    "",
    " ",
    "0:00:00.9999999",
    "0:00:00.-5",
    "0:00:00.+5",
    "0:00:00.",
    "0:00:00.F0/F1",
    "1:00:00.5",
    "NOT_IMPLEMENTED",
    "0x10:00:00",
    "+0:00:01",
    "++0:00:01",
    "+-0:00:01",
    "-+0:00:01",
    "\u0663:00:00",
    " 0:00:01 ",
    "0:0:0",
    "00:00:00.000",
    "0:00:01\x00",
    "1e3:00:00",
    "0:00:05",
    "0:03:25.000",
]
VALID_TIMES = ["0:00:00", "0:00:05", "0:01:00", "0:03:25", "1:00:00", "0:00:01.500", "00:02:30.000"]

# GENA CALLBACK values. Every one is checked by `callback_is_safe` before it is sent: the device connects
# to what it takes for a URL, so each names a loopback address or none the device can use.
TIMEOUTS = [
    "Second-1800",
    "Second-1",
    "Second-0",
    "Second-infinite",
    "Second-INFINITE",
    "Second-99999999999999999999",
    "Second-999999999",
    "Second-86401",
    "Second--5",
    "Second-+5",
    "second-300",
    "SECOND-300",
    "Second-",
    "Second-1.5",
    "Second-1800.0",
    "Second- 5",
    "Second-\t5",
    "Second-5 garbage",
    "Minute-5",
    "infinite",
    "",
    "Second-" + "9" * 500,
    "Second-\u0665",
]
NTS = ["upnp:event", " upnp:event ", "UPNP:EVENT", "upnp:propchange", "ssdp:alive", "", "upnp:event\tx"]
METHODS = [
    "GET",
    "HEAD",
    "POST",
    "PUT",
    "DELETE",
    "OPTIONS",
    "TRACE",
    "CONNECT",
    "PATCH",
    "SUBSCRIBE",
    "UNSUBSCRIBE",
    "NOTIFY",
    "M-SEARCH",
    "PROPFIND",
    "FOO",
    "get",
    "Get",
    "G ET",
    "GET\x00",
    "X" * 300,
    "",
]
DIDL_OPEN = (
    '<DIDL-Lite xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/"'
    ' xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/">'
)
WEIRD_STRINGS = [
    "",
    " ",
    "<",
    ">",
    "&",
    "&amp;",
    '"',
    "'",
    "]]>",
    "<![CDATA[x]]>",
    "\u00e9t\u00e9 \u65e5\u672c \U0001f600",
    "\u202e\u200b\ufeff",
    # XML's special characters each followed by a combining mark: one grapheme cluster (one Swift Character)
    # that an escaper comparing Characters with "&" or "<" does not recognise.
    "&\u0301",
    "<\u20d2",
    ">\u0338",
    '"\u0301',
    "'\u0301",
    "a&\u0301b<\u0301c",
    "\ufffe",
    "\x01\x02\x1f",
    "\x7f",
    "\t\r\n",
    "%00%0d%0a",
    "${jndi:ldap://127.0.0.1/x}",
    "'; DROP TABLE x; --",
    "../../../../etc/passwd",
    "A" * 256,
    "null",
    "NaN",
    "-0",
    "true",
]


# ---------------------------------------------------------------------------------------------------------
# HTTP over one connection


class Response:
    __slots__ = ("status", "version", "headers", "body", "err", "raw_head", "content_lengths")

    def __init__(self, err=None):
        self.status = None
        self.version = None
        self.headers = {}
        self.body = b""
        self.err = err
        self.raw_head = b""
        self.content_lengths = 0


def loopback_address(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# How long a connection may stay open after a complete answer before it counts as kept open.
KEPT_OPEN_GRACE = 0.1


def exchange(host, port, data, timeout, half_close=False, head=False, limit=1 << 22):
    """Sends `data` on a new connection and reads until the server closes it (or `timeout`)."""
    if not loopback_address(host):
        raise SystemExit("refusing to send to %s: not a loopback address" % host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        try:
            sock.connect((host, port))
        except ConnectionRefusedError:
            return Response("refused")
        except (socket.timeout, TimeoutError):
            return Response("connect-timeout")
        except OSError as error:
            return Response("connect-error:%s" % error.errno)
        send_failed = False
        try:
            sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            send_failed = True  # the server answered early (413, 431) and closed: its answer may still be there
        except (socket.timeout, TimeoutError):
            send_failed = True
        buffer = bytearray()
        err = None
        deadline = time.monotonic() + timeout
        complete_at = None
        while True:
            remaining = deadline - time.monotonic()
            if complete_at is None and response_complete(parse_response(bytes(buffer), head), head):
                # The whole answer is here: the server closes at once (Connection: close). Waiting on
                # for the close is bounded by a short grace, so a server that keeps the connection open
                # costs a tenth of a second, not the whole timeout; it is reported all the same.
                complete_at = time.monotonic()
                deadline = min(deadline, complete_at + KEPT_OPEN_GRACE)
                remaining = deadline - complete_at
            if remaining <= 0:
                err = "timeout"
                break
            sock.settimeout(remaining)
            try:
                chunk = sock.recv(65536)
            except (socket.timeout, TimeoutError):
                err = "timeout"
                break
            except ConnectionResetError:
                err = "reset"
                break
            except OSError:
                err = "reset"
                break
            if not chunk:
                break
            if len(buffer) < limit:
                buffer += chunk
        response = parse_response(bytes(buffer), head)
        if response.status is None:
            response.err = err or ("reset" if send_failed else "closed")
        elif err == "timeout":
            response.err = "kept-open" if response_complete(response, head) else "timeout"
        elif err == "reset" and not response_complete(response, head):
            response.err = "reset"
        return response
    finally:
        try:
            # Close with a reset: neither side keeps the connection in TIME_WAIT, so a long run does not
            # use up loopback's 4-tuples (every answer has been read, or given up on, by now).
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        sock.close()


def parse_response(data, head):
    response = Response()
    end = data.find(b"\r\n\r\n")
    if end < 0:
        if data:
            response.raw_head = data[:200]
            response.err = "incomplete-head"
        return response
    response.raw_head = data[:end]
    lines = data[:end].split(b"\r\n")
    match = re.match(rb"^(HTTP/\d\.\d) (\d{3})(?: .*)?$", lines[0])
    if not match:
        response.status = -1  # a status line that is not one
        response.body = data[end + 4 :]
        return response
    response.version = match.group(1).decode()
    response.status = int(match.group(2))
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        key = name.decode("latin-1").strip().lower()
        if key == "content-length":
            response.content_lengths += 1
        response.headers[key] = value.decode("latin-1").strip()
    response.body = data[end + 4 :]
    return response


def response_complete(response, head):
    if response.status is None:
        return False
    if head or response.status in (204, 304) or 100 <= response.status < 200:
        return True
    length = response.headers.get("content-length")
    return length is not None and length.isdigit() and len(response.body) >= int(length)


def http_request(method, target, headers=(), body=b"", version="HTTP/1.1", line=None):
    """The bytes of a request; `headers` are (name, value) pairs in order, `line` replaces the request line."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    out = [line if line is not None else "%s %s %s" % (method, target, version)]
    for name, value in headers:
        out.append("%s: %s" % (name, value))
    head = ("\r\n".join(out) + "\r\n\r\n").encode("utf-8", "surrogateescape")
    return head + body


# ---------------------------------------------------------------------------------------------------------
# Discovery


class Variable:
    __slots__ = ("name", "data_type", "allowed", "minimum", "maximum", "step", "default")

    def __init__(self, name, data_type):
        self.name, self.data_type = name, data_type
        self.allowed, self.minimum, self.maximum, self.step, self.default = [], None, None, None, None


class Action:
    __slots__ = ("name", "inputs", "outputs")

    def __init__(self, name):
        self.name, self.inputs, self.outputs = name, [], []


class Service:
    __slots__ = ("device", "service_type", "base_type", "control", "event", "scpd", "actions", "variables", "mini")

    def __init__(self, device, service_type):
        self.device, self.service_type = device, service_type
        parts = service_type.split(":")
        self.base_type = parts[-2] if len(parts) >= 2 else service_type
        self.mini = self.base_type in MINI_STACK
        self.control = self.event = self.scpd = None
        self.actions, self.variables = [], {}


class Device:
    __slots__ = ("location", "host", "port", "path", "services", "roku", "dial", "name")

    def __init__(self, location):
        parsed = urllib.parse.urlsplit(location)
        if parsed.scheme != "http" or not parsed.hostname:
            raise SystemExit("not an http:// LOCATION: %s" % location)
        self.location = location
        self.host, self.port = parsed.hostname, parsed.port or 80
        self.path = (parsed.path or "/") + ("?" + parsed.query if parsed.query else "")
        self.services, self.roku, self.dial, self.name = [], False, None, ""

    @property
    def hostport(self):
        return ("[%s]" % self.host if ":" in self.host else self.host) + ":%d" % self.port

    def local_path(self, url, base):
        """The path of `url` (resolved against `base`) when it is on this device's server, else None."""
        if url is None:
            return None
        resolved = urllib.parse.urlsplit(urllib.parse.urljoin(base, url.strip()))
        if resolved.hostname != self.host or (resolved.port or 80) != self.port:
            return None
        return (resolved.path or "/") + ("?" + resolved.query if resolved.query else "")


def fetch(device, path, timeout):
    request = http_request("GET", path, [("Host", device.hostport), ("Connection", "close")])
    return exchange(device.host, device.port, request, timeout)


def text_of(element, name, ns):
    child = element.find("{%s}%s" % (ns, name))
    return child.text.strip() if child is not None and child.text else None


def discover(location, timeout):
    device = Device(location)
    response = fetch(device, device.path, timeout)
    if response.status != 200:
        raise SystemExit("%s: %s" % (location, response.status or response.err))
    root = ET.fromstring(response.body)
    base = text_of(root, "URLBase", DEVICE_NS) or location
    first = root.find("{%s}device" % DEVICE_NS)
    device.name = (text_of(first, "friendlyName", DEVICE_NS) or "") if first is not None else ""
    application_url = response.headers.get("application-url")
    if application_url:
        device.dial = device.local_path(application_url, location)
    for element in root.iter("{%s}service" % DEVICE_NS):
        service = Service(device, text_of(element, "serviceType", DEVICE_NS) or "")
        service.control = device.local_path(text_of(element, "controlURL", DEVICE_NS), base)
        service.event = device.local_path(text_of(element, "eventSubURL", DEVICE_NS), base)
        service.scpd = device.local_path(text_of(element, "SCPDURL", DEVICE_NS), base)
        if service.scpd:
            read_scpd(device, service, timeout)
        device.services.append(service)
    device.roku = fetch(device, "/query/device-info", timeout).status == 200
    return device


def read_scpd(device, service, timeout):
    response = fetch(device, service.scpd, timeout)
    if response.status != 200:
        return
    try:
        root = ET.fromstring(response.body)
    except ET.ParseError:
        return
    for element in root.iter("{%s}stateVariable" % SERVICE_NS):
        variable = Variable(
            text_of(element, "name", SERVICE_NS) or "", text_of(element, "dataType", SERVICE_NS) or "string"
        )
        variable.default = text_of(element, "defaultValue", SERVICE_NS)
        values = element.find("{%s}allowedValueList" % SERVICE_NS)
        if values is not None:
            variable.allowed = [value.text or "" for value in values.findall("{%s}allowedValue" % SERVICE_NS)]
        allowed_range = element.find("{%s}allowedValueRange" % SERVICE_NS)
        if allowed_range is not None:
            for field in ("minimum", "maximum", "step"):
                text = text_of(allowed_range, field, SERVICE_NS)
                try:
                    setattr(variable, field, int(text) if text is not None else None)
                except ValueError:
                    pass
        service.variables[variable.name] = variable
    for element in root.iter("{%s}action" % SERVICE_NS):
        action = Action(text_of(element, "name", SERVICE_NS) or "")
        for argument in element.iter("{%s}argument" % SERVICE_NS):
            name = text_of(argument, "name", SERVICE_NS) or ""
            related = service.variables.get(text_of(argument, "relatedStateVariable", SERVICE_NS) or "")
            if (text_of(argument, "direction", SERVICE_NS) or "in").lower() == "in":
                action.inputs.append((name, related))
            else:
                action.outputs.append(name)
        service.actions.append(action)


# ---------------------------------------------------------------------------------------------------------
# Values


def xml_escape(text):
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def didl(duration=None, title="Track", uri="http://127.0.0.1:9/media/1.mp3", extra=""):
    attribute = ' duration="%s"' % xml_escape(duration) if duration is not None else ""
    return (
        DIDL_OPEN
        + '<item id="1" parentID="0" restricted="1"><dc:title>%s</dc:title>' % xml_escape(title)
        + "<upnp:class>object.item.audioItem.musicTrack</upnp:class>"
        + '<res protocolInfo="http-get:*:audio/mpeg:*"%s>%s</res>%s</item></DIDL-Lite>'
        % (attribute, xml_escape(uri), extra)
    )


def valid_value(rng, name, variable):
    """A value the action should take for argument `name` (of `variable`)."""
    lowered = name.lower()
    if name == "InstanceID":
        return "0"
    if variable is not None and variable.allowed:
        return rng.choice(variable.allowed)
    if lowered in ("currenturi", "nexturi", "uri", "enqueueduri"):
        return rng.choice(
            ["http://127.0.0.1:9/media/1.mp3", "x-rincon-mp3radio://127.0.0.1:9/stream", "x-file-cifs://nas/a.flac"]
        )
    if lowered.endswith("metadata"):
        return rng.choice(["", didl(rng.choice(VALID_TIMES)), didl()])
    if name == "ObjectID" or name == "ContainerID":
        return rng.choice(["0", "1", "1$4", "1$4$0", "2$8", "3$B$1", "A:TRACKS", "Q:0", "FV:2", "-1", "nonexistent"])
    if name == "Filter":
        return rng.choice(["*", "", "dc:title,res@duration", "@childCount,upnp:searchClass,dlna"])
    if name == "Target":
        return rng.choice(VALID_TIMES + ["1"])
    if name == "NewProtocol":
        return rng.choice(["TCP", "UDP"])
    if lowered.endswith("port"):
        return str(rng.randint(1024, 65535))
    if name == "NewInternalClient":
        return rng.choice(["", "127.0.0.1", "192.168.1.50"])
    if name == "NewLeaseDuration":
        return str(rng.choice([0, 1, 3600, 604800]))
    if name == "NewRemoteHost":
        return ""
    if variable is None:
        return "0"
    data_type = variable.data_type
    if data_type in INT_RANGES:
        low, high = INT_RANGES[data_type]
        if variable.minimum is not None and variable.maximum is not None:
            low, high = variable.minimum, variable.maximum
            if rng.random() < 0.3:
                return str(rng.choice([low, high]))
        return str(rng.randint(max(low, -1000), min(high, 1000)) if low <= 1000 and high >= -1000 else low)
    if data_type == "boolean":
        return rng.choice(["0", "1", "true", "false", "yes", "no"])
    if data_type == "bin.base64":
        return base64.b64encode(rng.randbytes(rng.randint(0, 30))).decode()
    if "time" in lowered or "duration" in lowered:
        return rng.choice(VALID_TIMES)
    if variable.default is not None and rng.random() < 0.3:
        return variable.default
    return rng.choice(["x", "Living Room", "1", "test", "\u00e9t\u00e9"])


def bad_value(rng, variable, mini):
    """(value, verdict, how): a value that is wrong for `variable`, or odd. The verdict says what a device
    that checks arguments as UDA says must do: `type` (402/600/601, never 200), `range` and `list` (refused
    unless the service is a mini stack's), or `odd` (either answer is fine)."""
    data_type = variable.data_type if variable is not None else "string"
    if data_type in INT_RANGES:
        low, high = INT_RANGES[data_type]
        options = [
            (str(low - 1), "type", "type-min-1"),
            (str(high + 1), "type", "type-max+1"),
            (str(low), "odd", "type-min"),
            (str(high), "odd", "type-max"),
            (str(2**31), "type" if high < 2**31 else "odd", "2^31"),
            (str(2**32), "type" if high < 2**32 else "odd", "2^32"),
            (str(2**63 - 1), "type" if high < 2**63 - 1 else "odd", "2^63-1"),
            (str(2**63), "type" if high < 2**63 else "odd", "2^63"),
            (str(2**64), "type", "2^64"),
            (str(-(2**63)), "type" if low > -(2**63) else "odd", "-2^63"),
            ("-1", "type" if low == 0 else "odd", "-1"),
            ("-0", "odd", "-0"),
            ("9" * rng.choice([20, 40, 400]), "type", "huge-digits"),
            ("+5", "odd", "plus"),
            (" 5 ", "odd", "spaces"),
            ("\t5\n", "odd", "tab-newline"),
            ("++5", "type", "double-plus"),
            ("+-5", "type", "plus-minus"),
            ("--5", "type", "double-minus"),
            ("0x10", "type", "hex"),
            ("1e3", "type", "exponent"),
            ("5.0", "type", "decimal"),
            ("5 5", "type", "inner-space"),
            ("", "type", "empty"),
            ("abc", "type", "letters"),
            ("\uff15", "type", "fullwidth-digit"),
            ("\u0665", "type", "arabic-digit"),
            ("0" * 30 + "5", "odd", "leading-zeros"),
        ]
        if variable is not None and variable.minimum is not None and variable.maximum is not None:
            minimum, maximum = variable.minimum, variable.maximum
            options += [
                (str(minimum - 1), "type" if minimum - 1 < low else "range", "range-min-1"),
                (str(maximum + 1), "type" if maximum + 1 > high else "range", "range-max+1"),
                (str(minimum), "odd", "range-min"),
                (str(maximum), "odd", "range-max"),
            ]
            if variable.step and variable.step > 1 and minimum + 1 <= maximum:
                options.append((str(minimum + 1), "odd", "off-step"))
        return rng.choice(options)
    if data_type == "boolean":
        return rng.choice(
            [
                ("2", "type", "bool-2"),
                ("-1", "type", "bool--1"),
                ("", "type", "bool-empty"),
                ("null", "type", "bool-null"),
                ("TRUE", "odd", "bool-upper"),
                (" 1 ", "odd", "bool-spaces"),
                ("01", "type", "bool-01"),
                ("on", "type", "bool-on"),
            ]
        )
    if variable is not None and variable.allowed:
        some = rng.choice(variable.allowed)
        recased = some.lower() if some.lower() != some else some.upper()
        return rng.choice(
            [
                ("NOT_" + some, "list", "list-other"),
                (recased, "list" if recased not in variable.allowed else "odd", "list-case"),
                (" " + some, "list", "list-space"),
                ("", "list" if "" not in variable.allowed else "odd", "list-empty"),
                (some + "\x00", "list", "list-nul"),
                (some * 50, "list", "list-long"),
            ]
        )
    value = rng.choice(WEIRD_STRINGS + ["long", "huge", "unicode", "control"])
    if value == "long":
        value = "x" * rng.choice([1000, 4000])
    elif value == "huge":
        value = rng.choice(["A", "&", "\u00e9"]) * rng.choice([3000, 9000, 17000])
    elif value == "unicode":
        value = "".join(
            chr(
                rng.choice(
                    [
                        rng.randint(0x20, 0x7E),
                        rng.randint(0xA0, 0xD7FF),
                        rng.randint(0xE000, 0xFFFD),
                        rng.randint(0x10000, 0x10FFFF),
                    ]
                )
            )
            for _ in range(rng.randint(1, 40))
        )
    elif value == "control":
        value = "".join(chr(rng.randint(0, 31)) for _ in range(rng.randint(1, 5)))
    return (value, "odd", "string")


def encode_value(rng, value, raw=False):
    """The XML text of `value` in a SOAP body: escaped, or (sometimes) as numeric references or CDATA."""
    if raw:
        return value
    choice = rng.random()
    if choice < 0.05:
        return "".join("&#%d;" % ord(c) for c in value)
    if choice < 0.08 and "]]>" not in value:
        return "<![CDATA[%s]]>" % value
    # Control characters as references: raw they would make the request itself invalid XML (which is also sent,
    # by `raw`); as references they test what the device does with them.
    return "".join("&#%d;" % ord(c) if ord(c) < 32 and c not in "\t\r\n" else c for c in xml_escape(value))


# ---------------------------------------------------------------------------------------------------------
# Requests


class Step:
    """One request of a scenario. `data` is its bytes, or a function of the scenario's state (a SID)."""

    __slots__ = ("kind", "device", "data", "half_close", "head", "meta", "capture")

    def __init__(self, kind, device, data, half_close=False, head=False, meta=None, capture=None):
        self.kind, self.device, self.data = kind, device, data
        self.half_close, self.head, self.meta, self.capture = half_close, head, meta or {}, capture


ENVELOPE_OPEN = (
    '<?xml version="1.0" encoding="utf-8"?>\r\n'
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
    's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
)
ENVELOPE_CLOSE = "</s:Body></s:Envelope>\r\n"


def soap_body(service_type, action, arguments):
    inner = "".join("<%s>%s</%s>" % (name, text, name) for name, text in arguments)
    return (
        ENVELOPE_OPEN
        + '<u:%s xmlns:u="%s">%s</u:%s>' % (action, xml_escape(service_type), inner, action)
        + ENVELOPE_CLOSE
    )


def soap_request(
    service, action, arguments, soap_action=None, body=None, extra=(), content_type='text/xml; charset="utf-8"'
):
    if body is None:
        body = soap_body(service.service_type, action, arguments)
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    headers = [("Host", service.device.hostport)]
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    if soap_action is not False:
        headers.append(
            ("SOAPACTION", soap_action if soap_action is not None else '"%s#%s"' % (service.service_type, action))
        )
    headers += list(extra)
    headers.append(("Content-Length", str(len(body))))
    return http_request("POST", service.control, headers, body)


def controllable(devices):
    return [s for d in devices for s in d.services if s.control and s.actions]


def gen_soap(rng, devices, mode):
    services = controllable(devices)
    if not services:
        return gen_docs(rng, devices)
    service = rng.choice(services)
    action = rng.choice(service.actions)
    arguments = [(name, encode_value(rng, valid_value(rng, name, variable))) for name, variable in action.inputs]
    meta = {"service": service.service_type, "action": action.name}
    if mode == "valid":
        pass
    elif mode == "one" and action.inputs:
        position = rng.randrange(len(action.inputs))
        name, variable = action.inputs[position]
        value, verdict, how = bad_value(rng, variable, service.mini)
        raw = rng.random() < 0.05
        arguments[position] = (name, encode_value(rng, value, raw=raw))
        meta.update(
            argument=name,
            value=value[:80],
            verdict="odd" if raw else verdict,
            how=how,
            type=variable.data_type if variable is not None else "?",
            mini=service.mini,
        )
    else:
        # Several things wrong at once: values, arguments missing, extra, repeated, reordered, renamed.
        for _ in range(rng.randint(1, 4)):
            what = rng.random()
            if what < 0.35 and arguments:
                position = rng.randrange(len(arguments))
                variable = action.inputs[position][1] if position < len(action.inputs) else None
                arguments[position] = (
                    arguments[position][0],
                    encode_value(rng, bad_value(rng, variable, service.mini)[0]),
                )
            elif what < 0.5 and arguments:
                del arguments[rng.randrange(len(arguments))]
                meta["missing"] = True
            elif what < 0.65:
                arguments.insert(
                    rng.randint(0, len(arguments)),
                    (
                        rng.choice(["Extra", "InstanceID", "Channel", "x", "a" * 200]),
                        encode_value(rng, rng.choice(WEIRD_STRINGS)),
                    ),
                )
            elif what < 0.75 and arguments:
                arguments.append(rng.choice(arguments))
            elif what < 0.85:
                rng.shuffle(arguments)
            elif arguments:
                position = rng.randrange(len(arguments))
                arguments[position] = (
                    rng.choice(
                        ["u:" + arguments[position][0], arguments[position][0].lower(), arguments[position][0] + "_"]
                    ),
                    arguments[position][1],
                )
    return [Step("soap", service.device, soap_request(service, action.name, arguments), meta=meta)]


# What each case of `gen_envelope` sends, for the anomaly report.
ENVELOPE_CASES = [
    "no SOAPACTION",
    "empty SOAPACTION",
    "bare SOAPACTION",
    "single-quoted SOAPACTION",
    "another service's type in SOAPACTION",
    "injected or empty service type in SOAPACTION",
    "SOAPACTION and body name different actions",
    "SOAPACTION without #",
    "SOAPACTION twice",
    "SOAPACTION with an unbalanced quote",
    "3,000-character service type",
    "body that is not a SOAP envelope",
    "truncated envelope",
    "deep nesting",
    "DOCTYPE inside the Body",
    "entities declared in a DOCTYPE",
    "comment and processing instruction",
    "UTF-16 body",
    "invalid UTF-8 after the envelope",
    "envelope without prefixes",
    "Header where the Body opens",
    "element after the envelope",
    "two action elements",
    "action element closed after the Body",
    "odd attributes on the action",
    "CDATA before the action",
    "numeric and broken entity references",
    "other Content-Type",
    "trailing spaces (past 16 KB)",
    "15,500-byte argument",
]


def gen_envelope(rng, devices):
    services = controllable(devices)
    if not services:
        return gen_docs(rng, devices)
    service = rng.choice(services)
    action = rng.choice(service.actions)
    arguments = [(name, encode_value(rng, valid_value(rng, name, variable))) for name, variable in action.inputs]
    good_body = soap_body(service.service_type, action.name, arguments)
    other = rng.choice(services)
    name = action.name
    body, soap_action, refuse, extra, content_type = None, None, True, [], 'text/xml; charset="utf-8"'
    choice = rng.randrange(30)
    if choice == 0:
        soap_action = False  # no SOAPACTION
    elif choice == 1:
        soap_action = ""
    elif choice == 2:
        soap_action, refuse = "%s#%s" % (service.service_type, name), False  # bare (SoCo)
    elif choice == 3:
        soap_action, refuse = "'%s#%s'" % (service.service_type, name), False
    elif choice == 4:
        soap_action, refuse = '"%s#%s"' % (other.service_type, name), None  # another service's type
    elif choice == 5:
        soap_action, refuse = (
            rng.choice(
                [
                    '"urn:x\\"><evil/>#%s"',
                    '"urn:x"><evil/>#%s"',
                    '"urn:x&amp;<y>\'#%s"',
                    '"urn:x\u00e9\U0001f600#%s"',
                    '" #%s"',
                    '"#%s"',
                ]
            )
            % name,
            None,
        )
    elif choice == 6:
        soap_action = '"%s#%s"' % (service.service_type, name + "X")  # header and body disagree
    elif choice == 7:
        soap_action = '"%s"' % service.service_type  # no '#'
    elif choice == 8:
        soap_action, refuse = '"%s#%s"' % (service.service_type, name), None
        extra = [("SOAPACTION", '"%s#%s"' % (service.service_type, "Nope"))]  # twice: the last wins
    elif choice == 9:
        soap_action = '"%s#%s' % (service.service_type, name)  # unbalanced quote
    elif choice == 10:
        soap_action, refuse = '"%s#%s"' % ("u" * 3000, name), None
    elif choice == 11:
        body = rng.choice(
            ["", "not xml at all", "{}", "<", "<x>", '<?xml version="1.0"?>', "\x00" * 10, "\ufeff" + good_body]
        )
        refuse = body.startswith("\ufeff") and None
    elif choice == 12:
        body = good_body[: rng.randrange(1, len(good_body.rstrip()))]  # truncated before the envelope's end
    elif choice == 13:
        depth = rng.choice([31, 32, 33, 100, 1000])
        body = (
            ENVELOPE_OPEN
            + '<u:%s xmlns:u="%s">' % (name, service.service_type)
            + "<a>" * depth
            + "</a>" * depth
            + "</u:%s>" % name
            + ENVELOPE_CLOSE
        )
        refuse = None
    elif choice == 14:
        body = good_body.replace(
            "<s:Body>", '<s:Body><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        )
        refuse = None
    elif choice == 15:
        # Entities declared in a DOCTYPE and used (a small "billion laughs"): the device knows none of them.
        doctype = (
            '<?xml version="1.0"?><!DOCTYPE s:Envelope [<!ENTITY a "x">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
        )
        body = doctype + good_body.split("\r\n", 1)[1].replace("</u:", "&c;</u:", 1)
        refuse = None
    elif choice == 16:
        body = good_body.replace("<s:Body>", "<s:Body><!-- " + "-" * rng.choice([1, 100]) + " -->").replace(
            "</u:", "<?pi x?></u:", 1
        )
        refuse = None
    elif choice == 17:
        body = good_body.encode("utf-16")
        refuse = None
    elif choice == 18:
        body = good_body.encode() + b"\xff\xfe\xc3\x28"
    elif choice == 19:
        body = (
            good_body.replace("s:Envelope", "Envelope")
            .replace("s:Body", "Body")
            .replace("s:encodingStyle", "encodingStyle")
        )
        refuse = None  # no prefixes
    elif choice == 20:
        body = good_body.replace("s:Body", "s:Header><s:Body", 1)
    elif choice == 21:
        body = good_body + "<trailing/>"
    elif choice == 22:
        body = good_body.replace("<s:Body>", "<s:Body>" + "<u:%s/>" % name)  # two action elements
        refuse = None
    elif choice == 23:
        body = good_body.replace("</u:%s>" % name, "").replace("</s:Body>", "</u:%s></s:Body>" % name)
        refuse = None
    elif choice == 24:
        attribute = rng.choice(
            ['a="1" a="2"', "a=1", 'a="<"', 'a="&bogus;"', "a", 'xmlns:u=""', 'a="' + "v" * 5000 + '"']
        )
        body = good_body.replace("<u:%s " % name, "<u:%s %s " % (name, attribute), 1)
        refuse = None
    elif choice == 25:
        body = good_body.replace("<s:Body>", "<s:Body><![CDATA[" + "]" * rng.randint(0, 3) + ">", 1)
    elif choice == 26:
        entity = rng.choice(
            [
                "&#0;",
                "&#xD800;",
                "&#x110000;",
                "&#99999999999;",
                "&#x;",
                "&#;",
                "&;",
                "&" + "a" * 20 + ";",
                "&#65;",
                "&#x1F600;",
                "&#-1;",
                "&lt",
                "&amp;amp;",
            ]
        )
        body = soap_body(service.service_type, name, [(n, entity) for n, _ in (arguments or [("Extra", "")])])
        refuse = None
    elif choice == 27:
        content_type, refuse = (
            rng.choice([None, "application/json", 'text/xml; charset="utf-16"', "multipart/form-data; boundary=x"]),
            None,
        )
    elif choice == 28:
        body = good_body + " " * rng.choice([100, 16000, 17000])
        refuse = None
    else:
        body = (
            ENVELOPE_OPEN
            + "".join('<u:%s xmlns:u="%s">' % (name, service.service_type) for _ in range(1))
            + "<x>"
            + "y" * 15500
            + "</x></u:%s>" % name
            + ENVELOPE_CLOSE
        )
        refuse = None
    data = soap_request(
        service, name, arguments, soap_action=soap_action, body=body, extra=extra, content_type=content_type
    )
    return [
        Step(
            "envelope",
            service.device,
            data,
            meta={"refuse": refuse, "service": service.service_type, "action": name, "case": choice},
        )
    ]


def avtransports(devices):
    return [s for d in devices for s in d.services if s.base_type == "AVTransport" and s.control and s.actions]


def call(service, action, arguments, meta=None):
    """A SOAP step calling `action` with `arguments` ({name: text}), valid values for the rest."""
    found = next((a for a in service.actions if a.name == action), None)
    names = [n for n, _ in found.inputs] if found else list(arguments)
    values = []
    for name in names:
        if name in arguments:
            values.append((name, xml_escape(arguments[name])))
        else:
            variable = dict(found.inputs).get(name) if found else None
            values.append((name, xml_escape(valid_value(random.Random(0), name, variable))))
    return Step(
        "time",
        service.device,
        soap_request(service, action, values),
        meta=dict(meta or {}, service=service.service_type, action=action),
    )


def gen_time(rng, devices):
    services = avtransports(devices)
    if not services:
        return gen_soap(rng, devices, "one")
    service = rng.choice(services)
    huge = rng.choice(HUGE_TIMES + ODD_TIMES)
    uri = "http://127.0.0.1:9/media/%d.mp3" % rng.randrange(100)
    load = lambda duration: call(
        service,
        "SetAVTransportURI",
        {"CurrentURI": uri, "CurrentURIMetaData": didl(duration) if duration is not False else ""},
    )
    seek = lambda unit, target: call(service, "Seek", {"Unit": unit, "Target": target})
    choice = rng.randrange(9)
    if choice == 0:  # a track whose metadata gives a huge or odd duration, then where are we
        return [load(huge), call(service, "GetPositionInfo", {}), call(service, "GetMediaInfo", {})]
    if choice == 1:  # seek far on a track of no known length
        return [
            load(False),
            seek(rng.choice(["REL_TIME", "TIME_DELTA", "ABS_TIME", "TRACK_NR", "X"]), huge),
            call(service, "GetPositionInfo", {}),
        ]
    if choice == 2:  # seek to the top (or past it), play, and ask the position while it runs
        target = rng.choice(NEAR_TOP + HUGE_TIMES[:6])
        return [
            load(False),
            seek("REL_TIME", target),
            call(service, "Play", {"Speed": "1"}),
            call(service, "GetPositionInfo", {}),
            call(service, "Pause", {}),
        ]
    if choice == 3:  # two forward deltas: the second adds to a position already near the top
        target = rng.choice(["+2562047788015:00:00", "+1281023894007:30:00", "2562047788015:00:00"])
        return [
            load(False),
            seek("TIME_DELTA", target),
            seek("TIME_DELTA", target),
            call(service, "GetPositionInfo", {}),
        ]
    if choice == 4:  # backwards past zero, and odd deltas
        return [
            load(rng.choice([False, "0:03:25"])),
            seek(
                "TIME_DELTA",
                rng.choice(
                    ["-9999999999999999:00:00", "-2562047788015:00:00", "-0:00:01", "--0:00:01", "+-0:00:01", "+"]
                ),
            ),
            call(service, "GetPositionInfo", {}),
        ]
    if choice == 5:  # a weird duration, then play and pause and stop
        return [
            load(huge),
            call(service, "Play", {"Speed": "1"}),
            call(service, "Pause", {}),
            call(service, "GetPositionInfo", {}),
            call(service, "Stop", {}),
        ]
    if choice == 6:  # metadata that is not quite DIDL-Lite
        metadata = rng.choice(
            [
                DIDL_OPEN
                + '<item><res duration="%s"/><res duration="%s"/></item></DIDL-Lite>'
                % (xml_escape(huge), xml_escape(rng.choice(HUGE_TIMES))),
                DIDL_OPEN + "<item>" + "<a>" * 40 + "</a>" * 40 + "</item></DIDL-Lite>",
                '<res duration="%s"/>' % xml_escape(huge),
                DIDL_OPEN + '<item><res duration="%s" duration="0:00:01"/></item></DIDL-Lite>' % xml_escape(huge),
                DIDL_OPEN + "<item><res duration='" + xml_escape(huge) + "'></res></item></DIDL-Lite>",
                "not xml",
                "<",
                "&",
                "<DIDL-Lite>" * 50,
            ]
        )
        return [
            call(service, "SetAVTransportURI", {"CurrentURI": uri, "CurrentURIMetaData": metadata}),
            call(service, "GetPositionInfo", {}),
        ]
    if choice == 7:  # the next track too, where the action exists
        return [
            call(service, "SetNextAVTransportURI", {"NextURI": uri, "NextURIMetaData": didl(huge)}),
            call(service, "GetMediaInfo", {}),
        ]
    # seek with a huge target on a track of a known length, then play from there
    return [
        load("0:03:25"),
        seek(rng.choice(["REL_TIME", "TIME_DELTA"]), huge),
        call(service, "Play", {"Speed": "1"}),
        call(service, "GetPositionInfo", {}),
    ]


def callback_is_safe(value):
    """Whether every URL the device would take from CALLBACK `value` (EventSubscriptions.callbackURLs,
    EventNotifier.split) names a loopback address literally: no name to resolve, nothing off this host."""
    urls = []
    for part in value.split("<"):
        end = part.find(">")
        if end < 0:
            continue
        url = part[:end]
        if url.startswith("http://") and len(url) > 7:
            urls.append(url)
    for url in urls[:4]:
        rest = url[7:]
        authority = rest.split("/", 1)[0]
        host = authority
        if authority.startswith("[") and "]" in authority:
            host = authority[1 : authority.index("]")]
            after = authority[authority.index("]") + 1 :]
            if after.startswith(":") and not re.fullmatch(r"[+-]?\d+", after[1:]):
                continue
        elif ":" in authority:
            host, port = authority.rsplit(":", 1)
            if not re.fullmatch(r"[+-]?\d+", port):
                continue  # no port the device can read: it sends nothing
        if not host:
            continue
        if not loopback_address(host):
            return False
    return True


def gen_gena(rng, devices, sink_port):
    # Services with actions: a DIAL device lists a service whose URLs all point at one 404 page.
    services = [s for d in devices for s in d.services if s.event and s.actions]
    if not services:
        return gen_raw(rng, devices)
    service = rng.choice(services)
    device = service.device
    sink = "http://127.0.0.1:%d/notify/%d" % (sink_port, rng.randrange(1000)) if sink_port else "http://127.0.0.1:9/"
    callbacks = [
        "<%s>" % sink,
        "<%s>" % sink,
        "<http://127.0.0.1:1/>",
        "<http://127.%d.%d.%d:9/x>" % (rng.randrange(256), rng.randrange(256), rng.randrange(1, 255)),
        "<http://[::1]:9/v6>",
        "<http://%s/self>" % device.hostport,
        "<%s><http://127.0.0.1:1/><http://127.0.0.2:1/><http://127.0.0.3:1/><http://127.0.0.4:1/>" % sink,
        sink,  # no angle brackets
        "  <%s>  " % sink,
        "\t<%s>\t" % sink,
        "<%s/with\tspace and\ttabs>" % sink,
        "<%s/%s>" % (sink, "p" * rng.choice([100, 2000, 7000])),
        "<https://127.0.0.1:1/>",
        "<ftp://127.0.0.1/>",
        "<>",
        "<http://>",
        "<http:///x>",
        "<http://127.0.0.1:99999/>",
        "<http://127.0.0.1:0/>",
        "<http://127.0.0.1:-1/>",
        "<http://127.0.0.1:abc/>",
        "<http://127.0.0.1:9 />",
        "<http://127.0.0.1:9",
        "http://127.0.0.1:9/>",
        "<<%s>>" % sink,
        "<%s>garbage<nothttp>" % sink,
        "",
        "<\u00e9>",
    ]
    callback = rng.choice(callbacks)
    if not callback_is_safe(callback):
        callback = "<%s>" % sink
    sid = rng.choice(
        [
            "uuid:" + "%08x-0000-0000-0000-000000000000" % rng.getrandbits(32),
            "",
            " ",
            "uuid:",
            "garbage",
            "uuid:" + "a" * rng.choice([100, 7000]),
            "\u00e9",
            "uuid:x\ty",
        ]
    )
    host = [("Host", device.hostport)]
    choice = rng.randrange(8)
    if choice <= 2:
        # A subscription, its renewal, a renewal that also names a CALLBACK, and the end of it.
        timeout = rng.choice(TIMEOUTS[:10])
        first = Step(
            "gena",
            device,
            http_request(
                "SUBSCRIBE",
                service.event,
                host
                + [
                    ("CALLBACK", "<%s>" % sink),
                    ("NT", "upnp:event"),
                    ("TIMEOUT", rng.choice(["Second-1", "Second-5", "Second-60", "Second-300"])),
                ],
            ),
            meta={"expect": (200, 503)},
            capture="sid",
        )
        renew = lambda state: http_request(
            "SUBSCRIBE", service.event, host + [("SID", state.get("sid", "uuid:none")), ("TIMEOUT", timeout)]
        )
        mixed = lambda state: http_request(
            "SUBSCRIBE",
            service.event,
            host + [("SID", state.get("sid", "uuid:none")), ("CALLBACK", callback), ("NT", "upnp:event")],
        )
        elsewhere = rng.choice([s for s in services if s.device is device])
        foreign_method = rng.choice(["SUBSCRIBE", "UNSUBSCRIBE"])
        foreign = lambda state: http_request(
            foreign_method, elsewhere.event, host + [("SID", state.get("sid", "uuid:none"))]
        )
        end = lambda state: http_request("UNSUBSCRIBE", service.event, host + [("SID", state.get("sid", "uuid:none"))])
        steps = [first, Step("gena", device, renew), Step("gena", device, mixed, meta={"expect": (400,)})]
        if rng.random() < 0.5:
            steps.append(Step("gena", device, foreign))
        steps += [Step("gena", device, end), Step("gena", device, end, meta={"expect": (412,)})]
        return steps
    method = rng.choice(["SUBSCRIBE"] * 5 + ["UNSUBSCRIBE"] * 3 + ["NOTIFY", "GET", "POST", "subscribe", "PUT"])
    headers = list(host) if rng.random() < 0.9 else []
    for name, value in (
        ("CALLBACK", callback),
        ("NT", rng.choice(NTS)),
        ("TIMEOUT", rng.choice(TIMEOUTS)),
        ("SID", sid),
        ("STATEVAR", "Volume,Mute"),
    ):
        if rng.random() < 0.5:
            headers.append((rng.choice([name, name.lower(), name.title()]), value))
    if rng.random() < 0.1:
        headers.append(("CALLBACK", "<%s>" % sink))  # twice: the last wins
    body = b""
    if rng.random() < 0.1:
        body = b"x" * rng.choice([0, 10, 5000])
        headers.append(("Content-Length", str(len(body))))
    return [Step("gena", device, http_request(method, service.event, headers, body))]


def paths_of(device):
    paths = [device.path, "/", "/description.xml", "/rootDesc.xml"]
    for service in device.services:
        paths += [p for p in (service.control, service.event, service.scpd) if p]
    if device.dial:
        paths.append(device.dial)
    if device.roku:
        paths += ["/query/device-info", "/query/apps", "/keypress/Home"]
    return paths


def gen_raw(rng, devices):
    device = rng.choice(devices)
    path = rng.choice(paths_of(device))
    host = [("Host", device.hostport)]
    half, head, line, headers, body, method, version = (
        False,
        False,
        None,
        list(host),
        b"",
        rng.choice(["GET", "POST", "HEAD"]),
        "HTTP/1.1",
    )
    choice = rng.randrange(36)
    if choice == 0:
        line = rng.choice(METHODS) + " " + path + " HTTP/1.1"
    elif choice == 1:
        return [Step("http", device, ("GET %s\r\n" % path).encode(), half_close=True)]  # HTTP/0.9
    elif choice == 2:
        data = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        if rng.random() < 0.5:
            # A SETTINGS frame, as an HTTP/2 client sends right after the preface.
            data += bytes.fromhex("00001204000000000000030000006400040000ffff000600004000")
        return [Step("http", device, data, half_close=True)]
    elif choice == 3:
        headers = []  # HTTP/1.1 without Host
    elif choice == 4:
        version, headers = "HTTP/1.0", rng.choice([[], headers])
    elif choice == 5:
        version = rng.choice(
            ["HTTP/9.9", "HTTP/1.2", "HTTP/0.9", "HTTP/2.0", "HTTP/1", "HTTPS/1.1", "http/1.1", "HTTP/1.1 extra", ""]
        )
    elif choice == 6:
        line = (
            rng.choice(
                [
                    "GET  %s  HTTP/1.1",
                    "GET\t%s\tHTTP/1.1",
                    " GET %s HTTP/1.1",
                    "GET %s HTTP/1.1 ",
                    "\r\n\r\nGET %s HTTP/1.1",
                ]
            )
            % path
        )
    elif choice == 7:
        data = http_request("GET", path, headers).replace(b"\r\n", b"\n")
        return [Step("http", device, data)]
    elif choice == 8:
        line = "GET http://%s%s HTTP/1.1" % (device.hostport, path)
    elif choice == 9:
        line = rng.choice(
            ["OPTIONS * HTTP/1.1", "CONNECT 127.0.0.1:1 HTTP/1.1", "GET * HTTP/1.1", "GET ? HTTP/1.1", "GET # HTTP/1.1"]
        )
    elif choice == 10:
        path = rng.choice(
            [
                "/../../../../etc/passwd",
                "/%2e%2e/%2e%2e/etc/passwd",
                "/..%2f..%2f..%2fetc%2fpasswd",
                "//",
                "///rootDesc.xml",
                "/./" + path.lstrip("/"),
                "/x/../" + path.lstrip("/"),
                path + "/",
                path + "/.",
                path + "%00",
                path + "?",
                path + "?a=1&&&=&b",
                path + "#frag",
                path.upper(),
                "/%",
                "/%zz",
                "/%C0%AE%C0%AE/",
                "/%ff%fe",
                "/\u00e9",
                "/device/0/description.xml",
                "/device/-1/description.xml",
                "/device/99999999999999999999/description.xml",
                "/device/00/description.xml",
                "/device/1/service/99999999999999999999/scpd.xml",
                "/device/0/service/0/control",
                "/device/0/service/-0/event",
                "/service/999/control",
                "/query/..",
                "/apps/..%2f",
            ]
        )
    elif choice == 11:
        path = (
            path + "?" + "&".join("%s=%s" % ("k%d" % i, "v" * rng.randint(0, 50)) for i in range(rng.randint(1, 300)))
        )
    elif choice == 12:
        path = "/" + "a" * rng.choice([1000, 4000, 8000, 8192, 9000, 10000])  # long URIs (the header limit is 8 KB)
    elif choice == 13:
        path = path + rng.choice(["\x01", "\x7f", "\x00", "\x1b[31m", "%0d%0aX-Injected:%201", "\u00e9\u65e5"])
    elif choice == 14:
        headers.append(
            (
                "Content-Length",
                rng.choice(
                    [
                        "-1",
                        "99999999999999999999",
                        "1e3",
                        "0x10",
                        " 5",
                        "5 ",
                        "+5",
                        "",
                        "18446744073709551616",
                        "4294967296",
                    ]
                ),
            )
        )
        body = b"hello"
        half = True
    elif choice == 15:
        headers += [("Content-Length", "5"), ("Content-Length", rng.choice(["5", "6", "0"]))]
        body = b"hello"
        half = True
    elif choice == 16:
        length = rng.choice([10, 100, 10**6, 10**12])
        headers.append(("Content-Length", str(length)))
        body = b"x" * rng.choice([0, 5])
        half = True  # the body never comes: the client closes its side
    elif choice == 17:
        chunks = rng.choice(
            [
                b"5\r\nhello\r\n0\r\n\r\n",
                b"5;ext=1\r\nhello\r\n0\r\nTrailer: x\r\n\r\n",
                b"ffffffffffffffff\r\nx\r\n",
                b"-1\r\n\r\n",
                b"zz\r\n\r\n",
                b"5\r\nhelloXX\r\n0\r\n\r\n",
                b"0\r\n",
                b"4000\r\n" + b"y" * 16384 + b"\r\n0\r\n\r\n",
                b"1\r\na\r\n" * 300 + b"0\r\n\r\n",
                b"7fffffffffffffff\r\n",
            ]
        )
        method = "POST"
        headers.append(
            (
                "Transfer-Encoding",
                rng.choice(["chunked", "Chunked", "gzip, chunked", "chunked, gzip", " chunked", "identity"]),
            )
        )
        if rng.random() < 0.3:
            headers.append(("Content-Length", "5"))
        body = chunks
        half = True
    elif choice == 18:
        headers.append(("X-Big", "v" * rng.choice([4000, 8000, 9000, 20000])))
    elif choice == 19:
        headers += [("X-H%d" % i, "v") for i in range(rng.choice([50, 100, 1000]))]
    elif choice == 20:
        raw = rng.choice(
            [
                b"NoColon",
                b"Space Before : x",
                b" Leading: x",
                b"X: a\r\n  folded continuation",
                b"X-Nul: a\x00b",
                b"X-Ctl\x01: a",
                b": empty-name",
                b"X-\xff: \xfe",
                b"Host: a\r\nHost: b",
            ]
        )
        data = http_request(method, path, headers)[:-2] + raw + b"\r\n\r\n"
        return [Step("http", device, data, head=method == "HEAD", half_close=True)]
    elif choice == 21:
        headers.append(("Expect", "100-continue"))
        method = "POST"
        headers.append(("Content-Length", "5"))
        body = b"hello"
    elif choice == 22:
        # Two requests on one connection: the device answers one and closes (Connection: close).
        second = http_request("GET", rng.choice(paths_of(device)), host)
        data = http_request("GET", path, headers + [("Connection", "keep-alive")]) + second
        return [Step("http", device, data)]
    elif choice == 23:
        headers = [
            (
                "Host",
                rng.choice(
                    ["", "evil.example", device.hostport + "," + device.hostport, "[::1", "a" * 300, "127.0.0.1:99999"]
                ),
            )
        ]
    elif choice == 24:
        data = http_request(method, path, headers)[: rng.randrange(1, 30)]
        return [Step("http", device, data, half_close=True)]  # the request line cut short
    elif choice == 25:
        return [Step("http", device, bytes(rng.randrange(256) for _ in range(rng.randint(1, 200))), half_close=True)]
    elif choice == 26:
        method, body = "POST", rng.randbytes(rng.choice([16384, 16385, 20000, 65536]))
        headers.append(("Content-Length", str(len(body))))
    elif choice == 27:
        method = "HEAD"
    elif choice == 28:
        headers += [
            ("Connection", rng.choice(["keep-alive", "Upgrade", "close, Upgrade"])),
            ("Upgrade", rng.choice(["h2c", "websocket"])),
            ("HTTP2-Settings", "AAMAAABkAARAAAAAAAIAAAAA"),
        ]
    elif choice == 29:
        headers.append(("Accept-Encoding", "gzip, deflate, br"))
        headers.append(
            ("Range", rng.choice(["bytes=0-10", "bytes=-5", "bytes=999999-", "bytes=5-1", "bytes=0-0,1-1,2-2"]))
        )
    elif choice == 30:
        method, body = "POST", b"a=b"
        headers.append(("Content-Length", "3"))
        headers.append(
            (
                "Content-Type",
                rng.choice(["application/x-www-form-urlencoded", "text/plain", "", 'text/xml; charset="bogus"']),
            )
        )
    elif choice == 31:
        data = http_request("GET", path, headers)
        data = data[: len(data) // 2] + b"\r\n" * 2 + data[len(data) // 2 :]
        return [Step("http", device, data, half_close=True)]
    elif choice == 32:
        line = "GET %s HTTP/1.1" % ("/" + "%41" * rng.choice([100, 2000, 2700]))
    elif choice == 33:
        line = "GET /" + "".join(rng.choice("abc/%.?&=#;~") for _ in range(rng.randint(1, 200))) + " HTTP/1.1"
    elif choice == 34:
        headers.append(("Transfer-Encoding", "chunked"))
        method, body, half = "POST", b"3\r\nabc\r\n", True  # the last chunk never comes
    else:
        headers.append(("Connection", "keep-alive"))
    data = http_request(method, path, headers, body, version=version, line=line)
    return [Step("http", device, data, half_close=half, head=(method == "HEAD" and line is None))]


def gen_roku(rng, devices):
    rokus = [d for d in devices if d.roku]
    if not rokus:
        return gen_raw(rng, devices)
    device = rng.choice(rokus)
    host = [("Host", device.hostport)]
    command = rng.choice(["query", "keypress", "keydown", "keyup", "launch", "input", "other"])
    if command == "query":
        path = "/query/" + rng.choice(
            [
                "device-info",
                "apps",
                "active-app",
                "media-player",
                "icon/12",
                "tv-channels",
                "",
                "..",
                "%2e",
                "device-info/x",
                "\u00e9",
            ]
        )
        method = rng.choice(["GET", "GET", "HEAD", "POST", "PUT"])
    elif command in ("keypress", "keydown", "keyup"):
        key = rng.choice(
            [
                "Home",
                "Play",
                "PowerOff",
                "PowerOn",
                "Select",
                "Lit_a",
                "Lit_%E2%82%AC",
                "Lit_%",
                "%",
                "%zz",
                "%00",
                "%C3%28",
                "",
                "home",
                "x" * rng.choice([10, 3000]),
                "Home/extra",
                "%2F",
            ]
        )
        path = "/%s/%s" % (command, key)
        method = rng.choice(["POST"] * 4 + ["GET"])
    elif command == "launch":
        path = "/launch/" + rng.choice(
            [
                "12",
                "2285",
                "837",
                "999999",
                "%",
                "",
                "12?contentId=abc&mediaType=movie",
                "12?" + "a=b&" * 200,
                "-1",
                "%31%32",
            ]
        )
        method = rng.choice(["POST"] * 4 + ["GET"])
    elif command == "input":
        path = "/input" + rng.choice(["", "?a=1", "?a=%zz&b=&=c&&", "?" + "x=y&" * 500, "?\u00e9=\u00e9", "/x"])
        method = rng.choice(["POST"] * 4 + ["GET"])
    else:
        path = rng.choice(
            ["/keypress", "/keypress/", "/launch", "/query", "/search/browse?keyword=a", "/exit-app/12", "/install/12"]
        )
        method = "POST"
    return [
        Step(
            "roku",
            device,
            http_request(method, path, host + [("Content-Length", "0")] if method == "POST" else host),
            head=method == "HEAD",
        )
    ]


def gen_dial(rng, devices):
    dials = [d for d in devices if d.dial]
    if not dials:
        return gen_raw(rng, devices)
    device = rng.choice(dials)
    base = device.dial if device.dial.endswith("/") else device.dial + "/"
    app = rng.choice(
        [
            "YouTube",
            "Netflix",
            "YouTube",
            "Netflix",
            "ChromeCast",
            "Unknown",
            "You%54ube",
            "%",
            "%zz",
            "",
            "..",
            "\u00e9",
            "Y" * 500,
        ]
    )
    tail = rng.choice(["", "", "/run", "/run/hide", "/dial_data", "/run/x", "/", "/run/", "/dial_data/x"])
    method = rng.choice(["GET", "POST", "DELETE", "OPTIONS", "HEAD", "PUT"])
    path = base + app + tail
    if rng.random() < 0.1:
        path += rng.choice(
            [
                "?clientDialVer=2.1",
                "?clientDialVer=abc",
                "?clientDialVer=1e308",
                "?clientDialVer=nan",
                "?clientDialVer=-inf",
                "?clientDialVer=",
            ]
        )
    if rng.random() < 0.05:
        path = device.dial
    headers = [("Host", device.hostport)]
    if rng.random() < 0.3:
        headers.append(
            (
                "Origin",
                rng.choice(
                    [
                        "https://www.youtube.com",
                        "https://www.netflix.com",
                        "https://evil.example",
                        "",
                        "null",
                        "https://www.youtube.com.evil",
                    ]
                ),
            )
        )
    body = b""
    if method in ("POST", "PUT"):
        body = rng.choice(
            [
                b"",
                b"v=abc",
                b"a=b&c=d",
                b"1a=b",
                b"a=%",
                b"a=%00",
                b"a=%zz",
                b"\xc3\xa9=1",
                b"a=" + b"+" * 10,
                b"=x",
                b"&&&",
                b"a-b_c=%3Cx%3E",
                b"x" * 4096,
                b"x" * 4097,
                b"a=b" * 2000,
                b"name=\x01\x02",
            ]
        )
        headers.append(("Content-Type", 'text/plain; charset="utf-8"'))
        headers.append(("Content-Length", str(len(body))))
    return [Step("dial", device, http_request(method, path, headers, body), head=method == "HEAD")]


def gen_docs(rng, devices):
    device = rng.choice(devices)
    paths = [device.path] + [s.scpd for s in device.services if s.scpd]
    method = rng.choice(["GET"] * 6 + ["HEAD"] * 2 + ["POST", "PUT", "DELETE", "OPTIONS", "SUBSCRIBE"])
    headers = [("Host", device.hostport)]
    if rng.random() < 0.3:
        headers += [("Accept", "*/*"), ("User-Agent", "Linux/5.0 UPnP/1.0 fuzz/1.0"), ("Accept-Language", "en")]
    if rng.random() < 0.1:
        headers.append(("If-Modified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"))
    return [
        Step(
            "docs",
            device,
            http_request(method, rng.choice(paths), headers),
            head=method == "HEAD",
            meta={"document": method == "GET"},
        )
    ]


KINDS = {
    # kind: (weight, generator)
    "soap": 30,
    "envelope": 10,
    "time": 8,
    "gena": 13,
    "http": 20,
    "roku": 6,
    "dial": 6,
    "docs": 7,
}


class Generator:
    def __init__(self, seed, devices, kinds, sink_port):
        self.seed, self.devices, self.sink_port = seed, devices, sink_port
        self.kinds = [k for k in KINDS if k in kinds]
        self.weights = [KINDS[k] for k in self.kinds]

    def scenario(self, index):
        rng = random.Random("%d:%d" % (self.seed, index))
        kind = rng.choices(self.kinds, self.weights)[0]
        if kind == "soap":
            mode = rng.choices(["valid", "one", "many"], [2, 5, 3])[0]
            return gen_soap(rng, self.devices, mode)
        if kind == "envelope":
            return gen_envelope(rng, self.devices)
        if kind == "time":
            return gen_time(rng, self.devices)
        if kind == "gena":
            return gen_gena(rng, self.devices, self.sink_port)
        if kind == "http":
            return gen_raw(rng, self.devices)
        if kind == "roku":
            return gen_roku(rng, self.devices)
        if kind == "dial":
            return gen_dial(rng, self.devices)
        return gen_docs(rng, self.devices)


# ---------------------------------------------------------------------------------------------------------
# Checks and counts


def excerpt(data, size=600):
    """`data` as text for a report (UTF-8, other bytes escaped), its middle cut when it is long."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    text = lambda part: part.decode("utf-8", "backslashreplace")
    if len(data) <= size:
        return text(data)
    return text(data[: size * 2 // 3]) + "...[%d bytes]..." % len(data) + text(data[-size // 3 :])


def envelope_case(meta):
    case = meta.get("case")
    return ENVELOPE_CASES[case] if isinstance(case, int) and 0 <= case < len(ENVELOPE_CASES) else "case %s" % case


def well_formed(body):
    try:
        ET.fromstring(body)
        return True
    except ET.ParseError:
        return False


class Stats:
    def __init__(self):
        self.requests = 0
        self.statuses = {}
        self.no_answer = {}
        self.by_kind = {}
        self.timeouts = 0
        self.errors = 0
        self.anomalies = {}  # key -> [count, example]
        self.notifies = 0

    def merge(self, other):
        self.requests += other.requests
        self.timeouts += other.timeouts
        self.errors += other.errors
        self.notifies += other.notifies
        for key, count in other.statuses.items():
            self.statuses[key] = self.statuses.get(key, 0) + count
        for key, count in other.no_answer.items():
            self.no_answer[key] = self.no_answer.get(key, 0) + count
        for kind, statuses in other.by_kind.items():
            mine = self.by_kind.setdefault(kind, {})
            for key, count in statuses.items():
                mine[key] = mine.get(key, 0) + count
        for key, (count, example) in other.anomalies.items():
            if key in self.anomalies:
                self.anomalies[key][0] += count
            elif len(self.anomalies) < 500:
                self.anomalies[key] = [count, example]

    def anomaly(self, key, request, response, **details):
        if key in self.anomalies:
            self.anomalies[key][0] += 1
        elif len(self.anomalies) < 500:
            example = {"request": excerpt(request)}
            if response is not None:
                example["response"] = (
                    excerpt(response.raw_head + b"\r\n\r\n" + response.body)
                    if response.status is not None
                    else response.err
                )
            example.update(details)
            self.anomalies[key] = [1, example]


def check(stats, step, request, response, head):
    """Counts `response` and notes what is odd about it (`head`: the request was a HEAD)."""
    kind, meta = step.kind, step.meta
    status = response.status
    label = (
        str(status)
        if status is not None and status >= 0
        else ("bad-status-line" if status == -1 else response.err or "none")
    )
    counts = stats.statuses if status is not None else stats.no_answer
    counts[label] = counts.get(label, 0) + 1
    per_kind = stats.by_kind.setdefault(kind, {})
    per_kind[label] = per_kind.get(label, 0) + 1
    if status is None:
        return
    if status == -1:
        stats.anomaly("bad status line", request, response)
        return
    line = request.split(b"\r\n", 1)[0][:60].decode("latin-1")
    if response.err == "kept-open":
        stats.anomaly("connection kept open after the answer (%s)" % kind, request, response)
    if response.content_lengths > 1:
        stats.anomaly("several Content-Length headers in an answer", request, response)
    if not head and status not in (204, 304) and status >= 200:
        length = response.headers.get("content-length")
        if length is None:
            stats.anomaly("answer without Content-Length (%d)" % status, request, response)
        elif not length.isdigit() or int(length) != len(response.body):
            if response.err is None or response.err == "kept-open":
                stats.anomaly(
                    "Content-Length is not the body's length", request, response, length=length, body=len(response.body)
                )
    if response.headers.get("connection", "").lower() != "close":
        stats.anomaly("answer without Connection: close", request, response)
    if status >= 500 and not (status == 500 and kind in ("soap", "envelope", "time")) and status != 503:
        stats.anomaly("HTTP %d (%s)" % (status, kind), request, response, line=line)
    content_type = response.headers.get("content-type", "")
    if "xml" in content_type and response.body and not head and not well_formed(response.body):
        what = {"envelope": envelope_case(meta), "soap": meta.get("action"), "time": meta.get("action")}.get(
            kind, status
        )
        stats.anomaly("answer is not well-formed XML (%s %s)" % (kind, what), request, response)
    if kind in ("soap", "time", "envelope") and status in (200, 500) and "xml" not in content_type:
        stats.anomaly("SOAP answer that is not XML (%d)" % status, request, response)
    if kind in ("soap", "time", "envelope") and status == 500 and b"<errorCode>" not in response.body:
        stats.anomaly("SOAP 500 without a UPnP errorCode", request, response)
    if kind == "soap" and status == 200 and meta.get("verdict") in ("type", "range", "list"):
        verdict = meta["verdict"]
        if verdict == "type" or not meta.get("mini"):
            stats.anomaly(
                "200 for a value outside its %s (%s %s)"
                % (
                    {"type": "type", "range": "allowedValueRange", "list": "allowedValueList"}[verdict],
                    meta.get("type"),
                    meta.get("how"),
                ),
                request,
                response,
                service=meta.get("service"),
                action=meta.get("action"),
                argument=meta.get("argument"),
                value=meta.get("value"),
            )
    if kind == "envelope" and status == 200 and meta.get("refuse"):
        stats.anomaly("200 for a malformed SOAP request (%s)" % envelope_case(meta), request, response)
    if kind == "envelope" and status == 200 and meta.get("case") in (4, 5):
        stats.anomaly("200 for a SOAPACTION naming another service type (%s)" % envelope_case(meta), request, response)
    if kind == "docs" and meta.get("document") and status != 200:
        stats.anomaly("description or SCPD not served (%d)" % status, request, response)
    expect = meta.get("expect")
    if expect and status not in expect:
        stats.anomaly(
            "GENA %s answered %d, not %s" % (line.split(" ")[0], status, "/".join(map(str, expect))), request, response
        )


# ---------------------------------------------------------------------------------------------------------
# The event sink: a subscriber on 127.0.0.1 that takes every NOTIFY and checks its body


class NotifySink(threading.Thread):
    def __init__(self, stats_lock, stats):
        super().__init__(daemon=True)
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(256)
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.stop = threading.Event()
        self.lock, self.stats = stats_lock, stats

    def run(self):
        while not self.stop.is_set():
            try:
                connection, _ = self.server.accept()
            except (socket.timeout, TimeoutError):
                continue
            except OSError:
                return
            try:
                self.handle(connection)
            finally:
                connection.close()

    def handle(self, connection):
        connection.settimeout(1.0)
        data = bytearray()
        try:
            while len(data) < 1 << 20:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                data += chunk
                end = data.find(b"\r\n\r\n")
                if end >= 0:
                    match = re.search(rb"(?im)^content-length:\s*(\d+)", bytes(data[:end]))
                    if match and len(data) >= end + 4 + int(match.group(1)):
                        break
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        except OSError:
            pass
        end = data.find(b"\r\n\r\n")
        with self.lock:
            self.stats.notifies += 1
            if end < 0 or not data.startswith(b"NOTIFY "):
                self.stats.anomaly("event message that is not a NOTIFY", bytes(data), None)
            elif not well_formed(bytes(data[end + 4 :])):
                self.stats.anomaly("event body is not well-formed XML", bytes(data), None)


# ---------------------------------------------------------------------------------------------------------
# The run


class Run:
    def __init__(self, args, devices, generator, skip):
        self.args, self.devices, self.generator, self.skip = args, devices, generator, skip
        self.lock = threading.Lock()
        self.next_index = 0
        self.issued = 0
        self.stop = threading.Event()
        self.crash = None
        self.latest = {}
        self.totals = Stats()
        self.deadline = time.monotonic() + args.max_seconds
        self.skipped = 0

    def take(self):
        """The next scenario to send: its index and steps, or None when the batch is done."""
        with self.lock:
            if self.stop.is_set() or self.issued >= self.args.requests or time.monotonic() > self.deadline:
                return None
            if self.args.only is not None:
                if self.next_index >= len(self.args.only):
                    return None
                index = self.args.only[self.next_index]
            else:
                index = self.next_index
            self.next_index += 1
            steps = self.generator.scenario(index)
            self.issued += len(steps)
            return index, steps

    def alive(self, device):
        for _ in range(2):
            response = fetch(device, device.path, self.args.timeout)
            if response.status == 200:
                return True
            if response.err == "refused":
                return False
        return False

    def worker(self, number):
        stats = Stats()
        while not self.stop.is_set():
            taken = self.take()
            if taken is None:
                break
            index, steps = taken
            state = {}
            for position, step in enumerate(steps):
                if self.stop.is_set():
                    break
                request = step.data(state) if callable(step.data) else step.data
                if self.skip is not None and self.skip.search(request.decode("latin-1")):
                    self.skipped += 1
                    continue
                # Each worker's latest request stays on record with its outcome, so that when the server
                # goes down every request that may have brought it down can be named.
                record = [index, position, step.device.hostport, request, time.monotonic(), None]
                self.latest[number] = record
                head = step.head or request.startswith(b"HEAD ")
                response = exchange(
                    step.device.host, step.device.port, request, self.args.timeout, step.half_close, head
                )
                record[5] = response.status if response.status is not None and response.err is None else response.err
                stats.requests += 1
                check(stats, step, request, response, head)
                if step.capture == "sid" and response.status == 200:
                    state["sid"] = response.headers.get("sid", "")
                if response.status is None or response.err in ("timeout", "reset"):
                    # An incomplete request (the client closed its side) or one past the limits (8 KB of
                    # header, 16 KB of body) may be closed without an answer; anything else is an error.
                    expected = step.half_close or len(request) > 8192
                    if response.err == "timeout":
                        stats.timeouts += 1
                    elif not (expected and response.err in ("closed", "reset")):
                        stats.errors += 1
                    # Whatever it was, the device must still be there: a crash closes every connection.
                    if not self.alive(step.device):
                        self.died(index, position, step, request, response)
                        break
                    if not expected or response.err == "timeout":
                        stats.anomaly("no answer: %s (%s)" % (response.err, step.kind), request, response)
        with self.lock:
            self.totals.merge(stats)

    def died(self, index, position, step, request, response):
        with self.lock:
            if self.crash is not None:
                return
            # The suspects: every worker's latest request. When a process dies the kernel closes its
            # sockets: one whose request it had read (the one it was handling) with a FIN, "closed"; those
            # with unread bytes, or still waiting to be accepted, with a reset. So "closed" comes first,
            # then no answer at all, then the rest; earliest first within each. With --workers 1 there is one.
            rank = {"closed": 0, "timeout": 1, None: 2, "reset": 3}
            latest = sorted(self.latest.values(), key=lambda r: (rank.get(r[5], 4), r[4]))
            suspects = [
                {
                    "scenario": i,
                    "step": p,
                    "device": d,
                    "outcome": o if o is not None else "in flight",
                    "request": excerpt(r, 4000),
                }
                for i, p, d, r, _, o in latest
            ] or [
                {
                    "scenario": index,
                    "step": position,
                    "device": step.device.hostport,
                    "outcome": response.err,
                    "request": excerpt(request, 4000),
                }
            ]
            self.crash = dict(suspects[0], error=response.err, detected_by={"scenario": index, "step": position})
            self.stop.set()
        sys.stderr.write(
            "http_fuzz: the server stopped answering (%s after scenario %d step %d)\n" % (response.err, index, position)
        )
        for number, suspect in enumerate(suspects):
            sys.stderr.write(
                "--- %s: scenario %d step %d to %s (%s); replay with --workers 1 --only %d ---\n%s\n"
                % (
                    "last request" if number == 0 else "also in flight",
                    suspect["scenario"],
                    suspect["step"],
                    suspect["device"],
                    suspect["outcome"],
                    suspect["scenario"],
                    suspect["request"],
                )
            )
        sys.stderr.write("--- end ---\n")
        sys.stderr.flush()


def main():
    parser = argparse.ArgumentParser(description="Fuzz the HTTP side of simulated devices (loopback only).")
    parser.add_argument("locations", nargs="*", metavar="LOCATION_URL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds a request may take (default 2)")
    parser.add_argument("--max-seconds", type=float, default=3600.0, help="stop issuing requests after this long")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated: " + ",".join(KINDS))
    parser.add_argument("--skip-kinds", default="")
    parser.add_argument("--skip-matching", default=None, metavar="REGEX", help="leave out requests whose bytes match")
    parser.add_argument("--only", default=None, help="send only these scenarios, I[,J...]")
    parser.add_argument("--dump", type=int, default=None, metavar="I", help="print scenario I's requests and exit")
    parser.add_argument("--no-sink", action="store_true", help="no NOTIFY subscriber of our own")
    args = parser.parse_args()
    if not args.locations:
        parser.error("give at least one LOCATION_URL")
    if args.requests < 0 or args.workers < 1 or args.workers > 64:
        parser.error("--requests must be >= 0 and --workers 1...64")
    args.only = [int(i) for i in args.only.split(",")] if args.only else None
    kinds = set(args.kinds.split(",")) - set(args.skip_kinds.split(","))
    if not kinds - {""}:
        parser.error("no kinds left")
    for location in args.locations:
        host = urllib.parse.urlsplit(location).hostname or ""
        if not loopback_address(host):
            parser.error("%s is not on a loopback address" % location)

    started = time.monotonic()
    try:
        devices = [discover(location, args.timeout) for location in args.locations]
    except (SystemExit, ET.ParseError, OSError) as error:
        sys.stderr.write("http_fuzz: cannot read the descriptions: %s\n" % error)
        return 2
    totals_lock = threading.Lock()
    sink = None
    if not args.no_sink and args.dump is None:
        sink_stats = Stats()
        sink = NotifySink(totals_lock, sink_stats)
        sink.start()
    generator = Generator(args.seed, devices, kinds, sink.port if sink else 9)
    if args.dump is not None:
        for position, step in enumerate(generator.scenario(args.dump)):
            data = step.data({"sid": "uuid:SID-FROM-THE-SUBSCRIBE"}) if callable(step.data) else step.data
            sys.stdout.write(
                "--- scenario %d step %d: %s to %s%s ---\n"
                % (
                    args.dump,
                    position,
                    step.kind,
                    step.device.hostport,
                    " (then half-closed)" if step.half_close else "",
                )
            )
            sys.stdout.write(data.decode("latin-1") + "\n")
        return 0
    sys.stderr.write(
        "http_fuzz: %d devices, %d services, %d actions; roku: %d, dial: %d\n"
        % (
            len(devices),
            sum(len(d.services) for d in devices),
            sum(len(s.actions) for d in devices for s in d.services),
            sum(d.roku for d in devices),
            sum(bool(d.dial) for d in devices),
        )
    )
    run = Run(args, devices, generator, re.compile(args.skip_matching) if args.skip_matching else None)
    fuzz_start = time.monotonic()
    threads = [threading.Thread(target=run.worker, args=(n,), daemon=True) for n in range(args.workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    fuzz_seconds = time.monotonic() - fuzz_start
    if sink:
        time.sleep(0.3)  # the last event messages
        sink.stop.set()
        sink.join(2)
        with totals_lock:
            run.totals.merge(sink_stats)
    still_serving = run.crash is None and all(run.alive(d) for d in devices)
    totals = run.totals
    for key, (count, example) in sorted(totals.anomalies.items(), key=lambda item: -item[1][0]):
        sys.stderr.write(json.dumps({"anomaly": key, "count": count, "example": example}, ensure_ascii=True) + "\n")
    summary = {
        "requests": totals.requests,
        "statuses": dict(sorted(totals.statuses.items())),
        "no_answer": dict(sorted(totals.no_answer.items())),
        "timeouts": totals.timeouts,
        "errors": totals.errors,
        "still_serving": still_serving,
        "seconds": round(time.monotonic() - started, 2),
        "rate": round(totals.requests / fuzz_seconds, 1) if fuzz_seconds > 0 else 0,
        "seed": args.seed,
        "workers": args.workers,
        "by_kind": totals.by_kind,
        "notifies": totals.notifies,
        "skipped": run.skipped,
        "anomalies": {key: count for key, (count, _) in sorted(totals.anomalies.items())},
        "crash": run.crash,
    }
    sys.stdout.write(json.dumps(summary, ensure_ascii=True) + "\n")
    sys.stdout.flush()
    return 0 if still_serving else 1


if __name__ == "__main__":
    sys.exit(main())
