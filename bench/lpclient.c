/*
 * lpclient: the long-poll load client of the benchmarks (one process, one epoll loop).
 *
 *   lpclient longpoll --port P --pid PID --ids FILE [--per-session K] [--wait SECONDS]
 *       Opens sessions x K connections, each sending one long-poll GET
 *       (--lp-path, default /sessions/{id}/scenes/car?since={v}&wait={w}, where {v} is the
 *       version read first from --state-path, default /sessions/{id}/scenes/car). Waits until
 *       every request is written and the server's GET /metrics reports them parked
 *       (mvvm_parked_requests), samples the server's RSS and threads from /proc/PID/status,
 *       then sends one input per session (--trigger-path, default /sessions/{id}/scenes/car/input,
 *       the body that changes the car: Fiat when the state says Lamborghini, else Lamborghini)
 *       and measures, for each long-poll, the time from its session's input answer to its own.
 *
 *   lpclient stream --port P --pid PID --ids FILE [--per-session K] [--wait SECONDS]
 *       Opens sessions x K Server-Sent Events streams (--stream-path, default
 *       /sessions/{id}/scenes/car, sent with Accept: text/event-stream), one connection each,
 *       decodes their chunked bodies and SSE messages as they come, and reads each stream's
 *       first message (the current document; its id is the version the stream starts at). Waits
 *       until the server's GET /metrics reports them open (mvvm_open_streams), samples the
 *       server's RSS and threads, then sends one input per session (the trigger, as in longpoll)
 *       and measures, for each stream, the time from its session's input answer to the arrival
 *       of its next "event: state" message with an id above its first. Then closes them all and
 *       waits (up to --release-timeout seconds, default 30) for mvvm_open_streams to fall back
 *       to what it was before (the server notices a closed stream that waits only at its next
 *       check of the waiting streams).
 *
 *   lpclient create --port P --n N [--conns C] [--out FILE]
 *       POST /sessions N times over C keep-alive connections; writes the ids, one a line.
 *
 *   lpclient each --port P --ids FILE --path TEMPLATE [--method M] [--body B] [--conns C]
 *                 [--expect TEXT]
 *       One request per session id ({id} in the template); counts 2xx answers and the bodies
 *       that contain TEXT.
 *
 * Every mode ends with one line "RESULT key=value ..." for scripts. Common options: --host
 * (127.0.0.1). Responses are read by Content-Length (or to the close when there is none),
 * streams by their chunked encoding; writes and reads may be partial; keep-alive is used unless
 * the server says close.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- utilities */

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void die(const char *format, ...) {
    va_list list;
    va_start(list, format);
    fprintf(stderr, "lpclient: ");
    vfprintf(stderr, format, list);
    fprintf(stderr, "\n");
    va_end(list);
    exit(1);
}

static void *xmalloc(size_t size) {
    void *p = malloc(size ? size : 1);
    if (p == NULL) die("out of memory");
    return p;
}

static void *xcalloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p == NULL) die("out of memory");
    return p;
}

static char *xstrdup(const char *text) {
    char *copy = strdup(text);
    if (copy == NULL) die("out of memory");
    return copy;
}

/* Replaces {id}, {v} and {w} in a path template. */
static char *expand(const char *template, const char *id, const char *version, const char *wait) {
    size_t cap = strlen(template) + 256, len = 0;
    char *out = xmalloc(cap);
    for (const char *p = template; *p;) {
        const char *value = NULL;
        size_t skip = 1;
        if (strncmp(p, "{id}", 4) == 0) value = id, skip = 4;
        else if (strncmp(p, "{v}", 3) == 0) value = version, skip = 3;
        else if (strncmp(p, "{w}", 3) == 0) value = wait, skip = 3;
        size_t add = value ? strlen(value) : 1;
        if (len + add + 1 > cap) out = realloc(out, cap = (len + add + 1) * 2);
        if (out == NULL) die("out of memory");
        if (value) memcpy(out + len, value, add);
        else out[len] = *p;
        len += add;
        p += skip;
    }
    out[len] = 0;
    return out;
}

static char **read_lines(const char *path, long *count) {
    FILE *file = fopen(path, "r");
    if (file == NULL) die("cannot open %s: %s", path, strerror(errno));
    long cap = 1024, n = 0;
    char **lines = xmalloc(cap * sizeof *lines);
    char line[4096];
    while (fgets(line, sizeof line, file)) {
        size_t l = strlen(line);
        while (l > 0 && isspace((unsigned char)line[l - 1])) line[--l] = 0;
        if (l == 0) continue;
        if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
        if (lines == NULL) die("out of memory");
        lines[n++] = xstrdup(line);
    }
    fclose(file);
    *count = n;
    return lines;
}

static void raise_fd_limit(long wanted) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    getrlimit(RLIMIT_NOFILE, &limit);
    if ((long)limit.rlim_cur < wanted)
        fprintf(stderr, "lpclient: warning: file-descriptor limit %ld is below the %ld needed\n",
                (long)limit.rlim_cur, wanted);
}

/* VmRSS in KiB and Threads from /proc/PID/status; -1 when unknown. */
static void sample_process(long pid, long *rss_kib, long *threads) {
    *rss_kib = -1;
    *threads = -1;
    if (pid <= 0) return;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *file = fopen(path, "r");
    if (file == NULL) return;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "VmRSS:", 6) == 0) *rss_kib = strtol(line + 6, NULL, 10);
        else if (strncmp(line, "Threads:", 8) == 0) *threads = strtol(line + 8, NULL, 10);
    }
    fclose(file);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of a sorted array. */
static double percentile(const double *sorted, long n, double p) {
    if (n == 0) return 0;
    long rank = (long)(p / 100.0 * n + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return sorted[rank - 1];
}

/* ---------------------------------------------------------------- the HTTP engine */

static struct sockaddr_in server_address;
static char host_header[64];
static int epoll_fd;

struct job {
    const char *request;
    size_t length;
};

struct pool;
typedef void (*response_fn)(struct pool *pool, long job, int status, const char *body, size_t length, double at);

/* A set of connections that work through a list of requests, one at a time each. */
struct pool {
    struct job *jobs;
    long count, next, done, written;
    long *retry;            /* jobs to send again (their connection closed before any answer) */
    long retries;
    long connections;
    struct conn **members;
    long errors;            /* requests that failed at the socket level */
    response_fn on_response;
    void *context;
    /* Streams: once a response's head is read, every byte of the connection goes to
       on_stream_bytes (the head first to on_stream_head), and the request never completes. */
    void (*on_stream_head)(struct conn *c, double at);
    void (*on_stream_bytes)(struct conn *c, const char *bytes, size_t length, double at);
    void (*on_stream_closed)(struct conn *c, double at);
};

enum state { CLOSED, CONNECTING, IDLE, SENDING, READING };

struct conn {
    int fd;
    enum state state;
    struct pool *pool;
    long job;
    size_t sent;
    int reused;             /* has answered a request before: a close before the answer is retried */
    char *buf;
    size_t len, cap;
    size_t header_end;      /* 0 until the header block is complete */
    long content_length;    /* -1: read to the close */
    int status, close_after;
    unsigned interest;
    int queued;             /* waiting in the open queue */
};

/* Connections waiting to connect, opened a few hundred at a time (a burst of thousands of SYNs
   would overflow the server's backlog and cost a one-second retransmission). */
static struct conn **open_queue;
static long open_head, open_tail, open_cap;
static long connecting_now, max_connecting = 256;

static void enqueue_open(struct conn *c) {
    if (c->queued) return;
    if (open_tail == open_cap) {
        if (open_head > 0) {
            memmove(open_queue, open_queue + open_head, (open_tail - open_head) * sizeof *open_queue);
            open_tail -= open_head;
            open_head = 0;
        }
        if (open_tail == open_cap) {
            open_cap = open_cap ? open_cap * 2 : 1024;
            open_queue = realloc(open_queue, open_cap * sizeof *open_queue);
            if (open_queue == NULL) die("out of memory");
        }
    }
    c->queued = 1;
    open_queue[open_tail++] = c;
}

static void set_interest(struct conn *c, unsigned events) {
    if (c->interest == events) return;
    struct epoll_event event = {.events = events, .data.ptr = c};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &event) != 0) die("epoll_ctl: %s", strerror(errno));
    c->interest = events;
}

