//! How WebKitGTK draws the window, chosen once at start-up, before WebKit starts.
//!
//! With a GPU, WebKit composites the page with it. Without one (a virtual machine, a
//! remote desktop, Xvfb) its compositor runs on Mesa's software GL (llvmpipe), and there
//! the app benchmark (`scripts/bench-app.sh`) measured it costing far more than painting
//! without compositing: frames 46 ms apart instead of 11 while an answer streams, twice
//! the web process's CPU and memory, and a third of a core just to blink the caret in an
//! idle window. So on a machine with no GPU render node Memo turns compositing off; with
//! one it leaves WebKit's choice alone.
//!
//! `MEMO_WEBVIEW_COMPOSITING=on|off|auto` overrides the guess, and WebKit's own
//! `WEBKIT_DISABLE_COMPOSITING_MODE` / `WEBKIT_FORCE_COMPOSITING_MODE`, when set, are
//! always left as the user set them.

use std::path::Path;

/// The variable that makes WebKitGTK paint without its compositor (read by its web
/// process, which inherits the app's environment).
pub const DISABLE_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
/// WebKit's opposite switch; set by the user, it wins as well.
const FORCE_COMPOSITING: &str = "WEBKIT_FORCE_COMPOSITING_MODE";
/// Memo's own override: `on`, `off` or `auto` (the default).
pub const OVERRIDE: &str = "MEMO_WEBVIEW_COMPOSITING";

/// What was decided, and why (logged at start-up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// WebKit's own setting is kept (the user set one of its variables, or a GPU is there,
    /// or compositing was asked for).
    Kept(&'static str),
    /// Compositing is turned off.
    Off(&'static str),
}

/// What the decision looks at: the environment and whether the machine has a GPU.
pub struct Machine<'a> {
    pub var: &'a dyn Fn(&str) -> Option<String>,
    pub has_gpu: bool,
}

/// Decides whether to turn WebKit's compositing off.
pub fn choose(machine: &Machine<'_>) -> Choice {
    let set = |name: &str| (machine.var)(name).is_some_and(|value| !value.is_empty());
    if set(DISABLE_COMPOSITING) || set(FORCE_COMPOSITING) {
        return Choice::Kept("WebKit's own setting is in the environment");
    }
    match (machine.var)(OVERRIDE)
        .map(|value| value.trim().to_ascii_lowercase())
        .as_deref()
    {
        Some("on") => return Choice::Kept("MEMO_WEBVIEW_COMPOSITING=on"),
        Some("off") => return Choice::Off("MEMO_WEBVIEW_COMPOSITING=off"),
        Some("auto") | Some("") | None => {}
        Some(_) => {
            tracing::warn!("{OVERRIDE} takes on, off or auto; anything else counts as auto");
        }
    }
    // Mesa's switch to force its software renderer: the GPU is there but not used.
    let software = (machine.var)("LIBGL_ALWAYS_SOFTWARE")
        .is_some_and(|value| !matches!(value.trim(), "" | "0" | "false"));
    if software {
        Choice::Off("LIBGL_ALWAYS_SOFTWARE is set: WebKit would composite in software")
    } else if !machine.has_gpu {
        Choice::Off("no GPU render node: WebKit would composite in software")
    } else {
        Choice::Kept("a GPU is there")
    }
}

/// Whether the machine has a GPU WebKit can render with: a DRM render node (Mesa's and
/// the usual drivers', `/dev/dri/renderD128`...) or NVIDIA's proprietary device.
pub fn has_gpu(dev: &Path) -> bool {
    let render_node = std::fs::read_dir(dev.join("dri")).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|entry| entry.file_name().to_string_lossy().starts_with("renderD"))
    });
    render_node || dev.join("nvidia0").exists()
}

/// Applies the choice to this process's environment. Runs at the start of `run()`, while
/// the app has no other thread and WebKit has not started: its web process inherits the
/// variable.
#[cfg(target_os = "linux")]
pub fn apply() {
    let var = |name: &str| std::env::var(name).ok();
    let choice = choose(&Machine {
        var: &var,
        has_gpu: has_gpu(Path::new("/dev")),
    });
    match choice {
        Choice::Off(why) => {
            // Listed as Memo's own: the user's commands do not inherit it.
            memo_child_env::set_for_self(DISABLE_COMPOSITING, "1");
            tracing::info!("webview compositing off: {why} (MEMO_WEBVIEW_COMPOSITING=on keeps it)");
        }
        Choice::Kept(why) => tracing::info!("webview compositing left to WebKit: {why}"),
    }
}

/// WebKitGTK's choice matters on Linux only.
#[cfg(not(target_os = "linux"))]
pub fn apply() {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Whether compositing goes off with these variables set, on a machine with or without
    /// a GPU.
    fn off(vars: &[(&str, &str)], has_gpu: bool) -> bool {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let var = move |name: &str| map.get(name).cloned();
        matches!(choose(&Machine { var: &var, has_gpu }), Choice::Off(_))
    }

    #[test]
    fn without_a_gpu_compositing_goes_off_and_with_one_it_stays() {
        assert!(off(&[], false));
        assert!(!off(&[], true));
    }

    #[test]
    fn forced_software_gl_counts_as_no_gpu() {
        assert!(off(&[("LIBGL_ALWAYS_SOFTWARE", "1")], true));
        assert!(!off(&[("LIBGL_ALWAYS_SOFTWARE", "0")], true));
    }

    #[test]
    fn memo_override_wins_over_the_guess() {
        assert!(!off(&[(OVERRIDE, "on")], false));
        assert!(off(&[(OVERRIDE, " OFF ")], true));
        assert!(off(&[(OVERRIDE, "auto")], false));
        // Not a value it takes: the guess stands.
        assert!(!off(&[(OVERRIDE, "maybe")], true));
    }

    #[test]
    fn webkits_own_variables_are_left_as_the_user_set_them() {
        assert!(!off(&[(FORCE_COMPOSITING, "1")], false));
        assert!(!off(&[(DISABLE_COMPOSITING, "1"), (OVERRIDE, "on")], true));
        // Set but empty is not set.
        assert!(off(&[(FORCE_COMPOSITING, "")], false));
    }

    #[test]
    fn a_render_node_or_nvidias_device_is_a_gpu() {
        let root = tempfile::tempdir().unwrap();
        let dev = root.path();
        std::fs::create_dir_all(dev.join("dri")).unwrap();
        assert!(!has_gpu(dev));
        std::fs::write(dev.join("dri/card0"), "").unwrap();
        assert!(
            !has_gpu(dev),
            "a card without a render node is a display only"
        );
        std::fs::write(dev.join("dri/renderD128"), "").unwrap();
        assert!(has_gpu(dev));
        std::fs::remove_dir_all(dev.join("dri")).unwrap();
        assert!(!has_gpu(dev));
        std::fs::write(dev.join("nvidia0"), "").unwrap();
        assert!(has_gpu(dev));
    }
}
