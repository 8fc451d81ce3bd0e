//! The page's JavaScriptCore options, chosen once at start-up before WebKit starts (its web
//! process inherits the environment, where JavaScriptCore reads them). Memo's page is an
//! app that stays open all day, not a document or a benchmark, so both choices trade a
//! little speed for memory. An option already in the environment (the user's own) is
//! left as it is. Measured with `scripts/bench-app.sh` (release; memory is PSS of the app
//! and its WebKit processes).
//!
//! **The collector is sized as if the machine had 256 MiB** (`JSC_forceRAMSize`).
//! JavaScriptCore sizes it from the machine's memory: the more RAM, the more the page
//! allocates before it collects, and the web process keeps what it grew to. On a 24 GB
//! machine:
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
//! **The optimising compiler starts later** (`JSC_thresholdForOptimize*`: after 20,000
//! counted executions of a function or loop instead of 1,000). Every function still runs
//! compiled by the baseline JIT; the DFG compiler recompiles only what stays hot — a
//! terminal's parser under a flood, a long scroll — instead of most of what starting up
//! and opening a session ran a few thousand times. Its compiler, the code it makes and
//! the profiles it keeps cost the app ~3 MiB idle after start and ~4 MiB with
//! the 10,000-message session open (release, this machine: 231.6 → 228.4 MiB and 259.4 →
//! 255.3 MiB). Turning the DFG off altogether saved a little more but made a 100 MB
//! terminal flood take 65 s instead of 17.

/// The options Memo sets, each with its value.
pub const OPTIONS: [(&str, &str); 4] = [
    // 256 MiB.
    ("JSC_forceRAMSize", "268435456"),
    ("JSC_thresholdForOptimizeAfterWarmUp", "20000"),
    ("JSC_thresholdForOptimizeAfterLongWarmUp", "20000"),
    ("JSC_thresholdForOptimizeSoon", "20000"),
];

/// The options to set: those the user has not already chosen.
pub fn choose(var: &dyn Fn(&str) -> Option<String>) -> Vec<(&'static str, &'static str)> {
    OPTIONS
        .into_iter()
        .filter(|(name, _)| !matches!(var(name), Some(value) if !value.trim().is_empty()))
        .collect()
}

/// Sets the options in this process's environment. Runs at the start of `run()`, while the
/// app has no other thread and WebKit has not started.
pub fn apply() {
    let var = |name: &str| std::env::var(name).ok();
    let chosen = choose(&var);
    for (name, value) in &chosen {
        // Listed as Memo's own: the user's commands do not inherit it.
        memo_child_env::set_for_self(name, value);
    }
    for (name, _) in OPTIONS {
        if chosen.iter().any(|(set, _)| *set == name) {
            tracing::info!("page script engine: {name} set");
        } else {
            tracing::info!("page script engine: {name} left as set");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_set_unless_the_user_chose_it() {
        assert_eq!(choose(&|_| None), OPTIONS.to_vec());
        assert_eq!(choose(&|_| Some("  ".into())), OPTIONS.to_vec());
        let chosen = choose(&|name| (name == "JSC_forceRAMSize").then(|| "1073741824".into()));
        assert_eq!(chosen, OPTIONS[1..].to_vec());
    }
}