static void conn_close(struct conn *c) {
    if (c->fd >= 0) {
        epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
    }
    if (c->state == CONNECTING) connecting_now--;
    c->fd = -1;
    c->state = CLOSED;
    c->interest = 0;
    c->reused = 0;
    c->len = 0;
    c->header_end = 0;
}

static int pool_has_work(struct pool *p) {
    return p->retries > 0 || p->next < p->count;
}

static void conn_open(struct conn *c) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) die("socket: %s (raise ulimit -n)", strerror(errno));
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int r = connect(c->fd, (struct sockaddr *)&server_address, sizeof server_address);
    if (r != 0 && errno != EINPROGRESS) die("connect: %s", strerror(errno));
    c->state = CONNECTING;
    connecting_now++;
    c->interest = EPOLLOUT;
    struct epoll_event event = {.events = EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &event) != 0) die("epoll_ctl: %s", strerror(errno));
}

static void pump_opens(void) {
    while (open_head < open_tail && connecting_now < max_connecting) {
        struct conn *c = open_queue[open_head++];
        c->queued = 0;
        if (c->state == CLOSED && pool_has_work(c->pool)) conn_open(c);
    }
}

static void conn_write(struct conn *c);

/* The connection is connected and has nothing in flight: start its pool's next request. */
static void conn_next(struct conn *c) {
    struct pool *p = c->pool;
    if (p->retries > 0) c->job = p->retry[--p->retries];
    else if (p->next < p->count) c->job = p->next++;
    else {
        c->job = -1;
        c->state = IDLE;
        set_interest(c, EPOLLIN);   /* notice the server closing an idle connection */
        return;
    }
    c->state = SENDING;
    c->sent = 0;
    c->len = 0;
    c->header_end = 0;
    conn_write(c);
}

static void conn_failed(struct conn *c) {
    struct pool *p = c->pool;
    long job = c->job;
    int in_flight = (c->state == SENDING || c->state == READING) && job >= 0;
    if (in_flight && c->reused && c->len == 0) {
        p->retry[p->retries++] = job;  /* a keep-alive race: the server closed an idle connection */
        if (c->state == READING) p->written--;
    } else if (in_flight) {
        p->errors++;
        p->done++;
        if (p->on_response) p->on_response(p, job, -1, NULL, 0, now_ms());
    }
    c->job = -1;
    conn_close(c);
    if (pool_has_work(p)) enqueue_open(c);
}

static void conn_write(struct conn *c) {
    const struct job *j = &c->pool->jobs[c->job];
    while (c->sent < j->length) {
        ssize_t n = send(c->fd, j->request + c->sent, j->length - c->sent, MSG_NOSIGNAL);
        if (n > 0) {
            c->sent += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            set_interest(c, EPOLLOUT);
            return;
        } else {
            conn_failed(c);
            return;
        }
    }
    c->state = READING;
    c->pool->written++;
    set_interest(c, EPOLLIN);
}

static const char *find_header(const char *headers, size_t length, const char *name) {
    size_t name_length = strlen(name);
    const char *end = headers + length;
    for (const char *line = headers; line < end;) {
        const char *eol = memmem(line, end - line, "\r\n", 2);
        if (eol == NULL) eol = end;
        if ((size_t)(eol - line) > name_length && strncasecmp(line, name, name_length) == 0 &&
            line[name_length] == ':') {
            const char *value = line + name_length + 1;
            while (value < eol && (*value == ' ' || *value == '\t')) value++;
            return value;
        }
        line = eol + 2;
    }
    return NULL;
}

/* Parses the header block once it is complete; returns 0 while more bytes are needed. */
static int parse_head(struct conn *c) {
    const char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
    if (end == NULL) return 0;
    c->header_end = (size_t)(end - c->buf) + 4;
    c->status = 0;
    if (c->len >= 12 && strncmp(c->buf, "HTTP/1.", 7) == 0) c->status = atoi(c->buf + 9);
    const char *length = find_header(c->buf, c->header_end, "Content-Length");
    const char *connection = find_header(c->buf, c->header_end, "Connection");
    c->close_after = connection != NULL && strncasecmp(connection, "close", 5) == 0;
    if (length != NULL) c->content_length = strtol(length, NULL, 10);
    else if (c->status == 204 || c->status == 304 || (c->status >= 100 && c->status < 200)) c->content_length = 0;
    else c->content_length = -1, c->close_after = 1;
    return 1;
}

static void conn_complete(struct conn *c, size_t body_length) {
    struct pool *p = c->pool;
    long job = c->job;
    c->job = -1;
    p->done++;
    if (p->on_response)
        p->on_response(p, job, c->status, c->buf + c->header_end, body_length, now_ms());
    c->reused = 1;
    c->len = 0;
    c->header_end = 0;
    if (c->close_after) {
        conn_close(c);
        if (pool_has_work(p)) enqueue_open(c);
    } else {
        conn_next(c);
    }
}

static void conn_read(struct conn *c) {
    for (;;) {
        if (c->cap - c->len < 1024) {
            c->cap = c->cap ? c->cap * 2 : 4096;
            c->buf = realloc(c->buf, c->cap);
            if (c->buf == NULL) die("out of memory");
        }
        ssize_t n = recv(c->fd, c->buf + c->len, c->cap - c->len - 1, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            /* The server closed the connection (or it failed). */
            if (c->state == READING && c->pool->on_stream_closed) {
                c->pool->on_stream_closed(c, now_ms());
                conn_close(c);
            } else if (c->state == IDLE) {
                conn_close(c);
                if (pool_has_work(c->pool)) enqueue_open(c);
            } else if (c->state == READING && c->header_end && c->content_length < 0) {
                c->close_after = 1;
                conn_complete(c, c->len - c->header_end);
            } else {
                conn_failed(c);
            }
            return;
        }
        if (c->state != READING) {
            c->len = 0;   /* bytes nobody asked for: ignore */
            continue;
        }
        c->len += (size_t)n;
        c->buf[c->len] = 0;
        if (c->content_length == -2 && c->pool->on_stream_bytes) {
            c->len = 0;
            c->pool->on_stream_bytes(c, c->buf, (size_t)n, now_ms());
            if (c->state != READING) return;
            continue;
        }
        if (c->header_end == 0 && !parse_head(c)) {
            if (c->len > (1 << 20)) conn_failed(c);
            continue;
        }
        if (c->pool->on_stream_bytes) {
            /* A stream: its head once, then every byte as it comes (content_length -2 marks a
               connection past its head; the buffer then holds only the last read's bytes). */
            double at = now_ms();
            size_t from = c->header_end, length = c->len - from;
            c->content_length = -2;
            if (c->pool->on_stream_head) c->pool->on_stream_head(c, at);
            if (c->state != READING) return;
            if (length > 0) c->pool->on_stream_bytes(c, c->buf + from, length, at);
            if (c->state != READING) return;
            c->len = 0;
            continue;
        }
        if (c->content_length >= 0 && c->len >= c->header_end + (size_t)c->content_length) {
            conn_complete(c, (size_t)c->content_length);
            if (c->state != READING) return;
        }
    }
}

