# Sourced by scripts/serve and scripts/test: makes sure the Swift toolchain and the
# Debian packages a script needs are present, installing them when run as root.
#
# The package sets, one per script:
BUILD_PACKAGES=(libssl-dev zlib1g-dev libjemalloc-dev)                                # the C libraries the package links
BROWSER_PACKAGES=(chromium chromium-driver python3-selenium)            # a real headless browser, driven by Selenium
JWT_PACKAGES=(python3-jwt python3-cryptography)                         # PyJWT: the tests' tokens come from a library nobody here wrote
# HTTP/2 peers for the tests: curl (with nghttp2), nghttp and h2load as clients, nghttpd as the h2-only
# TLS upstream of the HTTP/2 client's tests, and Python's h2 (PyPI's `h2`, packaged by Debian for the
# system interpreter, where PEP 668 keeps pip out) for frame-level cases on either side.
H2_PACKAGES=(curl nghttp2-client nghttp2-server python3-h2)
CLUSTER_PACKAGES=(redis-server haproxy python3 openssl)                   # scripts/cluster: Redis, the balancer, its client and its certificate
K8S_PACKAGES=(python3-venv)                                             # scripts/k8s-validate installs kubernetes-validate into a venv
TEST_PACKAGES=("${BUILD_PACKAGES[@]}" redis-server "${BROWSER_PACKAGES[@]}" "${JWT_PACKAGES[@]}" "${H2_PACKAGES[@]}" "${K8S_PACKAGES[@]}")  # real Redis, a real browser, PyJWT, real HTTP/2 clients and a venv for the tests

# ensure_system_packages PACKAGE...: installs the missing ones (as root) or names them and exits 1.
ensure_system_packages() {
    if ! command -v swift >/dev/null 2>&1; then
        echo "error: 'swift' is not on PATH. Install Swift 6 (https://www.swift.org/install) and retry." >&2
        exit 1
    fi
    local missing=()
    for pkg in "$@"; do
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
