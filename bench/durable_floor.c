/*
 * durable_floor: the least a server on libmicrohttpd can do to answer a change only once it is
 * committed to SQLite, the durability rule of the saved state (issue #25), as a yardstick for
 * the store-on scenarios: the same daemon setup as bench/baseline.c, and the same kind of
 * writes as the server's SQLite store, with nothing else.
 *
 *   POST /sessions                       inserts a session row and its root scene's entry row;
 *                                        201 {"id":"<32 hex>"} once committed
 *   POST /sessions/<id>/<path>/input     updates the session's row and upserts the entry row of
 *                                        <path> with the body; then the document, once committed
 *   DELETE /sessions/<id>                deletes the session's rows; 204 once committed
 *   anything else                        the document, at once
 *
 * A request that changes the file is suspended and handed to one writer thread, which commits
 * everything handed to it meanwhile in one transaction (WAL, synchronous=NORMAL, the server's
 * schema and statements) and then resumes each connection; the resumed connection queues its
 * answer. No parsing beyond the path, no JSON: the floor of what the rule costs. A commit that
 * fails is answered 503 for every request in it (an input to a session it never made fails its
 * whole batch, through the foreign key): the bench sends none.
 *
 * Usage: durable_floor --doc FILE --state FILE [--port N (0: any)] [--threads 2]
 *                      [--connection-limit 16000] [--memory-limit 8192]
 * Prints "durable_floor listening on PORT" once it accepts; stops on SIGINT or SIGTERM.
 */
#include "mhd_server.h"

#include <sqlite3.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

enum kind { KIND_NONE, KIND_CREATE, KIND_INPUT, KIND_DELETE };

/* One request, kept in *con_cls from its first call to its end. */
struct request {
    enum kind kind;
    int resumed;             /* set by the writer before it resumes the connection */
    int failed;              /* the commit failed: 503 */
    struct MHD_Connection *connection;
    struct request *next;    /* in the writer's queue */
    char id[65];
    char key[65];
    char *body;
    size_t length;
};

static struct MHD_Response *document_response, *deleted_response, *failed_response;
static sqlite3 *db;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static struct request *queue_head, *queue_tail;
static const char navigation[] =
    "{\"stack\":[{\"scene\":\"films\",\"key\":\"films\"}],\"modal\":null,\"presentation\":\"push\",\"slots\":{}}";
static const char root_input[] = "{\"filter\":\"\",\"sort\":\"episode\"}";

enum { SQL_BEGIN, SQL_COMMIT, SQL_ROLLBACK, SQL_CREATE, SQL_TOUCH, SQL_UPSERT_ENTRY, SQL_DELETE, SQL_COUNT };
static const char *sql_text[SQL_COUNT] = {
    "BEGIN IMMEDIATE TRANSACTION",
    "COMMIT TRANSACTION",
    "ROLLBACK TRANSACTION",
    "INSERT INTO session (id, createdAt, lastUsed, version, navigation) VALUES (?, ?, ?, 1, ?)",
    "UPDATE session SET lastUsed = ?, version = version + 1 WHERE id = ?",
    "INSERT INTO entry (sessionId, position, key, scene, input) VALUES (?, 0, ?, ?, ?) "
    "ON CONFLICT(sessionId, key) DO UPDATE SET position = excluded.position, scene = excluded.scene, input = excluded.input",
    "DELETE FROM session WHERE id = ?",
};
static sqlite3_stmt *statements[SQL_COUNT];

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int run(int which) {
    int code = sqlite3_step(statements[which]);
    sqlite3_reset(statements[which]);
    sqlite3_clear_bindings(statements[which]);
    return code == SQLITE_DONE ? 0 : -1;
}

/* Writes the entry row of `key` (also its scene's name here) in session `id`. */
static int upsert_entry(const char *id, const char *key, const char *input, size_t length) {
    sqlite3_stmt *s = statements[SQL_UPSERT_ENTRY];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, key, -1, SQLITE_STATIC);
    sqlite3_bind_blob(s, 4, input, (int)length, SQLITE_STATIC);
    return run(SQL_UPSERT_ENTRY);
}

