module cronjob-doctor/tools/oracle

go 1.19

require github.com/robfig/cron/v3 v3.0.1

// Offline build against the exact robfig/cron the Kubernetes project vendors,
// as packaged by Debian (golang-github-robfig-cron-dev 3.0.1-1).
// Build with: GOFLAGS=-mod=mod GOPROXY=off go build
replace github.com/robfig/cron/v3 => /usr/share/gocode/src/github.com/robfig/cron
