// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/* Open-loop HTTP load client (issue 12): requests sent at a fixed total rate, so two servers are
 * compared under the same offered load, and latency counted from when each request was due.
 *
 * Why, beside wrk: wrk is closed-loop, each connection sends its next request the moment the last
 * answer arrives. A server that answers twice as fast then gets twice the requests, wrk itself
 * takes twice the CPU (0.87 cores against 0.47 at /health c64 on this 2-core machine), and the
 * faster server's p99 measures its preemption by the load client rather than its own tail.
 * At a fixed rate both servers see the same requests and the same client.
 *
 * Every connection keeps one request in flight at most (no pipelining) on its own schedule:
 * connection i of C sends at phase + k * C / rate, the phases spread evenly over one interval.
 * A request due while the previous answer is still out is sent when that answer arrives, and its
 * latency still counts from when it was due (coordinated omission corrected, as wrk2 does).
 * Client lateness: how late a request went out although its connection was free — the client's
 * own delay, reported so it is not mistaken for the server's.
 *
 * usage: rate-load --port N [--path /health] [--connections 64] [--rate 20000] [--seconds 10]
 *                  [--warmup 1] [--threads 2]
 * Prints one line: requests, achieved rate, latency p50/p90/p99/p99.9/max (ms), client lateness
 * p99/max (ms), errors. Loopback only (127.0.0.1); bounded by --warmup + --seconds + 5 s. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* Log-linear histogram of microseconds: 64 sub-buckets per power of two, so a percentile is
 * at most 3 % above the true value, up to 2^30 µs. */
#define SUB 64
#define BUCKETS (SUB / 2 * 27)
typedef struct { uint64_t count[BUCKETS]; uint64_t total, max; } histogram;

static int bucket_of(uint64_t us) {
    if (us < SUB) return (int)us;
    int msb = 63 - __builtin_clzll(us);
    int shift = msb - 5; /* keeps 6 significant bits: 32..63 */
    int index = shift * (SUB / 2) + (int)(us >> shift);
    return index < BUCKETS ? index : BUCKETS - 1;
}

static uint64_t value_of(int index) { /* the bucket's upper edge */
    if (index < SUB) return (uint64_t)index;
    int shift = index / (SUB / 2) - 1;
    uint64_t mantissa = (uint64_t)(index - shift * (SUB / 2));
    return ((mantissa + 1) << shift) - 1;
}

static void record(histogram *h, uint64_t us) {
    h->count[bucket_of(us)]++;
    h->total++;
    if (us > h->max) h->max = us;
}

