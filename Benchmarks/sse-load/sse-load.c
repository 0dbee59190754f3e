/* SSE capacity load client (issue 12): holds N subscribers of GET /events on a loopback server
 * for S seconds and measures how late each broadcast `data: tick K` arrives.
 *
 * Several worker processes (--processes), each a single epoll thread holding its share of the
 * connections; every connection binds its own source address in 127.0.1.1-127.0.250.250 (with
 * IP_BIND_ADDRESS_NO_PORT), so the 28k ephemeral ports of one source address never run out.
 * Workers write (K, arrival ns) samples to a temporary file; the parent merges them.
 *
 * Lag: the server broadcasts tick K once per --interval seconds on a fixed grid. The grid's origin
 * is estimated from all samples of all workers as min over samples of (arrival - K * interval)
 * (CLOCK_MONOTONIC is shared by every process), so lag = arrival - (origin + K * interval) >= 0:
 * how much later than the earliest-delivered tick's pace each event arrived.
 * Client lateness: the time each worker spends in one turn of its loop (after epoll_wait returns,
 * before it waits again), p99 and max: an event can be stamped at most that much late by the client.
 *
 * usage: sse-load --port N [--path /events] [--clients 50000] [--processes 4] [--seconds 60]
 *                 [--interval 1] [--server-pid PID] [--connect-burst 256]
 * Prints one JSON line. Loopback only (127.0.0.1); bounded by --seconds plus 60 s of connecting. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

static int port = 0, clients = 50000, processes = 4, seconds = 60, burst = 256, server_pid = 0;
static double interval_s = 1.0;
static const char *path = "/events";

struct sample { uint32_t tick; uint32_t pad; uint64_t ns; };
struct connection {
    int fd;
    int state;          /* 0 connecting, 1 headers, 2 streaming, 3 closed */
    int got_events;
    int line_length;
    char line[96];      /* the current line; longer ones are only checked for their prefix */
};

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t percentile(uint64_t *values, size_t n, double p) {
    if (n == 0) return 0;
    size_t index = (size_t)(p / 100.0 * (double)(n - 1) + 0.5);
    return values[index < n ? index : n - 1];
}

