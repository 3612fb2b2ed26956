#!/usr/bin/env python3
"""Deterministic case generator for the robfig/cron differential test.

Writes JSONL cases to stdout, one per line:

    {"s": "<schedule>", "f": "<from, RFC3339 with nanoseconds, UTC>", "l": "<controller Local zone>", "k": "<category>"}

Python 3.9+ standard library only; fixed seed; the output depends only on this file and on
the tz database directory given with --tzdb (the dump of jiff's bundled database made by
`cargo run -p cronjob-doctor-schedule --example dump_tzdb`), which is used to find the DST
transitions the "dst" cases start around. The system tz database is never read.

Categories (the "k" key):
  cur    curated tricky expressions (spec A.8 and E.1 rows, star bit / OR, names, lists, ...)
  every  @every with many Go durations (valid, invalid, negative, overflow, unicode)
  tz     TZ= / CRON_TZ= prefixes (panics, tabs, empty, Local, bad / case-wrong / link zones)
  rnd    random valid 5-field expressions
  mut    mutations of random expressions (mostly invalid)
  dst    start instants around real DST transitions 2018-2030, as TZ= prefix and as Local
  leap   leap days (Feb 28/29, Mar 1) 2018-2032
  far    2090-2100 (robfig's 5-year search limit; 0 0 29 2 * becomes "never" after 2096-02-29)
  sub    sub-second start instants
  hist   historic instants (LMT offsets, Samoa's skipped day, Kwajalein)

Usage: gen_cases.py --tzdb DIR [--seed N] [--stats] > cases.jsonl
"""

import argparse
import bisect
import datetime as dt
import json
import os
import random
import sys
import zoneinfo

SEED = 20260229

UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)

DST_ZONES = [
    "America/New_York",
    "Europe/Berlin",
    "Europe/London",
    "Australia/Lord_Howe",
    "Asia/Tehran",
    "America/Sao_Paulo",
    "America/Havana",
    "Pacific/Chatham",
    "America/Santiago",
    "Africa/Casablanca",
]

