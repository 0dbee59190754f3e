# Sourced by every script that builds the service to run or measure it (serve, cluster, h2spec --release,
# bench-server, bench-users, bench-auth, bench-auth-sse, bench-h2, bench-h2-users, bench-h2-sse): one
# release configuration in one folder, built by release_service_binary below, so no script's build
# undoes another's. (`h2spec --release` used to build plain `-c release` into the folder scripts/serve
# builds with these flags, and each then rebuilt everything: 216 s + 138 s; three bench scripts kept a
# second copy in .build-release.) Debug builds (swift test, browser-test, h2spec, CONFIG=debug
# cluster) live in .build/debug beside it and never touch it.
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
RELEASE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# release_service_binary: builds stream-service with RELEASE_BUILD (progress on stderr) and prints the
# binary's path. The folder is the package's .build; ROOT_SCRATCH (relative to the package) moves it,
# e.g. to keep a measured binary apart from one being edited.
release_service_binary() {
    local build=(swift build "${RELEASE_BUILD[@]}" --scratch-path "${ROOT_SCRATCH:-.build}")
    (cd "$RELEASE_ROOT" && "${build[@]}" --product stream-service >&2)
    echo "$(cd "$RELEASE_ROOT" && "${build[@]}" --show-bin-path)/stream-service"
}
# Every release build links these, so each script building one checks for them (or installs them as root).
source "$(dirname "${BASH_SOURCE[0]}")/system-packages.sh"
ensure_system_packages "${BUILD_PACKAGES[@]}"
