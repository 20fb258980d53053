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

import SSDPCore

/// What a recorded device (`ssdp-sim record`) answers over HTTP: each response as it arrived, status line,
/// headers in order and body bytes, found by the method and target asked.
///
/// Played back, a response is sent byte for byte but for three things: the recorded origin
/// (`http://host:port`) becomes the playing device's wherever it appears (LOCATION-like headers such as
/// Application-URL, a description's URLBase and absolute URLs), a Content-Length says the body's length (as
/// it did when recorded; the new origin, or a hand edit, may change it), and a Date is written anew. A HEAD never recorded gets the recorded GET's head. Any
/// other request the recording does not hold is the device's family's to answer (its control and eventing,
/// a Roku's ECP, DIAL); where the family has no answer either (404, or a method it does not take), the
/// recorded page is sent instead (`fallback`): what the device answered to a path it does not have, or to
/// a method it does not take.
///
/// A recorded action call (`calls`) answers the same call (control URL, action and arguments) with the
/// recorded answer, and a recorded read of a vendor's REST side (`Exchange.readsState`) the same GET, while
/// the device is in the state it was recorded in: they stop being played once a call the recording does not
/// hold changes the device (`Call.isReadOnly`), a vendor's REST side takes a request that is not a read, or
/// its state is set.
///
/// A client's session recorded through the recording proxy (`serve --record-from`) may hold the same request
/// several times (a GetVolume before a SetVolume and one after): each time it is asked again, the next of
/// its recorded answers is played, in the order they came, and after the last the last again; but never a
/// read recorded before a recorded change that has been played (`Playhead`): the family answers it, the
/// change played to it too.
public struct HTTPRecording: Hashable, Sendable {
    /// One recorded exchange.
    public struct Exchange: Hashable, Sendable {
        /// The method asked (`GET`).
        public var method: String
        /// The path and query asked, as sent (`/rootDesc.xml`).
        public var target: String
        /// The response as it arrived: status line, headers and body.
        public var response: [UInt8]
        /// Whether it is played only while the device is as recorded: a read of its state (a vendor REST
        /// read: a Roku's `/query/active-app`, a DIAL app's state) or a request a client made through the
        /// recording proxy (a key pressed), rather than a document.
        public var readsState: Bool
        /// The request's body, where it had one (a Hue light's `{"on":true}`): only a request with the same
        /// body bytes gets this response.
        public var requestBody: [UInt8]?

        /// The response to `method target` (with `requestBody`, where given); `readsState` for a read of the
        /// device's state.
        public init(
            method: String,
            target: String,
            response: [UInt8],
            readsState: Bool = false,
            requestBody: [UInt8]? = nil
        ) {
            self.method = method
            self.target = target
            self.response = response
            self.readsState = readsState
            self.requestBody = requestBody
        }

        /// Whether it answers `method target` with `body`.
        func answers(_ method: String, _ target: String, body: [UInt8]) -> Bool {
            self.method == method && self.target == target && (requestBody ?? []) == body
        }
    }

    /// One recorded action call (UDA §3.2): a control point's call of a read-only action, and the answer.
    public struct Call: Hashable, Sendable {
        /// The path of the control URL called, as sent.
        public var target: String
        /// The service type SOAPACTION named.
        public var serviceType: String
        /// The action called, `GetExternalIPAddress`.
        public var actionName: String
        /// The in-arguments, by name.
        public var arguments: [String: String]
        /// The response as it arrived: status line, headers and body.
        public var response: [UInt8]

        /// A call of `serviceType#actionName` with `arguments` at `target`, answered by `response`.
        public init(
            target: String,
            serviceType: String,
            actionName: String,
            arguments: [String: String],
            response: [UInt8]
        ) {
            self.target = target
            self.serviceType = serviceType
            self.actionName = actionName
            self.arguments = arguments
            self.response = response
        }

        /// Whether `call`, sent to `target`, is this one: the same control URL, service type, action and
        /// arguments, in any order.
        public func matches(_ call: SOAPActionCall, target: String) -> Bool {
            guard target == self.target, call.serviceType == serviceType, call.actionName == actionName,
                call.arguments.count == arguments.count
            else { return false }
            return call.arguments.allSatisfy { arguments[$0.name] == $0.value }
        }