# Zones used as the controller's Local zone for the non-DST categories.
LOCAL_ZONES_WEIGHTED = (
    ["UTC"] * 12
    + DST_ZONES
    + ["Asia/Kolkata", "Asia/Kathmandu", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Tokyo", "America/St_Johns"]
)

# ---------------------------------------------------------------------------------------
# helpers


def fmt_instant(sec, nanos=0):
    """RFC3339 in UTC with Go's RFC3339Nano fraction (trailing zeros dropped)."""
    d = EPOCH + dt.timedelta(seconds=sec)
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    if nanos:
        s += ("." + "%09d" % nanos).rstrip("0")
    return s + "Z"


def epoch(y, mo, d, h=0, mi=0, s=0):
    return int((dt.datetime(y, mo, d, h, mi, s, tzinfo=UTC) - EPOCH).total_seconds())


class TzDb:
    def __init__(self, root):
        self.root = root
        self.cache = {}

    def zone(self, name):
        z = self.cache.get(name)
        if z is None:
            path = os.path.join(self.root, name)
            with open(path, "rb") as f:
                z = zoneinfo.ZoneInfo.from_file(f, key=name)
            self.cache[name] = z
        return z

    def offset(self, name, sec):
        d = EPOCH + dt.timedelta(seconds=sec)
        return int(d.astimezone(self.zone(name)).utcoffset().total_seconds())

    def local_midnight_utc(self, name, y, mo, d):
        """UTC instant of the first instant of local civil date y-mo-d (approximate is fine)."""
        guess = epoch(y, mo, d)
        return guess - self.offset(name, guess)

    def transitions(self, name, y0, y1):
        """Instants (epoch seconds) in [y0, y1) where the UTC offset changes."""
        out = []
        start, end = epoch(y0, 1, 1), epoch(y1, 1, 1)
        step = 3 * 3600
        prev_t, prev_o = start, self.offset(name, start)
        t = start + step
        while t <= end:
            o = self.offset(name, t)
            if o != prev_o:
                lo, hi = prev_t, t  # offset(lo) == prev_o, offset(hi) != prev_o
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if self.offset(name, mid) == prev_o:
                        lo = mid
                    else:
                        hi = mid
                out.append((hi, prev_o, self.offset(name, hi)))
            prev_t, prev_o = t, o
            t += step
        return out


def emit(out, k, s, f, l):
    out.append({"s": s, "f": f, "l": l, "k": k})


# ---------------------------------------------------------------------------------------
# curated


CURATED = [
    # spec A.8
    "", " ", "* * * *", "* * * * * *", "0 0 0 * *", "0 0 32 * *", "0 24 * * *", "60 * * * *",
    "5-3 * * * *", "*/0 * * * *", "1-2-3 * * * *", "1/2/3 * * * *", "a * * * *",
    "99999999999999999999 * * * *", "*-5 * * * *", "?/5 * * * *", "5/15 * * * *",
    "0 0 * * SUN", "0 0 * * sun", "0 0 * * Sun-Sat", "TZ=Nowhere/Land * * * * *", "TZ=UTC",
    "0 0 L * *", "0 0 1W * *", "0 0 * * 1#2",
    # spec E.1
    "0 0 * * 7", "-1 * * * *", "*/-1 * * * *", "@Hourly", " @daily", ", * * * *", "0 0 30 2 *",
    "CRON_TZ=UTC 0 * * * *", "@every 500ms",
    # A.1 notes
    "CRON_TZ=UTC", "CRON_TZ=Asia/Tokyo\t0 0 * * *", "TZ= * * * * *", "TZ=Local 0 0 * * *",
    "0 0 * * * TZ=UTC", "@daily ", "TZ=UTC  @daily", "TZ=UTC @daily ", "CRON_TZ=UTC \t@daily\t",
    # star bit / OR (A.5)
    "0 0 1 * MON", "0 0 * * 1", "0 0 1-31 * 1", "0 0 */2 * 1", "0 0 13 * */1", "0 0 13 * 5",
    "@weekly", "0 0 */1 * 1", "0 0 ?/1 * 1", "0 0 ?/2 * 1", "0 0 ? * 1", "0 0 1 * ?", "0 0 1 * */2",
    "0 0 1 * *-3", "0 0 *-3 * 1", "0 0 1 * 0-6", "0 0 1-31 * 0-6", "0 0 1,* * 1", "0 0 1 * 1,*",
    "0 0 1 * 1,*/2", "0 0 1 * 1,*/1", "0 0 */1 * */1", "0 0 */31 * 1", "0 0 1/1 * 1", "0 0 * * 1/1",
    "0 0 1 * 1/1", "0 0 1 * 0/1", "0 0 13 * 5/7", "0 0 13 * ?/7", "0 0 13 * */7", "0 0 29 2 1",
    "0 0 29 2 */1", "0 0 29 2 ?", "0 0 31 * 5", "0 0 31 * */1", "0 0 , * 1", "0 0 , * *",
    "0 0 * * ,", "0 0 1 * ,", "0 0 * , *", "0 0 1 , 1",
    # question mark and star variants
    "? ? ? ? ?", "* * ? * ?", "?-5 * * * *", "*-5/10 * * * *", "*-x * * * *", "?-x-y * * * *",
    "*-1-2 * * * *", "*/1/2 * * * *", "?/0 * * * *", "*/ * * * *", "/5 * * * *", "5/ * * * *",
    "*/60 * * * *", "*/59 * * * *", "*/64 * * * *", "*/100 * * * *", "*/100000 * * * *",
    "*/9223372036854775807 * * * *", "*/9223372036854775808 * * * *", "0 */24 * * *", "0 0 */32 * *",
    "0 0 * */13 *", "0 0 * * */7", "0 0 * * */100", "60/1 * * * *", "59/1 * * * *", "0 23/1 * * *",
    "0 0 31/1 * *", "0 0 * 12/1 *", "0 0 * * 6/1", "0 0 * * 7/1", "0-59/59 * * * *",
    "0-59/60 * * * *", "1-1 * * * *", "59-59 * * * *", "0-0 0-0 1-1 1-1 0-0",
    # lists
    "1,,2 * * * *", ",1 * * * *", "1, * * * *", ",,, * * * *", "0 ,,0 * * *", "1,2,3,4,5,6,7,8,9,10 * * * *",
    "0,59 0,23 1,31 1,12 0,6", "0 0 1,15,31 * *", "0 0 * 2,4,6 *", "0-10,20-30/5,*/17 * * * *",
    "1,a * * * *", "1,,a * * * *", "1,60 * * * *", "0 0 1,32 * *", "0 0 * * 1,7",
    # numbers (Go strconv.Atoi)
    "+5 * * * *", "+0 * * * *", "05 * * * *", "0005 * * * *", "-0 * * * *", "*/+5 * * * *",
    "*/-0 * * * *", "*/+0 * * * *", "*/-5 * * * *", "1-5/-2 * * * *", "+-5 * * * *", "-+5 * * * *",
    "1-+5 * * * *", "++5 * * * *", "1_0 * * * *", "0x10 * * * *", "1e1 * * * *", "1.5 * * * *",
    "\u0661 * * * *", "\uff11 * * * *", "9223372036854775807 * * * *", "9223372036854775808 * * * *",
    "-9223372036854775808 * * * *", "*/-9223372036854775808 * * * *", "*/-9223372036854775809 * * * *",
    "18446744073709551616 * * * *", "0 0 * * 18446744073709551622", "1- * * * *", "- * * * *",
    "-- * * * *", "1-- * * * *", "--1 * * * *", "1--2 * * * *", "1-2- * * * *", "1/2/ * * * *",
    "// * * * *", "*// * * * *", "*/5/ * * * *",
    # names (month / dow only, whole tokens, strings.ToLower)
    "0 0 * JAN *", "0 0 * jan *", "0 0 * Jan-mar *", "0 0 * JAN-MAR *", "0 0 * jan-DEC/2 *",
    "0 0 * dec-jan *", "0 0 * JAN/3 *", "0 0 * * MON-FRI", "0 0 * * mon-fri", "0 0 * * FRI-MON",
    "0 0 * * sun/2", "0 0 * * SAT-SUN", "0 0 * * SUN-SAT", "0 0 * * Sunday", "0 0 * * MONDAY",
    "0 0 * January *", "0 0 * * mo", "0 0 * jn *", "jan * * * *", "0 mon * * *", "0 0 mon * *",
    "0 0 * mon *", "0 0 * * jan", "0 0 * * 0-sat", "0 0 * 1-dec *", "0 0 * * sun,mon,TUE,wEd,thu,FRI,sat",
    "0 0 * jan,FEB,mar,APR,may,JUN,jul,AUG,sep,OCT,nov,DEC *", "0 0 * * FR\u0130", "0 0 * * \u0130",
    "0 0 * * S\u016bN", "0 0 * \u212aan *", "0 0 * * \uff33\uff35\uff2e", "0 0 * * mon-7", "0 0 * * 1-7",
    "0 0 * * 0-7", "0 0 * * 7-7",
    # L / W / # / H / seconds field / quartz
    "0 0 L * *", "0 0 LW * *", "0 0 15W * *", "0 0 * * 5L", "0 0 * * MON#1", "H * * * *",
    "H/15 * * * *", "0 0 0 * * ?", "0 0 12 * * ? 2024", "0 0 12 ? * MON-FRI", "@reboot",
    # descriptors
    "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly", "@every",
    "@every ", "@Yearly", "@DAILY", "@ daily", "@", "@@daily", "@daily @daily", "@hourly\n",
    "\t@hourly", "@daily\t", "@weekly\u00a0", "@midnight ", "@every\t1h", "@every  1h",
    "TZ=America/New_York @daily", "TZ=America/New_York  @weekly  ", "CRON_TZ=Europe/Berlin @monthly",
    "TZ=Asia/Tokyo @yearly", "TZ=Asia/Tokyo @Yearly", "TZ=UTC @every 1h", "TZ=America/New_York @hourly",
    "TZ=Australia/Lord_Howe @hourly",
    # whitespace (Go strings.Fields / TrimSpace: unicode.IsSpace)
    "*\t*\t*\t*\t*", "* * * * *\n", "\n* * * * *", "  * * * * *  ", "*\u00a0*\u00a0*\u00a0*\u00a0*",
    "*\u2003* * * *", "*\u3000* * * *", "*\u0085* * * *", "*\u1680* * * *", "*\u2028* * * *",
    "*\u202f* * * *", "*\u205f* * * *", "*\u200b* * * *", "*\ufeff * * * *", "*\u180e* * * *",
    "*\u000b* * * *", "*\u000c* * * *", "*\r* * * *", "1\u00a0 * * * *", "*\u200a* * * *",
    "* * * * *\u00a0", "\u00a0* * * * *",
    # junk / extra fields
    "* * * * * *", "0 0 * * * 2024", "* * * * * * *", "*", "* *", "* * *", "hello world",
    "0 0 * * 1 # comment", "0 0 * * 1;", "0;0 * * * *", "0 0 1.5 * *", "0 0 * * MON|FRI",
    "$ * * * *", "* * * * *;rm", "0 0 \"1\" * *", "0 0 '1' * *", "{0} * * * *",
    # ordinary schedules (sanity)
    "* * * * *", "*/5 * * * *", "0 * * * *", "0 0 * * *", "30 2 * * *", "30 1 * * *", "0 9-17 * * MON-FRI",
    "15,45 */2 1-15 * *", "0 0 1 */3 *", "0 0 29 2 *", "0 0 28 2 *", "59 23 31 12 *", "0 12 * * 0",
    "0 0 1 1 *", "0 0 31 4 *", "0 0 31 6,9,11 *", "59 23 31 2 *", "0 0 30,31 2 *", "0 0 * 2 *",
    "5 4 * * sun", "0 22 * * 1-5", "23 0-20/2 * * *", "0 0,12 1 */2 *", "0 4 8-14 * *",
    "0 0 1,15 * 3", "*/15 9-17 * * 1-5", "0 */6 * * *", "0 0 * * 0,6",
]

CURATED_FROMS = [
    (epoch(2024, 1, 15, 10, 4, 59), 900000000),
    (epoch(2021, 3, 13, 12, 0, 0), 0),
    (epoch(2024, 2, 28, 23, 59, 59), 999999999),
    (epoch(2021, 11, 6, 23, 0, 0), 0),
    (epoch(2027, 12, 31, 23, 59, 59), 0),
]


def gen_curated(out, rng):
    locals_ = ["UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Europe/London"]
    for i, s in enumerate(CURATED):
        if slow_minute_scan(s):
            emit(out, "cur", s, fmt_instant(*CURATED_FROMS[0]), "UTC")
            continue
        for j, (sec, ns) in enumerate(CURATED_FROMS):
            emit(out, "cur", s, fmt_instant(sec, ns), locals_[(i + j) % len(locals_)])
        sec = epoch(2018, 1, 1) + rng.randrange(13 * 365 * 86400)
        emit(out, "cur", s, fmt_instant(sec, rng.choice([0, 0, 1, 500000000])), rng.choice(LOCAL_ZONES_WEIGHTED))


# ---------------------------------------------------------------------------------------
# @every


EVERY_DURATIONS = [
    "1s", "1m", "1h", "1h30m", "90m", "1.5s", "1.5h", "500ms", "999ms", "1000ms", "1001ms", "0s", "0",
    "-5m", "-1s", "-0", "+0", "+1h", "-1h30m", "1h2m3s4ms5us6ns", "1\u00b5s", "1\u03bcs", "100us",
    "1000000us", "1000000000ns", "999999999ns", "1ns", "2562047h47m16.854775807s",
    "2562047h47m16.854775808s", "2562047h", "2562048h", "9223372036854775807ns",
    "9223372036854775808ns", "-9223372036854775808ns", "-9223372036854775809ns", ".5s", "1.s", "5.",
    "1.0000000001s", "0.000000001s", "1.9999999999s", "00001s", "1e3s", "1H", "1S", "1Ms", "1 h",
    "1h ", " 1h", "", "1d", "1y", "1w", "3000000h", "106751d", "1h1h", "15m30.5s", "1h-1m", "--1s",
    "-+1s", "+-1s", "1", "h", ".", ".s", "1..5s", "0.9999999999999999999999h", "30s", "5m", "10m",
    "15m", "45m", "2h", "6h", "12h", "24h", "25h", "48h", "168h", "720h", "8760h", "87600h",
    "1m1s", "59s", "61s", "3599s", "3601s", "1h0m0s", "0h0m1s", "0.5m", "0.25h", "1.000001s",
    "100ms100ms", "7\u00b5s", "5\u00b5", "1\u00e6s", "\u0661s", "1\u00a0s", "1s\u00a0",
    "99999999999999999999s", "1.5e3s", "1_000s", "0x10s", "inf", "NaN", "1hour", "1min", "1sec",
]


def gen_every(out, rng):
    for d in EVERY_DURATIONS:
        spec = "@every " + d
        for _ in range(4):
            sec = epoch(2018, 1, 1) + rng.randrange(13 * 365 * 86400)
            ns = rng.choice([0, 0, 1, 250000000, 999999999])
            emit(out, "every", spec, fmt_instant(sec, ns), rng.choice(LOCAL_ZONES_WEIGHTED))
    for d in ["1h", "30m", "24h", "1s"]:
        for zone in ["UTC", "America/New_York", "Nowhere/Land", "Local", ""]:
            spec = ("TZ=%s @every %s" % (zone, d)) if zone != "" else ("CRON_TZ= @every %s" % d)
            for tr_sec in [epoch(2021, 3, 14, 6, 30), epoch(2021, 11, 7, 5, 30)]:
                emit(out, "every", spec, fmt_instant(tr_sec, 0), "America/New_York")


# ---------------------------------------------------------------------------------------
# TZ= prefixes


TZ_NAMES = [
    "UTC", "Local", "", "America/New_York", "america/new_york", "AMERICA/NEW_YORK", "America/New_york",
    "US/Eastern", "US/Pacific", "EST5EDT", "EST", "MST", "HST", "GMT", "GMT0", "GMT+0", "GMT-0", "Etc/UTC",
    "Etc/GMT", "Etc/GMT+5", "Etc/GMT-14", "Etc/GMT+12", "Etc/GMT+13", "Etc/GMT-15", "Zulu", "UCT",
    "Universal", "Factory", "Asia/Calcutta", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Kiritimati",
    "Pacific/Apia", "America/Argentina/Buenos_Aires", "America/Buenos_Aires", "Antarctica/Troll",
    "Europe/Kyiv", "Europe/Kiev", "America/Ciudad_Juarez", "Asia/Tokyo", "Australia/Lord_Howe",
    "Pacific/Chatham", "Asia/Tehran", "America/Sao_Paulo", "America/Havana", "Europe/Dublin",
    "Africa/Casablanca", "America/St_Johns", "Europe/London", "Europe/Berlin", "Nowhere/Land",
    "America", "Europe/", "America/New_York/", "/etc/localtime", "/UTC", "\\UTC", "../etc/passwd",
    "America/../UTC", "a..b", "./UTC", ".", "Etc/./UTC", "Etc//UTC", "America/./New_York", "Etc",
    "America/New_York/.", "UTC\u00a0", "utc", "Utc", "local", "LOCAL",
    "=UTC", "TZ=UTC", "America/New_York\t0", "Asia/Tokyo\u3000", "\u00a0UTC", "America/New York",
    "Europe/Berlin,Europe/Paris", "+05:30", "UTC+1", "CET", "WET", "PST8PDT", "ROK", "Navajo",
    "Cuba", "Iran", "NZ-CHAT", "Brazil/East", "SystemV/EST5", "Asia/Riyadh87",
    # Not here on purpose: names that exist in a Debian /usr/share/zoneinfo but not in jiff's
    # bundle (posix, right, posixrules, localtime, leapseconds, zone.tab, tzdata.zi, ...): Go
    # falls back to the system directory for them, so their result is machine-dependent (the
    # oracle refuses such cases).
]

TZ_BODIES = ["0 0 * * *", "30 2 * * *", "0 * * * *", "*/15 * * * *", "@daily", "@hourly", "0 0 * * 7", "30 1 * * SUN"]


def gen_tz(out, rng):
    froms = [
        epoch(2021, 3, 13, 12, 0, 0),  # before US spring forward
        epoch(2021, 11, 6, 12, 0, 0),  # before US fall back
        epoch(2024, 3, 30, 22, 0, 0),  # before EU spring forward
        epoch(2024, 4, 6, 12, 0, 0),  # Lord Howe fall back
    ]
    for name in TZ_NAMES:
        for prefix in ("TZ=", "CRON_TZ="):
            for body in rng.sample(TZ_BODIES, 3):
                for sec in rng.sample(froms, 2):
                    emit(out, "tz", prefix + name + " " + body, fmt_instant(sec), rng.choice(LOCAL_ZONES_WEIGHTED))
        emit(out, "tz", "TZ=" + name, fmt_instant(froms[0]), "UTC")  # no space: panic
    odd = [
        "TZ=", "CRON_TZ=", "TZ= ", "CRON_TZ= ", "TZ=  ", "TZ=UTC ", "TZ=UTC  ", "TZ=UTC\t* * * * *",
        "TZ=UTC\t", "TZ=UTC\n* * * * *", "TZ=UTC\u00a0* * * * *", "TZ=UTC * * * * * *", "TZ=UTC * * * *",
        "tz=UTC * * * * *", "Tz=UTC * * * * *", "cron_tz=UTC * * * * *", "CRON_TZ =UTC * * * * *",
        "TZ =UTC * * * * *", " TZ=UTC * * * * *", "TZ=UTC TZ=UTC * * * * *", "TZ=UTC CRON_TZ=UTC @daily",
        "TZ==UTC * * * * *", "CRON_TZ=TZ=UTC * * * * *", "TZ=UTC=x * * * * *", "CRON_TZ=UTC=x * * * * *",
        "TZ=America/New_York 0 0 * * * TZ=UTC", "TZ=UTC @Daily", "TZ=UTC @every", "TZ=UTC @every ",
        "TZ=UTC @every 1h ", "TZ=UTC  @every 1h", "TZ=UTC @every  1h", "TZ=UTC  ", "TZ=UTC \u00a0",
        "TZ=UTC \u00a0@daily\u00a0", "CRON_TZ=America/New_York 0 0 29 2 *", "TZ=Local @every 1h",
        "TZ=Local", "TZ=Local ", "TZ=America/Sao_Paulo 0 0 * * *", "TZ=America/Havana 30 0 * * *",
        "TZ=Etc/GMT+5 0 0 * * *", "TZ=Etc/GMT-14 0 0 * * *", "TZ=Pacific/Kiritimati 0 0 * * *",
        "TZ=Pacific/Apia 0 0 * * *",
    ]
    for s in odd:
        for sec in froms:
            emit(out, "tz", s, fmt_instant(sec), rng.choice(["UTC", "America/New_York", "Europe/Berlin"]))


# ---------------------------------------------------------------------------------------
# random valid expressions

FIELDS = [
    # name, lo, hi, names
    ("minute", 0, 59, None),
    ("hour", 0, 23, None),
    ("dom", 1, 31, None),
    ("month", 1, 12, ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]),
    ("dow", 0, 6, ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]),
]


