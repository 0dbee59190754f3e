// The Go peer of scripts/bench-h2: net/http answering GET /health with the same JSON as
// stream-service, over TLS with HTTP/2 by ALPN (standard library only), as a Go service would
// deploy it; with -h2c, in cleartext, HTTP/2 with prior knowledge and HTTP/1.1 on one port, as
// stream-service serves them. Go 1.19's standard library has no h2c: that mode needs the build
// tagged h2c (h2c.go, golang.org/x/net/http2/h2c), which scripts/bench-h2 makes from Debian's
// golang-golang-x-net-dev in GOPATH mode.
//
//	go run . -addr 127.0.0.1:PORT -cert cert.pem -key key.pem
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -tags h2c -o go-h2-peer . && ./go-h2-peer -h2c -addr 127.0.0.1:PORT
package main

import (
	"flag"
	"log"
	"net/http"
)

// serveH2C serves handler in cleartext with h2c; nil unless built with the h2c tag.
var serveH2C func(addr string, handler http.Handler) error

func main() {
	addr := flag.String("addr", "127.0.0.1:18443", "address to listen on")
	cert := flag.String("cert", "cert.pem", "PEM certificate")
	key := flag.String("key", "key.pem", "PEM private key")
	cleartext := flag.Bool("h2c", false, "serve h2c (prior knowledge) and HTTP/1.1 in cleartext instead of TLS")
	flag.Parse()
	body := []byte(`{"status":"ok"}`)
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
	if *cleartext {
		if serveH2C == nil {
			log.Fatal("-h2c needs the build tagged h2c (go build -tags h2c, with golang.org/x/net)")
		}
		log.Printf("listening on http://%s (h2c with prior knowledge, and HTTP/1.1)", *addr)
		log.Fatal(serveH2C(*addr, mux))
	}
	log.Printf("listening on https://%s", *addr)
	log.Fatal(http.ListenAndServeTLS(*addr, *cert, *key, mux))
}
