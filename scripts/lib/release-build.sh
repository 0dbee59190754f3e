# Sourced by the scripts that build the service to run or measure it (serve, cluster, bench-server,
# bench-users): one set of release flags, so they share one build instead of rebuilding each other's.
# -cross-module-optimization lets Domain and HTTP specialise Streams' generic operators for their
# element types: generic metadata lookups were 13 % of a /users request, 14.6 M → 12.5 M instructions
# (Benchmarks/README.md). A command-line flag, not a Package.swift setting: unsafeFlags there would
# make the library products unusable as a versioned dependency. The Dockerfile passes the same flag.
RELEASE_BUILD=(-c release -Xswiftc -cross-module-optimization)
