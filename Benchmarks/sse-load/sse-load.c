// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/* SSE load client (issues 12 and 15): holds N subscribers of an SSE feed on loopback servers for
 * S seconds and measures how late each event arrives, how many ids each subscriber missed or got
 * twice, and how late the client itself was.
 *
 * Several worker processes (--processes), each a single epoll thread holding its share of the
 * connections; every connection binds its own source address in 127.0.1.1-127.0.250.250 (with
 * IP_BIND_ADDRESS_NO_PORT), so the 28k ephemeral ports of one source address never run out.
 * Connection i goes to the (i mod P)-th of --ports. Workers write samples to a temporary file;
 * the parent merges them.
 *
 * Lag is measured from the event's own timestamp (CLOCK_REALTIME, one machine, one clock):
 *   - a `/events` clock tick carries the comment line `: at <unix seconds>` (stamped by the server
 *     when it published the tick);
 *   - a pipeline event carries its send time in `"detail":"<unix seconds>"` (scripts/scale/bench.py's
 *     source writes it) — with sorted keys, `detail` is the JSON's first field.
 * lag = CLOCK_REALTIME when read() returned the bytes - the stamp. Ticks (`data: tick K`) also get
 * the grid lag of the old client: arrival - (origin + K * interval), the origin being the earliest
 * arrival of any tick minus K * interval (CLOCK_MONOTONIC is shared by every process) — how much
 * later than the best-delivered tick's pace, which includes the server's timer lateness.
 * Client lateness: the time each worker spends in one turn of its loop (after epoll_wait returns,
 * before it waits again), p99 and max: an event can be stamped at most that much late by the
 * client. Client CPU: user+system seconds of all workers over the run.
 *
 * Ids: each subscriber's `id:` values must increase by one (a feed filtered to one source):
 * a smaller or equal id counts as duplicated, a jump counts the ids skipped as missed.
 * --switch-after T: T seconds into the window every subscriber closes and reconnects to the next
 * port with `Last-Event-ID: <last id seen>`, still counted as the same subscriber (issue 15's
 * cross-replica resume).
 *
 * HTTP/2 (--h2, issue 26): each subscriber is a stream; --streams-per-connection S of them share one
 * h2c connection (prior knowledge, RFC 9113 §3.3), so --clients 50000 with S = 100 opens 500
 * connections. The client is minimal but correct for this use: the connection preface; SETTINGS
 * with HEADER_TABLE_SIZE 0 (so the server's HPACK encoder keeps no dynamic table and a response's
 * `:status 200` can only be the static index 8, the byte 0x88, after any table size updates) and
 * INITIAL_WINDOW_SIZE --h2-window; the server's SETTINGS acknowledged, PINGs answered; one HEADERS
 * frame per stream with HPACK literal fields (no Huffman); WINDOW_UPDATE for a stream and for the
 * connection once half its window has been consumed by DATA; every DATA payload goes through the
 * same SSE parsing and id/lag accounting as an HTTP/1.1 body. A response other than 200 (any first
 * field but 0x88), RST_STREAM and GOAWAY end the streams they name and are counted (`resets`,
 * `goaways`): a stream that had its 200 counts as closed early, one that had not as failed. A frame
 * the client cannot take (longer than the 16,384 bytes it allows) fails the connection. The client
 * writes only small frames on a socket with an empty send buffer; a write the kernel does not take
 * whole fails the connection (counted, never silent).
 *
 * Tokens (--tokens-file, issue 28): line i of the file (0-based, one token a line, at least --clients
 * lines) is subscriber i's own credential, sent as `Authorization: Bearer <token>` on its HTTP/1.1
 * request, and in --h2 mode as a never-indexed HPACK literal `authorization` field (RFC 7541 §7.1.3:
 * a credential stays out of every compression table). The file is read once before the workers fork,
 * so they share it; a token with a space or a control byte is refused (it would split the request).
 *
 * Subscribe rate (`subscribe_rate_per_s`): subscribers whose 200 head arrived (first time, not the
 * --switch-after reconnections), per second from the start of the run to the last such head — how fast
 * the server accepts, parses, checks a credential and subscribes when all ask at once (`subscribe_s`
 * is that span). Refusals: `refused_503` counts HTTP/1.1 subscribers answered 503 (the server's
 * connection ceiling); every non-200 answer also counts in `failed`.
 *
 * Server CPU per delivery (--server-pid): the parent samples the server's utime+stime every 250 ms.
 * The measured window runs from the moment every worker had each of its subscribers answered (200 or
 * failed) to the first worker's end, so connecting and the requests' handling stay outside it;
 * deliveries are the events that arrived inside it. The lag of those events alone is reported too
 * (`window_lag_*`): the steady state, beside the lag of every event (`lag_*`).
 *
 * usage: sse-load (--port N | --ports N,M,...) [--path /events] [--clients 50000] [--processes 4]
 *                 [--seconds 60] [--interval 1] [--server-pid PID] [--connect-burst 256]
 *                 [--switch-after T] [--h2 [--streams-per-connection 100] [--h2-window 1048576]]
 *                 [--tokens-file PATH] [--admit-window N]
 * --admit-window N (HTTP/1.1): at most N subscribers between their connect and their answer, per worker.
 *   --connect-burst alone counts a connect done when the TCP handshake completes, which the kernel does
 *   from the listen queue before the server accepts: a burst of thousands then overflows that queue
 *   (somaxconn, 4,096 here) whenever the server falls behind, and the dropped handshakes return after
 *   TCP's 1 s retransmission, so `subscribe_rate_per_s` shows whether the queue overflowed rather than
 *   how fast the server admits. With a window below the queue, the rate is the server's admission rate.
 * Prints one JSON line. Loopback only (127.0.0.1); bounded by --seconds plus 60 s of connecting. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define MAX_PORTS 16
static int ports[MAX_PORTS], port_count = 0;
static int clients = 50000, processes = 4, seconds = 60, burst = 256, server_pid = 0, admit_window = 0;
static double interval_s = 1.0, switch_after = -1;
static int batch_scheduling = 1;
static const char *path = "/events";
static int h2 = 0, streams_per_connection = 100, h2_window = 1 << 20;
/* --tokens-file: subscriber i's token, NULL without the flag. A JWT of a few claims is ~200 bytes;
 * 4,096 bounds the request buffers and is far beyond any token this benchmark makes. */
#define MAX_TOKEN 4096
static char **tokens = NULL;

/* One event as read: its tick number (-1: not a tick), arrival on both clocks, stamp lag (-1: none). */
struct sample { int64_t tick; uint64_t mono_ns; int64_t stamp_lag_ns; };
/* One subscriber: an HTTP/1.1 connection, or (--h2) one stream of an h2c connection (`fd` unused). */
struct connection {
    int fd;
    int state;          /* 0 connecting, 1 headers, 2 streaming, 3 closed, 4 waiting to reconnect */
    int port_index;
    int line_length;
    int has_data;       /* the current message has a data line */
    int64_t id;         /* the current message's id, -1 if none */
    int64_t tick;       /* the current message's tick number, -1 if none */
    int64_t stamp_ns;   /* the current message's stamp (unix ns), -1 if none */
    int64_t last_id;    /* the last id seen on this subscriber, -1 before the first */
    long events, missed, duplicated;
    int64_t unacknowledged; /* --h2: DATA bytes consumed since this stream's last WINDOW_UPDATE */
    char line[96];      /* the current line; longer ones are only checked for their prefix */
};

