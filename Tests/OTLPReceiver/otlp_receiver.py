#!/usr/bin/env python3
# StreamService, Copyright 2026 the StreamService project authors.
# Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0
"""A small OTLP/HTTP trace receiver for the tests: it decodes what it receives with the OpenTelemetry
protocol's own schema (PyPI opentelemetry-proto: protobuf, and the OTLP JSON mapping through
google.protobuf.json_format), never with the code under test, and writes one JSON line per request
to --out. --answers gives the first requests' answers (e.g. 503,429:2 = a 503, then a 429 with
Retry-After: 2); later requests get 200. It prints `listening PORT` once it accepts connections.

OTLP/JSON writes trace and span ids as lowercase hex where proto3's JSON mapping has base64: ids are
checked to be exactly that (32 or 16 lowercase hex digits) and converted before json_format reads them;
anything else is answered 400 and recorded as an error."""

import argparse
import base64
import gzip
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

HEX_IDS = {"traceId": 32, "spanId": 16, "parentSpanId": 16}


def hex_ids_to_base64(spans_holder):
    """OTLP/JSON's hex ids as proto3 JSON's base64, in place; raises ValueError on any other form."""
    for key, length in HEX_IDS.items():
        if key in spans_holder:
            value = spans_holder[key]
            if value == "" and key == "parentSpanId":
                continue
            if not isinstance(value, str) or not re.fullmatch("[0-9a-f]{%d}" % length, value):
                raise ValueError("%s is not %d lowercase hex digits: %r" % (key, length, value))
            spans_holder[key] = base64.b64encode(bytes.fromhex(value)).decode()


def from_json(body):
    document = json.loads(body)
    for resource_spans in document.get("resourceSpans", []):
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                hex_ids_to_base64(span)
                for link in span.get("links", []):
                    hex_ids_to_base64(link)
    request = ExportTraceServiceRequest()
    json_format.ParseDict(document, request)
    return request


def any_value(value):
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [any_value(element) for element in value.array_value.values]
    if kind == "kvlist_value":
        return {pair.key: any_value(pair.value) for pair in value.kvlist_value.values}
    if kind == "bytes_value":
        return value.bytes_value.hex()
    return getattr(value, kind) if kind else None


def attributes(pairs):
    return {pair.key: any_value(pair.value) for pair in pairs}


def describe(request):
    """The request as plain JSON: ids as hex, enums as their numbers."""
    resources = []
    for resource_spans in request.resource_spans:
        for scope_spans in resource_spans.scope_spans:
            resources.append({
                "resource": attributes(resource_spans.resource.attributes),
                "scope": {"name": scope_spans.scope.name, "version": scope_spans.scope.version},
                "spans": [{
                    "trace_id": span.trace_id.hex(),
                    "span_id": span.span_id.hex(),
                    "parent_span_id": span.parent_span_id.hex(),
                    "trace_state": span.trace_state,
                    "flags": span.flags,
                    "name": span.name,
                    "kind": span.kind,
                    "start": span.start_time_unix_nano,
                    "end": span.end_time_unix_nano,
                    "attributes": attributes(span.attributes),
                    "events": [{"name": event.name, "time": event.time_unix_nano, "attributes": attributes(event.attributes)} for event in span.events],
                    "links": [{"trace_id": link.trace_id.hex(), "span_id": link.span_id.hex(), "attributes": attributes(link.attributes)} for link in span.links],
                    "status": {"code": span.status.code, "message": span.status.message},
                } for span in scope_spans.spans],
            })
    return resources


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        server = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with server.lock:
            server.count += 1
            number = server.count
            answer = server.answers.pop(0) if server.answers else (200, None)
        record = {
            "request": number, "path": self.path, "status": answer[0],
            "content_type": self.headers.get("Content-Type"), "content_encoding": self.headers.get("Content-Encoding"),
            "headers": {name.lower(): value for name, value in self.headers.items()}, "body_bytes": len(body),
        }
        try:
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            content_type = self.headers.get("Content-Type", "")
            if content_type == "application/x-protobuf":
                request = ExportTraceServiceRequest.FromString(body)
            elif content_type == "application/json":
                request = from_json(body)
            else:
                raise ValueError("unexpected Content-Type %r" % content_type)
            record["resource_spans"] = describe(request)
        except Exception as error:  # what the exporter sent is wrong: recorded and answered 400
            record["error"] = "%s: %s" % (type(error).__name__, error)
            answer = (400, None)
            record["status"] = 400
        server.write(record)
        self.send_response(answer[0])
        if answer[1] is not None:
            self.send_header("Retry-After", answer[1])
        reply = b""  # an empty ExportTraceServiceResponse: every span accepted
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


def parse_answers(text):
    answers = []
    for item in filter(None, (text or "").split(",")):
        status, _, retry_after = item.partition(":")
        answers.append((int(status), retry_after or None))
    return answers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--out", required=True)
    parser.add_argument("--answers", default="")
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Receiver)
    server.daemon_threads = True
    server.lock = threading.Lock()
    server.count = 0
    server.answers = parse_answers(options.answers)
    out = open(options.out, "a", buffering=1)

    def write(record):
        with server.lock:
            out.write(json.dumps(record) + "\n")

    server.write = write
    print("listening %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
