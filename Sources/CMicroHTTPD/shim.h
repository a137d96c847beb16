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
