#define _GNU_SOURCE
#include "CNetwork.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

int cn_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = {.events = events, .data = {.u64 = token}};
    return epoll_ctl(epoll, operation, fd, &event);
}

int cn_epoll_wait(int epoll, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, ready, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        tokens[index] = ready[index].data.u64;
        events[index] = ready[index].events;
    }
    return count;
}

void cn_raise_descriptor_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

int cn_listen_tcp(const char *host, int port, int backlog, int *bound_port) {
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    /* An IPv6 literal ("::", "::1") listens on IPv6, dual-stack: "::" serves IPv4 peers too
       (as ::ffff:a.b.c.d). Anything else, names included, listens on IPv4 as before. */
    int six = strchr(host, ':') != NULL;
    hints.ai_family = six ? AF_INET6 : AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | (six ? AI_NUMERICHOST : 0);
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    if (getaddrinfo(host, service, &hints, &found) != 0 || found == NULL) return -1;
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int on = 1, off = 0;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
        || (six && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off) != 0)
        || bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
        if (fd >= 0) close(fd);
        freeaddrinfo(found);
        return -1;
    }
    freeaddrinfo(found);
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        close(fd);
        return -1;
    }
    *bound_port = address.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&address)->sin6_port)
                                                : ntohs(((struct sockaddr_in *)&address)->sin_port);
    return fd;
}

int cn_accept(int listener) {
    int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return -1;
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    return fd;
}

void cn_peer_numeric_address(int fd, char *out, size_t size) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    const char *text = NULL;
    if (size == 0) return;
    out[0] = 0;
    if (getpeername(fd, (struct sockaddr *)&address, &length) == 0) {
        if (address.ss_family == AF_INET)
            text = inet_ntop(AF_INET, &((struct sockaddr_in *)&address)->sin_addr, out, (socklen_t)size);
        else if (address.ss_family == AF_INET6)
            text = inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&address)->sin6_addr, out, (socklen_t)size);
    }
    if (text == NULL) snprintf(out, size, "?");
}

int cn_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void cn_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof one);
    (void)written;
}

void cn_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t got = read(fd, &value, sizeof value);
    (void)got;
}

ssize_t cn_send(int fd, const void *bytes, size_t count, int more) {
    return send(fd, bytes, count, MSG_NOSIGNAL | (more ? MSG_MORE : 0));
}

ssize_t cn_send2(int fd, const void *first, size_t first_count, const void *second, size_t second_count, int more) {
    struct iovec parts[2] = {{(void *)first, first_count}, {(void *)second, second_count}};
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = parts;
    message.msg_iovlen = 2;
    return sendmsg(fd, &message, MSG_NOSIGNAL | (more ? MSG_MORE : 0));
}

int cn_errno(void) { return errno; }

void cn_release_free_memory(void) {
    malloc_trim(0);
}

void cn_use_one_heap_arena(void) {
    mallopt(M_ARENA_MAX, 1);
}

void cn_lower_thread_priority(int nice) {
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
