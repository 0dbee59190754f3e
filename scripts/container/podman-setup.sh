# Sourced by scripts/container-test: makes sure podman and friends are installed
# and points podman at the project's containers.conf.

CONTAINER_TOOLS=(podman buildah debootstrap runc)

ensure_container_tools() {
    local missing=() tool
    for tool in "${CONTAINER_TOOLS[@]}"; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    ((${#missing[@]} == 0)) && return 0
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing ${missing[*]}" >&2
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${CONTAINER_TOOLS[@]}" >&2; }; then
            echo "error: could not install ${CONTAINER_TOOLS[*]} with apt-get." >&2
            return 1
        fi
    else
        echo "error: missing ${missing[*]}; install with: sudo apt-get install -y ${CONTAINER_TOOLS[*]}" >&2
        return 1
    fi
}

use_project_containers_conf() {
    export CONTAINERS_CONF=${CONTAINERS_CONF:-$CONTAINER_SCRIPTS/containers.conf}
}

# The local folders git rewrites github.com to (url.<dir>.insteadOf) and the
# config files saying so: the build stage needs both, at the same paths, to
# resolve packages from the local mirror. Prints `-v` options, one per line.
package_mirror_mounts() {
    local origin key dir
    declare -A seen=()
    while read -r origin key _; do
        origin=${origin#file:}
        dir=${key#url.}
        dir=${dir%.insteadof}
        if [[ -f $origin && -z ${seen[$origin]:-} ]]; then
            seen[$origin]=1
            echo "-v=$origin:$origin:ro"
        fi
        if [[ $dir == /* && -d $dir && -z ${seen[$dir]:-} ]]; then
            seen[$dir]=1
            echo "-v=${dir%/}:${dir%/}:ro"
        fi
    done < <(git config --show-origin --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true)
}

# podman schedules HEALTHCHECKs with systemd timers; this machine has no systemd,
# so every container start logs that error. `podman healthcheck run` still works,
# so drop just that message and keep everything else podman says.
podman() {
    command podman "$@" 2> >(grep -v 'systemd connection' >&2)
}

# podman 4.3 (Debian 12) has no `podman compose`; podman-compose from PyPI runs
# compose files on it. Pinned to the version scripts/compose-test was proven
# with (Debian's package is the older 1.0.3), in a venv under $CONTAINER_CACHE
# so the system Python stays untouched. Prints the command to run;
# PODMAN_COMPOSE overrides it.
PODMAN_COMPOSE_VERSION=1.6.0

ensure_podman_compose() {
    if [[ -n ${PODMAN_COMPOSE:-} ]]; then echo "$PODMAN_COMPOSE"; return; fi
    local venv=$CONTAINER_CACHE/podman-compose
    if [[ ! -x $venv/bin/podman-compose ]] ||
        [[ $("$venv/bin/podman-compose" version 2>/dev/null | sed -n 's/^podman-compose version //p') != "$PODMAN_COMPOSE_VERSION" ]]; then
        echo "Installing podman-compose $PODMAN_COMPOSE_VERSION into $venv" >&2
        python3 -m venv "$venv" >&2 &&
            "$venv/bin/pip" install -q "podman-compose==$PODMAN_COMPOSE_VERSION" >&2 || {
            echo "error: could not install podman-compose $PODMAN_COMPOSE_VERSION with pip." >&2; return 1; }
    fi
    echo "$venv/bin/podman-compose"
}
