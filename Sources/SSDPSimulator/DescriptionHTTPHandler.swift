import NIOCore
import NIOHTTP1

/// Serves the simulator's device and service descriptions over HTTP: a fixed table of paths, built at start,
/// so nothing a request says can reach the file system. Anything else is 404, a method other than GET or
/// HEAD is 405, a request with a body larger than `maximumBodySize` is 413. One request per connection.
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

    private let documents: [String: Document]
    private let onRequest: @Sendable (_ method: String, _ path: String, _ status: Int) -> Void
    private var head: HTTPRequestHead?
    private var bodySize = 0

    init(documents: [String: Document], onRequest: @escaping @Sendable (String, String, Int) -> Void) {
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
        guard let document = documents[path] else {
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
