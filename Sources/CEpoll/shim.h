// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// epoll and eventfd for NetCore's Linux event loop (Glibc's Swift module leaves them out),
// and thread naming, which glibc declares only under _GNU_SOURCE.
#ifdef __linux__
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

extern int pthread_setname_np(pthread_t thread, const char *name);

static inline int cepoll_name_current_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
#endif
