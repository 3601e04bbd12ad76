"""Static checks of the container files for ops/check-container (no container engine needed).

  container-files.py copy-set             the build stage's COPY sources, one a line
  container-files.py runtime-packages     the packages the runtime stage installs, one a line
  container-files.py check SWIFT_VERSION  the Dockerfile, .dockerignore and docker-compose.yml

Needs Debian's python3-yaml (ops/apt-packages). Exits 1 with one line per problem.
"""

import fnmatch
import os
import re
import sys

import yaml

problems = []


def problem(text):
    problems.append(text)


def stages():
    """The Dockerfile's stages: lists of (instruction, arguments), continuation lines joined."""
    text = open("Dockerfile").read().replace("\\\n", " ")
    result = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        instruction, _, arguments = line.partition(" ")
        instruction = instruction.upper()
        if instruction == "FROM":
            result.append([])
        result[-1].append((instruction, arguments.strip()))
    return result


def copies(stage):
    """(sources, destination) of each COPY that takes from the build context (no --from)."""
    for instruction, arguments in stage:
        if instruction != "COPY" or "--from" in arguments:
            continue
        words = [word for word in arguments.split() if not word.startswith("--")]
        yield words[:-1], words[-1]


def copy_set():
    build = stages()[0]
    sources = []
    for froms, destination in copies(build):
        for source in froms:
            # The build runs in WORKDIR; each source must land at the same relative path there.
            if destination.rstrip("/") not in (source, ".", "./") and destination != "./":
                problem(f"build stage: COPY {source} {destination} does not keep the path")
            sources.append(source)
    return sources


def runtime_packages():
    runtime = stages()[-1]
    packages = []
    for instruction, arguments in runtime:
        if instruction == "RUN" and "apt-get install" in arguments:
            install = arguments.split("apt-get install", 1)[1].split("&&")[0]
            packages += [word for word in install.split() if not word.startswith("-")]
    return packages


def ignored(path, patterns):
    for pattern in patterns:
        bare = pattern.lstrip("/")
        if fnmatch.fnmatch(path, bare) or path.startswith(bare.rstrip("/") + "/") or bare.startswith("**/") and (
            fnmatch.fnmatch(path, bare[3:]) or fnmatch.fnmatch(os.path.basename(path), bare[3:])
        ):
            return True
    return False


def host_address(port):
    """The host address a published port binds ("${VAR:-default}" counts as its default)."""
    if isinstance(port, dict):
        return port.get("host_ip", "")
    text = re.sub(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^}]*)\}", r"\1", str(port))
    parts = text.split(":")
    return parts[0] if len(parts) == 3 else ""