static void handle_event(struct conn *c, unsigned events) {
    if (c->state == CONNECTING) {
        int error = 0;
        socklen_t length = sizeof error;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &length);
        connecting_now--;
        if (error != 0 || (events & (EPOLLERR | EPOLLHUP))) {
            static long failures;
            c->state = IDLE;  /* so that conn_close does not count it twice */
            struct pool *p = c->pool;
            if (error == ECONNREFUSED) die("connect: connection refused (is the server up on %s?)", host_header);
            if (++failures <= 5) fprintf(stderr, "lpclient: connect failed: %s\n", strerror(error ? error : ECONNRESET));
            if (failures > 1000) die("too many failed connects");
            conn_close(c);
            if (pool_has_work(p)) enqueue_open(c);
            return;
        }
        conn_next(c);
        return;
    }
    if (c->state == SENDING && (events & EPOLLOUT)) {
        conn_write(c);
        return;
    }
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) conn_read(c);
}

static struct pool *pool_create(long connections, response_fn on_response) {
    struct pool *p = xcalloc(1, sizeof *p);
    p->connections = connections;
    p->members = xcalloc(connections, sizeof *p->members);
    p->on_response = on_response;
    for (long i = 0; i < connections; i++) {
        struct conn *c = xcalloc(1, sizeof *c);
        c->fd = -1;
        c->state = CLOSED;
        c->pool = p;
        c->job = -1;
        p->members[i] = c;
    }
    return p;
}

/* Gives the pool a new list of requests and sets its connections to work. */
static void pool_start(struct pool *p, struct job *jobs, long count) {
    free(p->retry);
    p->jobs = jobs;
    p->count = count;
    p->next = p->done = p->written = p->retries = 0;
    p->retry = xcalloc(p->connections + 1, sizeof *p->retry);
    for (long i = 0; i < p->connections && pool_has_work(p); i++) {
        struct conn *c = p->members[i];
        if (c->state == IDLE) conn_next(c);
        else if (c->state == CLOSED) enqueue_open(c);
    }
}

static void pool_close(struct pool *p) {
    for (long i = 0; i < p->connections; i++) conn_close(p->members[i]);
}

/* Runs the loop until `done(context)` says so or `timeout_ms` passes; returns 1 when done. */
static int run_until(int (*done)(void *), void *context, double timeout_ms) {
    static struct epoll_event events[1024];
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        pump_opens();
        if (done(context)) return 1;
        double left = deadline - now_ms();
        if (left <= 0) return 0;
        int n = epoll_wait(epoll_fd, events, 1024, left < 20 ? (int)left + 1 : 20);
        if (n < 0 && errno != EINTR) die("epoll_wait: %s", strerror(errno));
        for (int i = 0; i < n; i++) handle_event(events[i].data.ptr, events[i].events);
    }
}

static int pool_finished(void *context) {
    struct pool *p = context;
    return p->done >= p->count;
}

/* A request; `extra` is more header lines, each ending in \r\n (or NULL). */
static char *format_request_with(const char *method, const char *path, const char *body, const char *extra,
                                 size_t *length) {
    size_t body_length = body ? strlen(body) : 0;
    if (extra == NULL) extra = "";
    size_t cap = strlen(method) + strlen(path) + body_length + strlen(extra) + 256;
    char *request = xmalloc(cap);
    int n;
    if (body)
        n = snprintf(request, cap, "%s %s HTTP/1.1\r\nHost: %s\r\n%sContent-Type: application/json\r\n"
                                   "Content-Length: %zu\r\n\r\n%s", method, path, host_header, extra, body_length, body);
    else
        n = snprintf(request, cap, "%s %s HTTP/1.1\r\nHost: %s\r\n%s\r\n", method, path, host_header, extra);
    *length = (size_t)n;
    return request;
}

static char *format_request(const char *method, const char *path, const char *body, size_t *length) {
    return format_request_with(method, path, body, NULL, length);
}

/* One blocking request on its own connection (for /metrics); returns the status, or -1. */
static int blocking_get(const char *path, char *out, size_t out_size) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct timeval timeout = {.tv_sec = 5};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    if (connect(fd, (struct sockaddr *)&server_address, sizeof server_address) != 0) {
        close(fd);
        return -1;
    }
    char request[512];
    int n = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, host_header);
    for (int sent = 0; sent < n;) {
        ssize_t w = send(fd, request + sent, n - sent, MSG_NOSIGNAL);
        if (w <= 0) { close(fd); return -1; }
        sent += (int)w;
    }
    size_t len = 0;
    for (;;) {
        ssize_t r = recv(fd, out + len, out_size - 1 - len, 0);
        if (r <= 0) break;
        len += (size_t)r;
        if (len == out_size - 1) break;
        out[len] = 0;
        const char *end = strstr(out, "\r\n\r\n");
        const char *cl = end ? find_header(out, end - out, "Content-Length") : NULL;
        if (cl && len >= (size_t)(end + 4 - out) + (size_t)atol(cl)) break;
    }
    out[len] = 0;
    close(fd);
    return len > 12 ? atoi(out + 9) : -1;
}

/* A gauge of the server's GET /metrics (a line "NAME VALUE"), or -1. */
static long metric_value(const char *name) {
    static char text[1 << 20];  /* the histograms of every route and status make it long */
    size_t length = strlen(name);
    if (blocking_get("/metrics", text, sizeof text) != 200) return -1;
    for (char *p = text; (p = strstr(p, name)) != NULL; p++) {
        if ((p == text || p[-1] == '\n') && p[length] == ' ') return strtol(p + length + 1, NULL, 10);
    }
    return -1;
}

/* The server's mvvm_parked_requests, or -1. */
static long parked_requests(void) {
    return metric_value("mvvm_parked_requests");
}

/* ---------------------------------------------------------------- options */

struct options {
    const char *host, *ids, *out, *lp_path, *state_path, *trigger_path, *stream_path, *path, *method, *body, *expect;
    int port;
    long pid, per_session, n, conns, park_timeout_s, settle_ms, release_timeout_s;
    double wait;
};

