// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// A bottleneck-free OTLP/HTTP peer for scripts/bench-otlp-export: it reads each POST /v1/traces
// whole, answers 200 with an empty ExportTraceServiceResponse, and counts requests and bytes; no
// decoding (the tests' Python receiver checks the content). Prints `listening PORT`, then on SIGTERM
// or SIGINT `requests N bytes M`. Standard library only.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

func main() {
	var requests, bytes int64
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	http.HandleFunc("/v1/traces", func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		atomic.AddInt64(&requests, 1)
		atomic.AddInt64(&bytes, n)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
	})
	fmt.Printf("listening %d\n", listener.Addr().(*net.TCPAddr).Port)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-signals
		fmt.Printf("requests %d bytes %d\n", atomic.LoadInt64(&requests), atomic.LoadInt64(&bytes))
		os.Exit(0)
	}()
	http.Serve(listener, nil)
}
