/*
 * baseline: the raw-libmicrohttpd yardstick of the benchmarks.
 *
 * It answers fixed bytes, read once at start, with the same daemon setup as MVVMServer
 * (internal polling thread pool on epoll, suspend/resume allowed, explicit connection limit,
 * 8 KiB per-connection memory pool, listen backlog 4096):
 *
 *   GET  with `wait=` in the query    suspended until an input (below) resumes it, then the document
 *   GET  /metrics                     `mvvm_parked_requests N` (how many GETs are suspended now)
 *   GET  anything else                the state document
 *   POST /sessions                    201 and the created-session body
 *   POST /fire                        resumes every suspended GET, then the document
 *   POST <path>/input                 resumes the GETs suspended on <path>, then the document
 *   POST anything else                the document
 *   DELETE anything                   204
 *
 * Keep-alive: libmicrohttpd 0.9.75 answers `Connection: close` when a response is queued on the
 * first call of a request, so every request is answered on a later call (for bodies, the final
 * call, when *upload_data_size is 0).
 *
 * Usage: baseline --doc FILE --created FILE [--port N (0: any)] [--threads 2]
 *                 [--connection-limit 16000] [--memory-limit 8192] [--timeout 30]
 * Prints "baseline listening on PORT" once it accepts; stops on SIGINT or SIGTERM.
 */
#include "mhd_server.h"

#include <stdatomic.h>
#include <unistd.h>

/* Request phases kept in *con_cls (their addresses are the markers). */
static char phase_started, phase_parked;

static struct MHD_Response *document_response, *created_response, *deleted_response;

/* Suspended connections, by path, in a hash table guarded by one mutex. */
struct parked {
    struct MHD_Connection *connection;
    struct parked *next;
    char path[];
};

#define BUCKETS 16384
static struct parked *buckets[BUCKETS];
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_long parked_count;

static unsigned hash_path(const char *path, size_t length) {
    unsigned h = 2166136261u;
    for (size_t i = 0; i < length; i++) h = (h ^ (unsigned char)path[i]) * 16777619u;
    return h % BUCKETS;
}

static void park(struct MHD_Connection *connection, const char *path) {
    size_t length = strlen(path);
    struct parked *entry = malloc(sizeof *entry + length + 1);
    if (entry == NULL) abort();
    entry->connection = connection;
    memcpy(entry->path, path, length + 1);
    unsigned bucket = hash_path(path, length);
    pthread_mutex_lock(&parked_lock);
    /* Suspend inside the lock: a resume that finds the entry must find it suspended. */
    MHD_suspend_connection(connection);
    entry->next = buckets[bucket];
    buckets[bucket] = entry;
    atomic_fetch_add(&parked_count, 1);
    pthread_mutex_unlock(&parked_lock);
}

/* Resumes the connections parked on `path` (`length` bytes), or every one when path is NULL.
   Each entry leaves the table as it is resumed, so each connection is resumed exactly once. */
static void resume_parked(const char *path, size_t length) {
    struct parked *taken = NULL;
    pthread_mutex_lock(&parked_lock);
    unsigned first = 0, last = BUCKETS - 1;
    if (path != NULL) first = last = hash_path(path, length);
    for (unsigned b = first; b <= last; b++) {
        struct parked **link = &buckets[b];
        while (*link != NULL) {
            struct parked *entry = *link;
            if (path == NULL || (strlen(entry->path) == length && memcmp(entry->path, path, length) == 0)) {
                *link = entry->next;
                MHD_resume_connection(entry->connection);
                atomic_fetch_sub(&parked_count, 1);
                entry->next = taken;
                taken = entry;
            } else {
                link = &entry->next;
            }
        }
    }
    pthread_mutex_unlock(&parked_lock);
    while (taken != NULL) {
        struct parked *next = taken->next;
        free(taken);
        taken = next;
    }
}