static void parse_options(int argc, char **argv, struct options *o) {
    o->host = "127.0.0.1";
    o->lp_path = "/sessions/{id}/scenes/car?since={v}&wait={w}";
    o->state_path = "/sessions/{id}/scenes/car";
    o->trigger_path = "/sessions/{id}/scenes/car/input";
    o->stream_path = "/sessions/{id}/scenes/car";
    o->release_timeout_s = 30;
    o->method = "GET";
    o->per_session = 1;
    o->conns = 64;
    o->wait = 60;
    o->park_timeout_s = 60;
    o->settle_ms = 2000;
    for (int i = 2; i < argc; i++) {
        const char *name = argv[i];
        if (i + 1 >= argc) die("%s needs a value", name);
        const char *value = argv[++i];
        if (!strcmp(name, "--host")) o->host = value;
        else if (!strcmp(name, "--port")) o->port = atoi(value);
        else if (!strcmp(name, "--pid")) o->pid = atol(value);
        else if (!strcmp(name, "--ids")) o->ids = value;
        else if (!strcmp(name, "--out")) o->out = value;
        else if (!strcmp(name, "--per-session")) o->per_session = atol(value);
        else if (!strcmp(name, "--n")) o->n = atol(value);
        else if (!strcmp(name, "--conns")) o->conns = atol(value);
        else if (!strcmp(name, "--wait")) o->wait = atof(value);
        else if (!strcmp(name, "--park-timeout")) o->park_timeout_s = atol(value);
        else if (!strcmp(name, "--settle-ms")) o->settle_ms = atol(value);
        else if (!strcmp(name, "--lp-path")) o->lp_path = value;
        else if (!strcmp(name, "--state-path")) o->state_path = value;
        else if (!strcmp(name, "--trigger-path")) o->trigger_path = value;
        else if (!strcmp(name, "--stream-path")) o->stream_path = value;
        else if (!strcmp(name, "--release-timeout")) o->release_timeout_s = atol(value);
        else if (!strcmp(name, "--path")) o->path = value;
        else if (!strcmp(name, "--method")) o->method = value;
        else if (!strcmp(name, "--body")) o->body = value;
        else if (!strcmp(name, "--expect")) o->expect = value;
        else if (!strcmp(name, "--max-connecting")) max_connecting = atol(value);
        else die("unknown option %s", name);
    }
    if (o->port <= 0) die("--port is required");
    if (o->conns < 1) o->conns = 1;
    memset(&server_address, 0, sizeof server_address);
    server_address.sin_family = AF_INET;
    server_address.sin_port = htons((unsigned short)o->port);
    if (inet_pton(AF_INET, o->host, &server_address.sin_addr) != 1) die("bad --host %s", o->host);
    snprintf(host_header, sizeof host_header, "%s:%d", o->host, o->port);
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) die("epoll_create1: %s", strerror(errno));
    signal(SIGPIPE, SIG_IGN);
}

/* ---------------------------------------------------------------- create */

static FILE *created_out;
static long created_ok, created_bad;

static void on_created(struct pool *p, long job, int status, const char *body, size_t length, double at) {
    (void)p; (void)job; (void)length; (void)at;
    const char *id = status == 201 && body ? strstr(body, "\"id\":\"") : NULL;
    if (id == NULL) {
        created_bad++;
        return;
    }
    id += 6;
    const char *end = strchr(id, '"');
    if (end == NULL) {
        created_bad++;
        return;
    }
    created_ok++;
    if (created_out) fprintf(created_out, "%.*s\n", (int)(end - id), id);
}

static int mode_create(struct options *o) {
    if (o->n <= 0) die("--n is required");
    raise_fd_limit(o->conns + 64);
    created_out = o->out ? fopen(o->out, "w") : NULL;
    if (o->out && created_out == NULL) die("cannot write %s", o->out);
    size_t length;
    char *request = format_request("POST", "/sessions", "", &length);
    /* POST with an empty body: Content-Length: 0. */
    struct job *jobs = xmalloc(o->n * sizeof *jobs);
    for (long i = 0; i < o->n; i++) jobs[i] = (struct job){request, length};
    struct pool *pool = pool_create(o->conns < o->n ? o->conns : o->n, on_created);
    double start = now_ms();
    pool_start(pool, jobs, o->n);
    int finished = run_until(pool_finished, pool, 600e3);
    double seconds = (now_ms() - start) / 1e3;
    pool_close(pool);
    if (created_out) fclose(created_out);
    printf("RESULT created=%ld bad=%ld socket_errors=%ld seconds=%.3f per_s=%.1f finished=%d\n",
           created_ok, created_bad, pool->errors, seconds, created_ok / (seconds > 0 ? seconds : 1), finished);
    return created_ok == o->n ? 0 : 1;
}

/* ---------------------------------------------------------------- each */

static long each_ok, each_bad, each_matched;
static const char *each_expect;

static void on_each(struct pool *p, long job, int status, const char *body, size_t length, double at) {
    (void)p; (void)job; (void)length; (void)at;
    if (status >= 200 && status < 300) each_ok++;
    else {
        each_bad++;
        if (each_bad <= 3) fprintf(stderr, "lpclient: status %d: %.200s\n", status, body ? body : "");
    }
    if (each_expect && body && strstr(body, each_expect)) each_matched++;
}

static int mode_each(struct options *o) {
    if (!o->ids || !o->path) die("--ids and --path are required");
    long count;
    char **ids = read_lines(o->ids, &count);
    if (o->n > 0 && o->n < count) count = o->n;
    raise_fd_limit(o->conns + 64);
    each_expect = o->expect;
    struct job *jobs = xmalloc(count * sizeof *jobs);
    for (long i = 0; i < count; i++) {
        char *path = expand(o->path, ids[i], "", "");
        jobs[i].request = format_request(o->method, path, o->body, &jobs[i].length);
        free(path);
    }
    struct pool *pool = pool_create(o->conns < count ? o->conns : count, on_each);
    double start = now_ms();
    pool_start(pool, jobs, count);
    int finished = run_until(pool_finished, pool, 600e3);
    double seconds = (now_ms() - start) / 1e3;
    pool_close(pool);
    printf("RESULT count=%ld ok=%ld bad=%ld matched=%ld socket_errors=%ld seconds=%.3f finished=%d\n",
           count, each_ok, each_bad, each_matched, pool->errors, seconds, finished);
    return each_ok == count ? 0 : 1;
}

/* ---------------------------------------------------------------- longpoll */

struct session {
    const char *id;
    char version[32];
    int lamborghini;       /* the state's input says Lamborghini */
    int state_status, trigger_status;
    double trigger_answered;
};

static struct session *sessions;
static long session_count;
static long *lp_session;   /* long-poll job -> session */
static int *lp_status;
static double *lp_answered;
static double trigger_started;

static void on_state(struct pool *p, long job, int status, const char *body, size_t length, double at) {
    (void)p; (void)length; (void)at;
    struct session *s = &sessions[job];
    s->state_status = status;
    strcpy(s->version, "0");
    if (status == 200 && body) {
        const char *last = NULL;
        for (const char *q = body; (q = strstr(q, "\"version\":")) != NULL; q++) last = q;
        if (last) snprintf(s->version, sizeof s->version, "%ld", strtol(last + 10, NULL, 10));
        s->lamborghini = strstr(body, "\"make\":\"Lamborghini\"") != NULL;
    }
}

/* Reads each session's current state (its version, and which input changes it) over `conns`
   keep-alive connections, which stay open for the inputs sent later; returns their pool. */
static struct pool *read_states(const char *state_path, char **ids, long conns) {
    struct pool *workers = pool_create(conns, on_state);
    struct job *state_jobs = xmalloc(session_count * sizeof *state_jobs);
    for (long i = 0; i < session_count; i++) {
        char *path = expand(state_path, ids[i], "", "");
        state_jobs[i].request = format_request("GET", path, NULL, &state_jobs[i].length);
        free(path);
    }
    pool_start(workers, state_jobs, session_count);
    if (!run_until(pool_finished, workers, 120e3)) die("the state requests did not finish");
    long state_bad = 0;
    for (long i = 0; i < session_count; i++) state_bad += sessions[i].state_status != 200;
    if (state_bad) fprintf(stderr, "lpclient: %ld state requests did not answer 200\n", state_bad);
    return workers;
}

