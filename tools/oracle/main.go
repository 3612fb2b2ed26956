// Command oracle is the reference oracle for crates/schedule: it runs the real
// robfig/cron v3.0.1 (the version Kubernetes vendors) over JSONL cases and prints
// what the library does, so the Rust reimplementation can be diffed against it.
//
// Usage:
//
//	oracle [run] [-local-mode=env|assign] < cases.jsonl > results.jsonl
//	oracle bench [-local ZONE] [-benchtime 1s]
//	oracle bench -mix tools/oracle/bench-mix.txt [-benchtime 1s]
//
// Input, one JSON object per line:
//
//	{"s": "<schedule>", "f": "<RFC3339Nano instant>", "l": "<controller Local zone>", "k": "<category>"}
//
// Output, one line per input line, same order, echoing the case:
//
//	{"s":..,"f":..,"l":..,"k":..,"ok":true,"n":["2024-03-10T07:00:00Z",...]}
//	{"s":..,"f":..,"l":..,"k":..,"ok":false,"e":"<robfig error or panic text>","p":true}
//
// "n" holds up to 5 activations obtained by feeding each result back into Next
// (starting from "f" expressed in the Local zone, exactly as the controller does),
// formatted RFC3339Nano in UTC. A Go zero time is written as null and ends the chain
// (Next(zero) would be evaluated in UTC, which is not something the controller does).
//
// Time zone data: set ZONEINFO to a directory of TZif files (tools/oracle/run-differential.sh
// dumps jiff's bundled database there). Go's LoadLocation reads ZONEINFO first; the oracle
// refuses cases whose result would silently fall back to the system's /usr/share/zoneinfo.
//
// Local zone: robfig captures the *pointer* time.Local when parsing and compares
// `s.Location == time.Local` in Next. The Kubernetes controller never touches time.Local;
// it is Go's process-wide localLoc, initialised from the TZ environment variable. The
// default -local-mode=env reproduces that exactly: cases are grouped by Local zone and
// each group runs in a child process started with TZ=<ZONEINFO>/<zone> (TZ=UTC for UTC).
// -local-mode=assign instead does `time.Local = LoadLocation(zone)` before each parse,
// in one process; run-differential.sh checks that both modes print identical output.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	cron "github.com/robfig/cron/v3"
)

type Case struct {
	S string `json:"s"`
	F string `json:"f"`
	L string `json:"l"`
	K string `json:"k,omitempty"`
}

type Result struct {
	S  string    `json:"s"`
	F  string    `json:"f"`
	L  string    `json:"l"`
	K  string    `json:"k,omitempty"`
	OK bool      `json:"ok"`
	E  string    `json:"e,omitempty"`
	P  bool      `json:"p,omitempty"`
	N  []*string `json:"n,omitempty"`
}

const nextCount = 5

// kcmZoneinfoPrefix is what Go prints for a file under the first platform zone source
// ("/usr/share/zoneinfo/" + "/" + name). Error texts that mention our ZONEINFO directory are
// rewritten to it, so the golden file does not depend on where the dump lives and shows what
// a controller reading /usr/share/zoneinfo would print.
const kcmZoneinfoPrefix = "/usr/share/zoneinfo//"

var platformZoneSources = []string{"/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/"}

func main() {
	mode := "run"
	args := os.Args[1:]
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		mode, args = args[0], args[1:]
	}
	switch mode {
	case "run":
		fsFlags := flag.NewFlagSet("run", flag.ExitOnError)
		localMode := fsFlags.String("local-mode", "env", "how the controller Local zone is set: env (TZ env var per child process, like kube-controller-manager) or assign (time.Local = LoadLocation(zone))")
		allowSystem := fsFlags.Bool("allow-system-tzdata", false, "do not fail when ZONEINFO is unset or a case would read the system tz database")
		fsFlags.Parse(args)
		os.Exit(runMain(*localMode, *allowSystem))
	case "worker":
		// Internal: one Local zone per process; time.Local comes from the TZ env var.
		os.Exit(worker())
	case "bench":
		fsFlags := flag.NewFlagSet("bench", flag.ExitOnError)
		local := fsFlags.String("local", "UTC", "controller Local zone for Next (built-in mix only)")
		mix := fsFlags.String("mix", "", "benchmark mix file (tools/oracle/bench-mix.txt); default: a built-in 18-expression mix")
		benchtime := fsFlags.String("benchtime", "1s", "time per measurement, as go test -benchtime")
		fsFlags.Parse(args)
		testing.Init()
		if err := flag.Set("test.benchtime", *benchtime); err != nil {
			fmt.Fprintln(os.Stderr, "oracle bench: -benchtime:", err)
			os.Exit(2)
		}
		if *mix != "" {
			os.Exit(benchMix(*mix))
		}
		bench(*local)
	default:
		fmt.Fprintf(os.Stderr, "usage: oracle [run|bench] [flags]\n")
		os.Exit(2)
	}
}

