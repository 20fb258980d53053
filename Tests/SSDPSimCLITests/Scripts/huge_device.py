# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""A device whose description is 50 MB: an HTTP server on 127.0.0.1 that answers every GET with a 200 of
50 MiB, and prints its description's URL once it listens. For `record`'s bound on what it reads."""
import http.server
import socketserver

SIZE = 50 << 20


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(SIZE))
        self.end_headers()
        chunk = b"x" * 65536
        try:
            for _ in range(SIZE // len(chunk)):
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *_):
        pass


with socketserver.TCPServer(("127.0.0.1", 0), Handler) as server:
    print(f"http://127.0.0.1:{server.server_address[1]}/description.xml", flush=True)
    server.serve_forever()