def rand_case(rng, word):
    r = rng.random()
    if r < 0.4:
        return word
    if r < 0.7:
        return word.upper()
    if r < 0.9:
        return word.capitalize()
    return "".join(c.upper() if rng.random() < 0.5 else c for c in word)


def rand_value(rng, lo, hi, names, base=None):
    """A value in [lo, hi] as text; names[v - base] is its name (base = the field's minimum)."""
    v = rng.randint(lo, hi)
    if names and rng.random() < 0.35:
        return v, rand_case(rng, names[v - (lo if base is None else base)])
    if rng.random() < 0.03:
        return v, "0" + str(v)
    if rng.random() < 0.02:
        return v, "+" + str(v)
    return v, str(v)


def rand_item(rng, lo, hi, names):
    r = rng.random()
    if r < 0.28:
        _, t = rand_value(rng, lo, hi, names)
        return t
    if r < 0.48:
        a, ta = rand_value(rng, lo, hi, names)
        b, tb = rand_value(rng, a, hi, names, base=lo)
        return ta + "-" + tb
    if r < 0.66:
        return rng.choice(["*", "*", "?"]) + "/" + str(rng.choice([1, 2, 2, 3, 4, 5, 6, 7, 10, 12, 15, 20, 30, hi + 1, 90]))
    if r < 0.78:
        _, ta = rand_value(rng, lo, hi, names)
        return ta + "/" + str(rng.randint(1, max(2, hi - lo + 2)))
    if r < 0.90:
        a, ta = rand_value(rng, lo, hi, names)
        b, tb = rand_value(rng, a, hi, None)
        return ta + "-" + tb + "/" + str(rng.randint(1, max(2, hi - lo)))
    return rng.choice(["*", "?", "*", "*-3"])