static int write_one(struct request *r, int64_t now) {
    sqlite3_stmt *s;
    switch (r->kind) {
    case KIND_CREATE:
        s = statements[SQL_CREATE];
        sqlite3_bind_text(s, 1, r->id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 2, now);
        sqlite3_bind_int64(s, 3, now);
        sqlite3_bind_blob(s, 4, navigation, sizeof navigation - 1, SQLITE_STATIC);
        if (run(SQL_CREATE) != 0) return -1;
        /* The root scene's entry, as the server saves its view model with the session. */
        return upsert_entry(r->id, "films", root_input, sizeof root_input - 1);
    case KIND_INPUT:
        s = statements[SQL_TOUCH];
        sqlite3_bind_int64(s, 1, now);
        sqlite3_bind_text(s, 2, r->id, -1, SQLITE_STATIC);
        if (run(SQL_TOUCH) != 0) return -1;
        return upsert_entry(r->id, r->key, r->body != NULL ? r->body : "", r->length);
    case KIND_DELETE:
        s = statements[SQL_DELETE];
        sqlite3_bind_text(s, 1, r->id, -1, SQLITE_STATIC);
        return run(SQL_DELETE);
    default:
        return 0;
    }
}

/* The writer: takes everything queued, commits it in one transaction, resumes each connection. */
static void *writer(void *unused) {
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (queue_head == NULL) pthread_cond_wait(&queue_ready, &queue_lock);
        struct request *batch = queue_head;
        queue_head = queue_tail = NULL;
        pthread_mutex_unlock(&queue_lock);

        int failed = run(SQL_BEGIN) != 0;
        int64_t now = now_ms();
        for (struct request *r = batch; r != NULL && !failed; r = r->next) failed = write_one(r, now) != 0;
        if (!failed) failed = run(SQL_COMMIT) != 0;
        if (failed && !sqlite3_get_autocommit(db)) run(SQL_ROLLBACK);
        while (batch != NULL) {
            struct request *next = batch->next;
            batch->failed = failed;
            batch->resumed = 1;
            MHD_resume_connection(batch->connection);
            batch = next;
        }
    }
    return NULL;
}

static void hand_to_writer(struct request *r) {
    MHD_suspend_connection(r->connection);
    r->next = NULL;
    pthread_mutex_lock(&queue_lock);
    if (queue_tail != NULL) queue_tail->next = r; else queue_head = r;
    queue_tail = r;
    pthread_cond_signal(&queue_ready);
    pthread_mutex_unlock(&queue_lock);
}

/* Copies the path segment at `from` (up to '/' or the end) into `to` (64 bytes at most). */
static const char *segment(const char *from, char *to) {
    size_t n = 0;
    while (from[n] != '\0' && from[n] != '/' && n < 64) { to[n] = from[n]; n++; }
    to[n] = '\0';
    return from + n;
}

static enum MHD_Result answer_created(struct MHD_Connection *connection, const char *id) {
    char text[96];
    int length = snprintf(text, sizeof text, "{\"id\":\"%s\"}", id);
    struct MHD_Response *response =
        MHD_create_response_from_buffer((size_t)length, text, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_CREATED, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **con_cls) {
    (void)cls; (void)version;
    struct request *r = *con_cls;
    if (r == NULL) {
        /* First call: headers only. Answering now would cost keep-alive. */
        r = calloc(1, sizeof *r);
        if (r == NULL) return MHD_NO;
        r->connection = connection;
        *con_cls = r;
        return MHD_YES;
    }
    if (r->resumed) {
        if (r->failed) return MHD_queue_response(connection, MHD_HTTP_SERVICE_UNAVAILABLE, failed_response);
        switch (r->kind) {
        case KIND_CREATE: return answer_created(connection, r->id);
        case KIND_DELETE: return MHD_queue_response(connection, MHD_HTTP_NO_CONTENT, deleted_response);
        default: return MHD_queue_response(connection, MHD_HTTP_OK, document_response);
        }
    }
    if (*upload_data_size != 0) {
        char *grown = realloc(r->body, r->length + *upload_data_size);
        if (grown == NULL) return MHD_NO;
        memcpy(grown + r->length, upload_data, *upload_data_size);
        r->body = grown;
        r->length += *upload_data_size;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "POST") == 0 && strcmp(url, "/sessions") == 0) {
        unsigned char bytes[16];
        if (getrandom(bytes, sizeof bytes, 0) != sizeof bytes) return MHD_NO;
        for (int i = 0; i < 16; i++) snprintf(r->id + 2 * i, 3, "%02x", bytes[i]);
        r->kind = KIND_CREATE;
        hand_to_writer(r);
        return MHD_YES;
    }
    if (strncmp(url, "/sessions/", 10) == 0) {
        const char *rest = segment(url + 10, r->id);
        if (strcmp(method, "DELETE") == 0 && *rest == '\0') {
            r->kind = KIND_DELETE;
            hand_to_writer(r);
            return MHD_YES;
        }
        size_t length = strlen(rest);
        if (strcmp(method, "POST") == 0 && length > 6 && strcmp(rest + length - 6, "/input") == 0) {
            /* The key: the path between the id and /input, e.g. /scenes/car. */
            size_t key_length = length - 6 < 64 ? length - 6 : 64;
            memcpy(r->key, rest, key_length);
            r->key[key_length] = '\0';
            r->kind = KIND_INPUT;
            hand_to_writer(r);
            return MHD_YES;
        }
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, document_response);
}