static uint64_t clock_ns(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
static uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t percentile(uint64_t *values, size_t n, double p) {
    if (n == 0) return 0;
    size_t index = (size_t)(p / 100.0 * (double)(n - 1) + 0.5);
    return values[index < n ? index : n - 1];
}

/* "1732456789.123456" -> unix nanoseconds; -1 when it is no number. */
static int64_t parse_stamp(const char *text) {
    char *end;
    double seconds_value = strtod(text, &end);
    if (end == text || seconds_value <= 0) return -1;
    return (int64_t)(seconds_value * 1e9);
}

static int open_connection(int index, int worker, int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    /* Source 127.0.B.C, B in 1..250, C in 1..250, spread by worker and index. */
    unsigned spread = (unsigned)(worker * 7919 + index) % (250u * 250u);
    struct sockaddr_in source = { .sin_family = AF_INET };
    source.sin_addr.s_addr = htonl((127u << 24) | ((1 + spread / 250) << 8) | (1 + spread % 250));
    if (bind(fd, (struct sockaddr *)&source, sizeof source) != 0) { close(fd); return -1; }
    struct sockaddr_in target = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
    target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&target, sizeof target) != 0 && errno != EINPROGRESS) { close(fd); return -1; }
    return fd;
}

/* The end of one message (a blank line): record it if it carried data. */
static void message_done(struct connection *c, FILE *out, uint64_t mono, uint64_t real) {
    if (c->has_data) {
        if (c->id >= 0) {
            if (c->last_id >= 0 && c->id <= c->last_id) c->duplicated++;
            else {
                if (c->last_id >= 0 && c->id > c->last_id + 1) c->missed += c->id - c->last_id - 1;
                c->last_id = c->id;
                c->events++;
            }
        } else {
            c->events++;
        }
        if (c->tick >= 0 || c->stamp_ns >= 0) {
            struct sample s = { .tick = c->tick, .mono_ns = mono,
                                .stamp_lag_ns = c->stamp_ns >= 0 ? (int64_t)real - c->stamp_ns : -1 };
            fwrite(&s, sizeof s, 1, out);
        }
    }
    c->has_data = 0; c->id = -1; c->tick = -1; c->stamp_ns = -1;
}

/* What one worker counts besides the per-subscriber figures. */
struct tally {
    int connect_failed, held, closed_early, reconnected, resets, goaways, refused_503;
    uint64_t last_held_ns; /* when the latest first-time 200 head arrived; 0 = none yet */
    uint64_t settled_ns;   /* when each subscriber first had its answer (200 or failed); 0 = not yet */
    uint64_t end_ns;       /* when the worker stopped reading */
};

/* Bytes of one subscriber's response (HTTP/1.1: head and body; HTTP/2: a DATA payload) through the
 * SSE line parser. Returns -1 when an HTTP/1.1 status line is not 200: the caller closes. */
static int sse_bytes(struct connection *c, const char *bytes, size_t n, FILE *out, uint64_t mono, uint64_t real,
                     struct tally *tally) {
    for (size_t j = 0; j < n; j++) {
        char ch = bytes[j];
        if (ch != '\n') {
            if (ch != '\r' && c->line_length < (int)sizeof c->line - 1) c->line[c->line_length++] = ch;
            continue;
        }
        c->line[c->line_length] = 0;
        if (c->state == 1) {
            if (c->line_length == 0) {
                c->state = 2;
                if (c->last_id >= 0) tally->reconnected++;
                else { tally->held++; tally->last_held_ns = mono; }
            } else if (strncmp(c->line, "HTTP/1.", 7) == 0 && strncmp(c->line + 9, "200", 3) != 0) {
                if (strncmp(c->line + 9, "503", 3) == 0) tally->refused_503++;
                c->line_length = 0;
                return -1;
            }
        } else if (c->line_length == 0) {
            message_done(c, out, mono, real);
        } else if (strncmp(c->line, "id: ", 4) == 0) {
            c->id = strtoll(c->line + 4, NULL, 10);
        } else if (strncmp(c->line, ": at ", 5) == 0) {
            c->stamp_ns = parse_stamp(c->line + 5);
        } else if (strncmp(c->line, "data: ", 6) == 0) {
            c->has_data = 1;
            if (strncmp(c->line + 6, "tick ", 5) == 0) c->tick = strtoll(c->line + 11, NULL, 10);
            else if (strncmp(c->line + 6, "{\"detail\":\"", 11) == 0) c->stamp_ns = parse_stamp(c->line + 17);
        }
        c->line_length = 0;
    }
    return 0;
}

/* The end of a worker: per-subscriber counts to `<samples>.counts`, totals on stdout for the parent. */
static int worker_report(struct connection *connections, int count, FILE *out, const char *samples_path,
                         struct tally *tally, uint64_t *turn_ns, size_t turns) {
    int still_open = 0;
    long missed = 0, duplicated = 0;
    for (int i = 0; i < count; i++) {
        struct connection *c = &connections[i];
        if (c->state == 2) still_open++;
        missed += c->missed; duplicated += c->duplicated;
    }
    /* Subscribers short of the best one's count: the parent compares against the overall maximum. */
    qsort(turn_ns, turns, sizeof *turn_ns, compare_u64);
    fclose(out);
    char counts_path[128];
    snprintf(counts_path, sizeof counts_path, "%s.counts", samples_path);
    FILE *counts = fopen(counts_path, "wb");
    for (int i = 0; counts && i < count; i++) fwrite(&connections[i].events, sizeof(long), 1, counts);
    if (counts) fclose(counts);
    printf("%d %d %d %d %d %ld %ld %llu %llu %d %d %llu %llu %d %llu\n", tally->held, still_open, tally->connect_failed,
           tally->closed_early, tally->reconnected, missed, duplicated, (unsigned long long)percentile(turn_ns, turns, 99),
           (unsigned long long)(turns ? turn_ns[turns - 1] : 0), tally->resets, tally->goaways,
           (unsigned long long)tally->settled_ns, (unsigned long long)tally->end_ns, tally->refused_503,
           (unsigned long long)tally->last_held_ns);
    fflush(stdout);
    return 0;
}

/* How long a worker's epoll_wait may sleep: until `end`, or 10 ms while it still has connects to start. */
static int turn_timeout(uint64_t end, int connects_waiting) {
    uint64_t t = now_ns();
    int timeout = (int)((end > t ? end - t : 0) / 1000000ull) + 1;
    return connects_waiting && timeout > 10 ? 10 : timeout;
}

