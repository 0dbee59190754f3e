//go:build h2c

// The h2c mode of the peer (-h2c): golang.org/x/net/http2/h2c in front of the same handler.
package main

import (
	"net/http"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

func init() {
	serveH2C = func(addr string, handler http.Handler) error {
		return http.ListenAndServe(addr, h2c.NewHandler(handler, &http2.Server{}))
	}
}
