//! Files as another program holds them: an editor that runs Memo's agent over ACP and
//! offers `fs/read_text_file` / `fs/write_text_file` has the person's unsaved buffers,
//! and wants edits made in them. When a session has such a [`FileHost`], the edit and
//! read tools read and write through it; everything else (the path policy, read-deny
//! rules, diffs and approvals, the checkpoint scan around the call) stays as it is.
//!
//! The host is set for the blocking part of one call ([`with_host`]) and read by the file
//! helpers every tool shares, so no tool's plan has to carry it.

use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;

/// Another program's view of the files. Called from blocking threads only: an
/// implementation may wait there for the other program's answer.
pub trait FileHost: Send + Sync + std::fmt::Debug {
    /// The text of `path` as the host has it (an unsaved buffer included).
    fn read_text(&self, path: &Path) -> Result<String, String>;
    /// Replaces `path`'s text, in the host's buffer and on disk.
    fn write_text(&self, path: &Path, text: &str) -> Result<(), String>;
}

thread_local! {
    static HOST: RefCell<Option<Arc<dyn FileHost>>> = const { RefCell::new(None) };
}

/// Runs `f` with `host` as the host of the file helpers on this thread.
pub(crate) fn with_host<T>(host: Option<Arc<dyn FileHost>>, f: impl FnOnce() -> T) -> T {
    let previous = HOST.with(|h| h.replace(host));
    let out = f();
    HOST.with(|h| h.replace(previous));
    out
}

/// The host of the call running on this thread, if it has one.
pub(crate) fn current() -> Option<Arc<dyn FileHost>> {
    HOST.with(|h| h.borrow().clone())
}