static int open_connection(int index, int worker) {
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

/* One worker: connects its share, streams for `seconds`, writes samples, reports counts on stdout. */
static int worker_main(int worker, int count, const char *samples_path, uint64_t deadline) {
    struct connection *connections = calloc((size_t)count, sizeof *connections);
    int epoll = epoll_create1(0);
    FILE *out = fopen(samples_path, "wb");
    if (!connections || epoll < 0 || !out) return 1;
    char request[256];
    int request_length = snprintf(request, sizeof request,
        "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n\r\n", path, port);
    int opened = 0, connecting = 0, connect_failed = 0, held = 0, closed_early = 0;
    size_t turn_capacity = 1 << 16, turns = 0;
    uint64_t *turn_ns = malloc(turn_capacity * sizeof *turn_ns);
    struct epoll_event events[512];
    static char buffer[65536];
    uint64_t connect_deadline = now_ns() + 60ull * 1000000000ull, end = deadline;
    int window_started = 0;

    while (now_ns() < end) {
        /* The measuring window: `seconds` from the moment this worker's connections are all set up. */
        if (!window_started && ((opened == count && connecting == 0) || now_ns() >= connect_deadline)) {
            window_started = 1;
            uint64_t window_end = now_ns() + (uint64_t)seconds * 1000000000ull;
            if (window_end < end) end = window_end;
        }
        /* Keep at most `burst` connects in flight until all are open (bounded by 60 s). */
        while (opened < count && connecting < burst && now_ns() < connect_deadline) {
            int fd = open_connection(opened, worker);
            struct connection *c = &connections[opened++];
            if (fd < 0) { c->state = 3; c->fd = -1; connect_failed++; continue; }
            c->fd = fd;
            struct epoll_event e = { .events = EPOLLOUT | EPOLLIN, .data.ptr = c };
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e);
            connecting++;
        }
        uint64_t t = now_ns();
        uint64_t left = end > t ? end - t : 0;
        int timeout = (int)(left / 1000000ull) + 1;
        if (opened < count && timeout > 10) timeout = 10;
        int ready = epoll_wait(epoll, events, 512, timeout);
        uint64_t turn_start = now_ns();
        for (int i = 0; i < ready; i++) {
            struct connection *c = events[i].data.ptr;
            if (c->state == 0) {
                int error = 0; socklen_t length = sizeof error;
                getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &length);
                connecting--;
                if (error != 0 || write(c->fd, request, (size_t)request_length) != request_length) {
                    close(c->fd); c->state = 3; connect_failed++; continue;
                }
                c->state = 1;
                struct epoll_event e = { .events = EPOLLIN, .data.ptr = c };
                epoll_ctl(epoll, EPOLL_CTL_MOD, c->fd, &e);
                continue;
            }
            for (;;) {
                ssize_t n = read(c->fd, buffer, sizeof buffer);
                if (n < 0 && errno == EAGAIN) break;
                if (n <= 0) { close(c->fd); if (c->state == 2) closed_early++; else connect_failed++; c->state = 3; break; }
                uint64_t stamp = now_ns();
                for (ssize_t j = 0; j < n; j++) {
                    char ch = buffer[j];
                    if (ch != '\n') {
                        if (ch != '\r' && c->line_length < (int)sizeof c->line - 1) c->line[c->line_length++] = ch;
                        continue;
                    }
                    c->line[c->line_length] = 0;
                    if (c->state == 1) {
                        if (c->line_length == 0) { c->state = 2; held++; }
                        else if (strncmp(c->line, "HTTP/1.", 7) == 0 && strncmp(c->line + 9, "200", 3) != 0) {
                            c->state = 3; close(c->fd); connect_failed++; break;
                        }
                    } else if (strncmp(c->line, "data: tick ", 11) == 0) {
                        struct sample s = { .tick = (uint32_t)strtoul(c->line + 11, NULL, 10), .ns = stamp };
                        fwrite(&s, sizeof s, 1, out);
                        c->got_events++;
                    }
                    c->line_length = 0;
                }
                if (c->state == 3 || n < (ssize_t)sizeof buffer) break;
            }
        }
        if (ready > 0) {
            if (turns == turn_capacity) { turn_capacity *= 2; turn_ns = realloc(turn_ns, turn_capacity * sizeof *turn_ns); }
            turn_ns[turns++] = now_ns() - turn_start;
        }
    }
    int still_open = 0;
    for (int i = 0; i < count; i++) if (connections[i].state == 2) still_open++;
    qsort(turn_ns, turns, sizeof *turn_ns, compare_u64);
    fclose(out);
    printf("%d %d %d %d %llu %llu\n", held, still_open, connect_failed, closed_early,
           (unsigned long long)percentile(turn_ns, turns, 99), (unsigned long long)(turns ? turn_ns[turns - 1] : 0));
    fflush(stdout);
    return 0;
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

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) { fprintf(stderr, "missing value for %s\n", a); return 64; }
        if (!strcmp(a, "--port")) port = atoi(v);
        else if (!strcmp(a, "--path")) path = v;
        else if (!strcmp(a, "--clients")) clients = atoi(v);
        else if (!strcmp(a, "--processes")) processes = atoi(v);
        else if (!strcmp(a, "--seconds")) seconds = atoi(v);
        else if (!strcmp(a, "--interval")) interval_s = atof(v);
        else if (!strcmp(a, "--server-pid")) server_pid = atoi(v);
        else if (!strcmp(a, "--connect-burst")) burst = atoi(v);
        else { fprintf(stderr, "unknown flag %s\n", a); return 64; }
        i++;
    }
    if (port <= 0 || clients <= 0 || processes <= 0 || seconds <= 0 || seconds > 3600) {
        fprintf(stderr, "usage: sse-load --port N [--clients N] [--processes N] [--seconds 1-3600] [--interval S] [--server-pid PID]\n");
        return 64;
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    int per_worker = (clients + processes - 1) / processes;
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
    if (processes > 256) processes = 256;
    for (int w = 0; w < processes; w++) {
        int count = w == processes - 1 ? clients - per_worker * (processes - 1) : per_worker;
        pipe(pipes[w]);
        pids[w] = fork();
        if (pids[w] == 0) {
            dup2(pipes[w][1], 1);
            char samples[96];
            snprintf(samples, sizeof samples, "%s/%d.bin", directory, w);
            _exit(worker_main(w, count, samples, deadline));
        }
        close(pipes[w][1]);
    }
    long rss_peak = -1;
    while (now_ns() < deadline + 5000000000ull) {
        long rss = server_pid ? rss_kb("VmRSS:") : -1;
        if (rss > rss_peak) rss_peak = rss;
        int alive = 0;
        for (int w = 0; w < processes; w++) if (pids[w] > 0 && waitpid(pids[w], NULL, WNOHANG) == 0) alive++;
        if (!alive) break;
        usleep(250000);
    }
    long hwm = server_pid ? rss_kb("VmHWM:") : -1;
    int held = 0, still_open = 0, failed = 0, closed_early = 0;
    unsigned long long turn_p99 = 0, turn_max = 0;
    for (int w = 0; w < processes; w++) {
        FILE *f = fdopen(pipes[w][0], "r");
        int h = 0, o = 0, fl = 0, ce = 0; unsigned long long p = 0, m = 0;
        if (f && fscanf(f, "%d %d %d %d %llu %llu", &h, &o, &fl, &ce, &p, &m) == 6) {
            held += h; still_open += o; failed += fl; closed_early += ce;
            if (p > turn_p99) turn_p99 = p;
            if (m > turn_max) turn_max = m;
        }
        if (f) fclose(f);
        kill(pids[w], SIGKILL);
        waitpid(pids[w], NULL, 0);
    }
    /* Merge the samples: the grid's origin first, then every lag against it. */
    size_t total = 0, capacity = 1 << 20;
    struct sample *all = malloc(capacity * sizeof *all);
    for (int w = 0; w < processes; w++) {
        char name[96];
        snprintf(name, sizeof name, "%s/%d.bin", directory, w);
        FILE *f = fopen(name, "rb");
        if (!f) continue;
        struct sample s;
        while (fread(&s, sizeof s, 1, f) == 1) {
            if (total == capacity) { capacity *= 2; all = realloc(all, capacity * sizeof *all); }
            all[total++] = s;
        }
        fclose(f);
        unlink(name);
    }
    rmdir(directory);
    uint64_t step = (uint64_t)(interval_s * 1e9);
    int64_t origin = INT64_MAX;
    for (size_t i = 0; i < total; i++) {
        int64_t o = (int64_t)all[i].ns - (int64_t)(all[i].tick * step);
        if (o < origin) origin = o;
    }
    uint64_t *lags = malloc((total ? total : 1) * sizeof *lags);
    for (size_t i = 0; i < total; i++) lags[i] = (uint64_t)((int64_t)all[i].ns - (origin + (int64_t)(all[i].tick * step)));
    qsort(lags, total, sizeof *lags, compare_u64);
    printf("{\"n\": %d, \"processes\": %d, \"held\": %d, \"open_at_end\": %d, \"failed\": %d, \"closed_early\": %d, "
           "\"events\": %zu, \"lag_p50_ms\": %.1f, \"lag_p99_ms\": %.1f, \"lag_max_ms\": %.1f, "
           "\"rss_peak_mb\": %.1f, \"rss_hwm_mb\": %.1f, \"client_turn_p99_ms\": %.1f, \"client_turn_max_ms\": %.1f}\n",
           clients, processes, held, still_open, failed, closed_early, total,
           percentile(lags, total, 50) / 1e6, percentile(lags, total, 99) / 1e6, total ? lags[total - 1] / 1e6 : 0.0,
           rss_peak / 1024.0, hwm / 1024.0, turn_p99 / 1e6, turn_max / 1e6);
    return 0;
}
