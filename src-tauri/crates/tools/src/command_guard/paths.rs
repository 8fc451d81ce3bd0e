//! Where a command's path arguments point, as far as can be told without running it, and
//! which places the guard protects: the system's own trees (`/etc`, `/usr`, `/boot`, …),
//! the user's credentials (`~/.ssh`, `~/.gnupg`, cloud CLI logins, keyrings) and the files
//! that run code at login (shell profiles, autostart entries). Writing, truncating or
//! deleting anything there is critical; `/tmp` and the workspace stay ordinary even when
//! the workspace itself lives in such a tree (`/usr/src/app`, `/var/www`).

use std::path::{Component, Path, PathBuf};

use globset::GlobBuilder;

use memo_protocol::Phrase;

use super::GuardContext;
use crate::shell_parse::SUBSTITUTION;

/// System trees: changing anything in them changes the installed system or the kernel.
const SYSTEM: [&str; 17] = [
    "/etc",
    "/boot",
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/var",
    "/sys",
    "/proc",
    "/System",
    "/Library",
    "/private/etc",
    "/private/var",
    "/efi",
];

/// Scratch space inside the system trees (macOS keeps `$TMPDIR` under /var/folders).
const SCRATCH: [&str; 6] = [
    "/var/tmp",
    "/var/folders",
    "/private/var/tmp",
    "/private/var/folders",
    "/proc/self/fd",
    "/dev/fd",
];

/// Secrets under the home directory: keys, tokens and the stores that hold them.
const CREDENTIALS: [&str; 18] = [
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".kube",
    ".docker/config.json",
    ".netrc",
    ".git-credentials",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".password-store",
    ".vault-token",
    ".pki",
    ".local/share/keyrings",
    "Library/Keychains",
];

/// Files a shell or the desktop runs at login: writing one runs code in every later session.
const STARTUP: [&str; 22] = [
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".mkshrc",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".xprofile",
    ".xsessionrc",
    ".xinitrc",
    ".config/fish",
    ".config/autostart",
    ".config/systemd",
    "Library/LaunchAgents",
];

/// A protected place a command would write to, truncate or delete.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hit {
    /// The protected area (`/etc`, `/home/u/.ssh`).
    pub area: PathBuf,
    /// What lives there, for the approval reason.
    pub what: Phrase,
}

impl Hit {
    pub fn area(&self) -> String {
        self.area.display().to_string()
    }

    pub fn what(&self) -> Box<Phrase> {
        Box::new(self.what.clone())
    }
}

fn areas(ctx: &GuardContext) -> Vec<(PathBuf, Phrase)> {
    let mut out: Vec<(PathBuf, Phrase)> = SYSTEM
        .iter()
        .map(|p| (PathBuf::from(p), Phrase::AreaSystemFiles))
        .collect();
    if let Some(home) = &ctx.home {
        let home = normalize_path(home);
        out.extend(
            CREDENTIALS
                .iter()
                .map(|p| (home.join(p), Phrase::AreaCredentials)),
        );
        out.extend(
            STARTUP
                .iter()
                .map(|p| (home.join(p), Phrase::AreaLoginFile)),
        );
    }
    out
}

/// Whether `path` inside `area` is still ordinary: scratch space, or a workspace that
/// lies inside the area (a project under /var/www). A workspace that *contains* the area
/// (a workspace opened at ~) does not make ~/.ssh ordinary.
fn exempt(path: &Path, area: &Path, ctx: &GuardContext) -> bool {
    if SCRATCH.iter().any(|s| path.starts_with(s)) {
        return true;
    }
    ctx.workspace_roots.iter().any(|root| {
        let root = normalize_path(root);
        path.starts_with(&root) && root.starts_with(area)
    })
}