        /// What the answer says, for the journal: its out-arguments, or its UPnP error (501 when the body is
        /// neither an answer nor a fault).
        public var outcome: Result<[SOAPArgument], UPnPError> {
            let body = Array(response[(HTTPRecording.headEnd(response) ?? response.count)...])
            guard let element = SSDPXMLElement.parse(body)?.child("Body")?.children.first else {
                return .failure(UPnPError(code: 501, description: "the recorded answer is not a SOAP envelope"))
            }
            guard element.name == "Fault" else {
                return .success(element.children.map { SOAPArgument($0.name, $0.text) })
            }
            let error = element.child("detail")?.child("UPnPError")
            return .failure(
                UPnPError(
                    code: error?.child("errorCode").flatMap { Int($0.text.trimmingASCIIWhitespace) } ?? 501,
                    description: error?.child("errorDescription")?.text.trimmingASCIIWhitespace ?? ""
                )
            )
        }

        /// Whether an action only reads the device, by UPnP's names: `Get…` (a vendor's `X_Get…` too),
        /// ContentDirectory's `Browse` and `Search`, RenderingControl's `ListPresets`.
        public static func isReadOnly(_ actionName: String) -> Bool {
            let name = actionName.hasPrefix("X_") ? String(actionName.dropFirst(2)) : actionName
            return name.hasPrefix("Get") || ["Browse", "Search", "ListPresets"].contains(name)
        }
    }

    /// Where playback is in a recording: for each request recorded several times, the answer played last,
    /// and the last recorded change played (a call that changes the device, a request that is not a GET or
    /// HEAD), before which no recorded read says the device's state any more.
    public struct Playhead: Hashable, Sendable {
        /// By the index of the first recorded call of a kind, the index of the one played last.
        var calls: [Int: Int] = [:]
        /// The index of the last recorded call that changes the device played; -1: none.
        var callChange = -1
        /// The same for the exchanges.
        var exchanges: [Int: Int] = [:]
        var exchangeChange = -1

        /// Nothing played yet.
        public init() {}

        /// Whether a recorded change has been played: the device is no longer in the state it was recorded in.
        public var hasPlayedAChange: Bool { callChange >= 0 || exchangeChange >= 0 }

        /// Of `recorded` (the indices of every recorded answer to one request, in the order they came), the
        /// one to play now, and counts it as played: the next after the one played last and after `change`;
        /// with none left, the one played last again, if it came after `change`; else none (what was recorded
        /// of the request no longer says the device's state). A change is asked with no `change` (-1): its
        /// recorded answers never go stale.
        static func next(of recorded: [Int], after change: Int, played: inout [Int: Int]) -> Int? {
            guard let first = recorded.first else { return nil }
            let previous = played[first]
            let next =
                recorded.first { $0 > max(previous ?? -1, change) } ?? previous.flatMap { $0 > change ? $0 : nil }
            guard let next else { return nil }
            played[first] = next
            return next
        }
    }

    /// A response as played: its bytes and its status code (0 when its status line has none).
    public struct Played: Hashable, Sendable {
        /// What goes on the wire.
        public var bytes: [UInt8]
        /// The status code, for the journal.
        public var status: Int
    }

    /// The largest response a recording holds, head and body: a description, an SCPD, an icon.
    public static let maximumResponseSize = 1 << 20
    /// The most one device's responses come to, all together.
    public static let maximumTotalSize = 8 << 20
    /// The most action calls one device's recording holds.
    public static let maximumCalls = 128

    /// The recorded device's `http://host:port`, in lower case.
    public var origin: String
    /// The exchanges; `method target` more than once only where a client asked it more than once through the
    /// recording proxy.
    public var exchanges: [Exchange]
    /// The answer to a GET of a path the device does not have.
    public var notFound: [UInt8]?
    /// The answer to a method the device does not take.
    public var unsupportedMethod: [UInt8]?
    /// The action calls; the same call more than once only where a client made it more than once through
    /// the recording proxy.
    public var calls: [Call]
    /// The initial event a new subscription got (GENA), by the path and query of the event URL subscribed
    /// at: its properties, in order. Played as the initial event while the device is as recorded.
    public var initialEvents: [String: [SOAPArgument]]

