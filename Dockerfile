# The plan server in a container: built with the Swift toolchain image, run on Debian slim.
# The build image's Swift version is the one CI uses (6.3; ops/check-container compares it with the
# toolchain's), and it copies everything Package.swift names (SwiftPM refuses to load the package
# when a target's directory is missing; ops/check-container loads it from exactly this copy set).
FROM swift:6.3-bookworm AS build
# libpq-dev, libssl-dev, zlib1g-dev and libexpat1-dev for plan-server; libwebsockets-dev for the
# client library the package names.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpq-dev libssl-dev zlib1g-dev libexpat1-dev libwebsockets-dev \
        pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources Sources
COPY clients clients
COPY Fuzz Fuzz
COPY Benchmarks Benchmarks
COPY Tests Tests
# The Swift runtime is linked statically: the binary needs only the system libraries below.
RUN swift build -c release --product plan-server --static-swift-stdlib \
    && install -D "$(swift build -c release --show-bin-path)/plan-server" /out/plan-server \
    && ldd /out/plan-server

FROM debian:bookworm-slim
# The shared libraries plan-server links (ldd, mapped to packages with dpkg -S): libpq5, libssl3
# (libssl, libcrypto), zlib1g (libz), libexpat1 (the importers' XML), libstdc++6, libgcc-s1, libc6;
# curl for the health check.
RUN apt-get update && apt-get install -y --no-install-recommends \
        libpq5 libssl3 zlib1g libexpat1 libstdc++6 libgcc-s1 libc6 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/plan-server /usr/local/bin/plan-server
# The image build fails here when a library the binary links is missing from this stage.
RUN ldd /usr/local/bin/plan-server && ! ldd /usr/local/bin/plan-server | grep 'not found'
COPY sql /usr/local/share/chronosketch/sql
# The web client served at / (plan-server reads it into memory at start).
COPY clients/web /usr/local/share/chronosketch/web
COPY ops/demo-plan.json /usr/local/share/chronosketch/demo-plan.json
COPY ops/docker/init /usr/local/bin/chronosketch-init
ENV PLAN_SQL_DIR=/usr/local/share/chronosketch/sql
ENV PLAN_WEB_ROOT=/usr/local/share/chronosketch/web
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fs http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["plan-server"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
