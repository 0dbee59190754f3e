# StreamService container image.
#
#   docker build -t stream-service .
#   docker run --rm -p 8080:8080 stream-service
#
# Both base images are build arguments; scripts/container-test builds this file
# with podman from local Debian-based images when no registry is reachable.
ARG BUILD_IMAGE=docker.io/library/swift:6.3-noble
ARG RUNTIME_IMAGE=docker.io/library/ubuntu:noble

# ---- build ---------------------------------------------------------------
FROM ${BUILD_IMAGE} AS build

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libssl-dev zlib1g-dev libjemalloc-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Dependencies first, in their own layer: source edits do not re-fetch them.
COPY Package.* ./
RUN swift package resolve

COPY Sources ./Sources
# Embedded in the binary through the symlink Sources/Server/App/openapi.yaml.
COPY openapi.yaml ./
# The manifest declares the test targets, so their folders must exist to load it.
COPY Tests ./Tests
# Resource bundles, if a target ever gets one, must sit next to the binary.
# Stripping saves 15 MB (debug info and symbols); to symbolicate a crash
# backtrace use the unstripped binary in this stage (`--target build`).
# The flags of scripts/lib/release-build.sh: -cross-module-optimization (Streams' operators specialised
# in their callers) and jemalloc as the allocator.
RUN swift build -c release -Xswiftc -cross-module-optimization -Xlinker -ljemalloc --static-swift-stdlib --product stream-service \
 && bin="$(swift build -c release -Xswiftc -cross-module-optimization -Xlinker -ljemalloc --show-bin-path)" \
 && mkdir -p /staging \
 && cp "$bin/stream-service" /staging/ \
 && find "$bin" -maxdepth 1 -name '*.resources' -exec cp -R {} /staging/ \; \
 && strip /staging/stream-service

# ---- runtime -------------------------------------------------------------
FROM ${RUNTIME_IMAGE} AS runtime

# Exactly what `ldd stream-service` lists (OpenSSL 3, zlib, jemalloc, libstdc++, libgcc;
# glibc is in every base), plus CA roots for https upstreams and zone data for
# log timestamps. Ubuntu noble names the OpenSSL 3 runtime libssl3t64, Debian
# bookworm libssl3.
RUN set -eu; \
    apt-get update; \
    libssl=libssl3; \
    if apt-cache show libssl3t64 >/dev/null 2>&1; then libssl=libssl3t64; fi; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates tzdata zlib1g libjemalloc2 libstdc++6 libgcc-s1 "$libssl"; \
    rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log

RUN groupadd --system --gid 10001 streamservice \
 && useradd --system --uid 10001 --gid streamservice --no-create-home \
      --home-dir /nonexistent --shell /usr/sbin/nologin streamservice

COPY --from=build /staging/ /usr/local/bin/
# Fail the build here, not at start-up, if a shared library is missing.
RUN if command -v ldd >/dev/null && ldd /usr/local/bin/stream-service | grep 'not found'; then exit 1; fi

USER 10001:10001

# Configuration comes only from environment variables (HOST, PORT, UPSTREAM_URL,
# GITHUB_TOKEN, DEMO_*, LOG_LEVEL, ... see docs/operations.md); no config files. Logs go to
# stdout, as JSON lines here because container log collectors parse them.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    LOG_FORMAT=json

EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["stream-service", "healthcheck"]

ENTRYPOINT ["stream-service"]
CMD ["serve"]
