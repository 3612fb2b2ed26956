# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_cronjob_doctor_global_optspecs
    string join \n h/help V/version
end

function __fish_kubectl_cronjob_doctor_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kubectl_cronjob_doctor_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kubectl_cronjob_doctor_using_subcommand
    set -l cmd (__fish_kubectl_cronjob_doctor_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -s h -l help -d 'Print help'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "explain" -d 'Diagnose CronJobs: the headline, findings, controller replay, timeline and fix'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "lint" -d 'Lint CronJob manifests for CI. Exit 0: nothing at or above --fail-on; 1: something is; 2: input could not be read'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "next" -d 'Show when a schedule really fires, with Kubernetes semantics (robfig/cron v3.0.1)'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "rules" -d 'Print the catalogue of findings (rules) this tool can report'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "scan" -d 'Diagnose every CronJob of a namespace (or all, -A) in one table, worst first'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "trigger" -d 'Run a CronJob now: create a Job from its template, like `kubectl create job --from=cronjob/NAME`, after a preview of what that Job is to the controller'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "suspend" -d 'Suspend a CronJob (spec.suspend: true), recording who, when and why'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "unsuspend" -d 'Resume a CronJob, after a replay of what the controller does next'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "version" -d 'Print the version, git commit and time-zone database in use'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "completion" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish), or the helper that makes `kubectl cronjob-doctor <TAB>` complete through kubectl'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "man" -d 'Print the manual page (roff): `kubectl cronjob-doctor man | man -l -`'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "monitor" -d 'Watch every CronJob and say the moment one stops running: continuous `scan`'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -s f -l file -d 'Read manifests from a file, a directory (recursively, *.yaml|*.yml|*.json) or `-` (stdin) instead of the cluster' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -s n -l namespace -d 'Namespace of the CronJob (default: the context\'s, else `default`). With -f: only CronJobs in this namespace (objects without a namespace count as `default`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -s o -l output -d 'Output format' -r -f -a "text\t''
json\t''
sarif\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l timeline -d 'How many past slots the timeline shows: 0 (no timeline) to 1000' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l slot -d 'Answer for one run only: what happened to the run of this slot (never due and why, late and which stage, several attempts, failed, running, not started). An instant (2026-11-20T11:00:00Z; without an offset, UTC) or a time of day (11:00: its most recent occurrence in the schedule\'s zone). Exit code 1 when that run did not run well' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l max-input-size -d 'The largest file (or stdin) read with -f: bytes, or with Ki/Mi/Gi (or K/M/G), from 1Ki to 64Gi. A larger input is an error instead of an out-of-memory kill' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l now -d 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server\'s clock; from files, the wall clock (a note says when the input\'s newest timestamp is over an hour older: an old dump wants `dump`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l controller-time-zone -d 'The controller\'s local time zone, used for schedules without spec.timeZone (kube-controller-manager\'s TZ; containerised control planes use UTC)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l kube-version -d 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l color -d 'When to use colour in text output. NO_COLOR is respected with `auto`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l config -d 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l kubeconfig -d 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account' -r -F
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l context -d 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l cluster -d 'The kubeconfig cluster to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l user -d 'The kubeconfig user to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l request-timeout -d 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l context-timeout -d 'With several contexts: give up on one context after this long (connecting, reading and retries included), so a dead cluster costs at most this: 30s, 1m, or a number of seconds, from 1s to 1h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l monitor -d 'The monitor to ask for the CronJob\'s remembered runs (runs whose Job, Pods and Events are gone), through the API server\'s service proxy: NAMESPACE/SERVICE[:PORT]. Default: the Service of deploy/monitor/, cronjob-doctor/cronjob-doctor:9090. Needs get on services/proxy; waits at most 2s; without an answer, a one-line note' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l no-config -d 'Ignore any config file'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l all-contexts -d 'Read every context of the kubeconfig (each with its own credentials, namespace and clock) and report them together; a context that cannot be read is reported, and the exit code is 2'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -l no-monitor -d 'Do not ask a monitor: the timeline shows only what the cluster still holds'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand explain" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -s f -l file -d 'Manifests to lint: files, directories (recursively, *.yaml|*.yml|*.json) or `-` (stdin)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l fail-on -d 'Lowest severity that makes the exit code 1 (default: the config\'s failOn, else warning)' -r -f -a "error\t''
warning\t''
info\t''
never\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -s o -l output -d 'Output format: one line per finding, JSON, or SARIF 2.1.0 for code scanning' -r -f -a "text\t''
json\t''
sarif\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l baseline -d 'Report only findings that are not in this baseline (written by --write-baseline); the exit code counts those alone, and baseline entries that no longer occur are listed' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l write-baseline -d 'Record today\'s findings (at or above --fail-on) in FILE as the baseline, and exit 0' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l max-input-size -d 'The largest file (or stdin) read with -f: bytes, or with Ki/Mi/Gi (or K/M/G), from 1Ki to 64Gi. A larger input is an error instead of an out-of-memory kill' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l now -d 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server\'s clock; from files, the wall clock (a note says when the input\'s newest timestamp is over an hour older: an old dump wants `dump`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l controller-time-zone -d 'The controller\'s local time zone, used for schedules without spec.timeZone (kube-controller-manager\'s TZ; containerised control planes use UTC)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l kube-version -d 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l color -d 'When to use colour in text output. NO_COLOR is respected with `auto`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l config -d 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l print-config -d 'Print the effective settings (config file and flags) as YAML and exit'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -l no-config -d 'Ignore any config file'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -s h -l help -d 'Print help'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand lint" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -l time-zone -d 'Like spec.timeZone: evaluate in this IANA zone (adds `TZ=<zone> ` unless the schedule already contains TZ)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -l from -d 'Start after this instant (RFC 3339). Default: now' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -l count -d 'How many fire times to show: 1 to 1000' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -l controller-time-zone -d 'The controller\'s local zone, used when the schedule has no zone' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -s o -l output -r -f -a "text\t''
json\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -l color -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -s h -l help -d 'Print help'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand next" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand rules" -s o -l output -r -f -a "text\t''
markdown\t''
json\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand rules" -l config -d 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand rules" -l no-config -d 'Ignore any config file'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand rules" -s h -l help -d 'Print help'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand rules" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -s n -l namespace -d 'Namespace to scan (default: the context\'s, else `default`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -s o -l output -d 'Output format' -r -f -a "table\t'One row per CronJob'
wide\t'The table plus concurrency policy, findings and the top finding\'s message'
json\t'The report as JSON (the `explain -o json` format, every CronJob)'"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l timeline -d 'How many past slots each CronJob\'s timeline holds (JSON output): 0 to 1000' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l now -d 'Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or `dump` to judge -f input as of its newest timestamp (when the dump was taken). Default: from a cluster, the API server\'s clock; from files, the wall clock (a note says when the input\'s newest timestamp is over an hour older: an old dump wants `dump`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l controller-time-zone -d 'The controller\'s local time zone, used for schedules without spec.timeZone (kube-controller-manager\'s TZ; containerised control planes use UTC)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l kube-version -d 'Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l color -d 'When to use colour in text output. NO_COLOR is respected with `auto`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l config -d 'The config file. Default: `.cronjob-doctor.yaml` in the current directory or the nearest parent that has one' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l kubeconfig -d 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account' -r -F
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l context -d 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l cluster -d 'The kubeconfig cluster to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l user -d 'The kubeconfig user to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l request-timeout -d 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l context-timeout -d 'With several contexts: give up on one context after this long (connecting, reading and retries included), so a dead cluster costs at most this: 30s, 1m, or a number of seconds, from 1s to 1h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -s A -l all-namespaces -d 'Scan every namespace'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l only-problems -d 'Only list CronJobs with a warning or an error'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l no-config -d 'Ignore any config file'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -l all-contexts -d 'Read every context of the kubeconfig (each with its own credentials, namespace and clock) and report them together; a context that cannot be read is reported, and the exit code is 2'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand scan" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l job-name -d 'Name of the Job (default: <cronjob>-manual-<5 random characters>, the CronJob part shortened so the whole fits in 63 characters)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -s o -l output -d 'Print the Job as YAML or JSON: the created one, or with --dry-run the one that would be created. The preview then goes to stderr' -r -f -a "yaml\t''
json\t''"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l timeout -d 'With --wait: stop waiting after this long (30s, 10m, 1h; 0 for no limit; at most 168h). The Job itself goes on' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -s n -l namespace -d 'Namespace of the CronJob (default: the context\'s, else `default`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l dry-run -d 'Only show (`client`) or only test on the server (`server`) what would be done' -r -f -a "none\t'Act: a server-side dry run first, then (after confirmation) the real request'
client\t'Print the exact requests that would be sent; send nothing'
server\t'Send the requests with dryRun=All: validated and authorized, nothing is changed'"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l kubeconfig -d 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account' -r -F
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l context -d 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l cluster -d 'The kubeconfig cluster to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l user -d 'The kubeconfig user to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l request-timeout -d 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -l wait -d 'Follow the Job until it finishes, showing its Pods\' phase and failure reasons. Exit 0 when it completes, 1 when it fails or --timeout passes first'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -s y -l yes -d 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand trigger" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l reason -d 'Why: recorded in the annotation cronjob-doctor.io/suspend-reason, which `explain` and `scan` show ("suspended 3d ago by alice, reason: …")' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l by -d 'Who suspends it, recorded in cronjob-doctor.io/suspended-by (default: $USER, else the kubeconfig context\'s name)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -s n -l namespace -d 'Namespace of the CronJob (default: the context\'s, else `default`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l dry-run -d 'Only show (`client`) or only test on the server (`server`) what would be done' -r -f -a "none\t'Act: a server-side dry run first, then (after confirmation) the real request'
client\t'Print the exact requests that would be sent; send nothing'
server\t'Send the requests with dryRun=All: validated and authorized, nothing is changed'"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l kubeconfig -d 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account' -r -F
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l context -d 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l cluster -d 'The kubeconfig cluster to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l user -d 'The kubeconfig user to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -l request-timeout -d 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -s y -l yes -d 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand suspend" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l controller-time-zone -d 'The controller\'s local time zone, for schedules without spec.timeZone (kube-controller-manager\'s TZ; containerised control planes use UTC)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -s n -l namespace -d 'Namespace of the CronJob (default: the context\'s, else `default`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l dry-run -d 'Only show (`client`) or only test on the server (`server`) what would be done' -r -f -a "none\t'Act: a server-side dry run first, then (after confirmation) the real request'
client\t'Print the exact requests that would be sent; send nothing'
server\t'Send the requests with dryRun=All: validated and authorized, nothing is changed'"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l kubeconfig -d 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account' -r -F
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l context -d 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l cluster -d 'The kubeconfig cluster to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l user -d 'The kubeconfig user to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l request-timeout -d 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -l skip-missed -d 'Resume without the immediate catch-up run for a slot missed while suspended. First moves status.lastScheduleTime to that slot (a merge patch on the status subresource, while the CronJob is still suspended: needs `patch` on `cronjobs/status`), so the controller counts it as done; then sets spec.suspend to false. The next regular slot runs as usual. Sent only when a catch-up run would otherwise start'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -s y -l yes -d 'Act without asking. Required when stdin is not a terminal (scripts, CI); without it nothing is changed there'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand unsuspend" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand version" -s h -l help -d 'Print help'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand version" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand completion" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand completion" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand man" -s h -l help -d 'Print help'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand man" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -s n -l namespace -d 'Namespace to watch (default: the context\'s, else `default`)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l listen -d 'Serve /metrics, /healthz, /readyz and /report on this address (e.g. 0.0.0.0:9090); status lines are then printed only if -o is given' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l grace -d 'How long after a slot\'s due time a missing run counts as missed: 0 to 24h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l stale-after -d 'Not ready (/readyz 503) when a watch has heard nothing from the API server (no event, no bookmark) for this long: 1s to 1h. Servers bookmark every minute or so' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -s o -l output -d 'Format of the status lines on stdout [default: text]. With --listen, giving -o prints them too' -r -f -a "text\t'`TIME NAMESPACE/NAME STATUS: HEADLINE`'
json\t'One JSON object per line'"
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l controller-time-zone -d 'The controller\'s local time zone, used for schedules without spec.timeZone' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l kube-version -d 'Replay the controller of this Kubernetes version. Default: the server\'s' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l kubeconfig -d 'Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else ~/.kube/config, else the in-cluster service account' -r -F
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l context -d 'The kubeconfig context to use (default: current-context). `scan` and `explain` take it more than once to read several clusters into one report' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l cluster -d 'The kubeconfig cluster to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l user -d 'The kubeconfig user to use (default: the context\'s)' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -l request-timeout -d 'Give up on a request (retries included) after this long: 30s, 1m, a number of seconds, or 0 for no limit. At most 24h' -r
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -s A -l all-namespaces -d 'Watch every namespace'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand monitor" -s V -l version -d 'Print version'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "explain" -d 'Diagnose CronJobs: the headline, findings, controller replay, timeline and fix'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "lint" -d 'Lint CronJob manifests for CI. Exit 0: nothing at or above --fail-on; 1: something is; 2: input could not be read'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "next" -d 'Show when a schedule really fires, with Kubernetes semantics (robfig/cron v3.0.1)'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "rules" -d 'Print the catalogue of findings (rules) this tool can report'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "scan" -d 'Diagnose every CronJob of a namespace (or all, -A) in one table, worst first'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "trigger" -d 'Run a CronJob now: create a Job from its template, like `kubectl create job --from=cronjob/NAME`, after a preview of what that Job is to the controller'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "suspend" -d 'Suspend a CronJob (spec.suspend: true), recording who, when and why'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "unsuspend" -d 'Resume a CronJob, after a replay of what the controller does next'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "version" -d 'Print the version, git commit and time-zone database in use'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "completion" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish), or the helper that makes `kubectl cronjob-doctor <TAB>` complete through kubectl'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "man" -d 'Print the manual page (roff): `kubectl cronjob-doctor man | man -l -`'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "monitor" -d 'Watch every CronJob and say the moment one stops running: continuous `scan`'
complete -c kubectl-cronjob_doctor -n "__fish_kubectl_cronjob_doctor_using_subcommand help; and not __fish_seen_subcommand_from explain lint next rules scan trigger suspend unsuspend version completion man monitor help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
