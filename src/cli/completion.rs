//! The flags of `completion`.

use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Target {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
    /// The `kubectl_complete-cronjob_doctor` helper that makes `kubectl cronjob-doctor <TAB>` work.
    Kubectl,
    /// Internal: answer one completion request in Cobra's format (what the kubectl helper runs).
    #[value(name = "__complete", hide = true)]
    Complete,
}

const INSTALL: &str = "\
Install, for the binary's own name (kubectl-cronjob_doctor <TAB>):
  bash        source <(kubectl-cronjob_doctor completion bash)         # in ~/.bashrc
  zsh         source <(kubectl-cronjob_doctor completion zsh)          # in ~/.zshrc, after compinit
  fish        kubectl-cronjob_doctor completion fish | source          # in config.fish
  powershell  kubectl-cronjob_doctor completion powershell | Out-String | Invoke-Expression
  elvish      eval (kubectl-cronjob_doctor completion elvish | slurp)  # in rc.elv

For `kubectl cronjob-doctor <TAB>` (kubectl 1.26 or newer, with kubectl's own completion
loaded), put the helper next to the plugin and make it executable:
  h=\"$(dirname \"$(command -v kubectl-cronjob_doctor)\")/kubectl_complete-cronjob_doctor\"
  kubectl-cronjob_doctor completion kubectl > \"$h\" && chmod +x \"$h\"";

#[derive(Debug, Args)]
#[command(after_long_help = INSTALL)]
pub struct CompletionArgs {
    /// Which script to print: bash, zsh, fish, powershell, elvish, or kubectl (the helper for
    /// `kubectl cronjob-doctor <TAB>`).
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Target,
    /// For __complete: the words after the plugin name, the last one being completed.
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub words: Vec<String>,
}
