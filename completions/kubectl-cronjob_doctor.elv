
use builtin;
use str;

set edit:completion:arg-completer[kubectl-cronjob_doctor] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'kubectl-cronjob_doctor'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'kubectl-cronjob_doctor'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand explain 'Diagnose CronJobs: the headline, findings, controller replay, timeline and fix'
            cand lint 'Lint CronJob manifests for CI. Exit 0: nothing at or above --fail-on; 1: something is; 2: input could not be read'
            cand next 'Show when a schedule really fires, with Kubernetes semantics (robfig/cron v3.0.1)'
            cand rules 'Print the catalogue of findings (rules) this tool can report'
            cand scan 'Diagnose every CronJob of a namespace (or all, -A) in one table, worst first'
            cand trigger 'Run a CronJob now: create a Job from its template, like `kubectl create job --from=cronjob/NAME`, after a preview of what that Job is to the controller'
            cand suspend 'Suspend a CronJob (spec.suspend: true), recording who, when and why'
            cand unsuspend 'Resume a CronJob, after a replay of what the controller does next'
            cand version 'Print the version, git commit and time-zone database in use'
            cand completion 'Print a shell completion script (bash, zsh, fish, powershell, elvish), or the helper that makes `kubectl cronjob-doctor <TAB>` complete through kubectl'
            cand man 'Print the manual page (roff): `kubectl cronjob-doctor man | man -l -`'
            cand monitor 'Watch every CronJob and say the moment one stops running: continuous `scan`'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-cronjob_doctor;explain'= {
            cand -f 'Read manifests from a file, a directory (recursively, *.yaml|*.yml|*.json) or `-` (stdin) instead of the cluster'
            cand --file 'Read manifests from a file, a directory (recursively, *.yaml|*.yml|*.json) or `-` (stdin) instead of the cluster'
            cand -n 'Namespace of the CronJob (default: the context''s, else `default`). With -f: only CronJobs in this namespace (objects without a namespace count as `default`)'
            cand --namespace 'Namespace of the CronJob (default: the context''s, else `default`). With -f: only CronJobs in this namespace (objects without a namespace count as `default`)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --timeline 'How many past slots the timeline shows: 0 (no timeline) to 1000'
            cand --slot 'Answer for one run only: what happened to the run of this slot (never due and why, late and which stage, several attempts, failed, running, not started). An instant (2026-11-20T11:00:00Z; without an offset, UTC) or a time of day (11:00: its most recent occurrence in the schedule''s zone). Exit code 1 when that run did not run well'
            cand --max-input-size 'The largest file (or stdin) read with -f: bytes, or with Ki/Mi/Gi (or K/M/G), from 1Ki to 64Gi. A larger input is an error instead of an out-of-memory kill'
            cand --now 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server''s clock; from files, the wall clock (a note says when the input''s newest timestamp is over an hour older: an old dump wants `dump`)'
            cand --controller-time-zone 'The controller''s local time zone, used for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)'
            cand --kube-version 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest'
            cand --color 'When to use colour in text output. NO_COLOR is respected with `auto`'
            cand --config 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one'
            cand --kubeconfig 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account'
            cand --context 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report'
            cand --cluster 'The kubeconfig cluster to use (default: the context''s)'
            cand --user 'The kubeconfig user to use (default: the context''s)'
            cand --request-timeout 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h'
            cand --context-timeout 'With several contexts: give up on one context after this long (connecting, reading and retries included), so a dead cluster costs at most this: 30s, 1m, or a number of seconds, from 1s to 1h'
            cand --monitor 'The monitor to ask for the CronJob''s remembered runs (runs whose Job, Pods and Events are gone), through the API server''s service proxy: NAMESPACE/SERVICE[:PORT]. Default: the Service of deploy/monitor/, cronjob-doctor/cronjob-doctor:9090. Needs get on services/proxy; waits at most 2s; without an answer, a one-line note'
            cand --no-config 'Ignore any config file'
            cand --all-contexts 'Read every context of the kubeconfig (each with its own credentials, namespace and clock) and report them together; a context that cannot be read is reported, and the exit code is 2'
            cand --no-monitor 'Do not ask a monitor: the timeline shows only what the cluster still holds'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;lint'= {
            cand -f 'Manifests to lint: files, directories (recursively, *.yaml|*.yml|*.json) or `-` (stdin)'
            cand --file 'Manifests to lint: files, directories (recursively, *.yaml|*.yml|*.json) or `-` (stdin)'
            cand --fail-on 'Lowest severity that makes the exit code 1 (default: the config''s failOn, else warning)'
            cand -o 'Output format: one line per finding, JSON, or SARIF 2.1.0 for code scanning'
            cand --output 'Output format: one line per finding, JSON, or SARIF 2.1.0 for code scanning'
            cand --baseline 'Report only findings that are not in this baseline (written by --write-baseline); the exit code counts those alone, and baseline entries that no longer occur are listed'
            cand --write-baseline 'Record today''s findings (at or above --fail-on) in FILE as the baseline, and exit 0'
            cand --max-input-size 'The largest file (or stdin) read with -f: bytes, or with Ki/Mi/Gi (or K/M/G), from 1Ki to 64Gi. A larger input is an error instead of an out-of-memory kill'
            cand --now 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server''s clock; from files, the wall clock (a note says when the input''s newest timestamp is over an hour older: an old dump wants `dump`)'
            cand --controller-time-zone 'The controller''s local time zone, used for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)'
            cand --kube-version 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest'
            cand --color 'When to use colour in text output. NO_COLOR is respected with `auto`'
            cand --config 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one'
            cand --print-config 'Print the effective settings (config file and flags) as YAML and exit'
            cand --no-config 'Ignore any config file'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;next'= {
            cand --time-zone 'Like spec.timeZone: evaluate in this IANA zone (adds `TZ=<zone> ` unless the schedule already contains TZ)'
            cand --from 'Start after this instant (RFC 3339). Default: now'
            cand --count 'How many fire times to show: 1 to 1000'
            cand --controller-time-zone 'The controller''s local zone, used when the schedule has no zone'
            cand -o 'o'
            cand --output 'output'
            cand --color 'color'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;rules'= {
            cand -o 'o'
            cand --output 'output'
            cand --config 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one'
            cand --no-config 'Ignore any config file'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;scan'= {
            cand -n 'Namespace to scan (default: the context''s, else `default`)'
            cand --namespace 'Namespace to scan (default: the context''s, else `default`)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --timeline 'How many past slots each CronJob''s timeline holds (JSON output): 0 to 1000'
            cand --now 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server''s clock; from files, the wall clock (a note says when the input''s newest timestamp is over an hour older: an old dump wants `dump`)'
            cand --controller-time-zone 'The controller''s local time zone, used for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)'
            cand --kube-version 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest'
            cand --color 'When to use colour in text output. NO_COLOR is respected with `auto`'
            cand --config 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one'
            cand --kubeconfig 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account'
            cand --context 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report'
            cand --cluster 'The kubeconfig cluster to use (default: the context''s)'
            cand --user 'The kubeconfig user to use (default: the context''s)'
            cand --request-timeout 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h'
            cand --context-timeout 'With several contexts: give up on one context after this long (connecting, reading and retries included), so a dead cluster costs at most this: 30s, 1m, or a number of seconds, from 1s to 1h'
            cand -A 'Scan every namespace'
            cand --all-namespaces 'Scan every namespace'
            cand --only-problems 'Only list CronJobs with a warning or an error'
            cand --no-config 'Ignore any config file'
            cand --all-contexts 'Read every context of the kubeconfig (each with its own credentials, namespace and clock) and report them together; a context that cannot be read is reported, and the exit code is 2'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;trigger'= {
            cand --job-name 'Name of the Job (default: <cronjob>-manual-<5 random characters>, the CronJob part shortened so the whole fits in 63 characters)'
            cand -o 'Print the Job as YAML or JSON: the created one, or with --dry-run the one that would be created. The preview then goes to stderr'
            cand --output 'Print the Job as YAML or JSON: the created one, or with --dry-run the one that would be created. The preview then goes to stderr'
            cand --timeout 'With --wait: stop waiting after this long (30s, 10m, 1h; 0 for no limit; at most 168h). The Job itself goes on'
            cand -n 'Namespace of the CronJob (default: the context''s, else `default`)'
            cand --namespace 'Namespace of the CronJob (default: the context''s, else `default`)'
            cand --dry-run 'Only show (`client`) or only test on the server (`server`) what would be done'
            cand --kubeconfig 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account'
            cand --context 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report'
            cand --cluster 'The kubeconfig cluster to use (default: the context''s)'
            cand --user 'The kubeconfig user to use (default: the context''s)'
            cand --request-timeout 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h'
            cand --wait 'Follow the Job until it finishes, showing its Pods'' phase and failure reasons. Exit 0 when it completes, 1 when it fails or --timeout passes first'
            cand -y 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
            cand --yes 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;suspend'= {
            cand --reason 'Why: recorded in the annotation cronjob-doctor.io/suspend-reason, which `explain` and `scan` show ("suspended 3d ago by alice, reason: …")'
            cand --by 'Who suspends it, recorded in cronjob-doctor.io/suspended-by (default: $USER, else the kubeconfig context''s name)'
            cand -n 'Namespace of the CronJob (default: the context''s, else `default`)'
            cand --namespace 'Namespace of the CronJob (default: the context''s, else `default`)'
            cand --dry-run 'Only show (`client`) or only test on the server (`server`) what would be done'
            cand --kubeconfig 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account'
            cand --context 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report'
            cand --cluster 'The kubeconfig cluster to use (default: the context''s)'
            cand --user 'The kubeconfig user to use (default: the context''s)'
            cand --request-timeout 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h'
            cand -y 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
            cand --yes 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;unsuspend'= {
            cand --controller-time-zone 'The controller''s local time zone, for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)'
            cand -n 'Namespace of the CronJob (default: the context''s, else `default`)'
            cand --namespace 'Namespace of the CronJob (default: the context''s, else `default`)'
            cand --dry-run 'Only show (`client`) or only test on the server (`server`) what would be done'
            cand --kubeconfig 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account'
            cand --context 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report'
            cand --cluster 'The kubeconfig cluster to use (default: the context''s)'
            cand --user 'The kubeconfig user to use (default: the context''s)'
            cand --request-timeout 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h'
            cand --skip-missed 'Resume without the immediate catch-up run for a slot missed while suspended. First moves status.lastScheduleTime to that slot (a merge patch on the status subresource, while the CronJob is still suspended: needs `patch` on `cronjobs/status`), so the controller counts it as done; then sets spec.suspend to false. The next regular slot runs as usual. Sent only when a catch-up run would otherwise start'
            cand -y 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
            cand --yes 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;version'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;completion'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;man'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;monitor'= {
            cand -n 'Namespace to watch (default: the context''s, else `default`)'
            cand --namespace 'Namespace to watch (default: the context''s, else `default`)'
            cand --listen 'Serve /metrics, /healthz, /readyz and /report on this address (e.g. 0.0.0.0:9090); status lines are then printed only if -o is given'
            cand --grace 'How long after a slot''s due time a missing run counts as missed: 0 to 24h'
            cand --stale-after 'Not ready (/readyz 503) when a watch has heard nothing from the API server (no event, no bookmark) for this long: 1s to 1h. Servers bookmark every minute or so'
            cand -o 'Format of the status lines on stdout [default: text]. With --listen, giving -o prints them too'
            cand --output 'Format of the status lines on stdout [default: text]. With --listen, giving -o prints them too'
            cand --controller-time-zone 'The controller''s local time zone, used for schedules without spec.timeZone'
            cand --kube-version 'Replay the controller of this Kubernetes version. Default: the server''s'
            cand --kubeconfig 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account'
            cand --context 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report'
            cand --cluster 'The kubeconfig cluster to use (default: the context''s)'
            cand --user 'The kubeconfig user to use (default: the context''s)'
            cand --request-timeout 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h'
            cand -A 'Watch every namespace'
            cand --all-namespaces 'Watch every namespace'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kubectl-cronjob_doctor;help'= {
            cand explain 'Diagnose CronJobs: the headline, findings, controller replay, timeline and fix'
            cand lint 'Lint CronJob manifests for CI. Exit 0: nothing at or above --fail-on; 1: something is; 2: input could not be read'
            cand next 'Show when a schedule really fires, with Kubernetes semantics (robfig/cron v3.0.1)'
            cand rules 'Print the catalogue of findings (rules) this tool can report'
            cand scan 'Diagnose every CronJob of a namespace (or all, -A) in one table, worst first'
            cand trigger 'Run a CronJob now: create a Job from its template, like `kubectl create job --from=cronjob/NAME`, after a preview of what that Job is to the controller'
            cand suspend 'Suspend a CronJob (spec.suspend: true), recording who, when and why'
            cand unsuspend 'Resume a CronJob, after a replay of what the controller does next'
            cand version 'Print the version, git commit and time-zone database in use'
            cand completion 'Print a shell completion script (bash, zsh, fish, powershell, elvish), or the helper that makes `kubectl cronjob-doctor <TAB>` complete through kubectl'
            cand man 'Print the manual page (roff): `kubectl cronjob-doctor man | man -l -`'
            cand monitor 'Watch every CronJob and say the moment one stops running: continuous `scan`'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-cronjob_doctor;help;explain'= {
        }
        &'kubectl-cronjob_doctor;help;lint'= {
        }
        &'kubectl-cronjob_doctor;help;next'= {
        }
        &'kubectl-cronjob_doctor;help;rules'= {
        }
        &'kubectl-cronjob_doctor;help;scan'= {
        }
        &'kubectl-cronjob_doctor;help;trigger'= {
        }
        &'kubectl-cronjob_doctor;help;suspend'= {
        }
        &'kubectl-cronjob_doctor;help;unsuspend'= {
        }
        &'kubectl-cronjob_doctor;help;version'= {
        }
        &'kubectl-cronjob_doctor;help;completion'= {
        }
        &'kubectl-cronjob_doctor;help;man'= {
        }
        &'kubectl-cronjob_doctor;help;monitor'= {
        }
        &'kubectl-cronjob_doctor;help;help'= {
        }
    ]
    $completions[$command]
}
