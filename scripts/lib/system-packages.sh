# Sourced by scripts/serve and scripts/test: makes sure the C libraries the
# package links (zlib, OpenSSL) and the Swift toolchain are present.
# Extra arguments name more packages to require, e.g. redis-server for the tests.
ensure_system_packages() {
    if ! command -v swift >/dev/null 2>&1; then
        echo "error: 'swift' is not on PATH. Install Swift 6 (https://www.swift.org/install) and retry." >&2
        exit 1
    fi
    local missing=()
    for pkg in libssl-dev zlib1g-dev "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing missing system packages: ${missing[*]}" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2 || {
            echo "error: could not install ${missing[*]} with apt-get." >&2; exit 1; }
    else
        echo "error: missing system packages: ${missing[*]}" >&2
        echo "       install them with: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
}
