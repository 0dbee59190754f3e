# Sourced by the scripts that build the service to run or measure it (serve, cluster, bench-server,
# bench-users): one set of release flags, so they share one build instead of rebuilding each other's.
# -cross-module-optimization lets Domain and HTTP specialise Streams' generic operators for their
# element types: generic metadata lookups were 13 % of a /users request, 14.6 M → 12.5 M instructions
# (Benchmarks/README.md). A command-line flag, not a Package.swift setting: unsafeFlags there would
# make the library products unusable as a versioned dependency. The Dockerfile passes the same flags.
# -ljemalloc (libjemalloc-dev) replaces glibc's malloc, as the Hummingbird and Vapor templates'
# Dockerfiles do: a /users request allocates about 5,700 blocks, and glibc spent 21 % of its
# instructions in malloc/free, jemalloc 8 % (6.95 M → 6.03 M instructions per request, callgrind).
RELEASE_BUILD=(-c release -Xswiftc -cross-module-optimization -Xlinker -ljemalloc)
# The peers in Benchmarks/Peers are built as their own template builds them (release, jemalloc), so
# the allocator is not a difference between ours and theirs.
PEER_RELEASE_BUILD=(-c release -Xlinker -ljemalloc)
# Every release build links these, so each script building one checks for them (or installs them as root).
source "$(dirname "${BASH_SOURCE[0]}")/system-packages.sh"
ensure_system_packages "${BUILD_PACKAGES[@]}"
