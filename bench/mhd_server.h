/*
 * mhd_server.h: what bench/baseline.c and bench/durable_floor.c share, so that both yardsticks
 * run libmicrohttpd exactly as MVVMServer does (internal polling thread pool on epoll,
 * suspend/resume allowed, explicit connection limit, per-connection memory pool, listen backlog
 * 4096) and answer with the same kind of fixed responses.
 */
#ifndef MVVM_BENCH_MHD_SERVER_H
#define MVVM_BENCH_MHD_SERVER_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* The whole of a file, read once at start; exits with a message naming `program` on failure. */
static char *bench_read_file(const char *program, const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "%s: cannot open %s: %s\n", program, path, strerror(errno));
        exit(2);
    }
    size_t capacity = 4096, used = 0;
    char *bytes = malloc(capacity);
    size_t got;
    while (bytes != NULL && (got = fread(bytes + used, 1, capacity - used, file)) > 0) {
        used += got;
        if (used == capacity) bytes = realloc(bytes, capacity *= 2);
    }
    fclose(file);
    if (bytes == NULL) abort();
    *length = used;
    return bytes;
}

/* A response of fixed bytes (kept by the caller), JSON when not empty, never cached. */
static struct MHD_Response *bench_fixed_response(const char *bytes, size_t length, const char *etag) {
    struct MHD_Response *response =
        MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_PERSISTENT);
    if (response == NULL) abort();
    if (length > 0) MHD_add_response_header(response, "Content-Type", "application/json");
    if (etag != NULL) MHD_add_response_header(response, "ETag", etag);
    MHD_add_response_header(response, "Cache-Control", "no-store");
    return response;
}

/* Raises the open-file limit to its hard limit, blocks SIGINT and SIGTERM in every thread (the
   caller takes them with sigwait on `signals`) and ignores SIGPIPE. Call before any thread. */
static void bench_prepare_process(sigset_t *signals) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    sigemptyset(signals);
    sigaddset(signals, SIGINT);
    sigaddset(signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, signals, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Starts the daemon with MVVMServer's setup and prints "<program> listening on <port>";
   `completed` (may be NULL) is called when a request ends. Exits on failure. */
static struct MHD_Daemon *bench_start_daemon(const char *program, unsigned port, unsigned threads,
                                             unsigned connection_limit, size_t memory_limit, unsigned timeout,
                                             MHD_AccessHandlerCallback handler,
                                             MHD_RequestCompletedCallback completed) {
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port,
        NULL, NULL, handler, NULL,
        MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 4096u,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "%s: MHD_start_daemon failed (port %u)\n", program, port);
        exit(1);
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("%s listening on %u\n", program, info != NULL ? info->port : port);
    fflush(stdout);
    return daemon;
}

#endif
