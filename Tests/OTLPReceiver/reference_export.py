#!/usr/bin/env python3
# StreamService, Copyright 2026 the StreamService project authors.
# Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0
"""Exports one known span with the reference SDK (PyPI opentelemetry-sdk and
opentelemetry-exporter-otlp-proto-http) to the receiver at argv[1] (a traces URL), gzip-compressed,
and prints its ids as `trace_id span_id`: the cross-check that otlp_receiver.py decodes what the
reference exporter sends (ReceiverCrossCheckTests)."""

import sys

from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.trace import SpanKind

provider = TracerProvider(resource=Resource.create({"service.name": "reference"}))
exporter = OTLPSpanExporter(endpoint=sys.argv[1], compression=Compression.Gzip, timeout=5)
provider.add_span_processor(SimpleSpanProcessor(exporter))
tracer = provider.get_tracer("reference-check")
with tracer.start_as_current_span("GET /users", kind=SpanKind.SERVER, attributes={"http.request.method": "GET", "http.response.status_code": 200}) as parent:
    with tracer.start_as_current_span("GET", kind=SpanKind.CLIENT) as child:
        child.add_event("retry", {"attempt": 2})
provider.shutdown()
context = parent.get_span_context()
print("%032x %016x %016x" % (context.trace_id, context.span_id, child.get_span_context().span_id))