def rand_field(rng, idx):
    _, lo, hi, names = FIELDS[idx]
    r = rng.random()
    # mostly star in the coarser fields, so schedules fire often enough to be interesting
    star_bias = [0.25, 0.35, 0.55, 0.7, 0.6][idx]
    if r < star_bias:
        return rng.choice(["*", "*", "*", "?"]) if idx >= 2 else "*"
    n = rng.choice([1, 1, 1, 2, 2, 3])
    return ",".join(rand_item(rng, lo, hi, names) for _ in range(n))


def rand_expr(rng):
    return " ".join(rand_field(rng, i) for i in range(5))


def rand_from(rng, y0=2018, y1=2031):
    sec = epoch(y0, 1, 1) + rng.randrange(epoch(y1, 1, 1) - epoch(y0, 1, 1))
    r = rng.random()
    if r < 0.5:
        sec -= sec % 60
        if rng.random() < 0.5:
            sec -= sec % 3600
    ns = 0
    if rng.random() < 0.2:
        ns = rng.choice([1, 999999999, rng.randrange(1, 10**9)])
    return sec, ns


def gen_random(out, rng, n):
    for _ in range(n):
        s = rand_expr(rng)
        if rng.random() < 0.12:
            s = rng.choice(["TZ=", "CRON_TZ="]) + rng.choice(DST_ZONES + ["UTC", "Asia/Tokyo", "Asia/Kolkata"]) + " " + s
        sec, ns = rand_from(rng)
        emit(out, "rnd", s, fmt_instant(sec, ns), rng.choice(LOCAL_ZONES_WEIGHTED))


