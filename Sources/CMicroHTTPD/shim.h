#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

/* microhttpd.h expects these system headers to be included before it. */
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* The daemon's settings, one struct, so that Swift never builds a C variadic list. */
struct mvvm_daemon_settings {
    unsigned int flags;
    uint16_t port;
    const struct sockaddr *address;
    unsigned int connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    unsigned int thread_pool_size;
    unsigned int listen_backlog;
};

/* A no-op unescaper: MHD keeps the raw path and query, and Swift decodes each segment
   itself, so that "%2F" stays inside one segment and "%00" cannot cut a C string short. */
static inline size_t mvvm_keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
    (void) cls; (void) connection;
    return strlen(text);
}

/* The request context that mvvm_check_query leaves for a request whose query it cut off. */
static inline void *mvvm_query_too_large_marker(void) {
    return (void *) (uintptr_t) 2;
}

/* libmicrohttpd 0.9.75 keeps one record per query argument (48 bytes, counted here as 64) in
   the connection's memory pool, beside the request line. When they do not fit, it queues a 431
   but then goes back to waiting for header fields, and the connection hangs until its timeout.
   Called as the URI log callback, before the arguments are parsed (the pool size is `cls`):
   a query whose line and records could fill the pool is emptied in place (libmicrohttpd
   parses the arguments from this same buffer right after this call, so none is stored) and
   the request gets a marker that makes the access handler refuse it with 414.
   The pool must also keep room for the header fields: 1 KiB, or half of a smaller pool. */
static inline void *mvvm_check_query(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void) connection;
    if (uri == NULL) return NULL;
    char *query = strchr(uri, '?');
    if (query == NULL || query[1] == 0) return NULL;
    size_t pool = (size_t) (uintptr_t) cls;
    size_t budget = pool > 2048 ? pool - 1024 : pool / 2;
    size_t length = strlen(uri);
    size_t arguments = 1;
    for (const char *at = query + 1; (at = strchr(at, '&')) != NULL; at++) arguments++;
    if (length + 64 * arguments <= budget) return NULL;
    query[1] = 0;
    return mvvm_query_too_large_marker();
}

/* MHD_start_daemon is variadic, and Swift does not import C variadic functions.
   `accept_policy` refuses a connection over the server's own limit by closing it at once
   (MHD's own limit, set a little higher, stops accepting and leaves clients in the backlog);
   `connection_notify` counts the connections open. */
static inline struct MHD_Daemon *mvvm_start_daemon(const struct mvvm_daemon_settings *settings,
                                                   MHD_AcceptPolicyCallback accept_policy,
                                                   MHD_NotifyConnectionCallback connection_notify,
                                                   MHD_AccessHandlerCallback access,
                                                   MHD_RequestCompletedCallback completed, void *cls) {
    return MHD_start_daemon(settings->flags, settings->port, accept_policy, cls, access, cls,
                            MHD_OPTION_SOCK_ADDR, settings->address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notify, cls,
                            MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit,
                            MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog,
                            MHD_OPTION_UNESCAPE_CALLBACK, mvvm_keep_escaped, NULL,
                            MHD_OPTION_URI_LOG_CALLBACK, mvvm_check_query,
                            (void *) (uintptr_t) settings->connection_memory_limit,
                            MHD_OPTION_END);
}

/* MHD_get_daemon_info returns a union pointer; Swift wants a plain port number. */
static inline uint16_t mvvm_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* MHD_get_connection_info returns a union pointer; Swift wants the plain values. */
static inline int mvvm_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

static inline void *mvvm_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

#endif
