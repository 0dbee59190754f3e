#ifndef C_PROCESS_SPAWN_H
#define C_PROCESS_SPAWN_H

#include <spawn.h>

// glibc's GNU extensions ChildProcess needs: Swift's Glibc module is built without _GNU_SOURCE, so
// they are declared here and defined in CProcessSpawn.c, which defines it (as CNIOLinux does for swift-nio).

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from their creation, with no moment in which
/// another thread's child could inherit them.
int c_process_spawn_cloexec_pipe(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor >= from.
int c_process_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from);

#endif