# ---------------------------------------------------------------------------------------
# mutations (mostly invalid)

JUNK = ["L", "W", "#", "H", "LW", "5L", "1#2", "x", "?x", "**", "*?", "1.0", "one", "0x1", "1e2", "\u00bd",
        "\u0663", "\uff15", "%", "$", "!", "~1", "1~2", "\u2212" + "1", "\u2013", "1\u20132", "nul\u0000"]
UWS = ["\u00a0", "\u2003", "\u3000", "\u0085", "\u200b", "\ufeff", "\u2028", "\t", "\n", "\u000b", "\u180e"]


def mutate(rng, s):
    fields = s.split(" ")
    if len(fields) < 5:  # second mutation of an already shortened expression
        fields += ["*"] * (5 - len(fields))
    i = rng.randrange(5)
    _, lo, hi, names = FIELDS[i]
    m = rng.randrange(20)
    if m == 0:
        fields[i] = str(hi + rng.choice([1, 1, 2, 10, 100]))  # above max
    elif m == 1:
        fields[i] = str(lo - 1) if lo > 0 else "-1"  # below min / leading hyphen
    elif m == 2:
        fields[4] = rng.choice(["7", "1-7", "0-7", "7-7", "5-7", "7/1", "SUN-7", "*/7,7"])  # 7 in dow
    elif m == 3:
        fields[i] = rng.choice(JUNK)
    elif m == 4:
        fields[i] = fields[i] + rng.choice(JUNK)
    elif m == 5:
        fields.append(rng.choice(["*", "0", "2024", "?", "TZ=UTC"]))  # extra field
    elif m == 6:
        del fields[i]  # missing field
    elif m == 7:
        fields[i] = rng.choice(["*", str(lo), "%d-%d" % (lo, hi)]) + "/" + rng.choice(["-1", "-5", "0", "-0", "", "x", "1/2", "+0"])
    elif m == 8:
        a = rng.randint(lo + 1, hi)
        fields[i] = "%d-%d" % (a, rng.randint(lo, a - 1))  # reversed range
    elif m == 9:
        ws = rng.choice(UWS)
        j = rng.randrange(4)
        return " ".join(fields[: j + 1]) + ws + " ".join(fields[j + 1 :])
    elif m == 10:
        ws = rng.choice(UWS)
        fields[i] = fields[i] + ws + str(lo)
    elif m == 11:
        fields[i] = fields[i].replace(",", ",,") + "," if rng.random() < 0.5 else "," + fields[i]
    elif m == 12:
        fields[i] = fields[i] + "-" + str(rng.randint(lo, hi))  # extra hyphen
    elif m == 13:
        fields[i] = fields[i] + "/" + str(rng.randint(1, 5))  # extra slash
    elif m == 14:
        fields[i] = rng.choice(["99999999999999999999", "9223372036854775808", "18446744073709551615", "4294967296"])
    elif m == 15:
        # names in the wrong field / truncated / long
        fields[i] = rng.choice(["jan", "sun", "ja", "mond", "monday", "january", "SEPT", "thur", "tues"])
    elif m == 16:
        fields[i] = fields[i].upper().replace("*", "?")
    elif m == 17:
        fields[i] = str(rng.randint(lo, hi)) + "-" + str(rng.randint(lo, hi)) + "-" + str(rng.randint(lo, hi))
    elif m == 18:
        return rng.choice(["@", "@ ", "@every ", "@dail", "@weekly x", "@" + s])
    else:
        fields[i] = rng.choice(["-", "--", "/", "//", "*-", "*/", "-/", "/-", ",-", "-,"])
    return " ".join(fields)