    /// A recording of a device at `origin`.
    public init(
        origin: String,
        exchanges: [Exchange],
        notFound: [UInt8]? = nil,
        unsupportedMethod: [UInt8]? = nil,
        calls: [Call] = [],
        initialEvents: [String: [SOAPArgument]] = [:]
    ) {
        self.origin = origin.asciiLowercased()
        self.exchanges = exchanges
        self.notFound = notFound
        self.unsupportedMethod = unsupportedMethod
        self.calls = calls
        self.initialEvents = initialEvents
    }

    /// The properties of an event message (a GENA NOTIFY, head and body: `<e:propertyset>`, a `<e:property>`
    /// per variable), in order; `nil` when its body is not a property set.
    public static func properties(ofEvent message: [UInt8]) -> [SOAPArgument]? {
        guard let end = headEnd(message), let root = SSDPXMLElement.parse(Array(message[end...])),
            root.name == "propertyset"
        else { return nil }
        return root.children.filter { $0.name == "property" }.flatMap(\.children).map { SOAPArgument($0.name, $0.text) }
    }

    /// The recorded answer to `call` sent to `target`, played for a device now at `origin`, and what it
    /// says: of several recorded answers to the call, the one `playhead` is at; `nil` when the recording holds
    /// no such call.
    public func answer(
        to call: SOAPActionCall,
        target: String,
        origin: String,
        secondsSince1970: Int,
        playhead: inout Playhead
    ) -> (played: Played, outcome: Result<[SOAPArgument], UPnPError>)? {
        let recorded = calls.indices.filter { calls[$0].matches(call, target: target) }
        // A read is stale once a later change has been played; a change's answer never is.
        let isRead = Call.isReadOnly(call.actionName)
        let change = isRead ? playhead.callChange : -1
        guard let index = Playhead.next(of: recorded, after: change, played: &playhead.calls) else { return nil }
        if !isRead { playhead.callChange = max(playhead.callChange, index) }
        return (played(calls[index].response, origin: origin, secondsSince1970: secondsSince1970), calls[index].outcome)
    }

    /// Whether a request of `method` only reads (GET, HEAD); any other that succeeds changes the device.
    public static func isRead(_ method: String) -> Bool { method == "GET" || method == "HEAD" }

    /// `response`, one of the recorded device's, as the device now at `origin` sends it at
    /// `secondsSince1970`: the recorded origin replaced by `origin` in its head and body, its Content-Length
    /// the body's length, its Date written anew.
    public func played(_ response: [UInt8], origin: String, secondsSince1970: Int) -> Played {
        let bytes = Self.played(response, from: self.origin, to: origin, secondsSince1970: secondsSince1970)
        return Played(bytes: bytes, status: Self.status(of: bytes))
    }

    /// The recorded response to `method target` for a device now at `origin`, at `secondsSince1970`: the
    /// exchange recorded for it (of several, the one `playhead` is at), or for a HEAD the GET's head; `nil`
    /// when the recording holds neither, or holds one played only while the device is as recorded
    /// (`Exchange.readsState`) and the device no longer is `asRecorded`.
    public func response(
        method: String,
        target: String,
        origin: String,
        secondsSince1970: Int,
        asRecorded: Bool = true,
        body: [UInt8] = [],
        playhead: inout Playhead
    ) -> Played? {
        let playable = exchanges.indices.filter { asRecorded || !exchanges[$0].readsState }
        let get = playable.first { exchanges[$0].method == "GET" && exchanges[$0].target == target }
            .map { exchanges[$0].response }
        let recorded = playable.filter { exchanges[$0].answers(method, target, body: body) }
        // A document says the same after any change, and a change's answer stays; a read of the device's
        // state says what it was until the next change.
        let isRead = Self.isRead(method)
        let change = isRead && recorded.contains { exchanges[$0].readsState } ? playhead.exchangeChange : -1
        if let index = Playhead.next(of: recorded, after: change, played: &playhead.exchanges) {
            if !isRead { playhead.exchangeChange = max(playhead.exchangeChange, index) }
            var answer = played(exchanges[index].response, origin: origin, secondsSince1970: secondsSince1970)
            // A HEAD says the GET's length: the GET's as it is played now.
            if method == "HEAD", let get {
                let playedGet = played(get, origin: origin, secondsSince1970: secondsSince1970).bytes
                answer.bytes = Self.withContentLength(of: get, played: playedGet, in: answer.bytes)
            }
            return answer
        }
        guard method == "HEAD", let get else { return nil }
        let answer = played(get, origin: origin, secondsSince1970: secondsSince1970)
        return Played(
            bytes: Array(answer.bytes[..<(Self.headEnd(answer.bytes) ?? answer.bytes.count)]),
            status: answer.status
        )
    }

