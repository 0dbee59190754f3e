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
 * usage: sse-load (--port N | --ports N,M,...) [--path /events] [--clients 50000] [--processes 4]
 *                 [--seconds 60] [--interval 1] [--server-pid PID] [--connect-burst 256]
 *                 [--switch-after T]
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
static int clients = 50000, processes = 4, seconds = 60, burst = 256, server_pid = 0;
static double interval_s = 1.0, switch_after = -1;
static int batch_scheduling = 1;
static const char *path = "/events";

/* One event as read: its tick number (-1: not a tick), arrival on both clocks, stamp lag (-1: none). */
struct sample { int64_t tick; uint64_t mono_ns; int64_t stamp_lag_ns; };
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
    int connecting = 0, connect_failed = 0, held = 0, closed_early = 0, reconnected = 0, switched = 0;
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
        while (queue_head < queue_tail && connecting < burst && now_ns() < connect_deadline) {
            int index = queue[queue_head++];
            struct connection *c = &connections[index];
            int fd = open_connection(first + index, worker, ports[c->port_index]);
            if (fd < 0) { c->state = 3; c->fd = -1; connect_failed++; continue; }
            c->fd = fd;
            c->state = 0;
            struct epoll_event e = { .events = EPOLLOUT | EPOLLIN, .data.ptr = c };
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e);
            connecting++;
        }
        uint64_t t = now_ns();
        uint64_t left = end > t ? end - t : 0;
        int timeout = (int)(left / 1000000ull) + 1;
        if ((queue_head < queue_tail || switch_at != UINT64_MAX) && timeout > 10) timeout = 10;
        int ready = epoll_wait(epoll, events, 512, timeout);
        uint64_t turn_start = now_ns();
        for (int i = 0; i < ready; i++) {
            struct connection *c = events[i].data.ptr;
            if (c->state == 0) {
                int error = 0; socklen_t length = sizeof error;
                getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &length);
                connecting--;
                char request[320];
                char resume[64] = "";
                if (c->last_id >= 0) snprintf(resume, sizeof resume, "Last-Event-ID: %lld\r\n", (long long)c->last_id);
                int request_length = snprintf(request, sizeof request,
                    "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n%s\r\n",
                    path, ports[c->port_index], resume);
                if (error != 0 || write(c->fd, request, (size_t)request_length) != request_length) {
                    close(c->fd); c->state = 3; connect_failed++; continue;
                }
                c->state = 1;
                struct epoll_event e = { .events = EPOLLIN, .data.ptr = c };
                epoll_ctl(epoll, EPOLL_CTL_MOD, c->fd, &e);
                continue;
            }
            if (c->state != 1 && c->state != 2) continue;
            for (;;) {
                ssize_t n = read(c->fd, buffer, sizeof buffer);
                if (n < 0 && errno == EAGAIN) break;
                if (n <= 0) { close(c->fd); if (c->state == 2) closed_early++; else connect_failed++; c->state = 3; break; }
                uint64_t mono = now_ns(), real = clock_ns(CLOCK_REALTIME);
                for (ssize_t j = 0; j < n; j++) {
                    char ch = buffer[j];
                    if (ch != '\n') {
                        if (ch != '\r' && c->line_length < (int)sizeof c->line - 1) c->line[c->line_length++] = ch;
                        continue;
                    }
                    c->line[c->line_length] = 0;
                    if (c->state == 1) {
                        if (c->line_length == 0) {
                            c->state = 2;
                            if (c->last_id >= 0) reconnected++; else held++;
                        } else if (strncmp(c->line, "HTTP/1.", 7) == 0 && strncmp(c->line + 9, "200", 3) != 0) {
                            c->state = 3; close(c->fd); connect_failed++; break;
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
                if (c->state == 3 || n < (ssize_t)sizeof buffer) break;
            }
        }
        if (ready > 0) {
            if (turns == turn_capacity) { turn_capacity *= 2; turn_ns = realloc(turn_ns, turn_capacity * sizeof *turn_ns); }
            turn_ns[turns++] = now_ns() - turn_start;
        }
    }
    int still_open = 0;
    long events_min = -1, events_max = 0, missed = 0, duplicated = 0;
    for (int i = 0; i < count; i++) {
        struct connection *c = &connections[i];
        if (c->state == 2) still_open++;
        if (events_min < 0 || c->events < events_min) events_min = c->events;
        if (c->events > events_max) events_max = c->events;
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
    printf("%d %d %d %d %d %ld %ld %llu %llu\n", held, still_open, connect_failed, closed_early, reconnected,
           missed, duplicated, (unsigned long long)percentile(turn_ns, turns, 99),
           (unsigned long long)(turns ? turn_ns[turns - 1] : 0));
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

static void percentiles_ms(uint64_t *values, size_t n, double out[3]) {
    qsort(values, n, sizeof *values, compare_u64);
    out[0] = percentile(values, n, 50) / 1e6;
    out[1] = percentile(values, n, 99) / 1e6;
    out[2] = n ? values[n - 1] / 1e6 : 0.0;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
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
        else if (!strcmp(a, "--switch-after")) switch_after = atof(v);
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
                        "[--server-pid PID] [--switch-after S]\n");
        return 64;
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    if (processes > 256) processes = 256;
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
    for (int w = 0; w < processes; w++) {
        int count = w == processes - 1 ? clients - per_worker * (processes - 1) : per_worker;
        if (pipe(pipes[w]) != 0) { perror("pipe"); return 1; }
        pids[w] = fork();
        if (pids[w] == 0) {
            dup2(pipes[w][1], 1);
            char samples[96];
            snprintf(samples, sizeof samples, "%s/%d.bin", directory, w);
            _exit(worker_main(w, per_worker * w, count, samples, deadline));
        }
        close(pipes[w][1]);
    }
    long rss_peak = -1;
    int reaped[256] = {0};
    while (now_ns() < deadline + 5000000000ull) {
        long rss = server_pid ? rss_kb("VmRSS:") : -1;
        if (rss > rss_peak) rss_peak = rss;
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
    for (int w = 0; w < processes; w++) {
        FILE *f = fdopen(pipes[w][0], "r");
        int h = 0, o = 0, fl = 0, ce = 0, rc = 0; long m = 0, d = 0; unsigned long long p = 0, x = 0;
        if (f && fscanf(f, "%d %d %d %d %d %ld %ld %llu %llu", &h, &o, &fl, &ce, &rc, &m, &d, &p, &x) == 9) {
            held += h; still_open += o; failed += fl; closed_early += ce; reconnected += rc; missed += m; duplicated += d;
            if (p > turn_p99) turn_p99 = p;
            if (x > turn_max) turn_max = x;
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
    double lag[3], grid_lag[3];
    percentiles_ms(stamped, stamped_n, lag);
    percentiles_ms(grid, grid_n, grid_lag);
    printf("{\"n\": %d, \"processes\": %d, \"held\": %d, \"reconnected\": %d, \"open_at_end\": %d, \"failed\": %d, "
           "\"closed_early\": %d, \"events\": %zu, \"events_per_client_min\": %ld, \"events_per_client_max\": %ld, "
           "\"clients_short_of_max\": %ld, \"missed\": %ld, \"duplicated\": %ld, "
           "\"stamped\": %zu, \"lag_p50_ms\": %.1f, \"lag_p99_ms\": %.1f, \"lag_max_ms\": %.1f, "
           "\"grid_lag_p50_ms\": %.1f, \"grid_lag_p99_ms\": %.1f, \"grid_lag_max_ms\": %.1f, "
           "\"rss_peak_mb\": %.1f, \"rss_hwm_mb\": %.1f, \"client_turn_p99_ms\": %.1f, \"client_turn_max_ms\": %.1f, "
           "\"client_cpu_s\": %.2f}\n",
           clients, processes, held, reconnected, still_open, failed, closed_early, total, events_min, events_max,
           short_of_max, missed, duplicated, stamped_n, lag[0], lag[1], lag[2], grid_lag[0], grid_lag[1], grid_lag[2],
           rss_peak / 1024.0, hwm / 1024.0, turn_p99 / 1e6, turn_max / 1e6, client_cpu);
    return 0;
}
