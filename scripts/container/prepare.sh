# Sourced by scripts/container-test and scripts/compose-test: loads the shared
# container helpers and gets this host ready to build and run the images.
: "${CONTAINER_SCRIPTS:?CONTAINER_SCRIPTS must be set}"

# shellcheck source=scripts/container/podman-setup.sh
source "$CONTAINER_SCRIPTS/podman-setup.sh"
# shellcheck source=scripts/container/base-images.sh
source "$CONTAINER_SCRIPTS/base-images.sh"
# shellcheck source=scripts/container/service-checks.sh
source "$CONTAINER_SCRIPTS/service-checks.sh"
# shellcheck source=scripts/container/service-image.sh
source "$CONTAINER_SCRIPTS/service-image.sh"

# prepare_container_host TOOL...: root, the named tools on PATH, podman & co
# installed, the project's containers.conf, and both local base images (sets
# RUNTIME_BASE_IMAGE and BUILD_BASE_IMAGE). Exits on what is missing.
prepare_container_host() {
    if [[ $(id -u) -ne 0 ]]; then
        echo "error: run as root (debootstrap and rootful podman need it)." >&2
        exit 1
    fi
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || { echo "error: '$tool' is required on PATH." >&2; exit 1; }
    done
    mkdir -p "$CONTAINER_CACHE"
    ensure_container_tools || exit 1
    use_project_containers_conf

    echo "== local base images"
    ensure_runtime_base_image || exit 1
    BUILD_BASE_IMAGE=$(ensure_build_base_image) || exit 1
}