static enum MHD_Result answer_metrics(struct MHD_Connection *connection) {
    char text[128];
    int length = snprintf(text, sizeof text,
                          "# TYPE mvvm_parked_requests gauge\nmvvm_parked_requests %ld\n",
                          (long)atomic_load(&parked_count));
    struct MHD_Response *response =
        MHD_create_response_from_buffer((size_t)length, text, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "text/plain; version=0.0.4");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

static int ends_with(const char *text, const char *suffix) {
    size_t a = strlen(text), b = strlen(suffix);
    return a >= b && strcmp(text + a - b, suffix) == 0;
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **con_cls) {
    (void)cls; (void)version; (void)upload_data;
    if (*con_cls == NULL) {
        /* First call: headers only. Answering now would cost keep-alive. */
        *con_cls = &phase_started;
        return MHD_YES;
    }
    if (*con_cls == &phase_parked) {
        /* Resumed by an input. */
        return MHD_queue_response(connection, MHD_HTTP_OK, document_response);
    }
    if (*upload_data_size != 0) {
        /* Body bytes: the baseline does not need them. */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0) {
        if (MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "wait") != NULL) {
            *con_cls = &phase_parked;
            park(connection, url);
            return MHD_YES;
        }
        if (strcmp(url, "/metrics") == 0) return answer_metrics(connection);
        return MHD_queue_response(connection, MHD_HTTP_OK, document_response);
    }
    if (strcmp(method, "POST") == 0) {
        if (strcmp(url, "/sessions") == 0)
            return MHD_queue_response(connection, MHD_HTTP_CREATED, created_response);
        if (strcmp(url, "/fire") == 0) {
            resume_parked(NULL, 0);
        } else if (ends_with(url, "/input")) {
            resume_parked(url, strlen(url) - strlen("/input"));
        }
        return MHD_queue_response(connection, MHD_HTTP_OK, document_response);
    }
    if (strcmp(method, "DELETE") == 0)
        return MHD_queue_response(connection, MHD_HTTP_NO_CONTENT, deleted_response);
    return MHD_queue_response(connection, MHD_HTTP_OK, document_response);
}

static void usage(void) {
    fprintf(stderr, "usage: baseline --doc FILE --created FILE [--port N] [--threads N] "
                    "[--connection-limit N] [--memory-limit BYTES] [--timeout SECONDS]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *doc_path = NULL, *created_path = NULL;
    unsigned port = 0, threads = 2, connection_limit = 16000, timeout = 30;
    size_t memory_limit = 8192;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage();
        const char *name = argv[i], *value = argv[++i];
        if (strcmp(name, "--doc") == 0) doc_path = value;
        else if (strcmp(name, "--created") == 0) created_path = value;
        else if (strcmp(name, "--port") == 0) port = (unsigned)atoi(value);
        else if (strcmp(name, "--threads") == 0) threads = (unsigned)atoi(value);
        else if (strcmp(name, "--connection-limit") == 0) connection_limit = (unsigned)atoi(value);
        else if (strcmp(name, "--memory-limit") == 0) memory_limit = (size_t)atol(value);
        else if (strcmp(name, "--timeout") == 0) timeout = (unsigned)atoi(value);
        else usage();
    }
    if (doc_path == NULL || created_path == NULL) usage();

    sigset_t signals;
    bench_prepare_process(&signals);

    size_t doc_length, created_length;
    const char *doc = bench_read_file("baseline", doc_path, &doc_length);
    const char *created = bench_read_file("baseline", created_path, &created_length);
    /* The same ETag as the server gives the document: its version. */
    char etag[64] = "";
    const char *version = NULL;
    for (const char *p = doc; (p = strstr(p, "\"version\":")) != NULL; p++) version = p;
    if (version != NULL) snprintf(etag, sizeof etag, "\"%ld\"", strtol(version + 10, NULL, 10));
    document_response = bench_fixed_response(doc, doc_length, etag[0] ? etag : NULL);
    created_response = bench_fixed_response(created, created_length, NULL);
    deleted_response = bench_fixed_response("", 0, NULL);

    /* Signals are taken by sigwait below, never by MHD's threads. */
    struct MHD_Daemon *daemon = bench_start_daemon("baseline", port, threads, connection_limit, memory_limit,
                                                   timeout, access_handler, NULL);

    int received;
    sigwait(&signals, &received);
    /* MHD_stop_daemon aborts while a connection is suspended: resume them all, let them go. */
    resume_parked(NULL, 0);
    usleep(200 * 1000);
    if (atomic_load(&parked_count) == 0) MHD_stop_daemon(daemon);
    return 0;
}