/// The protected area a write to `arg` would touch. `recursive` means everything under
/// `arg` is affected too (`rm -r`, `chmod -R`, what `find` finds), so a directory that
/// merely contains a protected area (`~`, `/`) counts.
pub(crate) fn protected_target(arg: &str, ctx: &GuardContext, recursive: bool) -> Option<Hit> {
    let expanded = expand_known_vars(arg, ctx)?;
    let path = if expanded.starts_with('/') {
        PathBuf::from(&expanded)
    } else if ctx.cwd_unknown {
        return None;
    } else {
        ctx.cwd.join(&expanded)
    };
    let mut prefix = PathBuf::new();
    let mut glob = None;
    for component in path.components() {
        let part = component.as_os_str().to_string_lossy();
        if part.contains(['*', '?', '[']) {
            glob = Some(part.into_owned());
            break;
        }
        prefix.push(component);
    }
    let base = normalize_path(&prefix);
    let areas = areas(ctx);
    let inside = |p: &Path| {
        areas
            .iter()
            .find(|(area, _)| p.starts_with(area) && !exempt(p, area, ctx))
    };
    let hit = |(area, what): &(PathBuf, Phrase)| Hit {
        area: area.clone(),
        what: what.clone(),
    };
    let Some(pattern) = glob else {
        if let Some(found) = inside(&base) {
            return Some(hit(found));
        }
        return recursive
            .then(|| areas.iter().find(|(area, _)| area.starts_with(&base)))
            .flatten()
            .map(hit);
    };
    // A glob: anything it matches lies under `base`; it hits an area below `base` if the
    // pattern can match the area's next component (`~/.s*` matches `.ssh`).
    if let Some(found) = inside(&base.join("x")) {
        return Some(hit(found));
    }
    let matcher = GlobBuilder::new(&pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .ok();
    areas
        .iter()
        .find(|(area, _)| {
            let Ok(rest) = area.strip_prefix(&base) else {
                return false;
            };
            match (rest.components().next(), &matcher) {
                (Some(next), Some(m)) => m.is_match(next.as_os_str()),
                // An unreadable pattern may match anything.
                (Some(_), None) => true,
                (None, _) => false,
            }
        })
        .map(hit)
}

/// Where a path argument points, as far as can be told without running anything.
pub(crate) enum Target {
    /// A concrete path (lexically normalized, absolute).
    Path(PathBuf),
    /// `$VAR/` or `$VAR/*` with an unknown variable: `/` if it is empty or unset.
    UnknownVarRoot,
    Unknown,
}

/// Resolves a target argument. Trailing match-all globs (`dir/*`, `dir/.*`) stand for the
/// directory itself (they empty it); other globs are resolved to the directory they
/// search, which is only dangerous at the filesystem root (`/u*`).
pub(crate) fn resolve_target(arg: &str, ctx: &GuardContext) -> Target {
    let expanded = match expand_known_vars(arg, ctx) {
        Some(e) => e,
        None => {
            return match strip_leading_var(arg) {
                Some("/" | "/*" | "/.*" | "/**") => Target::UnknownVarRoot,
                _ => Target::Unknown,
            };
        }
    };
    let path = if expanded.starts_with('/') {
        PathBuf::from(&expanded)
    } else if ctx.cwd_unknown {
        return Target::Unknown;
    } else {
        ctx.cwd.join(&expanded)
    };
    let mut prefix = PathBuf::new();
    for component in path.components() {
        let part = component.as_os_str().to_string_lossy();
        if part.contains(['*', '?', '[']) {
            let base = normalize_path(&prefix);
            let match_all = matches!(
                part.as_ref(),
                "*" | ".*" | "*.*" | "**" | ".[!.]*" | "..?*" | ".??*"
            );
            if match_all || base == Path::new("/") {
                return Target::Path(base);
            }
            return Target::Unknown;
        }
        prefix.push(component);
    }
    Target::Path(normalize_path(&path))
}

pub(crate) fn expand_known_vars(arg: &str, ctx: &GuardContext) -> Option<String> {
    let home = ctx.home.as_ref().map(|h| h.display().to_string());
    let pwd = ctx.cwd.display().to_string();
    let replaced = if arg == "~" || arg.starts_with("~/") {
        format!("{}{}", home?, &arg[1..])
    } else if let Some(rest) = arg
        .strip_prefix("${HOME}")
        .or_else(|| arg.strip_prefix("$HOME").filter(|r| !starts_ident(r)))
    {
        format!("{}{rest}", home?)
    } else if let Some(rest) = arg
        .strip_prefix("${PWD}")
        .or_else(|| arg.strip_prefix("$PWD").filter(|r| !starts_ident(r)))
    {
        format!("{pwd}{rest}")
    } else {
        arg.to_owned()
    };
    if replaced.contains('$') || replaced.contains('`') || replaced.contains(SUBSTITUTION) {
        None
    } else {
        Some(replaced)
    }
}

fn starts_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
}

fn strip_leading_var(arg: &str) -> Option<&str> {
    let rest = arg.strip_prefix('$')?;
    if let Some(inner) = rest.strip_prefix('{') {
        let end = inner.find('}')?;
        return Some(&inner[end + 1..]);
    }
    let len = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .count();
    (len > 0).then(|| &rest[len..])
}

/// `.` and `..` resolved lexically (symlinks are not followed: `rm` removes a link, not
/// what it points to).
pub(crate) fn normalize_path(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for component in path.components() {
        match component {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
        }
    }
    out
}

