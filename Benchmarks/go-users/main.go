// go-users: the Go standard-library peer of stream-service's `GET /users?limit=&concurrency=`
// (issue 25), written as a Go user would write it with net/http alone: one shared http.Client,
// a goroutine per avatar behind a semaphore of `concurrency` slots, encoding/json and crypto/sha256.
// Run by scripts/bench-users against the same demo upstream as ours and hummingbird-users; never by
// `swift test`. Binds 127.0.0.1 only.
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	port := flag.Int("port", 8081, "port on 127.0.0.1")
	upstream := flag.String("upstream", "", "the upstream's base URL, http://127.0.0.1:PORT or https://… (trusted through SSL_CERT_FILE)")
	gzip := flag.String("upstream-gzip", "true", "true: ask the upstream for gzip, as Go's Transport does by default; false: identity bodies")
	flag.Parse()
	if flag.NArg() > 0 || !(strings.HasPrefix(*upstream, "http://") || strings.HasPrefix(*upstream, "https://")) {
		fmt.Fprintln(os.Stderr, "usage: go-users [--port N] --upstream http(s)://HOST:PORT [--upstream-gzip true|false]")
		os.Exit(2)
	}
	asksGzip, err := strconv.ParseBool(*gzip)
	if err != nil {
		fmt.Fprintf(os.Stderr, "--upstream-gzip must be true or false, got %q\n", *gzip)
		os.Exit(2)
	}

	api := newUpstreamAPI(*upstream, asksGzip)
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	})
	mux.HandleFunc("/users", usersHandler(api))

	server := &http.Server{
		Addr:              fmt.Sprintf("127.0.0.1:%d", *port),
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Printf("go-users listening on http://%s, upstream %s, gzip %v", server.Addr, *upstream, asksGzip)
	log.Fatal(server.ListenAndServe())
}