static void on_long_poll(struct pool *p, long job, int status, const char *body, size_t length, double at) {
    (void)p; (void)body; (void)length;
    lp_status[job] = status;
    lp_answered[job] = at;
}

static void on_trigger(struct pool *p, long job, int status, const char *body, size_t length, double at) {
    (void)p; (void)length;
    sessions[job].trigger_status = status;
    sessions[job].trigger_answered = at;
    if (status != 200 && status != 202)
        fprintf(stderr, "lpclient: input on %s answered %d: %.200s\n", sessions[job].id, status, body ? body : "");
}

struct park_wait {
    struct pool *pool;
    long target;
    double next_poll, all_written_at, settle_ms;
    long parked;
    int metric_missing;
};

static int parked_enough(void *context) {
    struct park_wait *w = context;
    struct pool *p = w->pool;
    /* Long-polls answered at once (refused, or a version already past `since`) are not parked. */
    long early = p->done;
    if (p->written + p->errors < p->count) return 0;
    double now = now_ms();
    if (w->all_written_at == 0) w->all_written_at = now;
    if (w->metric_missing) return now - w->all_written_at >= w->settle_ms;
    if (now < w->next_poll) return 0;
    w->next_poll = now + 100;
    w->parked = parked_requests();
    if (w->parked < 0) {
        w->metric_missing = 1;
        fprintf(stderr, "lpclient: no mvvm_parked_requests in /metrics; waiting %.0f ms instead\n", w->settle_ms);
        return 0;
    }
    return w->parked >= p->count - early - p->errors;
}

struct answer_wait {
    struct pool *long_polls, *triggers;
};

static int all_answered(void *context) {
    struct answer_wait *w = context;
    return w->long_polls->done >= w->long_polls->count && w->triggers->done >= w->triggers->count;
}

static int mode_longpoll(struct options *o) {
    if (!o->ids) die("--ids is required");
    sessions = NULL;
    char **ids = read_lines(o->ids, &session_count);
    if (o->n > 0 && o->n < session_count) session_count = o->n;
    if (session_count == 0) die("no session ids in %s", o->ids);
    long total = session_count * o->per_session;
    long trigger_conns = session_count < o->conns ? session_count : o->conns;
    raise_fd_limit(total + trigger_conns + 64);
    sessions = xcalloc(session_count, sizeof *sessions);
    for (long i = 0; i < session_count; i++) sessions[i].id = ids[i];

    long rss_before, threads_before, rss_hold, threads_hold, rss_after, threads_after;
    sample_process(o->pid, &rss_before, &threads_before);

    /* 1. Each session's current version (and which input changes it). */
    struct pool *workers = read_states(o->state_path, ids, trigger_conns);

    /* 2. The long-polls, spread over the sessions. */
    char wait_text[32];
    snprintf(wait_text, sizeof wait_text, "%g", o->wait);
    lp_session = xmalloc(total * sizeof *lp_session);
    lp_status = xcalloc(total, sizeof *lp_status);
    lp_answered = xcalloc(total, sizeof *lp_answered);
    struct job *lp_jobs = xmalloc(total * sizeof *lp_jobs);
    for (long j = 0; j < total; j++) {
        long s = j % session_count;
        lp_session[j] = s;
        char *path = expand(o->lp_path, sessions[s].id, sessions[s].version, wait_text);
        lp_jobs[j].request = format_request("GET", path, NULL, &lp_jobs[j].length);
        free(path);
    }
    struct pool *long_polls = pool_create(total, on_long_poll);
    double park_start = now_ms();
    pool_start(long_polls, lp_jobs, total);
    struct park_wait park = {.pool = long_polls, .settle_ms = (double)o->settle_ms};
    int parked_ok = run_until(parked_enough, &park, o->park_timeout_s * 1e3);
    double park_ms = now_ms() - park_start;
    long early = long_polls->done;
    long early_refused = 0;
    char early_statuses[256] = "";
    {
        /* Which statuses the long-polls answered at once had (e.g. 503:936). */
        int seen[8] = {0};
        long counts[8] = {0};
        int kinds = 0;
        for (long j = 0; j < total; j++) {
            if (lp_answered[j] == 0) continue;
            if (lp_status[j] != 200) early_refused++;
            int k = 0;
            while (k < kinds && seen[k] != lp_status[j]) k++;
            if (k == kinds && kinds < 8) seen[kinds++] = lp_status[j];
            if (k < 8) counts[k]++;
        }
        for (int k = 0; k < kinds; k++) {
            size_t used = strlen(early_statuses);
            snprintf(early_statuses + used, sizeof early_statuses - used, "%s%d:%ld", k ? "," : "", seen[k], counts[k]);
        }
        if (kinds == 0) strcpy(early_statuses, "none");
    }
    if (!parked_ok)
        fprintf(stderr, "lpclient: only %ld of %ld long-polls parked (written %ld, answered early %ld) after %lds\n",
                park.parked, total - early, long_polls->written, early, o->park_timeout_s);
    usleep(200 * 1000);
    sample_process(o->pid, &rss_hold, &threads_hold);
    long parked_metric = parked_requests();

    /* 3. One input per session; each long-poll is timed from its session's input answer. */
    workers->on_response = on_trigger;
    struct job *trigger_jobs = xmalloc(session_count * sizeof *trigger_jobs);
    for (long i = 0; i < session_count; i++) {
        char *path = expand(o->trigger_path, ids[i], sessions[i].version, wait_text);
        const char *body = sessions[i].lamborghini ? "{\"make\":\"Fiat\",\"model\":\"Panda\"}"
                                                   : "{\"make\":\"Lamborghini\",\"model\":\"Huracan\"}";
        trigger_jobs[i].request = format_request("POST", path, body, &trigger_jobs[i].length);
        free(path);
    }
    trigger_started = now_ms();
    pool_start(workers, trigger_jobs, session_count);
    struct answer_wait answers = {long_polls, workers};
    int answered_all = run_until(all_answered, &answers, (o->wait + 15) * 1e3);
    double finished_at = now_ms();

    /* 4. Memory once they are answered (connections still open, idle). */
    usleep(500 * 1000);
    sample_process(o->pid, &rss_after, &threads_after);

    /* 5. Memory once the client has closed every connection. */
    pool_close(long_polls);
    pool_close(workers);
    usleep(1000 * 1000);
    long rss_closed, threads_closed;
    sample_process(o->pid, &rss_closed, &threads_closed);

    double *latencies = xmalloc(total * sizeof *latencies);
    long answered = 0, failed = 0, unanswered = 0, triggers_bad = 0;
    double last_answer = trigger_started;
    for (long i = 0; i < session_count; i++) triggers_bad += sessions[i].trigger_status != 200;
    for (long j = 0; j < total; j++) {
        if (lp_answered[j] == 0) { unanswered++; continue; }
        if (lp_answered[j] < trigger_started) continue;  /* answered early: counted apart */
        if (lp_status[j] != 200) { failed++; continue; }
        struct session *s = &sessions[lp_session[j]];
        if (s->trigger_status != 200) { failed++; continue; }
        latencies[answered++] = lp_answered[j] - s->trigger_answered;
        if (lp_answered[j] > last_answer) last_answer = lp_answered[j];
    }
    qsort(latencies, answered, sizeof *latencies, compare_doubles);
    double p50 = percentile(latencies, answered, 50), p99 = percentile(latencies, answered, 99);
    double max = answered ? latencies[answered - 1] : 0;
    printf("long-polls %ld (%ld sessions x %ld): parked %ld in %.0f ms, answered early %ld (statuses %s), "
           "answered after the inputs %ld, failed %ld, unanswered %ld; inputs not 200: %ld\n",
           total, session_count, o->per_session, parked_metric, park_ms, early, early_statuses, answered, failed,
           unanswered, triggers_bad);
    printf("latency from the input's answer: p50 %.2f ms, p99 %.2f ms, max %.2f ms; all within %.2f ms of the first input\n",
           p50, p99, max, last_answer - trigger_started);
    printf("pid %ld: RSS before %.1f MB, holding %.1f MB, after the answers %.1f MB, after closing %.1f MB; "
           "threads %ld / %ld / %ld / %ld\n", o->pid, rss_before / 1024.0, rss_hold / 1024.0, rss_after / 1024.0,
           rss_closed / 1024.0, threads_before, threads_hold, threads_after, threads_closed);
    printf("RESULT total=%ld parked=%ld early=%ld early_not_200=%ld answered=%ld failed=%ld unanswered=%ld "
           "inputs_not_200=%ld p50_ms=%.3f p99_ms=%.3f max_ms=%.3f span_ms=%.3f park_ms=%.0f "
           "rss_before_mb=%.1f rss_hold_mb=%.1f rss_after_mb=%.1f rss_closed_mb=%.1f threads_before=%ld "
           "threads_hold=%ld threads_after=%ld early_statuses=%s complete=%d\n",
           total, parked_metric, early, early_refused, answered, failed, unanswered, triggers_bad, p50, p99, max,
           last_answer - trigger_started, park_ms, rss_before / 1024.0, rss_hold / 1024.0, rss_after / 1024.0,
           rss_closed / 1024.0, threads_before, threads_hold, threads_after, early_statuses,
           answered_all && parked_ok);
    (void)finished_at;
    return answered == total ? 0 : 1;
}

