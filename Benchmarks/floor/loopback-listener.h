// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/* The listening socket both floors open per thread: 127.0.0.1 only, SO_REUSEPORT so that each
 * thread has its own and the kernel spreads connections over them. Exits naming `program` on failure. */
#ifndef LOOPBACK_LISTENER_H
#define LOOPBACK_LISTENER_H
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

static int listen_socket(int port, const char *program) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 4096) != 0) {
        fprintf(stderr, "%s: ", program);
        perror("bind/listen");
        exit(1);
    }
    return fd;
}
#endif