/* The outcome of a non-blocking connect that epoll reported: 0 or the errno. */
static int connect_error(int fd) {
    int error = 0; socklen_t length = sizeof error;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
    return error;
}

/* The client's lateness: how long one turn of a worker's loop took. */
static void record_turn(uint64_t **turn_ns, size_t *turns, size_t *capacity, uint64_t turn_start) {
    if (*turns == *capacity) { *capacity *= 2; *turn_ns = realloc(*turn_ns, *capacity * sizeof **turn_ns); }
    (*turn_ns)[(*turns)++] = now_ns() - turn_start;
}

/* One worker: connects its share, streams for `seconds`, writes samples, reports counts on stdout. */
static int worker_main(int worker, int first, int count, const char *samples_path, uint64_t deadline) {
    if (batch_scheduling) {
        /* A SCHED_BATCH worker woken by data does not preempt the server mid-broadcast: without it every
         * write of a broadcast can switch to a client that reads one event and sleeps again. */
        struct sched_param none = { 0 };
        sched_setscheduler(0, SCHED_BATCH, &none);
    }
    struct connection *connections = calloc((size_t)count, sizeof *connections);
    int *queue = malloc((size_t)count * sizeof *queue); /* connections waiting to (re)connect, FIFO */
    int epoll = epoll_create1(0);
    FILE *out = fopen(samples_path, "wb");
    if (!connections || !queue || epoll < 0 || !out) return 1;
    int queue_head = 0, queue_tail = 0;
    for (int i = 0; i < count; i++) {
        connections[i].port_index = (first + i) % port_count;
        connections[i].last_id = -1; connections[i].id = -1; connections[i].tick = -1; connections[i].stamp_ns = -1;
        queue[queue_tail++] = i;
    }
    int connecting = 0, awaiting = 0, switched = 0;
    struct tally tally = { 0 };
    size_t turn_capacity = 1 << 16, turns = 0;
    uint64_t *turn_ns = malloc(turn_capacity * sizeof *turn_ns);
    struct epoll_event events[512];
    static char buffer[65536];
    uint64_t connect_deadline = now_ns() + 60ull * 1000000000ull, end = deadline, switch_at = UINT64_MAX;
    int window_started = 0;

    while (now_ns() < end) {
        /* The measuring window: `seconds` from the moment this worker's connections are all set up. */
        int pending = queue_tail - queue_head;
        if (!window_started && ((pending == 0 && connecting == 0) || now_ns() >= connect_deadline)) {
            window_started = 1;
            uint64_t window_start = now_ns(), window_end = window_start + (uint64_t)seconds * 1000000000ull;
            if (window_end < end) end = window_end;
            if (switch_after >= 0) switch_at = window_start + (uint64_t)(switch_after * 1e9);
        }
        if (!switched && now_ns() >= switch_at) {
            /* Every subscriber moves to the next port, resuming after the last id it saw. */
            switched = 1;
            queue_head = queue_tail = 0;
            for (int i = 0; i < count; i++) {
                struct connection *c = &connections[i];
                if (c->state != 2) continue;
                epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                c->state = 4; c->line_length = 0; c->has_data = 0; c->id = -1; c->tick = -1; c->stamp_ns = -1;
                c->port_index = (c->port_index + 1) % port_count;
                queue[queue_tail++] = i;
            }
            connect_deadline = now_ns() + 30ull * 1000000000ull;
        }
        /* Keep at most `burst` connects in flight (bounded by the connect deadline). */
        while (queue_head < queue_tail && connecting < burst && now_ns() < connect_deadline
               && (admit_window == 0 || connecting + awaiting < admit_window)) {
            int index = queue[queue_head++];
            struct connection *c = &connections[index];
            int fd = open_connection(first + index, worker, ports[c->port_index]);
            if (fd < 0) { c->state = 3; c->fd = -1; tally.connect_failed++; continue; }
            c->fd = fd;
            c->state = 0;
            struct epoll_event e = { .events = EPOLLOUT | EPOLLIN, .data.ptr = c };
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e);
            connecting++;
        }
        int ready = epoll_wait(epoll, events, 512, turn_timeout(end, queue_head < queue_tail || switch_at != UINT64_MAX));
        uint64_t turn_start = now_ns();
        for (int i = 0; i < ready; i++) {
            struct connection *c = events[i].data.ptr;
            if (c->state == 0) {
                int error = connect_error(c->fd);
                connecting--;
                /* 320 for the line and fixed fields (the path is at most 200), plus the credential. */
                char request[320 + 32 + MAX_TOKEN];
                char resume[64] = "";
                if (c->last_id >= 0) snprintf(resume, sizeof resume, "Last-Event-ID: %lld\r\n", (long long)c->last_id);
                int request_length = snprintf(request, sizeof request,
                    "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n%s%s%s%s\r\n",
                    path, ports[c->port_index], resume, tokens ? "Authorization: Bearer " : "",
                    tokens ? tokens[first + (int)(c - connections)] : "", tokens ? "\r\n" : "");
                if (error != 0 || write(c->fd, request, (size_t)request_length) != request_length) {
                    close(c->fd); c->state = 3; tally.connect_failed++; continue;
                }
                c->state = 1;
                awaiting++;
                struct epoll_event e = { .events = EPOLLIN, .data.ptr = c };
                epoll_ctl(epoll, EPOLL_CTL_MOD, c->fd, &e);
                continue;
            }
            if (c->state != 1 && c->state != 2) continue;
            int was_awaiting = c->state == 1;
            for (;;) {
                ssize_t n = read(c->fd, buffer, sizeof buffer);
                if (n < 0 && errno == EAGAIN) break;
                if (n <= 0) { close(c->fd); if (c->state == 2) tally.closed_early++; else tally.connect_failed++; c->state = 3; break; }
                uint64_t mono = now_ns(), real = clock_ns(CLOCK_REALTIME);
                if (sse_bytes(c, buffer, (size_t)n, out, mono, real, &tally) != 0) {
                    c->state = 3; close(c->fd); tally.connect_failed++;
                }
                if (c->state == 3 || n < (ssize_t)sizeof buffer) break;
            }
            if (was_awaiting && c->state != 1) awaiting--;
        }
        if (ready > 0) record_turn(&turn_ns, &turns, &turn_capacity, turn_start);
        if (!tally.settled_ns && tally.held + tally.connect_failed >= count) tally.settled_ns = now_ns();
    }
    tally.end_ns = now_ns();
    return worker_report(connections, count, out, samples_path, &tally, turn_ns, turns);
}

/* ---- HTTP/2 (--h2) ----------------------------------------------------------------------------- */

enum { FRAME_DATA = 0, FRAME_HEADERS = 1, FRAME_RST_STREAM = 3, FRAME_SETTINGS = 4, FRAME_PING = 6,
       FRAME_GOAWAY = 7, FRAME_WINDOW_UPDATE = 8 };
enum { FLAG_END_STREAM = 0x1, FLAG_ACK = 0x1, FLAG_END_HEADERS = 0x4, FLAG_PADDED = 0x8, FLAG_PRIORITY = 0x20 };
/* The largest frame payload this client accepts: SETTINGS_MAX_FRAME_SIZE left at its default. */
#define H2_MAX_FRAME 16384

