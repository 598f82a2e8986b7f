#!/usr/bin/env python3
"""A small HTTP/1.1 file server for Segue's remote-clip tests and benchmark.

Binds to 127.0.0.1 only. Supports Range requests (one range), ETag and
Last-Modified with conditional GET (304), an added latency per request, a
path prefix that stalls (/stall/...) and one that fails with 503 a given number
of times (/flaky/...); /redirect/URL answers 302 to URL, for any URL. GET /__stats returns the request counts as JSON; the
server stops by itself after --lifetime seconds.

Usage: http_server.py --root DIR [--latency-ms N] [--lifetime S]
Prints "PORT <n>" on its first line once listening.
"""
import argparse
import email.utils
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

stats_lock = threading.Lock()
cut_once = {}
stall_after = {}
stats = {"cut": 0, "requests": 0, "full": 0, "partial": 0, "not_modified": 0, "head": 0, "errors": 0, "paths": {}}
flaky_failures = {}


def count(key, path=None):
    with stats_lock:
        stats[key] += 1
        if path is not None:
            stats["paths"][path] = stats["paths"].get(path, 0) + 1


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.serve(head=True)

    def do_GET(self):
        self.serve(head=False)

    def serve(self, head):
        path = self.path.split("?", 1)[0]
        if path == "/__stats":
            with stats_lock:
                body = json.dumps(stats).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        count("requests", path)
        if os.environ.get("SEGUE_HTTP_LOG"): sys.stderr.write("%s %s %s\n" % (self.command, path, self.headers.get("Range")))
        time.sleep(self.server.latency)
        if path.startswith("/redirect/"):
            self.send_response(302)
            self.send_header("Location", self.path[len("/redirect/"):])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path.startswith("/stall/"):
            time.sleep(self.server.lifetime)
            return
        if path.startswith("/stallafter/"):
            # /stallafter/N/NAME: the first N requests are served, later ones stall.
            served, _, rest = path[len("/stallafter/"):].partition("/")
            seen = stall_after.get(rest, 0) + 1
            stall_after[rest] = seen
            if seen > int(served):
                time.sleep(self.server.lifetime)
                return
            path = "/" + rest
        if path.startswith("/flaky/"):
            remaining = flaky_failures.setdefault(path, self.server.flaky_count)
            if remaining > 0:
                flaky_failures[path] = remaining - 1
                count("errors")
                self.send_error(503, "try again")
                return
            path = "/" + path[len("/flaky/"):]
        # Bytes this response may send before the connection drops, mid-body:
        # /cutonce/NAME drops its first response half-way; /cutat/N/NAME never
        # sends byte N or later (a server that keeps dying at the same place).
        limit = None
        if path.startswith("/cutonce/"):
            path = "/" + path[len("/cutonce/"):]
            if cut_once.setdefault(path, True):
                cut_once[path] = False
                limit = os.path.getsize(os.path.join(self.server.root, path.lstrip("/"))) // 2
        elif path.startswith("/cutat/"):
            offset, _, rest = path[len("/cutat/"):].partition("/")
            limit, path = int(offset), "/" + rest
        file = os.path.realpath(os.path.join(self.server.root, path.lstrip("/")))
        if not file.startswith(self.server.root) or not os.path.isfile(file):
            count("errors")
            self.send_error(404, "not found")
            return
        info = os.stat(file)
        size = info.st_size
        etag = '"%x-%x"' % (int(info.st_mtime_ns), size)
        modified = email.utils.formatdate(info.st_mtime, usegmt=True)
        if self.headers.get("If-None-Match") == etag or (
            self.headers.get("If-None-Match") is None and self.headers.get("If-Modified-Since") == modified
        ):
            count("not_modified")
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        start, end = 0, size - 1
        status = 200
        wanted = self.headers.get("Range")
        if wanted and wanted.startswith("bytes="):
            first, _, last = wanted[len("bytes="):].split(",")[0].partition("-")
            if first:
                start = int(first)
                end = int(last) if last else size - 1
            else:
                start = max(0, size - int(last))
            end = min(end, size - 1)
            if start >= size:
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status = 206
        self.send_response(status)
        self.send_header("Content-Type", "video/mp4")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        self.send_header("Content-Length", str(end - start + 1))
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        if head:
            count("head")
            return
        count("partial" if status == 206 else "full")
        if limit is not None and limit <= end:
            end = max(start - 1, limit - 1)
            self.close_connection = True
            count("cut")
        with open(file, "rb") as source:
            source.seek(start)
            remaining = end - start + 1
            try:
                while remaining > 0:
                    chunk = source.read(min(65536, remaining))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    remaining -= len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--latency-ms", type=float, default=0)
    parser.add_argument("--lifetime", type=float, default=600)
    parser.add_argument("--flaky-count", type=int, default=2)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.root = os.path.realpath(args.root)
    server.latency = args.latency_ms / 1000
    server.lifetime = args.lifetime
    server.flaky_count = args.flaky_count
    print("PORT %d" % server.server_address[1], flush=True)
    # Stop by itself, so a forgotten server never outlives its test run.
    threading.Timer(args.lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