/* ---------------------------------------------------------------- stream */

/* Chunked transfer coding, decoded a byte at a time: a chunk's size line (hex, maybe an
   extension), its bytes, its CRLF; the last chunk (size 0) ends the body. */
enum chunk_state { CHUNK_SIZE, CHUNK_EXTENSION, CHUNK_SIZE_LF, CHUNK_DATA, CHUNK_DATA_CR, CHUNK_DATA_LF, CHUNK_END };

struct stream {
    long session;
    int status;                 /* the response's status (0 until its head is read) */
    int is_event_stream;        /* 200, Content-Type text/event-stream, Transfer-Encoding chunked */
    int closed, protocol_error;
    /* chunked decoding */
    enum chunk_state chunk;
    unsigned long chunk_left;
    int chunk_digits;
    /* SSE parsing: the line being read and the message being built */
    char *line;
    size_t line_length, line_cap;
    int after_cr;               /* a CR ended the last line: a LF right after it belongs to it */
    int has_fields, has_id, lamborghini;
    unsigned long id;
    char event[16];
    /* what came */
    long messages, heartbeats;
    int first_seen;
    unsigned long first_id;
    char first_event[16];
    double first_at;
    unsigned long next_id;      /* the first "state" message with an id above the first one */
    double next_at;
    long early;                 /* such messages before the inputs were sent */
};

static struct stream *streams;
static long stream_count;
static long streams_headed, streams_first, streams_received, streams_closed, streams_bad;
static int streams_triggered;
static void (*sse_on_message)(struct stream *s, double at);

/* One whole SSE line (without its end): a field, a comment or the empty line that ends a
   message. */
static void sse_line(struct stream *s, const char *line, size_t length, double at) {
    if (length == 0) {
        if (s->has_fields && sse_on_message) sse_on_message(s, at);
        s->has_fields = s->has_id = s->lamborghini = 0;
        s->id = 0;
        strcpy(s->event, "message");   /* the type of a message without an event field */
        return;
    }
    if (line[0] == ':') {
        if (length >= 11 && memcmp(line + 1, " heartbeat", 10) == 0) s->heartbeats++;
        return;
    }
    const char *colon = memchr(line, ':', length);
    size_t name_length = colon ? (size_t)(colon - line) : length;
    const char *value = colon ? colon + 1 : line + length;
    size_t value_length = (size_t)(line + length - value);
    if (value_length > 0 && value[0] == ' ') value++, value_length--;
    s->has_fields = 1;
    if (name_length == 2 && memcmp(line, "id", 2) == 0) {
        char text[32];
        size_t n = value_length < sizeof text - 1 ? value_length : sizeof text - 1;
        memcpy(text, value, n);
        text[n] = 0;
        s->id = strtoul(text, NULL, 10);
        s->has_id = 1;
    } else if (name_length == 5 && memcmp(line, "event", 5) == 0) {
        size_t n = value_length < sizeof s->event - 1 ? value_length : sizeof s->event - 1;
        memcpy(s->event, value, n);
        s->event[n] = 0;
    } else if (name_length == 4 && memcmp(line, "data", 4) == 0) {
        static const char needle[] = "\"make\":\"Lamborghini\"";
        if (memmem(value, value_length, needle, sizeof needle - 1)) s->lamborghini = 1;
    }
}

/* Decoded body bytes: split into lines (ended by LF, CRLF or CR). */
static void sse_feed(struct stream *s, const char *bytes, size_t length, double at) {
    const char *end = bytes + length;
    while (bytes < end) {
        if (s->after_cr) {
            s->after_cr = 0;
            if (*bytes == '\n') { bytes++; continue; }
        }
        const char *stop = bytes;
        while (stop < end && *stop != '\n' && *stop != '\r') stop++;
        size_t part = (size_t)(stop - bytes);
        if (stop < end && s->line_length == 0) {
            sse_line(s, bytes, part, at);   /* a whole line in this piece: no copy */
        } else {
            if (s->line_length + part + 1 > s->line_cap) {
                s->line_cap = (s->line_length + part + 1) * 2;
                if (s->line_cap > (1 << 24)) { s->protocol_error = 1; return; }
                s->line = realloc(s->line, s->line_cap);
                if (s->line == NULL) die("out of memory");
            }
            memcpy(s->line + s->line_length, bytes, part);
            s->line_length += part;
            if (stop < end) {
                sse_line(s, s->line, s->line_length, at);
                s->line_length = 0;
            }
        }
        if (stop == end) break;
        s->after_cr = *stop == '\r';
        bytes = stop + 1;
    }
}