static void request_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                              enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    struct request *r = *con_cls;
    if (r == NULL) return;
    free(r->body);
    free(r);
    *con_cls = NULL;
}

static void open_state(const char *path) {
    if (sqlite3_open(path, &db) != SQLITE_OK) {
        fprintf(stderr, "durable_floor: cannot open %s: %s\n", path, sqlite3_errmsg(db));
        exit(2);
    }
    /* The server's pragmas (GRDB turns foreign keys on) and its schema. */
    const char *setup =
        "PRAGMA journal_mode = WAL;"
        "PRAGMA synchronous = NORMAL;"
        "PRAGMA foreign_keys = ON;"
        "CREATE TABLE IF NOT EXISTS session (id TEXT NOT NULL PRIMARY KEY, createdAt INTEGER NOT NULL,"
        " lastUsed INTEGER NOT NULL, version INTEGER NOT NULL, navigation BLOB NOT NULL,"
        " fence INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE IF NOT EXISTS entry (sessionId TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
        " position INTEGER NOT NULL, key TEXT NOT NULL, scene TEXT NOT NULL, input BLOB NOT NULL,"
        " PRIMARY KEY (sessionId, key));"
        "CREATE TABLE IF NOT EXISTS savedValue (sessionId TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
        " key TEXT NOT NULL, name TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (sessionId, key, name));";
    char *error = NULL;
    if (sqlite3_exec(db, setup, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "durable_floor: %s: %s\n", path, error);
        exit(2);
    }
    for (int i = 0; i < SQL_COUNT; i++) {
        if (sqlite3_prepare_v3(db, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT, &statements[i], NULL) != SQLITE_OK) {
            fprintf(stderr, "durable_floor: %s: %s\n", sql_text[i], sqlite3_errmsg(db));
            exit(2);
        }
    }
}

static void usage(void) {
    fprintf(stderr, "usage: durable_floor --doc FILE --state FILE [--port N] [--threads N] "
                    "[--connection-limit N] [--memory-limit BYTES]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *doc_path = NULL, *state_path = NULL;
    unsigned port = 0, threads = 2, connection_limit = 16000;
    size_t memory_limit = 8192;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) usage();
        const char *name = argv[i], *value = argv[++i];
        if (strcmp(name, "--doc") == 0) doc_path = value;
        else if (strcmp(name, "--state") == 0) state_path = value;
        else if (strcmp(name, "--port") == 0) port = (unsigned)atoi(value);
        else if (strcmp(name, "--threads") == 0) threads = (unsigned)atoi(value);
        else if (strcmp(name, "--connection-limit") == 0) connection_limit = (unsigned)atoi(value);
        else if (strcmp(name, "--memory-limit") == 0) memory_limit = (size_t)atol(value);
        else usage();
    }
    if (doc_path == NULL || state_path == NULL) usage();

    sigset_t signals;
    bench_prepare_process(&signals);

    size_t doc_length;
    const char *doc = bench_read_file("durable_floor", doc_path, &doc_length);
    document_response = bench_fixed_response(doc, doc_length, NULL);
    deleted_response = bench_fixed_response("", 0, NULL);
    failed_response = bench_fixed_response("", 0, NULL);
    open_state(state_path);

    pthread_t writer_thread;
    if (pthread_create(&writer_thread, NULL, writer, NULL) != 0) return 1;
    bench_start_daemon("durable_floor", port, threads, connection_limit, memory_limit, 30, access_handler,
                       request_completed);

    int received;
    sigwait(&signals, &received);
    /* A suspended connection makes MHD_stop_daemon abort: let the process end instead. */
    return 0;
}
