# Sourced by scripts/container-test. Makes the two local base images the
# Dockerfile's build ARGs point at, because no registry is reachable here:
#   - a runtime base: Debian bookworm minbase from debootstrap, trimmed like the
#     official "slim" images (no docs, man pages or locales, no apt lists);
#   - a build base: the same root plus the Swift toolchain `swift` runs from and
#     the system libraries that toolchain needs, standing in for docker.io/library/swift:6.3-noble.
# Both are cached: the root file system as a tarball under $CONTAINER_CACHE and
# the images in podman's storage, so a second run skips straight to the build.

: "${CONTAINER_CACHE:?CONTAINER_CACHE must be set}"
: "${CONTAINER_SCRIPTS:?CONTAINER_SCRIPTS must be set}"

DEBIAN_SUITE=bookworm
RUNTIME_BASE_IMAGE=localhost/streamservice/debian:${DEBIAN_SUITE}-minbase

# The Debian mirror apt already uses on this machine (DEBIAN_MIRROR overrides).
debian_mirror() {
    if [[ -n ${DEBIAN_MIRROR:-} ]]; then echo "$DEBIAN_MIRROR"; return; fi
    local uri
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
        grep -E '^[[:space:]]*(deb|URIs:)[[:space:]]' | grep -Eo '(https?|file)://[^ ]*/debian/?' | head -1 || true)
    echo "${uri:-http://deb.debian.org/debian}"
}

# The toolchain root `swift` runs from: <root>/usr/bin/swift -> <root>.
swift_toolchain_root() {
    local swift_bin
    swift_bin=$(readlink -f "$(command -v swift)")
    dirname "$(dirname "$(dirname "$swift_bin")")"
}

swift_toolchain_version() {
    swift --version 2>/dev/null | grep -Eo 'Swift version [0-9.]+' | awk '{print $3}'
}

# Trims a fresh debootstrap root the way Debian's slim images are trimmed, and
# makes dpkg keep it that way for packages installed later (tzdata, libssl...).
trim_debian_root() {
    local root=$1
    cat > "$root/etc/dpkg/dpkg.cfg.d/container-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
EOF
    cat > "$root/etc/apt/apt.conf.d/container-slim" <<'EOF'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Languages "none";
EOF
    find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$root"/usr/share/{man,info,groff,lintian,locale}/* \
        "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
        "$root"/var/lib/apt/lists/* "$root"/var/log/*.log "$root"/var/log/apt/* \
        "$root"/tmp/* "$root"/root/.bash_history
    # debootstrap copies the host's resolver and hostname; the engine injects its own.
    : > "$root/etc/resolv.conf"
    echo localhost > "$root/etc/hostname"
}

ensure_runtime_base_image() {
    if podman image exists "$RUNTIME_BASE_IMAGE"; then
        echo "base image $RUNTIME_BASE_IMAGE: cached"
        return
    fi
    local tarball=$CONTAINER_CACHE/${DEBIAN_SUITE}-minbase.tar
    if [[ ! -s $tarball ]]; then
        local mirror root
        mirror=$(debian_mirror)
        root=$CONTAINER_CACHE/rootfs-${DEBIAN_SUITE}
        rm -rf "$root"
        echo "debootstrap --variant=minbase $DEBIAN_SUITE from $mirror"
        debootstrap --variant=minbase "$DEBIAN_SUITE" "$root" "$mirror" > "$CONTAINER_CACHE/debootstrap.log" 2>&1 || {
            echo "error: debootstrap failed, see $CONTAINER_CACHE/debootstrap.log" >&2; return 1; }
        trim_debian_root "$root"
        tar --numeric-owner -C "$root" -cf "$tarball.partial" .
        mv "$tarball.partial" "$tarball"
        rm -rf "$root"
    fi
    podman import --change 'CMD ["/bin/bash"]' "$tarball" "$RUNTIME_BASE_IMAGE" >/dev/null
    echo "base image $RUNTIME_BASE_IMAGE: imported"
}

# Prints the build-stage image name; builds it when missing. The tag carries the
# toolchain version and a hash of its Containerfile, so either changing rebuilds it.
ensure_build_base_image() {
    local containerfile=$CONTAINER_SCRIPTS/swift-build-base.Containerfile
    local toolchain version recipe image
    toolchain=$(swift_toolchain_root)
    version=$(swift_toolchain_version)
    recipe=$(sha256sum "$containerfile" | cut -c1-12)
    image=localhost/streamservice/swift:${version}-${DEBIAN_SUITE}-${recipe}
    if podman image exists "$image"; then
        echo "build image $image: cached" >&2
    else
        echo "build image $image: building from $RUNTIME_BASE_IMAGE + toolchain $toolchain" >&2
        nice -n 10 podman build --format docker --layers \
            --build-arg "BASE_IMAGE=$RUNTIME_BASE_IMAGE" \
            -v "$toolchain:/mnt/swift-toolchain:ro" \
            -f "$containerfile" -t "$image" "$CONTAINER_SCRIPTS" >&2
    fi
    echo "$image"
}