func zoneinfoDir() string {
	z := os.Getenv("ZONEINFO")
	if z == "" {
		return ""
	}
	if abs, err := filepath.Abs(z); err == nil {
		return abs
	}
	return z
}

func readCases(r io.Reader) ([]Case, error) {
	var cases []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var c Case
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			// Tolerate result lines (golden file) as input: retry leniently.
			if err2 := json.Unmarshal(b, &c); err2 != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

func newEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

func runMain(localMode string, allowSystem bool) int {
	zi := zoneinfoDir()
	if zi == "" && !allowSystem {
		fmt.Fprintln(os.Stderr, "oracle: ZONEINFO is not set; refusing to use the system tz database (pass -allow-system-tzdata to override)")
		return 2
	}
	cases, err := readCases(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		return 2
	}
	bad := 0
	for i, c := range cases {
		if why := systemDependency(c.S, zi); why != "" {
			if bad < 20 {
				fmt.Fprintf(os.Stderr, "oracle: case %d %q: %s\n", i, c.S, why)
			}
			bad++
		}
		if c.L == "Local" || c.L == "" {
			// Keep the input explicit: "" would silently mean UTC.
			fmt.Fprintf(os.Stderr, "oracle: case %d: Local zone must be a zone name (got %q)\n", i, c.L)
			bad++
		}
	}
	if bad > 0 && !allowSystem {
		fmt.Fprintf(os.Stderr, "oracle: %d case(s) are not hermetic; fix the generator\n", bad)
		return 3
	}
	var results []Result
	switch localMode {
	case "assign":
		results, err = runAssign(cases)
	case "env":
		results, err = runEnv(cases)
	default:
		err = fmt.Errorf("unknown -local-mode %q", localMode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		return 1
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := newEncoder(w)
	for i := range results {
		if err := enc.Encode(&results[i]); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			return 1
		}
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// systemDependency reports when robfig's LoadLocation call for this spec would miss the
// ZONEINFO directory and then succeed against a system zone source: such a result would
// depend on the machine's tzdata package instead of the dumped jiff database.
func systemDependency(spec, zi string) string {
	if !(strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=")) {
		return ""
	}
	i := strings.Index(spec, " ")
	if i < 0 {
		return "" // robfig panics before LoadLocation
	}
	eq := strings.Index(spec, "=")
	name := spec[eq+1 : i]
	if name == "" || name == "UTC" || name == "Local" || strings.Contains(name, "..") || name[0] == '/' || name[0] == '\\' {
		return ""
	}
	if zi != "" {
		_, err := os.Lstat(zi + "/" + name)
		if !errors.Is(err, fs.ErrNotExist) {
			return "" // found (or failed non-ENOENT) in ZONEINFO: Go stops or records that error first
		}
	}
	for _, src := range platformZoneSources {
		if _, err := os.Stat(src + "/" + name); err == nil {
			return fmt.Sprintf("zone %q is not in ZONEINFO=%q but exists in %s: result would depend on the system tz database", name, zi, src)
		}
	}
	if _, err := os.Stat(filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip")); err == nil {
		return fmt.Sprintf("zone %q is not in ZONEINFO and GOROOT has lib/time/zoneinfo.zip", name)
	}
	return ""
}

// caseTimeout bounds one case. robfig's Next has no iteration limit other than the 5-year
// check at WRAP, and its day loop never ends when AddDate(0,0,1) cannot leave a day (a zone
// that skipped a whole calendar day, e.g. Pacific/Apia 2011-12-30): such a case would make
// the oracle hang forever, so it is reported and the run fails instead.
const caseTimeout = 20 * time.Second

// evaluate runs ParseStandard and the Next chain with whatever time.Local currently is.
func evaluate(c Case, zi string) Result {
	watchdog := time.AfterFunc(caseTimeout, func() {
		fmt.Fprintf(os.Stderr, "oracle: case %q from %s Local %s still running after %v: robfig does not terminate on it; remove it from the generator\n", c.S, c.F, c.L, caseTimeout)
		os.Exit(4)
	})
	defer watchdog.Stop()
	res := Result{S: c.S, F: c.F, L: c.L, K: c.K}
	from, err := time.Parse(time.RFC3339Nano, c.F)
	if err != nil {
		res.E = "oracle: bad from: " + err.Error()
		res.P = true
		return res
	}
	sched, perr, panicked := parse(c.S)
	if panicked || perr != nil {
		res.P = panicked
		if perr != nil {
			res.E = perr.Error()
		}
		if zi != "" {
			res.E = strings.ReplaceAll(res.E, zi+"/", kcmZoneinfoPrefix)
		}
		return res
	}
	res.OK = true
	// The controller's times are in Local (time.Now(), metav1.Time decoded with .Local()).
	t := from.In(time.Local)
	for k := 0; k < nextCount; k++ {
		n := sched.Next(t)
		if n.IsZero() {
			res.N = append(res.N, nil)
			break
		}
		s := n.UTC().Format(time.RFC3339Nano)
		res.N = append(res.N, &s)
		t = n
	}
	return res
}

func parse(spec string) (s cron.Schedule, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			s = nil
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	s, err = cron.ParseStandard(spec)
	return s, err, false
}

func runAssign(cases []Case) ([]Result, error) {
	zi := zoneinfoDir()
	locs := map[string]*time.Location{}
	out := make([]Result, len(cases))
	for i, c := range cases {
		loc, ok := locs[c.L]
		if !ok {
			var err error
			loc, err = time.LoadLocation(c.L)
			if err != nil {
				return nil, fmt.Errorf("case %d: Local zone %q: %v", i, c.L, err)
			}
			locs[c.L] = loc
		}
		time.Local = loc
		out[i] = evaluate(c, zi)
	}
	return out, nil
}

func runEnv(cases []Case) ([]Result, error) {
	zi := zoneinfoDir()
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	groups := map[string][]int{}
	var zones []string
	for i, c := range cases {
		if _, ok := groups[c.L]; !ok {
			zones = append(zones, c.L)
		}
		groups[c.L] = append(groups[c.L], i)
	}
	sort.Strings(zones)
	out := make([]Result, len(cases))
	for _, zone := range zones {
		idx := groups[zone]
		tz := "UTC"
		if zone != "UTC" {
			if zi == "" {
				tz = zone // system database (only with -allow-system-tzdata)
			} else {
				tz = zi + "/" + zone
			}
		}
		var in bytes.Buffer
		enc := newEncoder(&in)
		for _, i := range idx {
			enc.Encode(cases[i])
		}
		cmd := exec.Command(exe, "worker")
		cmd.Env = append(filteredEnv("TZ"), "TZ="+tz, "ORACLE_LOCAL_NAME="+zone)
		cmd.Stdin = &in
		cmd.Stderr = os.Stderr
		stdout, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("worker for Local %q (TZ=%s): %v", zone, tz, err)
		}
		dec := json.NewDecoder(bytes.NewReader(stdout))
		for _, i := range idx {
			if err := dec.Decode(&out[i]); err != nil {
				return nil, fmt.Errorf("worker for Local %q: decoding result for case %d: %v", zone, i, err)
			}
		}
	}
	return out, nil
}

func filteredEnv(drop string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, drop+"=") {
			env = append(env, kv)
		}
	}
	return env
}

func worker() int {
	zi := zoneinfoDir()
	zone := os.Getenv("ORACLE_LOCAL_NAME")
	cases, err := readCases(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle worker:", err)
		return 2
	}
	// Sanity: time.Local really is the requested zone (Go silently falls back to UTC
	// when the TZ file cannot be read).
	ref, err := time.LoadLocation(zone)
	if err != nil {
		fmt.Fprintf(os.Stderr, "oracle worker: LoadLocation(%q): %v\n", zone, err)
		return 2
	}
	if zone != "UTC" && time.Local.String() == "UTC" {
		fmt.Fprintf(os.Stderr, "oracle worker: TZ=%s did not load (time.Local fell back to UTC)\n", os.Getenv("TZ"))
		return 2
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := newEncoder(w)
	for i, c := range cases {
		if from, err := time.Parse(time.RFC3339Nano, c.F); err == nil {
			n1, o1 := from.In(time.Local).Zone()
			n2, o2 := from.In(ref).Zone()
			if n1 != n2 || o1 != o2 {
				fmt.Fprintf(os.Stderr, "oracle worker: case %d: Local says %s%+d, LoadLocation(%q) says %s%+d\n", i, n1, o1, zone, n2, o2)
				return 2
			}
		}
		r := evaluate(c, zi)
		if err := enc.Encode(&r); err != nil {
			return 1
		}
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// bench times ParseStandard and Next over a fixed mix of expressions.
func bench(local string) {
	loc, err := time.LoadLocation(local)
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle bench:", err)
		os.Exit(2)
	}
	time.Local = loc
	exprs := []string{
		"* * * * *",
		"*/5 * * * *",
		"0 * * * *",
		"0 0 * * *",
		"30 2 * * *",
		"0 9-17 * * MON-FRI",
		"15,45 */2 1-15 * *",
		"0 0 1 */3 *",
		"0 0 13 * 5",
		"0 0 29 2 *",
		"0 0 30 2 *",
		"@hourly",
		"@daily",
		"@weekly",
		"@every 1h30m",
		"TZ=America/New_York 30 1 * * *",
		"CRON_TZ=Europe/Berlin 0 3 * * SUN",
		"TZ=Australia/Lord_Howe 0 2 * * *",
	}
	from := time.Date(2024, 3, 9, 12, 34, 56, 789, time.UTC).In(time.Local)
	fmt.Printf("# robfig/cron v3.0.1, %s %s/%s, Local=%s, from=%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, local, from.UTC().Format(time.RFC3339Nano))
	fmt.Printf("%-6s %-36s %12s\n", "op", "expression", "ns/op")
	var totalParse, totalNext float64
	for _, e := range exprs {
		pr := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := cron.ParseStandard(e); err != nil {
					b.Fatal(err)
				}
			}
		})
		s, _ := cron.ParseStandard(e)
		nr := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s.Next(from)
			}
		})
		p := float64(pr.T.Nanoseconds()) / float64(pr.N)
		n := float64(nr.T.Nanoseconds()) / float64(nr.N)
		totalParse += p
		totalNext += n
		fmt.Printf("%-6s %-36q %12.1f\n", "parse", e, p)
		fmt.Printf("%-6s %-36q %12.1f\n", "next", e, n)
	}
	fmt.Printf("%-6s %-36s %12.1f\n", "parse", "(mean over mix)", totalParse/float64(len(exprs)))
	fmt.Printf("%-6s %-36s %12.1f\n", "next", "(mean over mix)", totalNext/float64(len(exprs)))
}

