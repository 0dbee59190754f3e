// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/* The /events subscribers of a failover benchmark (issue 36, run by scripts/scale/failover.py): holds
 * --clients subscribers of `GET /events` (connection i to the (i mod P)-th of --ports), each reconnecting
 * with `Last-Event-ID` as EventSource does when its stream ends (after 200 ms), until SIGTERM; then reads
 * the failovers' times from --failovers-file and prints one JSON line per subscriber.
 *
 * One epoll thread; every connection binds its own source address 127.0.B.C (IP_BIND_ADDRESS_NO_PORT), as
 * sse-load does, so ephemeral ports never run out. Run several processes for more subscribers than one
 * process's descriptors (the script does).
 *
 * Per subscriber:
 *   - silent gaps: an event whose id is above the previous id + 1 with no `event: reset` between (every
 *     event is read: the feed is not filtered, so ids are consecutive unless some were lost);
 *   - resets, each with its time, and the time of the first event after it;
 *   - arrivals in 10 ms slots, so "the first event after time T" is known for any T.
 * Across subscribers (this process): ids naming two events — an id whose data differs from the data
 * first seen under it (an FNV-1a hash of the data line per id).
 * --failovers-file: one line per failover, "<kill unix time> <promotion unix time>". For failover k, a
 * subscriber's resume time is from the kill to its first event after its first reset in [kill k, kill k+1),
 * or, without a reset there, to its first event after the promotion; its resets in that span are counted.
 *
 * usage: sse-failover --ports N,M,... --clients N --failovers-file PATH [--path /events] [--offset K]
 * --offset K numbers this process's subscribers from K (and spreads them over the ports from there).
 * Loopback only; runs until SIGTERM (bounded by the caller), at most --max-seconds (default 1800). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif
#define SLOT_MS 10
#define MAX_RESETS 256
#define BUFFER 65536

typedef struct {
    int fd, port, index;
    char buffer[BUFFER];
    size_t used;
    int headers_done;
    long last_id;           /* -1 before the first event */
    long pending_id;        /* fields of the message being read */
    int pending_reset, has_id;
    uint64_t pending_hash;
    int told;               /* a reset came since the last event */
    long gaps, events;
    int resets;
    double reset_at[MAX_RESETS], first_after_reset[MAX_RESETS];
    uint8_t *slots;         /* arrivals, one bit per SLOT_MS since start */
    double reconnect_at;    /* > 0 while waiting to reconnect */
} Subscriber;

static double start_time, max_seconds = 1800;
static long slot_count;
static volatile sig_atomic_t stopping = 0;
static int epoll_fd;
static const char *path = "/events";

/* ids -> hash of their data, open addressing; ids are positive. */
static long *table_ids;
static uint64_t *table_hashes;
static size_t table_size = 1 << 21;
static long reused = 0, distinct = 0;

static double now_unix(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void on_term(int signal_number) { (void)signal_number; stopping = 1; }

static uint64_t fnv(const char *text, size_t length) {
    uint64_t hash = 1469598103934665603ULL;
    for (size_t i = 0; i < length; i++) { hash ^= (uint8_t)text[i]; hash *= 1099511628211ULL; }
    return hash;
}

static void check_id(long id, uint64_t hash) {
    size_t at = (size_t)id * 11400714819323198485ULL % table_size;
    while (table_ids[at] != 0 && table_ids[at] != id) at = (at + 1) % table_size;
    if (table_ids[at] == 0) {
        if ((size_t)distinct * 2 > table_size) return; /* full enough: stop recording, never misjudge */
        table_ids[at] = id;
        table_hashes[at] = hash;
        distinct++;
    } else if (table_hashes[at] != hash) {
        reused++;
        table_hashes[at] = hash; /* count each change once */
    }
}

static int open_connection(Subscriber *s) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    struct sockaddr_in source = {.sin_family = AF_INET};
    source.sin_addr.s_addr = htonl((127u << 24) | ((1 + s->index / 250 % 250) << 8) | (1 + s->index % 250));
    if (bind(fd, (struct sockaddr *)&source, sizeof source) != 0) { close(fd); return -1; }
    struct sockaddr_in target = {.sin_family = AF_INET, .sin_port = htons(s->port)};
    target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&target, sizeof target) != 0 && errno != EINPROGRESS) { close(fd); return -1; }
    s->fd = fd;
    s->used = 0;
    s->headers_done = 0;
    s->has_id = 0;
    s->pending_reset = 0;
    s->pending_hash = 0;
    struct epoll_event event = {.events = EPOLLOUT | EPOLLIN, .data.ptr = s};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
    return 0;
}