static double percentile_ms(const histogram *h, double p) {
    if (h->total == 0) return 0;
    uint64_t rank = (uint64_t)(p / 100.0 * (double)h->total + 0.5), seen = 0;
    if (rank == 0) rank = 1;
    for (int i = 0; i < BUCKETS; i++) {
        seen += h->count[i];
        if (seen >= rank) return (double)(value_of(i) < h->max ? value_of(i) : h->max) / 1000.0;
    }
    return (double)h->max / 1000.0;
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int port = 0, connections = 64, threads = 2;
static double rate = 20000, seconds = 10, warmup = 1;
static const char *path = "/health";
static char request[512];
static size_t request_length;

typedef struct {
    int fd;
    int in_flight;
    uint64_t next_due;   /* when this connection's next request is due */
    uint64_t sent_due;   /* when the request in flight was due */
    char buffer[16384];
    size_t used;
} connection;

typedef struct {
    int first, count;            /* this thread's connections */
    connection *conns;
    uint64_t interval, start, record_from, stop_at;
    histogram latency, lateness;
    uint64_t errors, non2xx, sent;
} worker;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static int connect_loopback(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) fail("socket");
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("connect");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void send_request(worker *w, connection *c, uint64_t now, int free_when_due) {
    c->sent_due = c->next_due;
    c->next_due += w->interval;
    c->in_flight = 1;
    if (free_when_due && c->sent_due >= w->record_from) record(&w->lateness, (now - c->sent_due) / 1000);
    ssize_t written = send(c->fd, request, request_length, MSG_NOSIGNAL);
    if (written != (ssize_t)request_length) { /* 60 bytes into an empty socket: short means broken */
        w->errors++;
        c->in_flight = 0;
    } else {
        w->sent++;
    }
}

/* One whole answer at the start of the buffer: its length, 0 when more bytes are needed, -1 when
 * it cannot be framed (no Content-Length). */
static long answer_length(connection *c, int *status) {
    char *end = memmem(c->buffer, c->used, "\r\n\r\n", 4);
    if (!end) return c->used == sizeof c->buffer ? -1 : 0;
    size_t head = (size_t)(end - c->buffer) + 4;
    *status = c->used > 12 ? atoi(c->buffer + 9) : 0;
    long body = -1;
    for (char *line = memchr(c->buffer, '\n', head); line && line < end; line = memchr(line + 1, '\n', head - (size_t)(line + 1 - c->buffer))) {
        if (strncasecmp(line + 1, "content-length:", 15) == 0) body = atol(line + 16);
    }
    if (body < 0) return -1;
    return c->used >= head + (size_t)body ? (long)(head + (size_t)body) : 0;
}

static void readable(worker *w, connection *c, int epoll) {
    for (;;) {
        ssize_t got = recv(c->fd, c->buffer + c->used, sizeof c->buffer - c->used, MSG_DONTWAIT);
        if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
        if (got <= 0) { /* the server closed: count it once and stop using the connection */
            w->errors++;
            c->in_flight = 0;
            c->next_due = UINT64_MAX;
            epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
            close(c->fd);
            c->fd = -1;
            return;
        }
        c->used += (size_t)got;
        int status = 0;
        long length;
        while ((length = answer_length(c, &status)) > 0) {
            uint64_t now = now_ns();
            if (c->in_flight && c->sent_due >= w->record_from && c->sent_due < w->stop_at) {
                record(&w->latency, (now - c->sent_due) / 1000);
                if (status < 200 || status > 299) w->non2xx++;
            }
            c->in_flight = 0;
            memmove(c->buffer, c->buffer + length, c->used - (size_t)length);
            c->used -= (size_t)length;
            if (c->next_due <= now && c->next_due < w->stop_at) send_request(w, c, now, 0);
        }
        if (length < 0) {
            fprintf(stderr, "rate-load: an answer without Content-Length (or a head over %zu bytes)\n", sizeof c->buffer);
            exit(1);
        }
    }
}

static void *run(void *argument) {
    worker *w = argument;
    int epoll = epoll_create1(0), timer = timerfd_create(CLOCK_MONOTONIC, 0);
    struct epoll_event event = { .events = EPOLLIN, .data.u32 = UINT32_MAX };
    epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &event);
    for (int i = 0; i < w->count; i++) {
        event.data.u32 = (uint32_t)i;
        epoll_ctl(epoll, EPOLL_CTL_ADD, w->conns[i].fd, &event);
    }
    struct epoll_event events[256];
    uint64_t drain_until = w->stop_at + 5000000000ull;
    for (;;) {
        uint64_t now = now_ns(), next = UINT64_MAX;
        int busy = 0;
        for (int i = 0; i < w->count; i++) {
            connection *c = &w->conns[i];
            if (!c->in_flight && c->next_due <= now && c->next_due < w->stop_at) send_request(w, c, now, 1);
            if (!c->in_flight && c->next_due < w->stop_at && c->next_due < next) next = c->next_due;
            busy |= c->in_flight;
        }
        if ((now >= w->stop_at && !busy) || now >= drain_until) break;
        if (next == UINT64_MAX) next = now + 10000000ull; /* only answers to wait for: look again in 10 ms */
        struct itimerspec when = { .it_value = { .tv_sec = (time_t)(next / 1000000000ull), .tv_nsec = (long)(next % 1000000000ull) } };
        timerfd_settime(timer, TFD_TIMER_ABSTIME, &when, NULL);
        int ready = epoll_wait(epoll, events, 256, 100);
        for (int i = 0; i < ready; i++) {
            if (events[i].data.u32 == UINT32_MAX) {
                uint64_t expirations;
                if (read(timer, &expirations, sizeof expirations) < 0) { /* nothing to take: fine */ }
            } else {
                readable(w, &w->conns[events[i].data.u32], epoll);
            }
        }
    }
    close(timer);
    close(epoll);
    return NULL;
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--path")) path = argv[i + 1];
        else if (!strcmp(argv[i], "--connections")) connections = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rate")) rate = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--warmup")) warmup = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else { fprintf(stderr, "rate-load: unknown option %s\n", argv[i]); return 64; }
    }
    if (port <= 0 || connections <= 0 || threads <= 0 || threads > connections || rate <= 0 || seconds <= 0 || warmup < 0) {
        fprintf(stderr, "usage: rate-load --port N [--path /health] [--connections 64] [--rate 20000] [--seconds 10] [--warmup 1] [--threads 2]\n");
        return 64;
    }
    request_length = (size_t)snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", path, port);

    connection *conns = calloc((size_t)connections, sizeof *conns);
    worker *workers = calloc((size_t)threads, sizeof *workers);
    if (!conns || !workers) fail("calloc");
    uint64_t interval = (uint64_t)((double)connections / rate * 1e9);
    uint64_t start = now_ns() + 100000000ull; /* 100 ms to start the threads */
    for (int i = 0; i < connections; i++) {
        conns[i].fd = connect_loopback();
        conns[i].next_due = start + interval * (uint64_t)i / (uint64_t)connections;
    }
    pthread_t ids[threads];
    for (int t = 0; t < threads; t++) {
        worker *w = &workers[t];
        w->first = connections * t / threads;
        w->count = connections * (t + 1) / threads - w->first;
        w->conns = conns + w->first;
        w->interval = interval;
        w->start = start;
        w->record_from = start + (uint64_t)(warmup * 1e9);
        w->stop_at = w->record_from + (uint64_t)(seconds * 1e9);
        pthread_create(&ids[t], NULL, run, w);
    }
    histogram *latency = calloc(1, sizeof *latency), *lateness = calloc(1, sizeof *lateness);
    uint64_t errors = 0, non2xx = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        for (int i = 0; i < BUCKETS; i++) {
            latency->count[i] += workers[t].latency.count[i];
            lateness->count[i] += workers[t].lateness.count[i];
        }
        latency->total += workers[t].latency.total;
        lateness->total += workers[t].lateness.total;
        if (workers[t].latency.max > latency->max) latency->max = workers[t].latency.max;
        if (workers[t].lateness.max > lateness->max) lateness->max = workers[t].lateness.max;
        errors += workers[t].errors;
        non2xx += workers[t].non2xx;
    }
    printf("requests=%llu achieved=%.0f p50=%.3fms p90=%.3fms p99=%.3fms p999=%.3fms max=%.3fms "
           "client_late_p99=%.3fms client_late_max=%.3fms errors=%llu non2xx=%llu\n",
           (unsigned long long)latency->total, (double)latency->total / seconds,
           percentile_ms(latency, 50), percentile_ms(latency, 90), percentile_ms(latency, 99),
           percentile_ms(latency, 99.9), (double)latency->max / 1000.0,
           percentile_ms(lateness, 99), (double)lateness->max / 1000.0,
           (unsigned long long)errors, (unsigned long long)non2xx);
    for (int i = 0; i < connections; i++) if (conns[i].fd >= 0) close(conns[i].fd);
    return 0;
}