/* Bytes of the body as they come; returns 0, or -1 on a coding error. */
static int chunked_feed(struct stream *s, const char *bytes, size_t length, double at) {
    const char *end = bytes + length;
    while (bytes < end) {
        char byte = *bytes;
        switch (s->chunk) {
        case CHUNK_SIZE:
            if (isxdigit((unsigned char)byte)) {
                if (++s->chunk_digits > 15) return -1;
                s->chunk_left = s->chunk_left * 16 + (unsigned long)(isdigit((unsigned char)byte) ? byte - '0' : (tolower((unsigned char)byte) - 'a' + 10));
            } else if (byte == ';' || byte == ' ' || byte == '\t') {
                s->chunk = CHUNK_EXTENSION;
            } else if (byte == '\r') {
                s->chunk = CHUNK_SIZE_LF;
            } else {
                return -1;
            }
            bytes++;
            break;
        case CHUNK_EXTENSION:
            if (byte == '\r') s->chunk = CHUNK_SIZE_LF;
            bytes++;
            break;
        case CHUNK_SIZE_LF:
            if (byte != '\n' || s->chunk_digits == 0) return -1;
            bytes++;
            s->chunk_digits = 0;
            s->chunk = s->chunk_left == 0 ? CHUNK_END : CHUNK_DATA;
            break;
        case CHUNK_DATA: {
            size_t take = (size_t)(end - bytes) < s->chunk_left ? (size_t)(end - bytes) : s->chunk_left;
            sse_feed(s, bytes, take, at);
            bytes += take;
            s->chunk_left -= take;
            if (s->chunk_left == 0) s->chunk = CHUNK_DATA_CR;
            break;
        }
        case CHUNK_DATA_CR:
            if (byte != '\r') return -1;
            bytes++;
            s->chunk = CHUNK_DATA_LF;
            break;
        case CHUNK_DATA_LF:
            if (byte != '\n') return -1;
            bytes++;
            s->chunk = CHUNK_SIZE;
            break;
        case CHUNK_END:
            return 0;   /* the trailer and the final CRLF: the stream is over anyway */
        }
    }
    return 0;
}

static void stream_reset(struct stream *s) {
    s->chunk = CHUNK_SIZE;
    s->chunk_left = 0;
    s->chunk_digits = 0;
    s->line_length = 0;
    s->after_cr = 0;
    s->has_fields = s->has_id = s->lamborghini = 0;
    strcpy(s->event, "message");
}

static void on_stream_message(struct stream *s, double at) {
    s->messages++;
    if (!s->first_seen) {
        s->first_seen = 1;
        s->first_id = s->id;
        s->first_at = at;
        strcpy(s->first_event, s->event);
        streams_first++;
        return;
    }
    if (s->next_at != 0 || strcmp(s->event, "state") != 0 || !s->has_id || s->id <= s->first_id) return;
    if (!streams_triggered) {
        s->early++;
        return;
    }
    s->next_id = s->id;
    s->next_at = at;
    streams_received++;
}

static void on_stream_head(struct conn *c, double at) {
    (void)at;
    struct stream *s = &streams[c->job];
    s->status = c->status;
    const char *type = find_header(c->buf, c->header_end, "Content-Type");
    const char *coding = find_header(c->buf, c->header_end, "Transfer-Encoding");
    s->is_event_stream = c->status == 200 && type && strncasecmp(type, "text/event-stream", 17) == 0 &&
                         coding && strncasecmp(coding, "chunked", 7) == 0;
    streams_headed++;
    if (!s->is_event_stream) {
        if (++streams_bad <= 3)
            fprintf(stderr, "lpclient: stream %ld answered %d without an event stream: %.300s\n", c->job, c->status, c->buf);
        s->closed = 1;
        streams_closed++;
        conn_close(c);
        return;
    }
    stream_reset(s);
}

static void on_stream_bytes(struct conn *c, const char *bytes, size_t length, double at) {
    struct stream *s = &streams[c->job];
    if (s->closed) return;
    if (chunked_feed(s, bytes, length, at) != 0 || s->protocol_error) {
        if (++streams_bad <= 3) fprintf(stderr, "lpclient: stream %ld: bad chunked coding or line\n", c->job);
        s->protocol_error = 1;
        s->closed = 1;
        streams_closed++;
        conn_close(c);
        return;
    }
    if (s->chunk == CHUNK_END) {
        /* The server ended the stream (a "gone" message, or it is stopping). */
        s->closed = 1;
        streams_closed++;
        conn_close(c);
    }
}

static void on_stream_closed(struct conn *c, double at) {
    (void)at;
    struct stream *s = &streams[c->job];
    if (s->closed) return;
    s->closed = 1;
    streams_closed++;
}

struct stream_wait {
    struct pool *pool;
    long target;
    double next_poll;
    long open;
    int metric_missing;
};

static int streams_started(void *context) {
    struct pool *p = context;
    long settled = 0;
    for (long j = 0; j < stream_count; j++) settled += streams[j].first_seen || streams[j].closed;
    return settled + p->errors >= stream_count;
}

/* Until mvvm_open_streams reads `target` (polled every 100 ms). */
static int open_streams_are(void *context) {
    struct stream_wait *w = context;
    double now = now_ms();
    if (now < w->next_poll) return 0;
    w->next_poll = now + 100;
    w->open = metric_value("mvvm_open_streams");
    if (w->open < 0) {
        w->metric_missing = 1;
        return 1;
    }
    return w->open == w->target;
}

static int open_streams_at_most(void *context) {
    struct stream_wait *w = context;
    double now = now_ms();
    if (now < w->next_poll) return 0;
    w->next_poll = now + 100;
    w->open = metric_value("mvvm_open_streams");
    return w->open <= w->target;
}

struct stream_answer_wait {
    struct pool *triggers;
    long expected;   /* streams open when the inputs were sent */
};

static int streams_all_received(void *context) {
    struct stream_answer_wait *w = context;
    if (w->triggers->done < w->triggers->count) return 0;
    long settled = 0;
    for (long j = 0; j < stream_count; j++)
        settled += !streams[j].first_seen || streams[j].next_at != 0 || streams[j].closed;
    return settled >= stream_count;
}

static int never(void *context) {
    (void)context;
    return 0;
}

