import NIOCore
import NIOHTTP1
import SSDPCore

/// Serves the simulator's device and service descriptions over HTTP: a fixed set of paths
/// (`DescriptionDocuments`), so nothing a request says can reach the file system. Anything else is 404,
/// a method other than GET or HEAD is 405, a request with a body larger than `maximumBodySize` is 413.
/// One request per connection.
final class DescriptionHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// One document the server serves.
    struct Document: Sendable {
        var contentType: String
        var body: String
    }

    /// The most request body read; descriptions are fetched with GET, so anything above this is abuse.
    static let maximumBodySize = 4_096

    private let documents: DescriptionDocuments
    private let onRequest: @Sendable (_ method: String, _ path: String, _ status: Int) -> Void
    private var head: HTTPRequestHead?
    private var bodySize = 0

    init(documents: DescriptionDocuments, onRequest: @escaping @Sendable (String, String, Int) -> Void) {
        self.documents = documents
        self.onRequest = onRequest
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            bodySize = 0
        case .body(let buffer):
            bodySize += buffer.readableBytes
            if bodySize > Self.maximumBodySize, let head {
                self.head = nil
                respond(to: head, status: .payloadTooLarge, document: nil, context: context)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            route(head, context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)  // a client too slow to finish its request
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path =
            head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? head.uri
        guard let document = documents.document(at: path) else {
            respond(to: head, status: .notFound, document: nil, context: context)
            return
        }
        guard head.method == .GET || head.method == .HEAD else {
            respond(to: head, status: .methodNotAllowed, document: nil, context: context)
            return
        }
        respond(to: head, status: .ok, document: document, context: context)
    }

    private func respond(
        to request: HTTPRequestHead,
        status: HTTPResponseStatus,
        document: Document?,
        context: ChannelHandlerContext
    ) {
        let body = document?.body ?? "\(status.code) \(status.reasonPhrase)\n"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: document?.contentType ?? "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        headers.add(name: "Connection", value: "close")
        if status == .methodNotAllowed { headers.add(name: "Allow", value: "GET, HEAD") }
        let response = HTTPResponseHead(version: request.version, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if request.method != .HEAD {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))),
                promise: nil
            )
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
        onRequest("\(request.method)", request.uri, Int(status.code))
    }
}

@available(*, unavailable)
extension DescriptionHTTPHandler: Sendable {}

/// The documents of a simulator's devices, made when they are asked for rather than kept (a description
/// is a kilobyte or two; a simulator may run ten thousand devices):
/// `/device/N/description.xml` and `/device/N/service/K/scpd.xml`, N and K counted from 0.
struct DescriptionDocuments: Sendable {
    let devices: [SimulatedDevice]

    static let contentType = "text/xml; charset=\"utf-8\""

    /// The document at `path`, or `nil` for any other path.
    func document(at path: String) -> DescriptionHTTPHandler.Document? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "device", N, then "description.xml" or "service", K, "scpd.xml"
        guard parts.count >= 4, parts[0].isEmpty, parts[1] == "device", let index = Self.number(parts[2]),
            index < devices.count
        else { return nil }
        let root = devices[index].rootDevice(location: "", defaultBootID: 0)
        switch parts.count {
        case 4 where parts[3] == "description.xml":
            return .init(contentType: Self.contentType, body: root.descriptionXML(basePath: "/device/\(index)"))
        case 6 where parts[3] == "service" && parts[5] == "scpd.xml":
            guard let service = Self.number(parts[4]), service < root.serviceCount else { return nil }
            return .init(contentType: Self.contentType, body: SSDPRootDevice.emptyServiceDescriptionXML)
        default:
            return nil
        }
    }

    /// A decimal number written the one way the server writes it: digits only, no sign, no leading zero.
    private static func number(_ text: Substring) -> Int? {
        guard let value = Int(text), value >= 0, String(value) == text else { return nil }
        return value
    }
}
