//! How far the page's JavaScript heap grows between collections, chosen once at start-up
//! before WebKit starts (its web process inherits the environment, where JavaScriptCore
//! reads its options).
//!
//! JavaScriptCore sizes its collector from the machine's memory: the more RAM, the more the
//! page allocates before it collects. On a 24 GB machine, reading a 10,000-message session
//! page by page from its end to its top and back let the page allocate ~120 MB between
//! collections, and the web process kept what it had grown to: 305 MiB half a minute
//! later, against 125 idle. Memo's page is an app that stays open all day, not a document,
//! so its collector is sized as if the machine had 1 GiB: the same reading leaves the web
//! process at 200 MiB, with the same scrolling times (measured with 1 GiB, 512 MiB and
//! 256 MiB alike; 1 GiB collects least often of the three).
//!
//! A `JSC_forceRAMSize` already in the environment (the user's own) is left as it is.

/// JavaScriptCore's option, read from the environment by every process that runs it.
pub const FORCE_RAM_SIZE: &str = "JSC_forceRAMSize";

/// The memory, in bytes, the page's collector is sized for.
pub const RAM_BYTES: u64 = 1 << 30;

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
            std::env::set_var(FORCE_RAM_SIZE, &value);
            tracing::info!("page heap sized for {value} bytes of memory ({FORCE_RAM_SIZE})");
        }
        None => tracing::info!("page heap: {FORCE_RAM_SIZE} left as set"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heap_is_sized_for_a_gibibyte_unless_the_user_chose() {
        assert_eq!(choose(&|_| None).as_deref(), Some("1073741824"));
        assert_eq!(
            choose(&|_| Some("  ".into())).as_deref(),
            Some("1073741824")
        );
        assert_eq!(choose(&|_| Some("268435456".into())), None);
    }
}
