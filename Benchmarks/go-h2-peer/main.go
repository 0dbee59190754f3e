// The Go peer of scripts/bench-h2: net/http (standard library only) answering GET /health with
// the same JSON as stream-service, over TLS with HTTP/2 by ALPN, as a Go service would deploy it.
//
//	go run . -addr 127.0.0.1:PORT -cert cert.pem -key key.pem
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18443", "address to listen on")
	cert := flag.String("cert", "cert.pem", "PEM certificate")
	key := flag.String("key", "key.pem", "PEM private key")
	flag.Parse()
	body := []byte(`{"status":"ok"}`)
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
	log.Printf("listening on https://%s", *addr)
	log.Fatal(http.ListenAndServeTLS(*addr, *cert, *key, mux))
}
