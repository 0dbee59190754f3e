// The Go h2c peer of scripts/bench-h2: net/http with golang.org/x/net/http2/h2c (Debian's
// golang-golang-x-net-dev 0.7.0, built in GOPATH mode against /usr/share/gocode), answering GET
// /health exactly as Benchmarks/go-h2-peer does, in cleartext: HTTP/2 with prior knowledge and
// HTTP/1.1 on one port, as stream-service serves them. Go 1.19's standard library has no h2c.
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o go-h2c-peer . && ./go-h2c-peer -addr 127.0.0.1:PORT
package main

import (
	"flag"
	"log"
	"net/http"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18080", "address to listen on")
	flag.Parse()
	body := []byte(`{"status":"ok"}`)
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
	log.Printf("listening on http://%s (h2c with prior knowledge, and HTTP/1.1)", *addr)
	log.Fatal(http.ListenAndServe(*addr, h2c.NewHandler(mux, &http2.Server{})))
}