static void close_connection(Subscriber *s) {
    if (s->fd >= 0) { epoll_ctl(epoll_fd, EPOLL_CTL_DEL, s->fd, NULL); close(s->fd); }
    s->fd = -1;
    s->reconnect_at = now_unix() + 0.2;
}

static void send_request(Subscriber *s) {
    char request[512], resume[64] = "";
    if (s->last_id >= 0) snprintf(resume, sizeof resume, "Last-Event-ID: %ld\r\n", s->last_id);
    int length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n%s\r\n", path, resume);
    if (write(s->fd, request, length) != length) { close_connection(s); return; }
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = s};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, s->fd, &event);
}

static void message_done(Subscriber *s, double at) {
    if (!s->has_id) return;
    long id = s->pending_id;
    if (s->pending_reset) {
        if (s->resets < MAX_RESETS) { s->reset_at[s->resets] = at; s->first_after_reset[s->resets] = 0; }
        s->resets++;
        s->told = 1;
    } else {
        if (s->last_id >= 0 && id > s->last_id + 1 && !s->told) s->gaps++;
        s->told = 0;
        s->events++;
        if (s->resets > 0 && s->resets <= MAX_RESETS && s->first_after_reset[s->resets - 1] == 0) s->first_after_reset[s->resets - 1] = at;
        long slot = (long)((at - start_time) * 1000 / SLOT_MS);
        if (slot >= 0 && slot < slot_count) s->slots[slot / 8] |= 1 << (slot % 8);
        check_id(id, s->pending_hash);
    }
    s->last_id = id;
}

/* One line of the body (chunk-size lines and the chunk framing's empty lines hold no field). */
static void body_line(Subscriber *s, const char *line, size_t length, double at) {
    if (length == 0) {
        message_done(s, at);
        s->has_id = 0;
        s->pending_reset = 0;
        s->pending_hash = 0;
    } else if (length > 4 && memcmp(line, "id: ", 4) == 0) {
        s->pending_id = strtol(line + 4, NULL, 10);
        s->has_id = 1;
    } else if (length == 12 && memcmp(line, "event: reset", 12) == 0) {
        s->pending_reset = 1;
    } else if (length > 6 && memcmp(line, "data: ", 6) == 0) {
        s->pending_hash = fnv(line + 6, length - 6);
    }
}

static void readable(Subscriber *s) {
    for (;;) {
        ssize_t got = read(s->fd, s->buffer + s->used, BUFFER - s->used);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) { close_connection(s); return; }
        if (got < 0) return;
        double at = now_unix();
        s->used += got;
        size_t start = 0;
        for (size_t i = 0; i < s->used; i++) {
            if (s->buffer[i] != '\n') continue;
            size_t length = i - start;
            if (length > 0 && s->buffer[start + length - 1] == '\r') length--;
            const char *line = s->buffer + start;
            if (!s->headers_done) {
                if (length == 0) s->headers_done = 1;
            } else {
                /* A chunk-size line (hex digits only) is framing, not an SSE line: skip it; an empty
                 * SSE line stays a message end. */
                size_t hex = 0;
                while (hex < length && ((line[hex] >= '0' && line[hex] <= '9') || (line[hex] >= 'a' && line[hex] <= 'f'))) hex++;
                if (!(length > 0 && hex == length)) body_line(s, line, length, at);
            }
            start = i + 1;
        }
        memmove(s->buffer, s->buffer + start, s->used - start);
        s->used -= start;
        if (s->used == BUFFER) { close_connection(s); return; }
    }
}

static double first_arrival(const Subscriber *s, double after) {
    long slot = (long)((after - start_time) * 1000 / SLOT_MS) + 1;
    for (; slot >= 0 && slot < slot_count; slot++)
        if (s->slots[slot / 8] & (1 << (slot % 8))) return start_time + slot * SLOT_MS / 1000.0;
    return 0;
}