/* One h2c connection carrying `stream_count` subscribers; stream i (0-based) has id 2i + 1. */
struct link {
    int fd;
    int state;                      /* 0 connecting, 1 open, 3 closed */
    int port_index;
    struct connection *streams;
    int stream_count;
    int64_t unacknowledged;         /* DATA bytes consumed since the connection's last WINDOW_UPDATE */
    size_t carry_length;            /* a frame split across reads waits here until it is whole */
    unsigned char carry[9 + H2_MAX_FRAME];
};

static void put_frame_header(unsigned char *p, uint32_t length, int type, int flags, uint32_t stream_id) {
    p[0] = (unsigned char)(length >> 16); p[1] = (unsigned char)(length >> 8); p[2] = (unsigned char)length;
    p[3] = (unsigned char)type; p[4] = (unsigned char)flags;
    p[5] = (unsigned char)((stream_id >> 24) & 0x7f); p[6] = (unsigned char)(stream_id >> 16);
    p[7] = (unsigned char)(stream_id >> 8); p[8] = (unsigned char)stream_id;
}

static uint32_t get_u32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* An HPACK integer with an N-bit prefix (RFC 7541 §5.1). */
static size_t hpack_integer(unsigned char *p, unsigned flags, int prefix_bits, size_t value) {
    size_t limit = (1u << prefix_bits) - 1, n = 0;
    if (value < limit) { p[n++] = (unsigned char)(flags | value); return n; }
    p[n++] = (unsigned char)(flags | limit);
    value -= limit;
    while (value >= 128) { p[n++] = (unsigned char)(0x80 | (value & 0x7f)); value >>= 7; }
    p[n++] = (unsigned char)value;
    return n;
}

/* A literal field with a literal name, no Huffman coding: `first` is 0x00 for "without indexing"
 * (RFC 7541 §6.2.2) or 0x10 for "never indexed" (§6.2.3, for credentials). */
static size_t hpack_literal(unsigned char *p, unsigned char first, const char *name, const char *value) {
    size_t n = 0, name_length = strlen(name), value_length = strlen(value);
    p[n++] = first;
    n += hpack_integer(p + n, 0x00, 7, name_length);
    memcpy(p + n, name, name_length); n += name_length;
    n += hpack_integer(p + n, 0x00, 7, value_length);
    memcpy(p + n, value, value_length); n += value_length;
    return n;
}

/* Writes all of `bytes` or fails the link: the client sends only small frames, so a short write means
 * the server stopped reading, which this benchmark counts rather than buffers around. */
static int link_write(struct link *l, const unsigned char *bytes, size_t n) {
    ssize_t written = write(l->fd, bytes, n);
    return written == (ssize_t)n ? 0 : -1;
}

static int send_window_update(struct link *l, uint32_t stream_id, uint32_t increment) {
    unsigned char frame[13];
    put_frame_header(frame, 4, FRAME_WINDOW_UPDATE, 0, stream_id);
    frame[9] = (unsigned char)((increment >> 24) & 0x7f); frame[10] = (unsigned char)(increment >> 16);
    frame[11] = (unsigned char)(increment >> 8); frame[12] = (unsigned char)increment;
    return link_write(l, frame, sizeof frame);
}

/* The preface, SETTINGS, the connection window's opening and every stream's HEADERS in one write.
 * `first_stream`: the global index of the link's first subscriber (its token's line). */
static int h2_open_streams(struct link *l, int first_stream) {
    static const char preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    /* 400 a HEADERS frame without a credential; with one, its name, "Bearer " and length prefixes. */
    size_t per_stream = 9 + 400 + (tokens ? 32 + MAX_TOKEN : 0);
    size_t capacity = 64 + (size_t)l->stream_count * per_stream, n = 0;
    unsigned char *out = malloc(capacity);
    if (!out) return -1;
    memcpy(out, preface, 24); n = 24;
    /* SETTINGS: HEADER_TABLE_SIZE 0 (no dynamic table in responses), ENABLE_PUSH 0, INITIAL_WINDOW_SIZE. */
    uint16_t ids[3] = { 0x1, 0x2, 0x4 };
    uint32_t values[3] = { 0, 0, (uint32_t)h2_window };
    put_frame_header(out + n, 18, FRAME_SETTINGS, 0, 0); n += 9;
    for (int i = 0; i < 3; i++) {
        out[n++] = (unsigned char)(ids[i] >> 8); out[n++] = (unsigned char)ids[i];
        out[n++] = (unsigned char)(values[i] >> 24); out[n++] = (unsigned char)(values[i] >> 16);
        out[n++] = (unsigned char)(values[i] >> 8); out[n++] = (unsigned char)values[i];
    }
    /* The connection's window starts at 65,535 whatever SETTINGS say (RFC 9113 §6.9.2): open it to
     * --h2-window times the streams, so it never holds one stream back behind the others. */
    uint32_t connection_window = (uint32_t)((int64_t)h2_window * l->stream_count > 0x7fffffff ? 0x7fffffff
                                                                                            : (int64_t)h2_window * l->stream_count);
    if (connection_window > 65535) {
        uint32_t increment = connection_window - 65535;
        put_frame_header(out + n, 4, FRAME_WINDOW_UPDATE, 0, 0); n += 9;
        out[n++] = (unsigned char)((increment >> 24) & 0x7f); out[n++] = (unsigned char)(increment >> 16);
        out[n++] = (unsigned char)(increment >> 8); out[n++] = (unsigned char)increment;
    }
    char authority[32];
    snprintf(authority, sizeof authority, "127.0.0.1:%d", ports[l->port_index]);
    for (int i = 0; i < l->stream_count; i++) {
        unsigned char *header = out + n;
        size_t block = 9;
        header[block++] = 0x82; /* :method GET, static index 2 */
        header[block++] = 0x86; /* :scheme http, static index 6 */
        block += hpack_literal(header + block, 0x00, ":path", path);
        block += hpack_literal(header + block, 0x00, ":authority", authority);
        block += hpack_literal(header + block, 0x00, "accept", "text/event-stream");
        if (tokens) {
            char credential[8 + MAX_TOKEN];
            snprintf(credential, sizeof credential, "Bearer %s", tokens[first_stream + i]);
            block += hpack_literal(header + block, 0x10, "authorization", credential);
        }
        put_frame_header(header, (uint32_t)(block - 9), FRAME_HEADERS, FLAG_END_STREAM | FLAG_END_HEADERS, (uint32_t)(2 * i + 1));
        n += block;
        l->streams[i].state = 1;
    }
    int result = link_write(l, out, n);
    free(out);
    return result;
}

/* A stream ends before the run does: counted as closed early once it had its 200, else as failed. */
static void h2_stream_ends(struct connection *c, struct tally *tally) {
    if (c->state == 2) tally->closed_early++;
    else if (c->state != 3) tally->connect_failed++;
    c->state = 3;
}