static int mode_stream(struct options *o) {
    if (!o->ids) die("--ids is required");
    char **ids = read_lines(o->ids, &session_count);
    if (o->n > 0 && o->n < session_count) session_count = o->n;
    if (session_count == 0) die("no session ids in %s", o->ids);
    long total = session_count * o->per_session;
    long trigger_conns = session_count < o->conns ? session_count : o->conns;
    raise_fd_limit(total + trigger_conns + 64);
    sessions = xcalloc(session_count, sizeof *sessions);
    for (long i = 0; i < session_count; i++) sessions[i].id = ids[i];
    sse_on_message = on_stream_message;

    long rss_before, threads_before, rss_hold, threads_hold, rss_after, threads_after, rss_closed, threads_closed;
    long open_before = metric_value("mvvm_open_streams");
    sample_process(o->pid, &rss_before, &threads_before);

    /* 1. Each session's current state (which input changes it), as in longpoll; this also opens
       the connections the inputs are sent on. */
    struct pool *workers = read_states(o->state_path, ids, trigger_conns);

    /* 2. The streams, spread over the sessions, one connection each; each one's first message. */
    stream_count = total;
    streams = xcalloc(total, sizeof *streams);
    struct job *stream_jobs = xmalloc(total * sizeof *stream_jobs);
    for (long j = 0; j < total; j++) {
        long s = j % session_count;
        streams[j].session = s;
        stream_reset(&streams[j]);
        char *path = expand(o->stream_path, sessions[s].id, sessions[s].version, "");
        stream_jobs[j].request = format_request_with("GET", path, NULL, "Accept: text/event-stream\r\n", &stream_jobs[j].length);
        free(path);
    }
    struct pool *pool = pool_create(total, NULL);
    pool->on_stream_head = on_stream_head;
    pool->on_stream_bytes = on_stream_bytes;
    pool->on_stream_closed = on_stream_closed;
    double open_start = now_ms();
    pool_start(pool, stream_jobs, total);
    int started_ok = run_until(streams_started, pool, o->park_timeout_s * 1e3);
    double open_ms = now_ms() - open_start;
    long opened = 0, first_not_state = 0, first_version_mismatch = 0;
    for (long j = 0; j < total; j++) {
        struct stream *s = &streams[j];
        if (!s->first_seen || s->closed) continue;
        opened++;
        if (strcmp(s->first_event, "state") != 0) first_not_state++;
        /* The first message is the current document: the version the state GET read, unless
           something changed the session since. */
        char version[32];
        snprintf(version, sizeof version, "%lu", s->first_id);
        if (strcmp(version, sessions[s->session].version) != 0) first_version_mismatch++;
    }
    if (!started_ok)
        fprintf(stderr, "lpclient: only %ld of %ld streams sent their first message after %lds (closed %ld, socket errors %ld)\n",
                streams_first, total, o->park_timeout_s, streams_closed, pool->errors);

    /* 3. Until the server counts them all open. */
    struct stream_wait open_wait = {.pool = pool, .target = opened + (open_before > 0 ? open_before : 0)};
    int counted_ok = run_until(open_streams_are, &open_wait, o->park_timeout_s * 1e3);
    if (open_wait.metric_missing) fprintf(stderr, "lpclient: no mvvm_open_streams in /metrics\n");
    else if (!counted_ok)
        fprintf(stderr, "lpclient: mvvm_open_streams reads %ld, not the %ld streams open (%ld before), after %lds\n",
                open_wait.open, opened, open_before, o->park_timeout_s);
    double counted_ms = now_ms() - open_start;
    run_until(never, NULL, 200);   /* keep reading (heartbeats) while it settles */
    sample_process(o->pid, &rss_hold, &threads_hold);
    long open_metric = metric_value("mvvm_open_streams");
    long parked_metric = parked_requests();

    /* 4. One input per session; each stream is timed from its session's input answer to its
       next state message. */
    workers->on_response = on_trigger;
    struct job *trigger_jobs = xmalloc(session_count * sizeof *trigger_jobs);
    for (long i = 0; i < session_count; i++) {
        char *path = expand(o->trigger_path, ids[i], sessions[i].version, "");
        const char *body = sessions[i].lamborghini ? "{\"make\":\"Fiat\",\"model\":\"Panda\"}"
                                                   : "{\"make\":\"Lamborghini\",\"model\":\"Huracan\"}";
        trigger_jobs[i].request = format_request("POST", path, body, &trigger_jobs[i].length);
        free(path);
    }
    long early_before = 0;
    for (long j = 0; j < total; j++) early_before += streams[j].early;
    streams_triggered = 1;
    trigger_started = now_ms();
    pool_start(workers, trigger_jobs, session_count);
    struct stream_answer_wait answers = {workers, opened};
    int received_all = run_until(streams_all_received, &answers, o->wait * 1e3);

    /* 5. Memory once the messages are sent (the streams still open, waiting again). */
    run_until(never, NULL, 500);
    sample_process(o->pid, &rss_after, &threads_after);

    /* 6. Close every connection; the server gives back the streams' places once it notices. */
    long closed_by_server = streams_closed;
    pool_close(pool);
    pool_close(workers);
    double close_at = now_ms();
    struct stream_wait release = {.pool = pool, .target = open_before < 0 ? 0 : open_before};
    int released = run_until(open_streams_at_most, &release, o->release_timeout_s * 1e3);
    double release_ms = now_ms() - close_at;
    sample_process(o->pid, &rss_closed, &threads_closed);

    double *latencies = xmalloc(total * sizeof *latencies);
    long received = 0, not_received = 0, triggers_bad = 0, heartbeats = 0, messages = 0;
    double last_message = trigger_started;
    for (long i = 0; i < session_count; i++) triggers_bad += sessions[i].trigger_status != 200;
    for (long j = 0; j < total; j++) {
        struct stream *s = &streams[j];
        heartbeats += s->heartbeats;
        messages += s->messages;
        if (!s->first_seen) continue;
        if (s->next_at == 0) { not_received++; continue; }
        struct session *session = &sessions[s->session];
        if (session->trigger_status != 200) { not_received++; continue; }
        latencies[received++] = s->next_at - session->trigger_answered;
        if (s->next_at > last_message) last_message = s->next_at;
    }
    qsort(latencies, received, sizeof *latencies, compare_doubles);
    double p50 = percentile(latencies, received, 50), p99 = percentile(latencies, received, 99);
    double max = received ? latencies[received - 1] : 0;
    double min = received ? latencies[0] : 0;
    printf("streams %ld (%ld sessions x %ld): opened %ld (first message from all in %.0f ms, counted open by the server "
           "after %.0f ms: mvvm_open_streams %ld, mvvm_parked_requests %ld), refused or failed %ld, first message not "
           "\"state\" %ld, first id not the state's version %ld, newer before the inputs %ld\n",
           total, session_count, o->per_session, opened, open_ms, counted_ms, open_metric, parked_metric,
           total - opened, first_not_state, first_version_mismatch, early_before);
    printf("after the inputs: received %ld, not received %ld, closed by the server %ld; inputs not 200: %ld; "
           "messages %ld, heartbeats %ld\n", received, not_received, closed_by_server, triggers_bad, messages, heartbeats);
    printf("latency from the input's answer: min %.2f ms, p50 %.2f ms, p99 %.2f ms, max %.2f ms; all within %.2f ms of the first input\n",
           min, p50, p99, max, last_message - trigger_started);
    printf("pid %ld: RSS before %.1f MB, holding %.1f MB, after the messages %.1f MB, after closing %.1f MB; "
           "threads %ld / %ld / %ld / %ld; mvvm_open_streams back to %ld %.0f ms after the close%s\n",
           o->pid, rss_before / 1024.0, rss_hold / 1024.0, rss_after / 1024.0, rss_closed / 1024.0, threads_before,
           threads_hold, threads_after, threads_closed, release.open, release_ms, released ? "" : " (not released in time)");
    printf("RESULT total=%ld opened=%ld streams=%ld parked=%ld received=%ld not_received=%ld closed_by_server=%ld "
           "inputs_not_200=%ld first_not_state=%ld early=%ld p50_ms=%.3f p99_ms=%.3f min_ms=%.3f max_ms=%.3f "
           "span_ms=%.3f open_ms=%.0f rss_before_mb=%.1f rss_hold_mb=%.1f rss_after_mb=%.1f rss_closed_mb=%.1f "
           "threads_before=%ld threads_hold=%ld threads_after=%ld heartbeats=%ld open_before=%ld release_ms=%.0f "
           "released=%d complete=%d\n",
           total, opened, open_metric, parked_metric, received, not_received, closed_by_server, triggers_bad,
           first_not_state, early_before, p50, p99, min, max, last_message - trigger_started, open_ms,
           rss_before / 1024.0, rss_hold / 1024.0, rss_after / 1024.0, rss_closed / 1024.0, threads_before,
           threads_hold, threads_after, heartbeats, open_before, release_ms, released,
           started_ok && counted_ok && received_all);
    return received == total ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: lpclient longpoll|stream|create|each --port P [options] (see the comment at the top of lpclient.c)\n");
        return 2;
    }
    struct options o;
    memset(&o, 0, sizeof o);
    parse_options(argc, argv, &o);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(argv[1], "longpoll")) return mode_longpoll(&o);
    if (!strcmp(argv[1], "stream")) return mode_stream(&o);
    if (!strcmp(argv[1], "create")) return mode_create(&o);
    if (!strcmp(argv[1], "each")) return mode_each(&o);
    die("unknown mode %s", argv[1]);
    return 2;
}