def slow_minute_scan(s):
    """An empty minute set makes Next scan 5 years minute by minute (~2.6 million steps; 0.1 s
    in Go with Local=UTC, seconds in DST zones, far more in a debug build of the engine):
    such schedules appear only a few times, with Local=UTC."""
    f = s.split()
    return len(f) == 5 and f[0].strip(",") == ""


def gen_mutations(out, rng, n):
    made = 0
    while made < n:
        s = mutate(rng, rand_expr(rng))
        if rng.random() < 0.25:
            s = mutate(rng, s)
        if slow_minute_scan(s):
            continue
        sec, ns = rand_from(rng)
        emit(out, "mut", s, fmt_instant(sec, ns), rng.choice(LOCAL_ZONES_WEIGHTED))
        made += 1


# ---------------------------------------------------------------------------------------
# DST transitions

DST_EXPRS = [
    "0 * * * *", "30 * * * *", "*/15 * * * *", "*/30 1 * * *", "30 2 * * *", "0 2 * * *", "15 2 * * *",
    "45 2 * * *", "0 0 * * *", "30 0 * * *", "0 1 * * *", "30 1 * * *", "0 3 * * *", "59 23 * * *",
    "0 23 * * *", "* 2 * * *", "@daily", "@hourly", "0 12 * * *", "0 0 * * SUN", "45 1,2,3 * * *",
    "0 */2 * * *", "30 */3 * * *", "0 0 1 * *", "15 0 * * *", "0 22-23 * * *", "*/20 0-3 * * *",
    "0 0 */2 * *", "0 2 * * 0", "30 3 * * *",
]
DST_FROM_DELTAS = [-86400 - 1800, -86400, -43200, -7200 - 1, -7200, -3600 - 1, -3600, -1800, -60, -1, 0, 1, 1800, 3599, 3600]