/* The whole connection ends (GOAWAY, a read error, a frame it cannot take): so do its open streams. */
static void h2_link_fails(struct link *l, int epoll, struct tally *tally) {
    if (l->state == 3) return;
    for (int i = 0; i < l->stream_count; i++) h2_stream_ends(&l->streams[i], tally);
    epoll_ctl(epoll, EPOLL_CTL_DEL, l->fd, NULL);
    close(l->fd);
    l->state = 3;
}

/* One whole frame. Returns -1 when the connection must end. */
static int h2_frame(struct link *l, const unsigned char *frame, FILE *out, uint64_t mono, uint64_t real, struct tally *tally) {
    uint32_t length = (uint32_t)frame[0] << 16 | (uint32_t)frame[1] << 8 | frame[2];
    int type = frame[3], flags = frame[4];
    uint32_t stream_id = get_u32(frame + 5) & 0x7fffffff;
    const unsigned char *payload = frame + 9;
    struct connection *c = NULL;
    if (stream_id % 2 == 1 && (stream_id - 1) / 2 < (uint32_t)l->stream_count) c = &l->streams[(stream_id - 1) / 2];
    switch (type) {
    case FRAME_DATA: {
        /* Flow control counts the whole payload, padding included (RFC 9113 §6.1). */
        l->unacknowledged += length;
        if (l->unacknowledged >= (int64_t)h2_window * l->stream_count / 2) {
            if (send_window_update(l, 0, (uint32_t)l->unacknowledged) != 0) return -1;
            l->unacknowledged = 0;
        }
        size_t start = 0, end = length;
        if (flags & FLAG_PADDED) {
            if (length < 1 || payload[0] >= length) return -1;
            start = 1; end = length - payload[0];
        }
        if (!c || c->state != 2) return 0; /* a stream already ended: its bytes still counted for the connection */
        if (sse_bytes(c, (const char *)payload + start, end - start, out, mono, real, tally) != 0) return -1;
        if (flags & FLAG_END_STREAM) { h2_stream_ends(c, tally); return 0; }
        c->unacknowledged += length;
        if (c->unacknowledged >= h2_window / 2) {
            if (send_window_update(l, stream_id, (uint32_t)c->unacknowledged) != 0) return -1;
            c->unacknowledged = 0;
        }
        return 0;
    }
    case FRAME_HEADERS: {
        if (!c) return 0;
        size_t start = 0, end = length;
        if (flags & FLAG_PADDED) {
            if (length < 1 || payload[0] >= length) return -1;
            start = 1; end = length - payload[0];
        }
        if (flags & FLAG_PRIORITY) start += 5;
        if (c->state == 1) {
            /* Skip dynamic table size updates (001xxxxx; the first says 0, after our SETTINGS); then the
             * first field must be `:status 200` as static index 8. Any other status fails the stream. */
            while (start < end && (payload[start] & 0xe0) == 0x20) {
                start++;
                if ((payload[start - 1] & 0x1f) == 0x1f) while (start < end && (payload[start++] & 0x80)) {}
            }
            if (start < end && payload[start] == 0x88 && !(flags & FLAG_END_STREAM)) {
                c->state = 2;
                tally->held++;
                tally->last_held_ns = mono;
            } else {
                h2_stream_ends(c, tally);
            }
        } else if (flags & FLAG_END_STREAM) {
            h2_stream_ends(c, tally); /* trailers: the feed ended */
        }
        return 0;
    }
    case FRAME_RST_STREAM:
        tally->resets++;
        if (c) h2_stream_ends(c, tally);
        return 0;
    case FRAME_SETTINGS:
        if (stream_id != 0 || length % 6 != 0) return -1;
        if (!(flags & FLAG_ACK)) {
            unsigned char ack[9];
            put_frame_header(ack, 0, FRAME_SETTINGS, FLAG_ACK, 0);
            return link_write(l, ack, sizeof ack);
        }
        return 0;
    case FRAME_PING:
        if (length != 8) return -1;
        if (!(flags & FLAG_ACK)) {
            unsigned char pong[17];
            put_frame_header(pong, 8, FRAME_PING, FLAG_ACK, 0);
            memcpy(pong + 9, payload, 8);
            return link_write(l, pong, sizeof pong);
        }
        return 0;
    case FRAME_GOAWAY:
        tally->goaways++;
        return -1;
    default:
        /* WINDOW_UPDATE (this client sends no DATA), CONTINUATION (the status is in the HEADERS frame's
         * own fragment), PRIORITY, unknown types: nothing to do. */
        return 0;
    }
}

/* Bytes read from a link: whole frames are handled in place, a split one is carried to the next read. */
static int h2_input(struct link *l, const unsigned char *bytes, size_t n, FILE *out, uint64_t mono, uint64_t real,
                    struct tally *tally) {
    size_t position = 0;
    while (position < n) {
        size_t left = n - position;
        if (l->carry_length == 0 && left >= 9) {
            uint32_t length = (uint32_t)bytes[position] << 16 | (uint32_t)bytes[position + 1] << 8 | bytes[position + 2];
            if (length > H2_MAX_FRAME) return -1;
            if (left >= 9 + length) {
                if (h2_frame(l, bytes + position, out, mono, real, tally) != 0) return -1;
                position += 9 + length;
                continue;
            }
        }
        /* Carry: first the 9-byte header, then the rest of the payload it announces. */
        size_t want = 9;
        if (l->carry_length >= 9) {
            uint32_t length = (uint32_t)l->carry[0] << 16 | (uint32_t)l->carry[1] << 8 | l->carry[2];
            if (length > H2_MAX_FRAME) return -1;
            want = 9 + length;
        }
        size_t take = want - l->carry_length < left ? want - l->carry_length : left;
        memcpy(l->carry + l->carry_length, bytes + position, take);
        l->carry_length += take;
        position += take;
        if (l->carry_length >= 9) {
            uint32_t length = (uint32_t)l->carry[0] << 16 | (uint32_t)l->carry[1] << 8 | l->carry[2];
            if (length > H2_MAX_FRAME) return -1;
            if (l->carry_length == 9 + length) {
                l->carry_length = 0;
                if (h2_frame(l, l->carry, out, mono, real, tally) != 0) return -1;
            }
        }
    }
    return 0;
}

