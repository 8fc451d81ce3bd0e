//! What every way of running a shell command shares — on Memo's own PTY or in an editor's
//! terminal: the shells a command line may name, and how a command ended.

/// The shells whose `-c`/`-lc` form Memo knows how to hand a command line to.
pub(crate) const SHELLS: [&str; 6] = ["bash", "sh", "zsh", "dash", "ksh", "fish"];

/// How a command ended: its exit code, and the signal that ended it when one did.
#[derive(Debug, Clone)]
pub struct ExitInfo {
    pub code: i32,
    pub signal: Option<String>,
}