def gen_dst(out, rng, tzdb):
    n_tr = 0
    for zone in DST_ZONES:
        trs = tzdb.transitions(zone, 2018, 2031)
        n_tr += len(trs)
        for (t, _old, _new) in trs:
            for expr in rng.sample(DST_EXPRS, 18):
                # as the controller's Local zone
                d = rng.choice(DST_FROM_DELTAS)
                emit(out, "dst", expr, fmt_instant(t + d, rng.choice([0, 0, 0, 1, 999999999])), zone)
                # as a TZ= / CRON_TZ= prefix, with some other Local zone
                d = rng.choice(DST_FROM_DELTAS)
                prefix = rng.choice(["TZ=", "CRON_TZ="])
                other = rng.choice(["UTC", "UTC", "Asia/Tokyo", "America/New_York", "Europe/Berlin", zone])
                emit(out, "dst", prefix + zone + " " + expr, fmt_instant(t + d), other)
    return n_tr


# ---------------------------------------------------------------------------------------
# leap days, far future, sub-second, historic

LEAP_EXPRS = [
    "0 0 29 2 *", "0 0 28 2 *", "0 0 28-29 2 *", "0 0 1 3 *", "59 23 28 2 *", "59 23 29 2 *", "0 0 29 2 1",
    "0 0 29 2 */1", "0 0 29 2 ?", "0 12 * 2 *", "0 0 30 2 *", "0 0 31 * *", "0 0 29,30 2 *", "@monthly",
    "@yearly", "0 0 29 * *", "0 0 29 2 MON-FRI", "0 0 28 2 SUN", "*/30 * 29 2 *", "0 0 L * *",
]


def gen_leap(out, rng):
    years = list(range(2018, 2033))
    for y in years:
        for expr in LEAP_EXPRS:
            for base in [epoch(y, 2, 27, 12), epoch(y, 2, 28, 23, 59, 59), epoch(y, 3, 1)]:
                if rng.random() < 0.55:
                    continue
                zone = rng.choice(["UTC", "UTC", "America/New_York", "Asia/Kolkata", "Pacific/Kiritimati", "America/Sao_Paulo"])
                emit(out, "leap", expr, fmt_instant(base - rng.choice([0, 0, 3600, 14 * 3600])), zone)


FAR_EXPRS = [
    "0 0 29 2 *", "0 0 29 2 1", "0 0 29 2 */1", "0 0 30 2 *", "0 0 31 4,6 *", "59 23 31 12 *", "@yearly",
    "0 0 1 1 *", "0 0 29 2 SUN", "0 0 * * *", "0 0 31 12 5", "0 0 28 2 *", "0 0 1 * *", "0 0 13 * 5",
    "59 59 23 31 12 *", "0 0 29 2 0-6", "0 0 29 2 ?", "TZ=Pacific/Kiritimati 0 0 29 2 *",
    "TZ=Pacific/Pago_Pago 0 0 29 2 *", "TZ=America/New_York 0 0 1 1 *",
]