int main(int argc, char **argv) {
    char *ports_text = NULL, *failovers_file = NULL;
    int clients = 0, offset = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--ports")) ports_text = argv[i + 1];
        else if (!strcmp(argv[i], "--clients")) clients = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--failovers-file")) failovers_file = argv[i + 1];
        else if (!strcmp(argv[i], "--path")) path = argv[i + 1];
        else if (!strcmp(argv[i], "--offset")) offset = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-seconds")) max_seconds = atof(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 64; }
    }
    if (!ports_text || clients <= 0 || !failovers_file) {
        fprintf(stderr, "usage: sse-failover --ports N,M,... --clients N --failovers-file PATH [--path /events] [--offset K]\n");
        return 64;
    }
    int ports[64], port_count = 0;
    for (char *part = strtok(ports_text, ","); part && port_count < 64; part = strtok(NULL, ",")) ports[port_count++] = atoi(part);
    signal(SIGTERM, on_term);
    signal(SIGPIPE, SIG_IGN);
    start_time = now_unix();
    slot_count = (long)(max_seconds * 1000 / SLOT_MS) + 1;
    table_ids = calloc(table_size, sizeof *table_ids);
    table_hashes = calloc(table_size, sizeof *table_hashes);
    epoll_fd = epoll_create1(0);
    Subscriber *subscribers = calloc(clients, sizeof *subscribers);
    for (int i = 0; i < clients; i++) {
        Subscriber *s = &subscribers[i];
        s->index = offset + i;
        s->port = ports[(offset + i) % port_count];
        s->last_id = -1;
        s->fd = -1;
        s->slots = calloc(slot_count / 8 + 1, 1);
        if (open_connection(s) != 0) s->reconnect_at = now_unix() + 0.2;
    }
    struct epoll_event events[512];
    while (!stopping && now_unix() - start_time < max_seconds) {
        int ready = epoll_wait(epoll_fd, events, 512, 50);
        for (int i = 0; i < ready; i++) {
            Subscriber *s = events[i].data.ptr;
            if (s->fd < 0) continue;
            if (events[i].events & (EPOLLERR | EPOLLHUP) && !(events[i].events & EPOLLIN)) { close_connection(s); continue; }
            if (events[i].events & EPOLLOUT) send_request(s);
            else if (events[i].events & EPOLLIN) readable(s);
        }
        double now = now_unix();
        for (int i = 0; i < clients; i++) {
            Subscriber *s = &subscribers[i];
            if (s->fd < 0 && s->reconnect_at > 0 && now >= s->reconnect_at) {
                s->reconnect_at = 0;
                if (open_connection(s) != 0) s->reconnect_at = now + 0.2;
            }
        }
    }
    double kills[256], promotions[256];
    int failovers = 0;
    FILE *file = fopen(failovers_file, "r");
    while (file && failovers < 256 && fscanf(file, "%lf %lf", &kills[failovers], &promotions[failovers]) == 2) failovers++;
    if (file) fclose(file);
    printf("{\"process\":{\"distinct_ids\":%ld,\"ids_naming_two_events\":%ld,\"clients\":%d}}\n", distinct, reused, clients);
    for (int i = 0; i < clients; i++) {
        Subscriber *s = &subscribers[i];
        printf("{\"port\":%d,\"events\":%ld,\"gaps\":%ld,\"resets\":%d,\"failovers\":[", s->port, s->events, s->gaps, s->resets);
        for (int k = 0; k < failovers; k++) {
            double end = k + 1 < failovers ? kills[k + 1] : 1e18, resumed = 0;
            int resets = 0;
            for (int r = 0; r < s->resets && r < MAX_RESETS; r++) {
                if (s->reset_at[r] < kills[k] || s->reset_at[r] >= end) continue;
                if (resets++ == 0) resumed = s->first_after_reset[r] > 0 ? s->first_after_reset[r] : first_arrival(s, s->reset_at[r]);
            }
            if (resets == 0) resumed = first_arrival(s, promotions[k]);
            printf("%s[%d,%.3f]", k ? "," : "", resets, resumed > 0 ? resumed - kills[k] : -1.0);
        }
        printf("]}\n");
    }
    return 0;
}
