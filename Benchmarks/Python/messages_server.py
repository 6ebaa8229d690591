"""A messages server written from ../shared/API.md alone, for the messages benchmark.

It serves one account (any username and password sign in) whose `GET /messages` answer
is a large envelope built once at start: PEOPLE people × MESSAGES messages, with quotes,
newlines, tabs and non-ASCII letters in every message, as real ones have. It prints
`ready PORT SIZE` on stdout once it listens, and serves until its stdin closes.

    python3 messages_server.py PEOPLE MESSAGES [--ascii]

With --ascii, every letter past ASCII is a \\u escape, as json.dumps writes by default, and
so escaped twice in the envelope's body ("Zo\\\\u00eb").
"""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "benchmark-token"


def build_envelope(people, messages_each, ascii_only=False):
    body = {}
    for person in range(people):
        body[f"Person {person} Zoë"] = [
            {
                "subject": f'Re: "plans" for the weekend {index}',
                "message": (
                    f"Message {index} from person {person}.\n"
                    "Line two\twith a tab, a café and \"quotes\"."
                ),
            }
            for index in range(messages_each)
        ]
    text = json.dumps(body, ensure_ascii=ascii_only)
    envelope = json.dumps({"statusCode": 200, "body": text}, ensure_ascii=ascii_only)
    return envelope.encode("utf-8")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    envelope = b""

    def log_message(self, format, *args):
        pass

    def answer(self, status, payload):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def authorized(self):
        return self.headers.get("Authorization") == f"Bearer {TOKEN}"

    def do_POST(self):
        self.read_body()
        if self.path in ("/oauth/token", "/auth/signup"):
            status = 201 if self.path == "/auth/signup" else 200
            self.answer(status, {"access_token": TOKEN, "token_type": "bearer",
                                 "scope": "user", "created_at": 1_700_000_000,
                                 "expires_in": 10 ** 9})
        elif self.path == "/auth/revoke":
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.answer(404, {"error": "not_found", "error_description": self.path})

    def do_GET(self):
        if not self.authorized():
            self.answer(401, {"error": "unauthorized", "error_description": "no token"})
        elif self.path == "/me":
            self.answer(200, {"id": "1", "username": "bench", "name": "Bench"})
        elif self.path == "/messages":
            self.answer(200, Handler.envelope)
        else:
            self.answer(404, {"error": "not_found", "error_description": self.path})


def main():
    people, messages_each = int(sys.argv[1]), int(sys.argv[2])
    ascii_only = "--ascii" in sys.argv[3:]
    Handler.envelope = build_envelope(people, messages_each, ascii_only)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"ready {server.server_address[1]} {len(Handler.envelope)}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Serves for as long as whoever started it holds stdin open: when it ends, even by a
    # crash, stdin closes and the server goes with it instead of being left behind.
    sys.stdin.read()


if __name__ == "__main__":
    main()
