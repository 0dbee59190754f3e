// delay-proxy: a TCP proxy that holds every chunk it relays for a fixed delay in each direction, so
// a loopback upstream sits a round trip away (scripts/bench-upstream-rtt; `tc netem` is not
// available in this kernel). Bytes are relayed unchanged (TLS passes through), in order, each chunk
// released DELAY after it was read, whatever came before it: a one-way delay, not a bandwidth limit.
// It counts connections per listener (accepted, open now, most open at once) and answers them on
// its stats address as JSON. Binds 127.0.0.1 only; stops on SIGTERM or SIGINT.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// route is one listener and where it relays to, with its connection counts.
type route struct {
	Listen   string `json:"listen"`
	Target   string `json:"target"`
	mu       sync.Mutex
	Accepted int `json:"accepted"`
	Open     int `json:"open"`
	MaxOpen  int `json:"max_open"`
}

// chunk is bytes read at one moment, due at another.
type chunk struct {
	data []byte
	due  time.Time
}

func main() {
	delay := flag.Duration("delay", 25*time.Millisecond, "delay added in each direction")
	stats := flag.String("stats", "127.0.0.1:0", "address answering GET /stats with the counts as JSON")
	var routes []*route
	flag.Func("route", "LISTEN=TARGET, e.g. 127.0.0.1:9443=127.0.0.1:8443 (repeatable)", func(value string) error {
		listen, target, ok := strings.Cut(value, "=")
		if !ok || !strings.HasPrefix(listen, "127.0.0.1:") {
			return fmt.Errorf("want 127.0.0.1:PORT=HOST:PORT, got %q", value)
		}
		routes = append(routes, &route{Listen: listen, Target: target})
		return nil
	})
	flag.Parse()
	if len(routes) == 0 {
		fmt.Fprintln(os.Stderr, "usage: delay-proxy [--delay 25ms] [--stats 127.0.0.1:PORT] --route 127.0.0.1:PORT=HOST:PORT ...")
		os.Exit(2)
	}
	for _, r := range routes {
		listener, err := net.Listen("tcp", r.Listen)
		if err != nil {
			log.Fatal(err)
		}
		go r.serve(listener, *delay)
	}
	statsListener, err := net.Listen("tcp", *stats)
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/stats", func(w http.ResponseWriter, _ *http.Request) {
		snapshot := make([]map[string]any, 0, len(routes))
		for _, r := range routes {
			r.mu.Lock()
			snapshot = append(snapshot, map[string]any{"listen": r.Listen, "target": r.Target, "accepted": r.Accepted, "open": r.Open, "max_open": r.MaxOpen})
			r.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(snapshot)
	})
	go func() { log.Fatal(http.Serve(statsListener, nil)) }()
	fmt.Printf("delay-proxy stats on http://%s/stats, delay %v each way\n", statsListener.Addr(), *delay)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	<-signals
}

func (r *route) serve(listener net.Listener, delay time.Duration) {
	for {
		client, err := listener.Accept()
		if err != nil {
			log.Fatal(err)
		}
		r.mu.Lock()
		r.Accepted++
		r.Open++
		if r.Open > r.MaxOpen {
			r.MaxOpen = r.Open
		}
		r.mu.Unlock()
		go r.relay(client, delay)
	}
}

func (r *route) relay(client net.Conn, delay time.Duration) {
	defer func() {
		r.mu.Lock()
		r.Open--
		r.mu.Unlock()
	}()
	defer client.Close()
	// The connection to the target is made at once: the handshake's own bytes are what get delayed.
	upstream, err := net.Dial("tcp", r.Target)
	if err != nil {
		return
	}
	defer upstream.Close()
	done := make(chan struct{}, 2)
	go pipe(client, upstream, delay, done)
	go pipe(upstream, client, delay, done)
	<-done
	<-done
}

// pipe relays from `from` to `to`, each chunk released `delay` after it was read; at the end
// (or an error) it half-closes `to` so the other side sees the end after the same delay.
func pipe(from, to net.Conn, delay time.Duration, done chan<- struct{}) {
	queue := make(chan chunk, 1024)
	go func() {
		defer close(queue)
		for {
			buffer := make([]byte, 32<<10)
			n, err := from.Read(buffer)
			if n > 0 {
				queue <- chunk{data: buffer[:n], due: time.Now().Add(delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range queue {
		if wait := time.Until(c.due); wait > 0 {
			time.Sleep(wait)
		}
		if _, err := to.Write(c.data); err != nil {
			break
		}
	}
	if tcp, ok := to.(*net.TCPConn); ok {
		_ = tcp.CloseWrite()
	} else {
		_ = to.Close()
	}
	// Drain what is left so the reader goroutine ends.
	for range queue {
	}
	done <- struct{}{}
}