/// Whether deleting (or recursively re-permissioning) `path` would wreck the system, the
/// user's home, or — when `include_workspace` — the workspace.
pub(crate) fn is_critical_path(path: &Path, ctx: &GuardContext, include_workspace: bool) -> bool {
    if path.components().count() <= 2 {
        // `/` itself or a top-level directory such as /usr, /etc, /home.
        return true;
    }
    let protects = |root: &Path| root.starts_with(path);
    let mut roots: Vec<PathBuf> = ctx.home.iter().cloned().collect();
    if include_workspace {
        roots.extend(ctx.workspace_roots.iter().cloned());
    }
    roots.iter().any(|root| {
        let lexical = normalize_path(root);
        protects(&lexical)
            || std::fs::canonicalize(root)
                .map(|real| protects(&real))
                .unwrap_or(false)
    })
}

/// Block devices and raw memory: writing to one destroys a disk (or the running system).
pub(crate) fn is_block_device(path: &str) -> bool {
    let Some(dev) = path.trim().strip_prefix("/dev/") else {
        return false;
    };
    let rest_after = |prefix: &str| dev.strip_prefix(prefix);
    let letters_then_digits = |s: &str| {
        let letters = s.chars().take_while(|c| c.is_ascii_lowercase()).count();
        letters > 0 && s[letters..].chars().all(|c| c.is_ascii_digit())
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    for prefix in ["sd", "hd", "vd", "xvd"] {
        if rest_after(prefix).is_some_and(letters_then_digits) {
            return true;
        }
    }
    if let Some(rest) = rest_after("nvme") {
        return rest.starts_with(|c: char| c.is_ascii_digit());
    }
    if let Some(rest) = rest_after("mmcblk") {
        return rest.starts_with(|c: char| c.is_ascii_digit());
    }
    for prefix in [
        "md", "loop", "nbd", "sr", "disk", "rdisk", "mtdblock", "dm-",
    ] {
        if rest_after(prefix).is_some_and(digits) {
            return true;
        }
    }
    dev.starts_with("disk/")
        || dev.starts_with("mapper/")
        || matches!(dev, "root" | "mem" | "kmem" | "port")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> GuardContext {
        GuardContext::with_home(
            PathBuf::from("/work/proj"),
            Some(PathBuf::from("/home/u")),
            vec![PathBuf::from("/work/proj")],
        )
    }

    fn area(arg: &str, recursive: bool) -> Option<String> {
        protected_target(arg, &ctx(), recursive).map(|h| h.area.display().to_string())
    }

    #[test]
    fn protected_areas_are_found_by_path_glob_and_containment() {
        assert_eq!(area("/etc/passwd", false).as_deref(), Some("/etc"));
        assert_eq!(
            area("~/.ssh/id_rsa", false).as_deref(),
            Some("/home/u/.ssh")
        );
        assert_eq!(
            area("$HOME/.bashrc", false).as_deref(),
            Some("/home/u/.bashrc")
        );
        assert_eq!(area("/etc/*.conf", false).as_deref(), Some("/etc"));
        assert_eq!(area("~/.s*", false).as_deref(), Some("/home/u/.ssh"));
        assert_eq!(area("/", true).as_deref(), Some("/etc"));
        assert_eq!(
            area("~/.config", true).as_deref(),
            Some("/home/u/.config/gcloud")
        );
        assert_eq!(area("~/.config", false), None);
        assert_eq!(area("../../etc/hosts", false).as_deref(), Some("/etc"));
        for ordinary in [
            "/tmp/x",
            "/var/tmp/x",
            "out.txt",
            "~/.cache/pip",
            "~/projects/x",
            "$DIR/x",
            "/etcetera",
        ] {
            assert_eq!(area(ordinary, true), None, "{ordinary}");
        }
    }

    #[test]
    fn a_workspace_inside_a_system_tree_stays_ordinary_but_not_one_around_credentials() {
        let in_var = GuardContext::with_home(
            PathBuf::from("/var/www/site"),
            Some(PathBuf::from("/home/u")),
            vec![PathBuf::from("/var/www/site")],
        );
        assert_eq!(protected_target("index.html", &in_var, false), None);
        assert!(protected_target("/var/www/other", &in_var, false).is_some());
        let at_home = GuardContext::with_home(
            PathBuf::from("/home/u"),
            Some(PathBuf::from("/home/u")),
            vec![PathBuf::from("/home/u")],
        );
        assert!(protected_target(".ssh/authorized_keys", &at_home, false).is_some());
        assert_eq!(protected_target("notes.txt", &at_home, false), None);
    }
}
