#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "CProcessSpawn.h"

int c_process_spawn_cloexec_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int c_process_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