    /// The same, for a request whose answer is not counted as played (a read the family had no answer for).
    public func response(
        method: String,
        target: String,
        origin: String,
        secondsSince1970: Int,
        asRecorded: Bool = true
    ) -> Played? {
        var playhead = Playhead()
        return response(
            method: method,
            target: target,
            origin: origin,
            secondsSince1970: secondsSince1970,
            asRecorded: asRecorded,
            playhead: &playhead
        )
    }

    /// What the recorded device answered where its family answers `status` to `method` (404 for a path it
    /// does not have, 405 or 501 for a method it does not take); `nil` when the recording holds no such
    /// answer, or the family's is another.
    public func fallback(method: String, status: Int, origin: String, secondsSince1970: Int) -> Played? {
        let recorded: [UInt8]?
        switch status {
        case 404 where Self.isRead(method): recorded = notFound
        case 405, 501: recorded = unsupportedMethod
        default: recorded = nil
        }
        guard let recorded else { return nil }
        var answer = played(recorded, origin: origin, secondsSince1970: secondsSince1970)
        if method == "HEAD" {
            answer.bytes = Array(answer.bytes[..<(Self.headEnd(answer.bytes) ?? answer.bytes.count)])
        }
        return answer
    }

    /// `head` (a HEAD's response) with its Content-Length set to `played`'s body length, where it said
    /// `get`'s recorded one.
    static func withContentLength(of get: [UInt8], played: [UInt8], in head: [UInt8]) -> [UInt8] {
        let recordedLength = get.count - (headEnd(get) ?? get.count)
        let playedLength = played.count - (headEnd(played) ?? played.count)
        var result = head
        guard recordedLength != playedLength,
            let range = headerValueRange("content-length", in: Array(head[..<(headEnd(head) ?? head.count)])),
            String(decoding: head[range], as: UTF8.self) == "\(recordedLength)"
        else { return head }
        result.replaceSubrange(range, with: Array("\(playedLength)".utf8))
        return result
    }

    /// `response` as a device at `new` sends it at `secondsSince1970`: `old` replaced by `new` in its head
    /// and body, its Content-Length the body's length, its Date written anew. Line ends the device sent
    /// after the length its head gave (libupnp's CR LF CR LF after a page) stay after it.
    static func played(_ response: [UInt8], from old: String, to new: String, secondsSince1970: Int) -> [UInt8] {
        let end = headEnd(response) ?? response.count
        var head = Array(response[..<end])
        var body = Array(response[end...])
        let trailer = trailingLineEnds(of: body, head: head)
        body.removeLast(trailer.count)
        if old != new.asciiLowercased() {
            head = replacing(old, with: new, in: head)
            body = replacing(old, with: new, in: body)
        }
        head = withContentLength(body.count, in: head)
        body += trailer
        if let range = dateValueRange(in: head) {
            head.replaceSubrange(range, with: Array(HTTPDate.string(secondsSince1970: secondsSince1970).utf8))
        }
        return head + body
    }