/* One --h2 worker: its share of streams over `links` connections of --streams-per-connection each. */
static int h2_worker_main(int worker, int first_link, int link_count, int first_stream, int stream_total,
                          const char *samples_path, uint64_t deadline) {
    if (batch_scheduling) {
        struct sched_param none = { 0 };
        sched_setscheduler(0, SCHED_BATCH, &none); /* as worker_main: do not preempt the server mid-broadcast */
    }
    struct connection *connections = calloc((size_t)stream_total, sizeof *connections);
    struct link *links = calloc((size_t)link_count, sizeof *links);
    int epoll = epoll_create1(0);
    FILE *out = fopen(samples_path, "wb");
    if (!connections || !links || epoll < 0 || !out) return 1;
    for (int i = 0; i < stream_total; i++) {
        connections[i].last_id = -1; connections[i].id = -1; connections[i].tick = -1; connections[i].stamp_ns = -1;
        connections[i].fd = -1;
    }
    for (int i = 0, assigned = 0; i < link_count; i++) {
        links[i].port_index = (first_link + i) % port_count;
        links[i].streams = connections + assigned;
        links[i].stream_count = stream_total - assigned < streams_per_connection ? stream_total - assigned : streams_per_connection;
        links[i].state = 3; /* not yet opened */
        assigned += links[i].stream_count;
    }
    struct tally tally = { 0 };
    int next = 0, connecting = 0;
    size_t turn_capacity = 1 << 16, turns = 0;
    uint64_t *turn_ns = malloc(turn_capacity * sizeof *turn_ns);
    struct epoll_event events[512];
    static unsigned char buffer[65536];
    uint64_t connect_deadline = now_ns() + 60ull * 1000000000ull, end = deadline;
    int window_started = 0;
    while (now_ns() < end) {
        if (!window_started && ((next == link_count && connecting == 0) || now_ns() >= connect_deadline)) {
            window_started = 1;
            uint64_t window_end = now_ns() + (uint64_t)seconds * 1000000000ull;
            if (window_end < end) end = window_end;
        }
        /* At most `burst` connects in flight; a connection opens all its streams at once. */
        while (next < link_count && connecting < burst && now_ns() < connect_deadline) {
            struct link *l = &links[next++];
            l->fd = open_connection(first_link + (int)(l - links), worker, ports[l->port_index]);
            if (l->fd < 0) { tally.connect_failed += l->stream_count; continue; }
            l->state = 0;
            struct epoll_event e = { .events = EPOLLOUT | EPOLLIN, .data.ptr = l };
            epoll_ctl(epoll, EPOLL_CTL_ADD, l->fd, &e);
            connecting++;
        }
        int ready = epoll_wait(epoll, events, 512, turn_timeout(end, next < link_count));
        uint64_t turn_start = now_ns();
        for (int i = 0; i < ready; i++) {
            struct link *l = events[i].data.ptr;
            if (l->state == 0) {
                int error = connect_error(l->fd);
                connecting--;
                l->state = 1;
                if (error != 0 || h2_open_streams(l, first_stream + (int)(l->streams - connections)) != 0) { h2_link_fails(l, epoll, &tally); continue; }
                struct epoll_event e = { .events = EPOLLIN, .data.ptr = l };
                epoll_ctl(epoll, EPOLL_CTL_MOD, l->fd, &e);
                continue;
            }
            if (l->state != 1) continue;
            for (;;) {
                ssize_t n = read(l->fd, buffer, sizeof buffer);
                if (n < 0 && errno == EAGAIN) break;
                if (n <= 0) { h2_link_fails(l, epoll, &tally); break; }
                uint64_t mono = now_ns(), real = clock_ns(CLOCK_REALTIME);
                if (h2_input(l, buffer, (size_t)n, out, mono, real, &tally) != 0) { h2_link_fails(l, epoll, &tally); break; }
                if (n < (ssize_t)sizeof buffer) break;
            }
        }
        if (ready > 0) record_turn(&turn_ns, &turns, &turn_capacity, turn_start);
        if (!tally.settled_ns && tally.held + tally.connect_failed >= stream_total) tally.settled_ns = now_ns();
    }
    tally.end_ns = now_ns();
    return worker_report(connections, stream_total, out, samples_path, &tally, turn_ns, turns);
}

static long rss_kb(const char *key) {
    char file[64], line[256];
    snprintf(file, sizeof file, "/proc/%d/status", server_pid);
    FILE *f = fopen(file, "r");
    long value = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) if (strncmp(line, key, strlen(key)) == 0) value = atol(line + strlen(key));
    fclose(f);
    return value;
}