def check(swift_version):
    all_stages = stages()
    # The build image's Swift version is the toolchain's (major.minor).
    image = all_stages[0][0][1].split()[0]
    match = re.match(r"swift:(\d+\.\d+)", image)
    wanted = ".".join(swift_version.split(".")[:2])
    if not match:
        problem(f"build stage: {image} is not an official swift:X.Y image")
    elif match.group(1) != wanted:
        problem(f"build stage: {image} has Swift {match.group(1)}, the toolchain is {swift_version}")

    # Both stages on the same Debian release (the runtime packages are that release's).
    runtime_image = all_stages[-1][0][1].split()[0]
    build_release = image.rsplit("-", 1)[-1]
    if not runtime_image.startswith(f"debian:{build_release}"):
        problem(f"the build image {image} and the runtime image {runtime_image} are not the same Debian release")

    # Every COPY source exists and is not kept out of the context by .dockerignore.
    patterns = [
        line.strip() for line in open(".dockerignore") if line.strip() and not line.strip().startswith("#")
    ]
    for needed in (".build", ".data"):
        if needed not in patterns:
            problem(f".dockerignore does not keep {needed} out")
    runtime_sources = [source for stage in all_stages for froms, _ in copies(stage) for source in froms]
    for source in runtime_sources:
        if not os.path.exists(source):
            problem(f"Dockerfile copies {source}, which does not exist")
        if ignored(source, patterns):
            problem(f"Dockerfile copies {source}, which .dockerignore keeps out")
    if "ops/docker/init" in runtime_sources and not os.access("ops/docker/init", os.X_OK):
        problem("ops/docker/init is not executable")

    # docker-compose.yml: services, the init order, ports on 127.0.0.1.
    compose = yaml.safe_load(open("docker-compose.yml"))
    services = compose.get("services", {})
    expected = {"postgres", "init", "server", "server-b", "proxy", "ha-monitor", "ha-node1", "ha-node2", "ha-node3",
                "ha-init", "ha-server"}
    if set(services) != expected:
        problem(f"compose: services {sorted(services)}, expected {sorted(expected)}")
        return

    def depends(name, on, condition):
        got = (services[name].get("depends_on") or {})
        got = got.get(on, {}).get("condition") if isinstance(got, dict) else None
        if got != condition:
            problem(f"compose: {name} must depend on {on} with condition {condition} (has {got})")

    depends("init", "postgres", "service_healthy")
    for name in ("server", "server-b"):
        depends(name, "postgres", "service_healthy")
        depends(name, "init", "service_completed_successfully")
    depends("proxy", "server", "service_healthy")
    depends("proxy", "server-b", "service_healthy")
    # The ha profile: the monitor, then node1, then the standbys (their base backups need it),
    # then its init, then its server, all on one URL naming the three nodes for read-write.
    depends("ha-node1", "ha-monitor", "service_healthy")
    for name in ("ha-node2", "ha-node3"):
        depends(name, "ha-node1", "service_healthy")
        depends("ha-init", name, "service_healthy")
    depends("ha-server", "ha-init", "service_completed_successfully")
    for name in ("ha-init", "ha-server"):
        url = (services[name].get("environment") or {}).get("DATABASE_URL", "")
        if not all(f"ha-node{n}" in url for n in (1, 2, 3)) or "target_session_attrs=read-write" not in url:
            problem(f"compose: {name} must reach the ha nodes through one read-write multi-host URL (has {url})")
    if services["ha-init"].get("entrypoint") != ["chronosketch-init"]:
        problem("compose: ha-init must run chronosketch-init")
    ha_image = open("ops/docker/ha/Dockerfile").read() if os.path.exists("ops/docker/ha/Dockerfile") else ""
    if "postgresql-15-auto-failover" not in ha_image:
        problem("ops/docker/ha/Dockerfile must install postgresql-15-auto-failover")
    for name, profiles in (("postgres", None), ("init", None), ("server", None), ("server-b", ["scale"]),
                           ("proxy", ["scale"]), ("ha-monitor", ["ha"]), ("ha-node1", ["ha"]), ("ha-node2", ["ha"]),
                           ("ha-node3", ["ha"]), ("ha-init", ["ha"]), ("ha-server", ["ha"])):
        if services[name].get("profiles") != profiles:
            problem(f"compose: {name} has profiles {services[name].get('profiles')}, expected {profiles}")
    if services["init"].get("entrypoint") != ["chronosketch-init"]:
        problem("compose: init must run chronosketch-init (ops/docker/init in the image)")
    if services["init"].get("restart", "no") != "no":
        problem("compose: init is one-shot (restart: \"no\")")
    servers = ("init", "server", "server-b", "ha-init", "ha-server")
    images = {services[name].get("image") for name in servers}
    if len(images) != 1 or any(services[name].get("build") != "." for name in servers):
        problem("compose: init, server, server-b, ha-init and ha-server must share one image built from .")
    for name, service in services.items():
        for port in service.get("ports", []):
            if host_address(port) != "127.0.0.1":
                problem(f"compose: {name} publishes {port}, not on 127.0.0.1 by default")
    if services["postgres"].get("ports"):
        problem("compose: postgres must publish no port")
    for volume in services["proxy"].get("volumes", []):
        source = volume.split(":")[0]
        if source.startswith("./") and not os.path.exists(source):
            problem(f"compose: proxy mounts {source}, which does not exist")
    nginx = open("ops/docker/nginx.conf").read()
    for name in ("server", "server-b"):
        if not re.search(rf"server\s+{re.escape(name)}:8080;", nginx):
            problem(f"ops/docker/nginx.conf: no upstream {name}:8080")


command = sys.argv[1] if len(sys.argv) > 1 else ""
if command == "copy-set":
    output = copy_set()
elif command == "runtime-packages":
    output = runtime_packages()
elif command == "check" and len(sys.argv) == 3:
    copy_set()
    check(sys.argv[2])
    output = []
else:
    sys.exit(__doc__)
for text in problems:
    print(f"container files: {text}", file=sys.stderr)
if problems:
    sys.exit(1)
for line in output:
    print(line)