def gen_far(out, rng):
    bases = []
    for y in range(2090, 2101):
        bases += [epoch(y, 1, 1), epoch(y, 2, 28, 23, 59, 59), epoch(y, 3, 1), epoch(y, 12, 31, 23, 59, 59)]
    for expr in FAR_EXPRS:
        for b in bases:
            if rng.random() < 0.45:
                continue
            zone = rng.choice(["UTC", "UTC", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Australia/Lord_Howe"])
            emit(out, "far", expr, fmt_instant(b + rng.choice([0, 0, -1, 1, -14 * 3600, 12 * 3600])), zone)
    # a few empty-set schedules: Next scans the whole 5-year window and returns the zero time
    emit(out, "far", ", * * * *", fmt_instant(epoch(2097, 1, 1), 5), "UTC")
    for s in ["0 , * * *", "0 0 , * *", "0 0 * , *", "0 0 * * ,"]:
        emit(out, "far", s, fmt_instant(epoch(2024, 6, 1)), "UTC")
        emit(out, "far", s, fmt_instant(epoch(2097, 1, 1), 5), "America/New_York")


SUB_EXPRS = ["*/5 * * * *", "* * * * *", "0 * * * *", "0 0 * * *", "@every 1s", "@every 1m", "@every 1.5s",
             "@every 500ms", "@hourly", "5 10 * * *", "TZ=Asia/Tokyo */5 * * * *", "@every 1h0m0.5s"]


def gen_sub(out, rng):
    for expr in SUB_EXPRS:
        for base in [epoch(2024, 1, 15, 10, 5, 0), epoch(2024, 1, 15, 10, 4, 59), epoch(2024, 12, 31, 23, 59, 59)]:
            for ns in [0, 1, 2, 499999999, 500000000, 999999999, 123456789, 100]:
                emit(out, "sub", expr, fmt_instant(base, ns), rng.choice(LOCAL_ZONES_WEIGHTED))


# Zones that skipped a whole calendar day. robfig's day loop never terminates when it has to
# step across such a day (time.Date(y, m, skipped_day) normalises back to the previous day and
# AddDate(0,0,1) makes no progress), so only schedules that match every day (no day-loop
# iteration) are used with them; see tools/oracle/README.md.
SKIPPED_DAY = [
    ("Pacific/Apia", epoch(2011, 12, 29, 9)),  # Samoa skipped 2011-12-30
    ("Pacific/Apia", epoch(2011, 12, 28, 9)),
    ("Pacific/Kwajalein", epoch(1993, 8, 19, 12)),  # skipped 1993-08-21
]
SKIPPED_DAY_EXPRS = ["0 0 * * *", "* * * * *", "*/7 * * * *", "0 * * * *", "30 0 * * *", "@hourly", "0 12 * * *", "59 23 * * *"]

HIST = [
    # (zone, from)
    ("Europe/Amsterdam", epoch(1930, 5, 14, 12)),  # +00:19:32 (not whole minutes)
    ("Europe/Amsterdam", epoch(1937, 6, 30, 12)),
    ("Africa/Monrovia", epoch(1971, 12, 31, 12)),  # -00:44:30 until 1972
    ("America/New_York", epoch(1883, 11, 18, 12)),  # LMT -> EST
    ("Asia/Kolkata", epoch(1942, 8, 31, 12)),
    ("Europe/London", epoch(1968, 10, 26, 12)),  # British Standard Time
    ("Australia/Lord_Howe", epoch(1981, 2, 28, 12)),
]
HIST_EXPRS = ["0 0 * * *", "* * * * *", "*/7 * * * *", "0 * * * *", "30 0 * * *", "0 0 30 12 *", "0 0 31 12 *", "@hourly"]


def gen_hist(out, rng):
    cases = [(z, s, e) for z, s in HIST for e in HIST_EXPRS]
    cases += [(z, s, e) for z, s in SKIPPED_DAY for e in SKIPPED_DAY_EXPRS]
    for zone, sec, expr in cases:
        if True:
            emit(out, "hist", expr, fmt_instant(sec), zone)
            emit(out, "hist", "TZ=" + zone + " " + expr, fmt_instant(sec + 3600 * rng.randint(-12, 12)), "UTC")


# ---------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tzdb", required=True, help="directory of TZif files (dump of jiff's bundled tzdb)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--stats", action="store_true", help="print case counts by category to stderr")
    args = ap.parse_args()

    tzdb = TzDb(args.tzdb)
    rng = random.Random(args.seed)
    out = []
    gen_curated(out, rng)
    gen_every(out, rng)
    gen_tz(out, rng)
    n_tr = gen_dst(out, rng, tzdb)
    gen_leap(out, rng)
    gen_far(out, rng)
    gen_sub(out, rng)
    gen_hist(out, rng)
    gen_random(out, rng, 6000)
    gen_mutations(out, rng, 4000)

    # bytes, so the output does not depend on the locale's encoding
    w = sys.stdout.buffer
    for c in out:
        w.write((json.dumps(c, ensure_ascii=False) + "\n").encode("utf-8"))
    w.flush()
    if args.stats:
        counts = {}
        for c in out:
            counts[c["k"]] = counts.get(c["k"], 0) + 1
        print("gen_cases: %d cases (%d DST transitions): %s" % (
            len(out), n_tr, ", ".join("%s=%d" % kv for kv in sorted(counts.items()))), file=sys.stderr)


if __name__ == "__main__":
    main()
