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

# Starts the checkout's own PostgreSQL cluster the way ops/run uses it (.data/pg, port
# PGPORT_PRIVATE or 5440), says on stderr where the cluster lives and prints its DATABASE_URL.
# Run it from the checkout's root. (ops/check-run-dir runs it from a directory `postgres` cannot enter.)
start_run_cluster() {
    local url
    # (`|| return`: errexit does not reach into the command substitution this usually runs in.)
    url=$(PGPORT_PRIVATE=${PGPORT_PRIVATE:-5440} ops/pg start .data/pg) || return 1
    echo "   cluster in $(ops/pg where .data/pg) (log: server.log there)" >&2
    echo "$url"
}

# Makes sure .build/web-venv holds selenium (pinned) from PyPI, for the web client's browser suite
# and benchmark; prints the venv's python.
ensure_web_venv() {
    local venv=.build/web-venv
    if ! "$venv/bin/python" -c 'import selenium, websocket' 2>/dev/null; then
        echo "== selenium into $venv" >&2
        /usr/bin/python3 -m venv "$venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check selenium==4.51.0 >&2
    fi
    echo "$venv/bin/python"
}
