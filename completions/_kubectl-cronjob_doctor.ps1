
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kubectl-cronjob_doctor' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kubectl-cronjob_doctor'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kubectl-cronjob_doctor' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Diagnose CronJobs: the headline, findings, controller replay, timeline and fix')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Lint CronJob manifests for CI. Exit 0: nothing at or above --fail-on; 1: something is; 2: input could not be read')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Show when a schedule really fires, with Kubernetes semantics (robfig/cron v3.0.1)')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'Print the catalogue of findings (rules) this tool can report')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Diagnose every CronJob of a namespace (or all, -A) in one table, worst first')
            [CompletionResult]::new('trigger', 'trigger', [CompletionResultType]::ParameterValue, 'Run a CronJob now: create a Job from its template, like `kubectl create job --from=cronjob/NAME`, after a preview of what that Job is to the controller')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Suspend a CronJob (spec.suspend: true), recording who, when and why')
            [CompletionResult]::new('unsuspend', 'unsuspend', [CompletionResultType]::ParameterValue, 'Resume a CronJob, after a replay of what the controller does next')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the version, git commit and time-zone database in use')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish), or the helper that makes `kubectl cronjob-doctor <TAB>` complete through kubectl')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page (roff): `kubectl cronjob-doctor man | man -l -`')
            [CompletionResult]::new('monitor', 'monitor', [CompletionResultType]::ParameterValue, 'Watch every CronJob and say the moment one stops running: continuous `scan`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-cronjob_doctor;explain' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read manifests from a file, a directory (recursively, *.yaml|*.yml|*.json) or `-` (stdin) instead of the cluster')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read manifests from a file, a directory (recursively, *.yaml|*.yml|*.json) or `-` (stdin) instead of the cluster')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`). With -f: only CronJobs in this namespace (objects without a namespace count as `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`). With -f: only CronJobs in this namespace (objects without a namespace count as `default`)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--timeline', '--timeline', [CompletionResultType]::ParameterName, 'How many past slots the timeline shows: 0 (no timeline) to 1000')
            [CompletionResult]::new('--slot', '--slot', [CompletionResultType]::ParameterName, 'Answer for one run only: what happened to the run of this slot (never due and why, late and which stage, several attempts, failed, running, not started). An instant (2026-11-20T11:00:00Z; without an offset, UTC) or a time of day (11:00: its most recent occurrence in the schedule''s zone). Exit code 1 when that run did not run well')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read with -f: bytes, or with Ki/Mi/Gi (or K/M/G), from 1Ki to 64Gi. A larger input is an error instead of an out-of-memory kill')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server''s clock; from files, the wall clock (a note says when the input''s newest timestamp is over an hour older: an old dump wants `dump`)')
            [CompletionResult]::new('--controller-time-zone', '--controller-time-zone', [CompletionResultType]::ParameterName, 'The controller''s local time zone, used for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in text output. NO_COLOR is respected with `auto`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use (default: the context''s)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use (default: the context''s)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h')
            [CompletionResult]::new('--context-timeout', '--context-timeout', [CompletionResultType]::ParameterName, 'With several contexts: give up on one context after this long (connecting, reading and retries included), so a dead cluster costs at most this: 30s, 1m, or a number of seconds, from 1s to 1h')
            [CompletionResult]::new('--monitor', '--monitor', [CompletionResultType]::ParameterName, 'The monitor to ask for the CronJob''s remembered runs (runs whose Job, Pods and Events are gone), through the API server''s service proxy: NAMESPACE/SERVICE[:PORT]. Default: the Service of deploy/monitor/, cronjob-doctor/cronjob-doctor:9090. Needs get on services/proxy; waits at most 2s; without an answer, a one-line note')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore any config file')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Read every context of the kubeconfig (each with its own credentials, namespace and clock) and report them together; a context that cannot be read is reported, and the exit code is 2')
            [CompletionResult]::new('--no-monitor', '--no-monitor', [CompletionResultType]::ParameterName, 'Do not ask a monitor: the timeline shows only what the cluster still holds')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;lint' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifests to lint: files, directories (recursively, *.yaml|*.yml|*.json) or `-` (stdin)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Manifests to lint: files, directories (recursively, *.yaml|*.yml|*.json) or `-` (stdin)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Lowest severity that makes the exit code 1 (default: the config''s failOn, else warning)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: one line per finding, JSON, or SARIF 2.1.0 for code scanning')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: one line per finding, JSON, or SARIF 2.1.0 for code scanning')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Report only findings that are not in this baseline (written by --write-baseline); the exit code counts those alone, and baseline entries that no longer occur are listed')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Record today''s findings (at or above --fail-on) in FILE as the baseline, and exit 0')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The largest file (or stdin) read with -f: bytes, or with Ki/Mi/Gi (or K/M/G), from 1Ki to 64Gi. A larger input is an error instead of an out-of-memory kill')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server''s clock; from files, the wall clock (a note says when the input''s newest timestamp is over an hour older: an old dump wants `dump`)')
            [CompletionResult]::new('--controller-time-zone', '--controller-time-zone', [CompletionResultType]::ParameterName, 'The controller''s local time zone, used for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in text output. NO_COLOR is respected with `auto`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one')
            [CompletionResult]::new('--print-config', '--print-config', [CompletionResultType]::ParameterName, 'Print the effective settings (config file and flags) as YAML and exit')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore any config file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;next' {
            [CompletionResult]::new('--time-zone', '--time-zone', [CompletionResultType]::ParameterName, 'Like spec.timeZone: evaluate in this IANA zone (adds `TZ=<zone> ` unless the schedule already contains TZ)')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start after this instant (RFC 3339). Default: now')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'How many fire times to show: 1 to 1000')
            [CompletionResult]::new('--controller-time-zone', '--controller-time-zone', [CompletionResultType]::ParameterName, 'The controller''s local zone, used when the schedule has no zone')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'o')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'output')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'color')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;rules' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'o')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'output')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore any config file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;scan' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to scan (default: the context''s, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to scan (default: the context''s, else `default`)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--timeline', '--timeline', [CompletionResultType]::ParameterName, 'How many past slots each CronJob''s timeline holds (JSON output): 0 to 1000')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server''s clock; from files, the wall clock (a note says when the input''s newest timestamp is over an hour older: an old dump wants `dump`)')
            [CompletionResult]::new('--controller-time-zone', '--controller-time-zone', [CompletionResultType]::ParameterName, 'The controller''s local time zone, used for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in text output. NO_COLOR is respected with `auto`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use (default: the context''s)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use (default: the context''s)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h')
            [CompletionResult]::new('--context-timeout', '--context-timeout', [CompletionResultType]::ParameterName, 'With several contexts: give up on one context after this long (connecting, reading and retries included), so a dead cluster costs at most this: 30s, 1m, or a number of seconds, from 1s to 1h')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Scan every namespace')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Scan every namespace')
            [CompletionResult]::new('--only-problems', '--only-problems', [CompletionResultType]::ParameterName, 'Only list CronJobs with a warning or an error')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore any config file')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Read every context of the kubeconfig (each with its own credentials, namespace and clock) and report them together; a context that cannot be read is reported, and the exit code is 2')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;trigger' {
            [CompletionResult]::new('--job-name', '--job-name', [CompletionResultType]::ParameterName, 'Name of the Job (default: <cronjob>-manual-<5 random characters>, the CronJob part shortened so the whole fits in 63 characters)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the Job as YAML or JSON: the created one, or with --dry-run the one that would be created. The preview then goes to stderr')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the Job as YAML or JSON: the created one, or with --dry-run the one that would be created. The preview then goes to stderr')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'With --wait: stop waiting after this long (30s, 10m, 1h; 0 for no limit; at most 168h). The Job itself goes on')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Only show (`client`) or only test on the server (`server`) what would be done')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use (default: the context''s)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use (default: the context''s)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Follow the Job until it finishes, showing its Pods'' phase and failure reasons. Exit 0 when it completes, 1 when it fails or --timeout passes first')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;suspend' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why: recorded in the annotation cronjob-doctor.io/suspend-reason, which `explain` and `scan` show ("suspended 3d ago by alice, reason: …")')
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Who suspends it, recorded in cronjob-doctor.io/suspended-by (default: $USER, else the kubeconfig context''s name)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Only show (`client`) or only test on the server (`server`) what would be done')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use (default: the context''s)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use (default: the context''s)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;unsuspend' {
            [CompletionResult]::new('--controller-time-zone', '--controller-time-zone', [CompletionResultType]::ParameterName, 'The controller''s local time zone, for schedules without spec.timeZone (kube-controller-manager''s TZ; containerised control planes use UTC)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the CronJob (default: the context''s, else `default`)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Only show (`client`) or only test on the server (`server`) what would be done')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use (default: the context''s)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use (default: the context''s)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h')
            [CompletionResult]::new('--skip-missed', '--skip-missed', [CompletionResultType]::ParameterName, 'Resume without the immediate catch-up run for a slot missed while suspended. First moves status.lastScheduleTime to that slot (a merge patch on the status subresource, while the CronJob is still suspended: needs `patch` on `cronjobs/status`), so the controller counts it as done; then sets spec.suspend to false. The next regular slot runs as usual. Sent only when a catch-up run would otherwise start')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;version' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;completion' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;man' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;monitor' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to watch (default: the context''s, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to watch (default: the context''s, else `default`)')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Serve /metrics, /healthz, /readyz and /report on this address (e.g. 0.0.0.0:9090); status lines are then printed only if -o is given')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'How long after a slot''s due time a missing run counts as missed: 0 to 24h')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'Not ready (/readyz 503) when a watch has heard nothing from the API server (no event, no bookmark) for this long: 1s to 1h. Servers bookmark every minute or so')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Format of the status lines on stdout [default: text]. With --listen, giving -o prints them too')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Format of the status lines on stdout [default: text]. With --listen, giving -o prints them too')
            [CompletionResult]::new('--controller-time-zone', '--controller-time-zone', [CompletionResultType]::ParameterName, 'The controller''s local time zone, used for schedules without spec.timeZone')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Replay the controller of this Kubernetes version. Default: the server''s')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use (default: the context''s)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use (default: the context''s)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Watch every namespace')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Watch every namespace')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-cronjob_doctor;help' {
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Diagnose CronJobs: the headline, findings, controller replay, timeline and fix')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Lint CronJob manifests for CI. Exit 0: nothing at or above --fail-on; 1: something is; 2: input could not be read')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Show when a schedule really fires, with Kubernetes semantics (robfig/cron v3.0.1)')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'Print the catalogue of findings (rules) this tool can report')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Diagnose every CronJob of a namespace (or all, -A) in one table, worst first')
            [CompletionResult]::new('trigger', 'trigger', [CompletionResultType]::ParameterValue, 'Run a CronJob now: create a Job from its template, like `kubectl create job --from=cronjob/NAME`, after a preview of what that Job is to the controller')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Suspend a CronJob (spec.suspend: true), recording who, when and why')
            [CompletionResult]::new('unsuspend', 'unsuspend', [CompletionResultType]::ParameterValue, 'Resume a CronJob, after a replay of what the controller does next')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the version, git commit and time-zone database in use')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish), or the helper that makes `kubectl cronjob-doctor <TAB>` complete through kubectl')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page (roff): `kubectl cronjob-doctor man | man -l -`')
            [CompletionResult]::new('monitor', 'monitor', [CompletionResultType]::ParameterValue, 'Watch every CronJob and say the moment one stops running: continuous `scan`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-cronjob_doctor;help;explain' {
            break
        }
        'kubectl-cronjob_doctor;help;lint' {
            break
        }
        'kubectl-cronjob_doctor;help;next' {
            break
        }
        'kubectl-cronjob_doctor;help;rules' {
            break
        }
        'kubectl-cronjob_doctor;help;scan' {
            break
        }
        'kubectl-cronjob_doctor;help;trigger' {
            break
        }
        'kubectl-cronjob_doctor;help;suspend' {
            break
        }
        'kubectl-cronjob_doctor;help;unsuspend' {
            break
        }
        'kubectl-cronjob_doctor;help;version' {
            break
        }
        'kubectl-cronjob_doctor;help;completion' {
            break
        }
        'kubectl-cronjob_doctor;help;man' {
            break
        }
        'kubectl-cronjob_doctor;help;monitor' {
            break
        }
        'kubectl-cronjob_doctor;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
