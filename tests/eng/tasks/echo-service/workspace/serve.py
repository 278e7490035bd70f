"""A tiny HTTP echo service: python3 serve.py --port PORT."""

from __future__ import annotations

import argparse
import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse


def echo_payload(text: str, prefix: str) -> dict[str, str]:
    return {"echo": text}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        url = urlparse(self.path)
        if url.path == "/echo":
            text = parse_qs(url.query).get("text", [""])[0]
            body = json.dumps(echo_payload(text, os.environ.get("ECHO_PREFIX", ""))).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_response(404)
            self.end_headers()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    HTTPServer(("127.0.0.1", parser.parse_args().port), Handler).serve_forever()
