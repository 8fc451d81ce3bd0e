//! How far the page's JavaScript heap grows between collections, chosen once at start-up
//! before WebKit starts (its web process inherits the environment, where JavaScriptCore
//! reads its options).
//!
//! JavaScriptCore sizes its collector from the machine's memory: the more RAM, the more the
//! page allocates before it collects, and the web process keeps what it grew to. Memo's
//! page is an app that stays open all day, not a document, so its collector is sized as if
//! the machine had 256 MiB. Measured on a 24 GB machine (`scripts/bench-app.sh`, release;
//! memory is PSS of the app and its WebKit processes):
//!
//! | sized for | after reading a 10,000-message session top and back | after a 60 s stream | idle a minute later | CPU in the 30 s after the stream |
//! |---|---|---|---|---|
//! | the machine (24 GB) | 476 MiB | 530 MiB | 523 MiB | 0.97 % |
//! | 1 GiB | 335 MiB | 459 MiB | 432 MiB | 1.40 % |
//! | 256 MiB | 361 MiB | 427 MiB | 418 MiB | 1.10 % |
//!
//! Scrolling, opening, switching and streaming frame times stay the same; the cost is the
//! collector's work of handing memory back, a few tenths of a percent of a core in the half
//! minute after a long answer.
//!
//! A `JSC_forceRAMSize` already in the environment (the user's own) is left as it is.

/// JavaScriptCore's option, read from the environment by every process that runs it.
pub const FORCE_RAM_SIZE: &str = "JSC_forceRAMSize";

/// The memory, in bytes, the page's collector is sized for.
pub const RAM_BYTES: u64 = 256 << 20;

/// The value to set, or `None` when the user already chose one.
pub fn choose(var: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    match var(FORCE_RAM_SIZE) {
        Some(value) if !value.trim().is_empty() => None,
        _ => Some(RAM_BYTES.to_string()),
    }
}

/// Sets the option in this process's environment. Runs at the start of `run()`, while the
/// app has no other thread and WebKit has not started.
pub fn apply() {
    let var = |name: &str| std::env::var(name).ok();
    match choose(&var) {
        Some(value) => {
            // Listed as Memo's own: the user's commands do not inherit it.
            memo_child_env::set_for_self(FORCE_RAM_SIZE, &value);
            tracing::info!("page heap sized for {value} bytes of memory ({FORCE_RAM_SIZE})");
        }
        None => tracing::info!("page heap: {FORCE_RAM_SIZE} left as set"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heap_is_sized_for_256_mib_unless_the_user_chose() {
        assert_eq!(choose(&|_| None).as_deref(), Some("268435456"));
        assert_eq!(choose(&|_| Some("  ".into())).as_deref(), Some("268435456"));
        assert_eq!(choose(&|_| Some("1073741824".into())), None);
    }
}
