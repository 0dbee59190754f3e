# Sourced by scripts/container-test and scripts/compose-test: builds the
# project's Dockerfile with podman from the local base images (base-images.sh
# must have set RUNTIME_BASE_IMAGE and the caller BUILD_BASE_IMAGE).

: "${CONTAINER_CACHE:?CONTAINER_CACHE must be set}"

# Prints the build context: the last commit by default, so other people's
# half-saved files stay out; the working tree itself when $1 is "worktree".
build_context() {
    local source=$1 root
    root=$(git rev-parse --show-toplevel)
    if [[ $source == worktree ]]; then echo "$root"; return; fi
    local context=$CONTAINER_CACHE/context
    rm -rf "$context" && mkdir -p "$context"
    git -C "$root" archive HEAD | tar -x -C "$context"
    # Package.resolved is git-ignored; pinning the same versions as the host is still right.
    [[ -f $root/Package.resolved ]] && cp "$root/Package.resolved" "$context/"
    echo "$context"
}

# build_service_image IMAGE CONTEXT: the Dockerfile at `nice -n 10` (the Swift
# build takes minutes of both cores; a rebuild of an unchanged context is a
# layer-cache hit in seconds). Prints podman's output on stderr.
build_service_image() {
    local image=$1 context=$2 root
    root=$(git rev-parse --show-toplevel)
    local -a mirror_mounts build_args
    mapfile -t mirror_mounts < <(package_mirror_mounts)
    build_args=(--format docker --layers
        --build-arg "BUILD_IMAGE=$BUILD_BASE_IMAGE" --build-arg "RUNTIME_IMAGE=$RUNTIME_BASE_IMAGE"
        "${mirror_mounts[@]}" -f "$root/Dockerfile")
    # The build stage gets a tag too, so the stages this run replaces (each ~1 GB of
    # compiler output) can be deleted by ID instead of piling up as <none> images.
    local build_stage_image=$image-build replaced current id
    replaced=$(podman image inspect --format '{{.Id}}' "$image" "$build_stage_image" 2>/dev/null || true)
    nice -n 10 podman build "${build_args[@]}" --target build -t "$build_stage_image" "$context" >&2 || return 1
    nice -n 10 podman build "${build_args[@]}" -t "$image" "$context" >&2 || return 1
    current=$(podman image inspect --format '{{.Id}}' "$image" "$build_stage_image")
    for id in $replaced; do
        grep -q "$id" <<<"$current" || podman rmi "$id" >/dev/null 2>&1 || true
    done
}
