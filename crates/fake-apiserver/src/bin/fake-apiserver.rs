//! `fake-apiserver`: serve fixtures, or a generated large cluster, over loopback HTTP (or
//! HTTPS with `--tls`) for benchmarks and manual poking (`KUBECONFIG=… kubectl get cronjobs
//! -A` works too). `--latency 20ms` stands in for a remote API server.
//!
//! When ready it prints two lines to stdout, the URL and the kubeconfig path, so a script
//! can `read url kubeconfig < <(fake-apiserver … | head -2)`; statistics go to stderr.

use clap::Parser;
use fake_apiserver::generate::{Spec, population};
use fake_apiserver::{
    Clock, CountsError, FakeApiServer, FixtureError, KubeContext, StartError, load_fixture_file,
    write_kubeconfig_file,
};
use jiff::Timestamp;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    about = "Fake Kubernetes API server (HTTP or HTTPS on 127.0.0.1) for tests and benchmarks"
)]
struct Args {
    /// Port on 127.0.0.1 (0: pick a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// YAML/JSON fixture files to serve (multi-document, `kind: List` flattened).
    #[arg(long, num_args = 1..)]
    fixtures: Vec<PathBuf>,
    /// gitVersion reported by /version.
    #[arg(long, default_value = "v1.31.2")]
    version: String,
    /// Generate a population, e.g. `cronjobs=10000,jobs=100000,pods=30000,events=50000`
    /// (also `namespaces=50`); counts left out take those defaults.
    #[arg(long)]
    generate: Option<String>,
    /// Seed for --generate.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Freeze the server clock here (RFC 3339); generated histories end at this instant.
    #[arg(long)]
    now: Option<Timestamp>,
    /// With --now: let the clock run from that instant instead of freezing there, advancing
    /// this many seconds per real second (1: real time), e.g. for a long-running monitor.
    #[arg(long, requires = "now")]
    clock_rate: Option<f64>,
    /// How often watches that allow bookmarks get one, e.g. `1s`.
    #[arg(long, value_parser = parse_latency, default_value = "60s")]
    bookmark_interval: Duration,
    /// Where to write the kubeconfig (default: a fresh file under the temp directory).
    #[arg(long)]
    kubeconfig: Option<PathBuf>,
    /// Default namespace of the kubeconfig's context.
    #[arg(long)]
    namespace: Option<String>,
    /// Serve HTTPS with a CA made at startup; the kubeconfig carries the CA.
    #[arg(long)]
    tls: bool,
    /// Wait this long before answering each request, e.g. `20ms` (a remote API server).
    #[arg(long, value_parser = parse_latency, default_value = "0s")]
    latency: Duration,
}

/// A `--latency` or `--bookmark-interval` clap refuses.
#[derive(Debug, thiserror::Error)]
enum BadDuration {
    #[error("expected a duration like 20ms or 1s: {0}")]
    Syntax(#[source] jiff::Error),
    #[error("must not be negative")]
    Negative,
}

fn parse_latency(text: &str) -> Result<Duration, BadDuration> {
    let d: jiff::SignedDuration = text.parse().map_err(BadDuration::Syntax)?;
    Duration::try_from(d).map_err(|_| BadDuration::Negative)
}

/// Why the server did not come up; said once, after `fake-apiserver: `.
#[derive(Debug, thiserror::Error)]
enum RunError {
    #[error(transparent)]
    Fixture(#[from] FixtureError),
    #[error(transparent)]
    Counts(#[from] CountsError),
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("{}: {source}", path.display())]
    Kubeconfig {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The URL and kubeconfig path could not be written to stdout.
    #[error(transparent)]
    Stdout(#[from] std::io::Error),
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    if let Err(e) = run(args).await {
        eprintln!("fake-apiserver: {e}");
        std::process::exit(1);
    }
}

async fn run(args: Args) -> Result<(), RunError> {
    let started = Instant::now();
    let clock = match (args.now, args.clock_rate) {
        (Some(now), Some(rate)) => Clock::running_at_rate(now, rate),
        (Some(now), None) => Clock::Fixed(now),
        (None, _) => Clock::Real,
    };
    let mut builder = FakeApiServer::builder()
        .port(args.port)
        .version(&args.version)
        .clock(clock)
        .latency(args.latency)
        .bookmark_interval(args.bookmark_interval);
    if args.tls {
        builder = builder.tls();
    }
    for path in &args.fixtures {
        builder = builder.objects(load_fixture_file(path)?);
    }
    if let Some(counts) = &args.generate {
        let spec = Spec {
            seed: args.seed,
            now: clock.now(),
            ..Spec::default()
        }
        .parse_counts(counts)?;
        builder = builder.objects(population(spec));
    }
    let server = builder.start().await?;
    let kubeconfig = args.kubeconfig.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!(
            "fake-apiserver-{}.kubeconfig",
            server.addr().port()
        ))
    });
    let url = server.url();
    let context = KubeContext {
        name: "fake",
        server: &url,
        namespace: args.namespace.as_deref(),
        token: "fake-token",
        ca_pem: server.ca_pem(),
    };
    write_kubeconfig_file(&kubeconfig, &[context], "fake").map_err(|source| {
        RunError::Kubeconfig {
            path: kubeconfig.clone(),
            source,
        }
    })?;
    for (resource, n, bytes) in server.stats() {
        eprintln!(
            "{resource:>12}: {n:>7} objects, {:>8.1} MiB JSON",
            bytes as f64 / 1048576.0
        );
    }
    eprintln!("ready in {:.2}s", started.elapsed().as_secs_f64());
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}\n{}", server.url(), kubeconfig.display())?;
    out.flush()?;
    drop(out);
    // Serve until killed; the server lives as long as this future.
    std::future::pending::<()>().await;
    drop(server);
    Ok(())
}