/* The server's user + system CPU so far, in seconds; -1 when it cannot be read. */
static double server_cpu_s(void) {
    char file[64], text[1024];
    snprintf(file, sizeof file, "/proc/%d/stat", server_pid);
    FILE *f = fopen(file, "r");
    if (!f) return -1;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    /* Fields after the command name, which ends at the last ')': state is field 3, utime 14, stime 15. */
    char *p = strrchr(text, ')');
    if (!p) return -1;
    unsigned long long utime = 0, stime = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* CPU used between two moments, from the samples (linear between the two nearest ones); -1 if uncovered. */
static double cpu_between(const uint64_t *at, const double *cpu, size_t n, uint64_t from, uint64_t to) {
    double values[2];
    uint64_t moments[2] = { from, to };
    for (int k = 0; k < 2; k++) {
        size_t i = 1;
        while (i < n && at[i] < moments[k]) i++;
        if (n < 2 || i >= n || at[i - 1] > moments[k]) return -1;
        double share = (double)(moments[k] - at[i - 1]) / (double)(at[i] - at[i - 1]);
        values[k] = cpu[i - 1] + share * (cpu[i] - cpu[i - 1]);
    }
    return values[1] - values[0];
}

/* --tokens-file: the first `needed` lines, one token each. Exits 2 with the reason when the file cannot
 * be read, is short, or holds a line that is empty, too long or not one header-safe word. */
static char **load_tokens(const char *file, int needed) {
    FILE *f = fopen(file, "r");
    if (!f) { fprintf(stderr, "--tokens-file %s: %s\n", file, strerror(errno)); exit(2); }
    char **list = calloc((size_t)needed, sizeof *list);
    char *line = NULL;
    size_t size = 0;
    int count = 0;
    if (!list) { fprintf(stderr, "--tokens-file: out of memory\n"); exit(2); }
    while (count < needed) {
        ssize_t length = getline(&line, &size, f);
        if (length < 0) break;
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
        if (length == 0 || length > MAX_TOKEN) {
            fprintf(stderr, "--tokens-file %s: line %d is %s (one token a line, 1-%d bytes)\n", file, count + 1,
                    length == 0 ? "empty" : "too long", MAX_TOKEN);
            exit(2);
        }
        for (ssize_t j = 0; j < length; j++) {
            unsigned char ch = (unsigned char)line[j];
            if (ch <= ' ' || ch >= 0x7f) {
                fprintf(stderr, "--tokens-file %s: line %d has a space or control byte at column %zd\n", file, count + 1, j + 1);
                exit(2);
            }
        }
        list[count++] = strdup(line);
    }
    free(line);
    fclose(f);
    if (count < needed) {
        fprintf(stderr, "--tokens-file %s has %d tokens, --clients %d needs one a subscriber\n", file, count, needed);
        exit(2);
    }
    return list;
}

static void percentiles_ms(uint64_t *values, size_t n, double out[3]) {
    qsort(values, n, sizeof *values, compare_u64);
    out[0] = percentile(values, n, 50) / 1e6;
    out[1] = percentile(values, n, 99) / 1e6;
    out[2] = n ? values[n - 1] / 1e6 : 0.0;
}

int main(int argc, char **argv) {
    const char *tokens_file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--h2")) { h2 = 1; continue; }
        if (!v) { fprintf(stderr, "missing value for %s\n", a); return 64; }
        if (!strcmp(a, "--port") || !strcmp(a, "--ports")) {
            port_count = 0;
            for (const char *p = v; *p && port_count < MAX_PORTS; ) {
                ports[port_count++] = atoi(p);
                const char *comma = strchr(p, ',');
                if (!comma) break;
                p = comma + 1;
            }
        }
        else if (!strcmp(a, "--path")) path = v;
        else if (!strcmp(a, "--clients")) clients = atoi(v);
        else if (!strcmp(a, "--processes")) processes = atoi(v);
        else if (!strcmp(a, "--seconds")) seconds = atoi(v);
        else if (!strcmp(a, "--interval")) interval_s = atof(v);
        else if (!strcmp(a, "--server-pid")) server_pid = atoi(v);
        else if (!strcmp(a, "--connect-burst")) burst = atoi(v);
        else if (!strcmp(a, "--admit-window")) admit_window = atoi(v);
        else if (!strcmp(a, "--switch-after")) switch_after = atof(v);
        else if (!strcmp(a, "--streams-per-connection")) streams_per_connection = atoi(v);
        else if (!strcmp(a, "--h2-window")) h2_window = atoi(v);
        else if (!strcmp(a, "--tokens-file")) tokens_file = v;
        else if (!strcmp(a, "--scheduling")) {
            if (!strcmp(v, "batch")) batch_scheduling = 1;
            else if (!strcmp(v, "normal")) batch_scheduling = 0;
            else { fprintf(stderr, "--scheduling must be batch or normal, not %s\n", v); return 64; }
        }
        else { fprintf(stderr, "unknown flag %s\n", a); return 64; }
        i++;
    }
    int ports_ok = port_count > 0;
    for (int i = 0; i < port_count; i++) if (ports[i] <= 0 || ports[i] > 65535) ports_ok = 0;
    if (!ports_ok || clients <= 0 || processes <= 0 || seconds <= 0 || seconds > 3600 || strlen(path) > 200) {
        fprintf(stderr, "usage: sse-load --port N|--ports N,M,... [--clients N] [--processes N] [--seconds 1-3600] [--interval S] "
                        "[--server-pid PID] [--switch-after S] [--h2 [--streams-per-connection N] [--h2-window BYTES]] "
                        "[--tokens-file PATH] [--admit-window N]\n");
        return 64;
    }
    if (h2 && (streams_per_connection < 1 || streams_per_connection > 1000 || h2_window < 2 || switch_after >= 0)) {
        fprintf(stderr, "--h2 needs --streams-per-connection 1-1000 and --h2-window 2-2147483647, and does not take --switch-after\n");
        return 64;
    }
    if (admit_window < 0 || (admit_window > 0 && h2)) {
        fprintf(stderr, "--admit-window takes a count of at least 1 (0: off), and only without --h2\n");
        return 64;
    }
    if (tokens_file) tokens = load_tokens(tokens_file, clients);
    signal(SIGPIPE, SIG_IGN);
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    if (processes > 256) processes = 256;
    /* HTTP/1.1: a worker's share of subscribers, one connection each. --h2: its share of connections,
     * each carrying --streams-per-connection subscribers (the last one fewer when they do not divide). */
    int links_total = h2 ? (clients + streams_per_connection - 1) / streams_per_connection : clients;
    if (processes > links_total) processes = links_total;
    int per_worker = (links_total + processes - 1) / processes;
    if ((rlim_t)per_worker + 64 > limit.rlim_cur) {
        fprintf(stderr, "%d connections per process exceed the file limit %llu: use more --processes\n",
                per_worker, (unsigned long long)limit.rlim_cur);
        return 64;
    }
    char directory[] = "/tmp/sse-load.XXXXXX";
    if (!mkdtemp(directory)) { perror("mkdtemp"); return 1; }
    /* Connecting gets up to 60 s, then each worker streams for `seconds`; the deadline bounds both. */
    uint64_t start = now_ns(), deadline = start + (uint64_t)(seconds + 65) * 1000000000ull;
    int pipes[256][2];
    pid_t pids[256];
    for (int w = 0; w < processes; w++) {
        int count = w == processes - 1 ? links_total - per_worker * (processes - 1) : per_worker;
        if (pipe(pipes[w]) != 0) { perror("pipe"); return 1; }
        pids[w] = fork();
        if (pids[w] == 0) {
            dup2(pipes[w][1], 1);
            char samples[96];
            snprintf(samples, sizeof samples, "%s/%d.bin", directory, w);
            if (!h2) _exit(worker_main(w, per_worker * w, count, samples, deadline));
            int first_stream = per_worker * w * streams_per_connection;
            int streams = w == processes - 1 ? clients - first_stream : count * streams_per_connection;
            _exit(h2_worker_main(w, per_worker * w, count, first_stream, streams, samples, deadline));
        }
        close(pipes[w][1]);
    }
    long rss_peak = -1;
    int reaped[256] = {0};
    /* The server's CPU (utime + stime, clock ticks) every 250 ms, to take the measured window's share. */
    size_t cpu_count = 0, cpu_capacity = 4096;
    uint64_t *cpu_at = malloc(cpu_capacity * sizeof *cpu_at);
    double *cpu_s = malloc(cpu_capacity * sizeof *cpu_s);
    while (now_ns() < deadline + 5000000000ull) {
        long rss = server_pid ? rss_kb("VmRSS:") : -1;
        if (rss > rss_peak) rss_peak = rss;
        double cpu = server_pid ? server_cpu_s() : -1;
        if (cpu >= 0 && cpu_count < cpu_capacity) { cpu_at[cpu_count] = now_ns(); cpu_s[cpu_count++] = cpu; }
        int alive = 0;
        for (int w = 0; w < processes; w++) {
            if (reaped[w]) continue;
            if (waitpid(pids[w], NULL, WNOHANG) == 0) alive++; else reaped[w] = 1;
        }
        if (!alive) break;
        usleep(250000);
    }
    long hwm = server_pid ? rss_kb("VmHWM:") : -1;
    int held = 0, still_open = 0, failed = 0, closed_early = 0, reconnected = 0;
    long missed = 0, duplicated = 0;
    unsigned long long turn_p99 = 0, turn_max = 0;
    int resets = 0, goaways = 0, all_settled = 1, refused_503 = 0;
    uint64_t window_from = 0, window_to = UINT64_MAX, last_held = 0;
    for (int w = 0; w < processes; w++) {
        FILE *f = fdopen(pipes[w][0], "r");
        int h = 0, o = 0, fl = 0, ce = 0, rc = 0, rs = 0, ga = 0, r5 = 0; long m = 0, d = 0;
        unsigned long long p = 0, x = 0, settled = 0, ended = 0, lh = 0;
        if (f && fscanf(f, "%d %d %d %d %d %ld %ld %llu %llu %d %d %llu %llu %d %llu", &h, &o, &fl, &ce, &rc, &m, &d, &p, &x,
                        &rs, &ga, &settled, &ended, &r5, &lh) == 15) {
            refused_503 += r5;
            if (lh > last_held) last_held = lh;
            held += h; still_open += o; failed += fl; closed_early += ce; reconnected += rc; missed += m; duplicated += d;
            resets += rs; goaways += ga;
            if (p > turn_p99) turn_p99 = p;
            if (x > turn_max) turn_max = x;
            if (settled == 0) all_settled = 0;
            if (settled > window_from) window_from = settled;
            if (ended < window_to) window_to = ended;
        } else {
            all_settled = 0;
        }
        if (f) fclose(f);
        if (!reaped[w]) { kill(pids[w], SIGKILL); waitpid(pids[w], NULL, 0); }
    }
    struct rusage usage;
    getrusage(RUSAGE_CHILDREN, &usage);
    double client_cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    /* Merge the samples and the per-subscriber counts. */
    size_t total = 0, capacity = 1 << 20;
    struct sample *all = malloc(capacity * sizeof *all);
    long *counts = malloc((size_t)clients * sizeof *counts);
    size_t counted = 0;
    for (int w = 0; w < processes; w++) {
        char name[128];
        snprintf(name, sizeof name, "%s/%d.bin", directory, w);
        FILE *f = fopen(name, "rb");
        if (f) {
            struct sample s;
            while (fread(&s, sizeof s, 1, f) == 1) {
                if (total == capacity) { capacity *= 2; all = realloc(all, capacity * sizeof *all); }
                all[total++] = s;
            }
            fclose(f);
            unlink(name);
        }
        snprintf(name, sizeof name, "%s/%d.bin.counts", directory, w);
        f = fopen(name, "rb");
        if (f) {
            long value;
            while (counted < (size_t)clients && fread(&value, sizeof value, 1, f) == 1) counts[counted++] = value;
            fclose(f);
            unlink(name);
        }
    }
    rmdir(directory);
    long events_max = 0, events_min = counted ? counts[0] : 0, short_of_max = 0;
    for (size_t i = 0; i < counted; i++) {
        if (counts[i] > events_max) events_max = counts[i];
        if (counts[i] < events_min) events_min = counts[i];
    }
    for (size_t i = 0; i < counted; i++) if (counts[i] < events_max) short_of_max++;
    /* Lag from the stamps; grid lag for ticks. */
    uint64_t *stamped = malloc((total ? total : 1) * sizeof *stamped), *grid = malloc((total ? total : 1) * sizeof *grid);
    size_t stamped_n = 0, grid_n = 0;
    uint64_t step = (uint64_t)(interval_s * 1e9);
    int64_t origin = INT64_MAX;
    for (size_t i = 0; i < total; i++) {
        if (all[i].stamp_lag_ns >= 0) stamped[stamped_n++] = (uint64_t)all[i].stamp_lag_ns;
        if (all[i].tick >= 0) {
            int64_t o = (int64_t)all[i].mono_ns - all[i].tick * (int64_t)step;
            if (o < origin) origin = o;
        }
    }
    for (size_t i = 0; i < total; i++)
        if (all[i].tick >= 0) grid[grid_n++] = (uint64_t)((int64_t)all[i].mono_ns - (origin + all[i].tick * (int64_t)step));
    /* Server CPU per delivery inside the window every worker was settled in (see the top comment). */
    /* Lag inside that window too: the steady state, without the ticks that met the connecting. */
    size_t window_deliveries = 0, window_stamped = 0;
    double window_s = 0, window_cpu = -1, window_lag[3] = { 0, 0, 0 };
    uint64_t *window_lags = malloc((total ? total : 1) * sizeof *window_lags);
    if (all_settled && window_to > window_from) {
        window_s = (window_to - window_from) / 1e9;
        for (size_t i = 0; i < total; i++) {
            if (all[i].mono_ns < window_from || all[i].mono_ns >= window_to) continue;
            window_deliveries++;
            if (all[i].stamp_lag_ns >= 0) window_lags[window_stamped++] = (uint64_t)all[i].stamp_lag_ns;
        }
        window_cpu = cpu_between(cpu_at, cpu_s, cpu_count, window_from, window_to);
        percentiles_ms(window_lags, window_stamped, window_lag);
    }
    /* Subscribers answered 200 per second, from the start to the last such answer (see the top comment). */
    double subscribe_s = last_held > start ? (last_held - start) / 1e9 : 0;
    double subscribe_rate = subscribe_s > 0 ? held / subscribe_s : 0;
    double lag[3], grid_lag[3];
    percentiles_ms(stamped, stamped_n, lag);
    percentiles_ms(grid, grid_n, grid_lag);
    printf("{\"n\": %d, \"processes\": %d, \"held\": %d, \"reconnected\": %d, \"open_at_end\": %d, \"failed\": %d, "
           "\"closed_early\": %d, \"events\": %zu, \"events_per_client_min\": %ld, \"events_per_client_max\": %ld, "
           "\"clients_short_of_max\": %ld, \"missed\": %ld, \"duplicated\": %ld, "
           "\"stamped\": %zu, \"lag_p50_ms\": %.1f, \"lag_p99_ms\": %.1f, \"lag_max_ms\": %.1f, "
           "\"grid_lag_p50_ms\": %.1f, \"grid_lag_p99_ms\": %.1f, \"grid_lag_max_ms\": %.1f, "
           "\"rss_peak_mb\": %.1f, \"rss_hwm_mb\": %.1f, \"client_turn_p99_ms\": %.1f, \"client_turn_max_ms\": %.1f, "
           "\"client_cpu_s\": %.2f, \"protocol\": \"%s\", \"connections\": %d, \"resets\": %d, \"goaways\": %d, "
           "\"window_s\": %.2f, \"window_deliveries\": %zu, \"server_cpu_window_s\": %.2f, \"server_cpu_us_per_delivery\": %.3f, "
           "\"window_lag_p50_ms\": %.1f, \"window_lag_p99_ms\": %.1f, \"window_lag_max_ms\": %.1f, "
           "\"refused_503\": %d, \"subscribe_s\": %.3f, \"subscribe_rate_per_s\": %.1f, \"tokens\": %s}\n",
           clients, processes, held, reconnected, still_open, failed, closed_early, total, events_min, events_max,
           short_of_max, missed, duplicated, stamped_n, lag[0], lag[1], lag[2], grid_lag[0], grid_lag[1], grid_lag[2],
           rss_peak / 1024.0, hwm / 1024.0, turn_p99 / 1e6, turn_max / 1e6, client_cpu, h2 ? "h2" : "h1", links_total,
           resets, goaways, window_s, window_deliveries, window_cpu,
           window_cpu >= 0 && window_deliveries ? window_cpu * 1e6 / (double)window_deliveries : -1.0,
           window_lag[0], window_lag[1], window_lag[2], refused_503, subscribe_s, subscribe_rate, tokens ? "true" : "false");
    return 0;
}
