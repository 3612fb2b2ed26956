//! Criterion benchmark of the engine: `parse_standard` and `Schedule::next` over the fixed
//! mix in `tools/oracle/bench-mix.txt`, the same file the Go side
//! (`oracle bench -mix`, real robfig/cron v3.0.1) times. `tools/bench/engine-vs-robfig.sh`
//! runs both and writes the comparison into BENCHMARKS.md.
//!
//! Benchmarks (ids as criterion stores them under `target/criterion/`):
//! * `mix/parse`, `mix/next`: one pass over the whole mix per iteration (throughput in
//!   elements = schedules parsed / `next` calls made);
//! * `group/next-utc`, `group/next-zoned`, `group/next-every`: the mix's groups;
//! * `parse_entry/<i>`, `next_entry/<i>`: entry `i` alone (index = data line of the mix file).
//!
//! `BENCH_ANSWERS=<file>` additionally writes each entry's `next` answer (RFC 3339 UTC or
//! `never`), so the script can check that both sides computed the same thing.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::{Schedule, parse_standard};

const MIX: &str = include_str!("../../../tools/oracle/bench-mix.txt");

struct Entry {
    group: String,
    local: TimeZone,
    from: Timestamp,
    spec: String,
    schedule: Schedule,
}

fn mix() -> Vec<Entry> {
    MIX.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.splitn(4, '\t').collect();
            assert_eq!(f.len(), 4, "bench-mix.txt: bad line {line:?}");
            let spec = f[3].to_string();
            Entry {
                group: f[0].to_string(),
                local: TimeZone::get(f[1]).expect("bench-mix.txt: zone"),
                from: f[2].parse().expect("bench-mix.txt: instant"),
                schedule: parse_standard(&spec).expect("bench-mix.txt: schedule"),
                spec,
            }
        })
        .collect()
}

fn write_answers(entries: &[Entry]) {
    let Ok(path) = std::env::var("BENCH_ANSWERS") else {
        return;
    };
    let mut out = String::new();
    for (i, e) in entries.iter().enumerate() {
        let answer = e
            .schedule
            .next(e.from, &e.local)
            .map_or_else(|| "never".to_string(), |t| t.to_string());
        out.push_str(&format!("{i}\t{}\t{answer}\t{:?}\n", e.group, e.spec));
    }
    std::fs::write(&path, out).expect("BENCH_ANSWERS");
}

fn benches(c: &mut Criterion) {
    let entries = mix();
    write_answers(&entries);

    let mut g = c.benchmark_group("mix");
    g.throughput(Throughput::Elements(entries.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for e in &entries {
                black_box(parse_standard(black_box(&e.spec)).is_ok());
            }
        })
    });
    g.bench_function("next", |b| {
        b.iter(|| {
            for e in &entries {
                black_box(e.schedule.next(black_box(e.from), &e.local));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("group");
    for name in ["utc", "zoned", "every"] {
        let subset: Vec<&Entry> = entries.iter().filter(|e| e.group == name).collect();
        g.throughput(Throughput::Elements(subset.len() as u64));
        g.bench_function(format!("next-{name}"), |b| {
            b.iter(|| {
                for e in &subset {
                    black_box(e.schedule.next(black_box(e.from), &e.local));
                }
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("parse_entry");
    g.warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    for (i, e) in entries.iter().enumerate() {
        g.bench_function(i.to_string(), |b| {
            b.iter(|| black_box(parse_standard(black_box(&e.spec)).is_ok()))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("next_entry");
    g.warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    for (i, e) in entries.iter().enumerate() {
        g.bench_function(i.to_string(), |b| {
            b.iter(|| black_box(e.schedule.next(black_box(e.from), &e.local)))
        });
    }
    g.finish();
}

criterion_group! {
    name = engine;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(engine);
