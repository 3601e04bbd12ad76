# The plan server in a container: built with the Swift toolchain image, run on Debian slim.
FROM swift:6.1-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev libwebsockets-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources Sources
COPY Benchmarks Benchmarks
COPY Tests Tests
RUN swift build -c release --product plan-server --static-swift-stdlib

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 libwebsockets17 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/.build/release/plan-server /usr/local/bin/plan-server
COPY sql /usr/local/share/chronosketch/sql
COPY ops/demo-plan.json /usr/local/share/chronosketch/demo-plan.json
ENV PLAN_SQL_DIR=/usr/local/share/chronosketch/sql
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fs http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["plan-server"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
