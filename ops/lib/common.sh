# Shared helpers for the ops/ scripts. Source it; it changes nothing by itself.

# Installs the Debian packages named in ops/apt-packages that are missing (one `apt-get update`
# at most). Needs root, as on the project's machines.
ensure_apt_packages() {
    local wanted missing=()
    wanted=$(grep -v '^\s*#' "$(dirname "${BASH_SOURCE[0]}")/../apt-packages" | tr -s ' \n' ' ')
    for package in $wanted; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# Fails with a message unless the Swift toolchain is on PATH.
require_swift() {
    command -v swift >/dev/null 2>&1 || { echo "swift is not on PATH (expected Swift 6.3)" >&2; exit 1; }
}
