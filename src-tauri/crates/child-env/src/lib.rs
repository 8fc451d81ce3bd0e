//! The environment of the programs Memo starts for the user: the variables Memo sets in
//! its own environment for itself, which they must not inherit (below), and the PATH they
//! are found on ([`path_env`]: the login shell's, since a desktop app started from a
//! launcher has a bare one).
//!
//! The desktop shell sets variables for WebKit's web process before WebKit starts (painting
//! without compositing on a machine with no GPU, the page's JavaScript heap size): the web
//! process inherits the shell's environment, and WebKit offers no other way in. Every other
//! child inherits them too, so a user's own WebKit app run from Memo's terminal would paint
//! and collect as Memo chose for its page. The shell lists what it set in [`MARKER`]; each
//! place that starts a user's command (the terminal, `exec_command`, hooks, MCP servers,
//! the browser for an MCP login) removes those names and the marker. A variable the user set themselves is never listed:
//! the shell leaves those alone and does not mark them.

pub mod path_env;

/// The variable holding the names (space-separated) Memo set for itself.
pub const MARKER: &str = "MEMO_INTERNAL_ENV";

/// The names to remove from a child's environment, given how to read the parent's: the
/// listed ones and the marker itself. Only names a shell could set are taken.
pub fn internal_names(var: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let listed = var(MARKER).unwrap_or_default();
    let mut names: Vec<String> = listed
        .split_whitespace()
        .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_owned)
        .collect();
    names.push(MARKER.to_owned());
    names
}

/// [`internal_names`] of this process's environment.
pub fn internal() -> Vec<String> {
    internal_names(|name| std::env::var(name).ok())
}

/// Sets `name` in this process's environment for Memo itself, and lists it in [`MARKER`].
/// For start-up only, before any other thread runs (changing the environment races with
/// anything reading it).
pub fn set_for_self(name: &str, value: &str) {
    std::env::set_var(name, value);
    let listed = std::env::var(MARKER).unwrap_or_default();
    if !listed.split_whitespace().any(|n| n == name) {
        let joined = if listed.is_empty() {
            name.to_owned()
        } else {
            format!("{listed} {name}")
        };
        std::env::set_var(MARKER, joined);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_names_and_the_marker_are_removed_and_nothing_else() {
        let env = |name: &str| {
            (name == MARKER)
                .then(|| " WEBKIT_DISABLE_COMPOSITING_MODE  JSC_forceRAMSize ".to_owned())
        };
        assert_eq!(
            internal_names(env),
            [
                "WEBKIT_DISABLE_COMPOSITING_MODE",
                "JSC_forceRAMSize",
                MARKER
            ]
        );
        // Nothing listed: only the marker (harmless when absent).
        assert_eq!(internal_names(|_| None), [MARKER]);
        // Not a variable name: not taken.
        let odd = |name: &str| (name == MARKER).then(|| "PATH=/x ok_NAME".to_owned());
        assert_eq!(internal_names(odd), ["ok_NAME", MARKER]);
    }
}
