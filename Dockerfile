# syntax=docker/dockerfile:1
# A minimal image of `kubectl-cronjob_doctor` for running `monitor` in a cluster
# (deploy/monitor/): a fully static musl binary on `scratch`, run as the non-root user 65532.
#
#   docker build -t ghcr.io/cronjob-doctor/kubectl-cronjob-doctor:0.1.0 .
#
# Nothing else is needed at run time: time zones are compiled in (jiff's bundled tzdb), TLS is
# rustls, and in a cluster the API server's CA comes from the ServiceAccount mount.
# tests/deploy_monitor.rs keeps the binary name, user and entry point in line with Cargo.toml
# and the Deployment.

# The toolchain is the newest rust-version any locked dependency declares (kube 5: 1.89;
# tests/deploy_monitor.rs checks it with `cargo metadata`). Alpine's Rust targets musl, and
# musl binaries are linked statically by default.
FROM rust:1.89-alpine AS build
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY . .
# No .git in the build context (.dockerignore): pass the commit for `version` instead.
ARG CRONJOB_DOCTOR_GIT_COMMIT=
ENV CRONJOB_DOCTOR_GIT_COMMIT=${CRONJOB_DOCTOR_GIT_COMMIT}
# The last step fails the build, not the pod, if anything made the binary dynamic.
RUN cargo build --release --locked --bin kubectl-cronjob_doctor \
    && cp target/release/kubectl-cronjob_doctor /kubectl-cronjob_doctor \
    && if ldd /kubectl-cronjob_doctor 2>&1 | grep -q '=>'; then echo "not static" >&2; exit 1; fi

FROM scratch
COPY --from=build /kubectl-cronjob_doctor /kubectl-cronjob_doctor
USER 65532:65532
EXPOSE 9090
ENTRYPOINT ["/kubectl-cronjob_doctor"]
CMD ["monitor", "-A", "--listen", "0.0.0.0:9090"]