// mixEntry is one line of tools/oracle/bench-mix.txt.
type mixEntry struct {
	group, local, from, spec string
}

func readMix(path string) ([]mixEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var entries []mixEntry
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 4)
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want group, zone, instant, schedule separated by tabs", path, i+1)
		}
		entries = append(entries, mixEntry{group: f[0], local: f[1], from: f[2], spec: f[3]})
	}
	return entries, nil
}

var benchSink time.Time

// benchMix times ParseStandard and one Next for every entry of a mix file (the same file
// crates/schedule/benches/engine.rs reads), with time.Local set to the entry's controller
// zone as in the differential oracle. One tab-separated line per measurement:
//
//	parse|next <TAB> index <TAB> group <TAB> ns/op <TAB> answer (next: RFC 3339 UTC or "never") <TAB> schedule (quoted)
func benchMix(path string) int {
	entries, err := readMix(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle bench:", err)
		return 2
	}
	fmt.Printf("# robfig/cron v3.0.1, %s %s/%s, GOMAXPROCS=%d, mix=%s (%d entries)\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), path, len(entries))
	fmt.Printf("# op\tidx\tgroup\tns/op\tanswer\tschedule\n")
	for i, e := range entries {
		loc, err := time.LoadLocation(e.local)
		if err != nil {
			fmt.Fprintf(os.Stderr, "oracle bench: entry %d: %v\n", i, err)
			return 2
		}
		time.Local = loc
		from, err := time.Parse(time.RFC3339Nano, e.from)
		if err != nil {
			fmt.Fprintf(os.Stderr, "oracle bench: entry %d: %v\n", i, err)
			return 2
		}
		from = from.In(time.Local)
		spec := e.spec
		pr := testing.Benchmark(func(b *testing.B) {
			for n := 0; n < b.N; n++ {
				if _, err := cron.ParseStandard(spec); err != nil {
					b.Fatal(err)
				}
			}
		})
		s, err := cron.ParseStandard(spec)
		if err != nil {
			fmt.Fprintf(os.Stderr, "oracle bench: entry %d: %q: %v\n", i, spec, err)
			return 2
		}
		nr := testing.Benchmark(func(b *testing.B) {
			for n := 0; n < b.N; n++ {
				benchSink = s.Next(from)
			}
		})
		answer := "never"
		if t := s.Next(from); !t.IsZero() {
			answer = t.UTC().Format(time.RFC3339Nano)
		}
		fmt.Printf("parse\t%d\t%s\t%.1f\t-\t%q\n", i, e.group, float64(pr.T.Nanoseconds())/float64(pr.N), spec)
		fmt.Printf("next\t%d\t%s\t%.1f\t%s\t%q\n", i, e.group, float64(nr.T.Nanoseconds())/float64(nr.N), answer, spec)
	}
	return 0
}