    /// The bytes of `body` after the length `head`'s Content-Length gives, where they are only CR and LF;
    /// none otherwise (a body edited by hand to another length is all body).
    package static func trailingLineEnds(of body: [UInt8], head: [UInt8]) -> [UInt8] {
        guard let range = headerValueRange("content-length", in: head),
            let length = Int(String(decoding: head[range], as: UTF8.self)), length >= 0, length < body.count
        else { return [] }
        let after = body[length...]
        return after.allSatisfy { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") } ? Array(after) : []
    }

    /// `head` with its Content-Length saying `bodyLength`, where it says another; as it is for an answer
    /// without a body (a HEAD's, whose Content-Length is the GET's).
    package static func withContentLength(_ bodyLength: Int, in head: [UInt8]) -> [UInt8] {
        guard bodyLength > 0, let range = headerValueRange("content-length", in: head),
            String(decoding: head[range], as: UTF8.self) != "\(bodyLength)"
        else { return head }
        var head = head
        head.replaceSubrange(range, with: Array("\(bodyLength)".utf8))
        return head
    }

    /// Where the body starts: after the first empty line (CR LF CR LF, or LF LF from a sloppy server).
    package static func headEnd(_ bytes: [UInt8]) -> Int? {
        for index in bytes.indices.dropFirst() where bytes[index] == UInt8(ascii: "\n") {
            if bytes[index - 1] == UInt8(ascii: "\n") { return index + 1 }
            if index >= 3, bytes[index - 1] == UInt8(ascii: "\r"), bytes[index - 2] == UInt8(ascii: "\n") {
                return index + 1
            }
        }
        return nil
    }

    /// The status code of a status line (`HTTP/1.1 404 Not Found` → 404), 0 when there is none.
    package static func status(of response: [UInt8]) -> Int {
        let line = response.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard parts.count >= 2, let code = Int(String(decoding: parts[1], as: UTF8.self)) else { return 0 }
        return code
    }

    /// Where the value of a DATE header in an IMF-fixdate (`Sat, 28 Nov 2026 22:28:10 GMT`) is, in a head:
    /// a date written anew keeps the message's length.
    public static func dateValueRange(in head: [UInt8]) -> Range<Int>? {
        guard let range = headerValueRange("date", in: head),
            range.count == HTTPDate.epoch.utf8.count, head[range].suffix(3).elementsEqual("GMT".utf8)
        else { return nil }
        return range
    }

    /// Where the value of the first header `name` (lower case) is in `head`, without the spaces around it.
    package static func headerValueRange(_ name: String, in head: [UInt8]) -> Range<Int>? {
        let name = Array(name.utf8)
        var lineStart = 0
        while lineStart < head.count {
            let lineEnd = head[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? head.count
            var valueEnd = lineEnd
            if valueEnd > lineStart, head[valueEnd - 1] == UInt8(ascii: "\r") { valueEnd -= 1 }
            if valueEnd == lineStart { return nil }  // the empty line: the head is over
            let line = head[lineStart..<valueEnd]
            if line.count > name.count, line[lineStart + name.count] == UInt8(ascii: ":"),
                zip(line, name).allSatisfy({ asciiLowercased($0) == $1 })
            {
                var start = lineStart + name.count + 1
                while start < valueEnd, head[start] == UInt8(ascii: " ") || head[start] == UInt8(ascii: "\t") {
                    start += 1
                }
                var end = valueEnd
                while end > start, head[end - 1] == UInt8(ascii: " ") || head[end - 1] == UInt8(ascii: "\t") {
                    end -= 1
                }
                return start..<end
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// `bytes` with every occurrence of the origin `old` (in any ASCII case) replaced by `new`: where a URL's
    /// authority ends, not inside a longer one (`http://h:80` in `http://h:8080`, `http://10.0.0.1` in
    /// `http://10.0.0.10`).
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        replacingIgnoringASCIICase(Array(old.utf8), with: Array(new.utf8), in: bytes) { _, after in
            after.map { !continuesAuthority($0) } ?? true
        }
    }

    /// Whether `byte` would carry a URL's host or port on (a letter, a digit, `.`, `-`, `:`).
    private static func continuesAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"): true
        default: false
        }
    }
}
