// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/* The machine's floor for an SSE broadcast (issue 12's capacity figure): a minimal epoll server
 * that answers every connection's first request with a fixed chunked `text/event-stream` head and
 * then, once per --interval seconds, writes the same tick to every connection — one write per
 * subscriber, as /events does — stamped with `: at <unix seconds>` like ours, so
 * Benchmarks/sse-load measures both the same way. One thread per core, each with its own epoll
 * instance and SO_REUSEPORT listener, writing to its own connections: no parsing beyond the end of
 * the request head, no allocation per write. What a broadcast costs here is the kernel's loopback
 * TCP path (send, receive, wake-up) and nothing else.
 * Built by scripts/bench-server with gcc -O2; binds 127.0.0.1 only.
 *
 * usage: broadcast-floor [--port N] [--threads N] [--interval S] */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "loopback-listener.h"

static const char HEAD[] =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n";
static int port = 8083;
static double interval_s = 1.0;
static uint64_t origin_ns;

struct connection { int fd; int streaming; int matched; };

static uint64_t clock_ns(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *serve(void *unused) {
    (void)unused;
    int listener = listen_socket(port, "broadcast-floor"), epoll = epoll_create1(0);
    struct epoll_event e = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &e);
    size_t count = 0, capacity = 1024;
    struct connection **connections = malloc(capacity * sizeof *connections);
    uint64_t step = (uint64_t)(interval_s * 1e9);
    uint64_t tick = 1 + (clock_ns(CLOCK_MONOTONIC) - origin_ns) / step;
    struct epoll_event events[256];
    char buffer[4096];
    for (;;) {
        uint64_t now = clock_ns(CLOCK_MONOTONIC), due = origin_ns + tick * step;
        if (now >= due) {
            /* One chunk per subscriber: `: at T`, `event: tick`, `data: tick K`, framed as one HTTP chunk. */
            char message[160], chunk[200];
            double at = (double)clock_ns(CLOCK_REALTIME) / 1e9;
            int length = snprintf(message, sizeof message, ": at %.6f\nid: %llu\nevent: tick\ndata: tick %llu\n\n",
                                  at, (unsigned long long)tick, (unsigned long long)tick);
            int framed = snprintf(chunk, sizeof chunk, "%x\r\n%s\r\n", length, message);
            for (size_t i = 0; i < count; i++)
                if (connections[i]->streaming && write(connections[i]->fd, chunk, (size_t)framed) < 0 && errno != EAGAIN) {
                    connections[i]->streaming = 0;
                }
            tick++;
            continue;
        }
        int timeout = (int)((due - now) / 1000000ull) + 1;
        int ready = epoll_wait(epoll, events, 256, timeout);
        for (int i = 0; i < ready; i++) {
            struct connection *c = events[i].data.ptr;
            if (!c) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    int one = 1;
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    c = calloc(1, sizeof *c);
                    c->fd = fd;
                    if (count == capacity) { capacity *= 2; connections = realloc(connections, capacity * sizeof *connections); }
                    connections[count++] = c;
                    struct epoll_event ce = { .events = EPOLLIN, .data.ptr = c };
                    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &ce);
                }
                continue;
            }
            ssize_t n = read(c->fd, buffer, sizeof buffer);
            if (n <= 0) {
                if (n < 0 && errno == EAGAIN) continue;
                epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                c->streaming = 0;
                continue;
            }
            /* The first request head's end starts the stream; later bytes are ignored. */
            for (ssize_t j = 0; j < n && !c->streaming; j++) {
                char want = "\r\n\r\n"[c->matched];
                c->matched = buffer[j] == want ? c->matched + 1 : (buffer[j] == '\r' ? 1 : 0);
                if (c->matched == 4) {
                    c->streaming = 1;
                    if (write(c->fd, HEAD, sizeof HEAD - 1) < 0) c->streaming = 0;
                }
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--interval")) interval_s = atof(argv[i + 1]);
        else { fprintf(stderr, "unknown flag %s\n", argv[i]); return 64; }
    }
    if (port <= 0 || threads <= 0 || interval_s <= 0) { fprintf(stderr, "usage: broadcast-floor [--port N] [--threads N] [--interval S]\n"); return 64; }
    origin_ns = clock_ns(CLOCK_MONOTONIC);
    pthread_t thread;
    for (int t = 1; t < threads; t++) pthread_create(&thread, NULL, serve, NULL);
    serve(NULL);
    return 0;
}
