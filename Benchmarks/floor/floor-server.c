// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/* The machine's floor for /health: a minimal multi-threaded epoll HTTP/1.1 server that answers
 * every request with the same fixed {"status":"ok"} response, whatever its path. No parsing beyond
 * finding the end of each request head, no allocation per request, one epoll instance and one
 * SO_REUSEPORT listening socket per thread, so the kernel spreads connections over the threads.
 * Built by scripts/bench-server with gcc -O2; binds 127.0.0.1 only.
 *
 * usage: floor-server [--port N] [--threads N]   (defaults 8082 and the number of online cores) */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loopback-listener.h"

static const char RESPONSE[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}";
enum { MAX_EVENTS = 256, BUFFER = 16384, MAX_PIPELINED = 64 };

static int port = 8082;

/* Per connection: how far into "\r\n\r\n" the previous read ended, so a head split over reads counts. */
struct connection { int fd; int matched; };

/* Counts complete request heads in data, carrying the partial "\r\n\r\n" match across reads. */
static int count_heads(const char *data, ssize_t length, int *matched) {
    static const char terminator[] = "\r\n\r\n";
    int heads = 0;
    for (ssize_t i = 0; i < length; i++) {
        if (data[i] == terminator[*matched]) {
            if (++*matched == 4) { heads++; *matched = 0; }
        } else {
            *matched = data[i] == '\r' ? 1 : 0;
        }
    }
    return heads;
}

static void close_connection(int epoll, struct connection *connection) {
    epoll_ctl(epoll, EPOLL_CTL_DEL, connection->fd, NULL);
    close(connection->fd);
    free(connection);
}

static void serve_readable(int epoll, struct connection *connection) {
    static __thread char buffer[BUFFER];
    static __thread char out[MAX_PIPELINED * sizeof RESPONSE];
    for (;;) {
        ssize_t n = read(connection->fd, buffer, sizeof buffer);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) { close_connection(epoll, connection); return; }
        if (n < 0) return;
        int heads = count_heads(buffer, n, &connection->matched);
        while (heads > 0) {
            int batch = heads < MAX_PIPELINED ? heads : MAX_PIPELINED;
            size_t length = 0;
            for (int i = 0; i < batch; i++) { memcpy(out + length, RESPONSE, sizeof RESPONSE - 1); length += sizeof RESPONSE - 1; }
            /* wrk reads everything promptly, so a short write here is treated as a dead client. */
            if (write(connection->fd, out, length) != (ssize_t)length) { close_connection(epoll, connection); return; }
            heads -= batch;
        }
        if (n < (ssize_t)sizeof buffer) return;
    }
}

static void *loop(void *unused) {
    (void)unused;
    int listener = listen_socket(port, "floor-server");
    int epoll = epoll_create1(0);
    struct epoll_event event = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int ready = epoll_wait(epoll, events, MAX_EVENTS, -1);
        for (int i = 0; i < ready; i++) {
            if (events[i].data.ptr == NULL) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    int one = 1;
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct connection *connection = calloc(1, sizeof *connection);
                    connection->fd = fd;
                    struct epoll_event added = { .events = EPOLLIN | EPOLLRDHUP, .data.ptr = connection };
                    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &added);
                }
            } else {
                serve_readable(epoll, events[i].data.ptr);
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) port = atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atol(argv[++i]);
        else { fprintf(stderr, "usage: floor-server [--port N] [--threads N]\n"); return 2; }
    }
    if (threads < 1) threads = 1;
    printf("floor-server listening on http://127.0.0.1:%d with %ld threads\n", port, threads);
    fflush(stdout);
    pthread_t ids[256];
    if (threads > 256) threads = 256;
    for (long i = 0; i < threads; i++) pthread_create(&ids[i], NULL, loop, NULL);
    for (long i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return 0;
}
