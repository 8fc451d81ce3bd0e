//! Installing, enabling, disabling and removing plugins in `$MEMO_HOME/plugins`.
//!
//! A plugin is copied (a folder) or cloned (a git URL, `--depth 1`) into a staging folder
//! beside its destination, checked there, and only then renamed into place and recorded,
//! so a bad manifest, a failed clone or a name already taken leaves nothing behind. The
//! source folder is only ever read. Replacing an installed plugin needs an explicit flag;
//! the old copy is moved aside until the new one is recorded, and put back if recording
//! fails.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{PluginError, Result};
use crate::manifest::{check_name, Manifest};
use crate::registry::{self, Record, Source};

/// Held around every read-modify-write of the registry: an install that takes minutes
/// (a clone) must not write back a list from before a switch flipped meanwhile.
static REGISTRY: Mutex<()> = Mutex::new(());

fn registry_lock() -> MutexGuard<'static, ()> {
    // It guards no data of its own: a panic while held leaves nothing half-done here.
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner())
}

/// The most a plugin's folder may hold: more is a mistake (or the wrong folder).
const MAX_BYTES: u64 = 200 * 1024 * 1024;
const MAX_FILES: u64 = 20_000;

/// What to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallSource {
    /// A plugin's folder on this machine (copied; never changed).
    Folder(PathBuf),
    /// A git repository whose top folder is the plugin.
    Git(String),
}

/// The plugins of one Memo home.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plugins {
    dir: PathBuf,
}

/// An installed plugin as recorded, with its manifest as it reads now.
#[derive(Debug)]
pub struct InstalledPlugin {
    pub record: Record,
    pub root: PathBuf,
    pub manifest: Result<Manifest>,
}

impl Plugins {
    /// The plugins of the Memo home at `memo_home` (`$MEMO_HOME` or `~/.memo`).
    pub fn at_home(memo_home: &Path) -> Plugins {
        Plugins {
            dir: memo_home.join("plugins"),
        }
    }

    /// `$MEMO_HOME/plugins`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `$MEMO_HOME/plugins/installed.json`.
    pub fn registry_path(&self) -> PathBuf {
        self.dir.join("installed.json")
    }

    /// Where the copy of the plugin `name` lives.
    pub fn plugin_dir(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    pub fn records(&self) -> Result<Vec<Record>> {
        registry::read(&self.registry_path())
    }

    /// Every installed plugin, in the order installed.
    pub fn list(&self) -> Result<Vec<InstalledPlugin>> {
        Ok(self
            .records()?
            .into_iter()
            .map(|record| {
                let root = self.plugin_dir(&record.name);
                let manifest = Manifest::read(&root).and_then(|m| {
                    if m.name == record.name {
                        Ok(m)
                    } else {
                        Err(PluginError::InvalidManifest {
                            path: root.join(crate::MANIFEST_PATH),
                            message: format!(
                                "names the plugin \"{}\", but it was installed as \"{}\"",
                                m.name, record.name
                            ),
                        })
                    }
                });
                InstalledPlugin {
                    record,
                    root,
                    manifest,
                }
            })
            .collect())
    }

    /// The enabled plugins whose manifests read; broken ones are left out (the settings
    /// page lists them with their problem).
    pub fn enabled(&self) -> Vec<(String, PathBuf, Manifest)> {
        let list = match self.list() {
            Ok(list) => list,
            Err(error) => {
                tracing::warn!(%error, "installed plugins not read");
                return Vec::new();
            }
        };
        list.into_iter()
            .filter(|p| p.record.enabled)
            .filter_map(|p| match p.manifest {
                Ok(manifest) => Some((p.record.name, p.root, manifest)),
                Err(error) => {
                    tracing::warn!(%error, "plugin not loaded");
                    None
                }
            })
            .collect()
    }

    /// Installs a plugin; with `replace`, over an installed one of the same name.
    pub fn install(&self, source: &InstallSource, replace: bool) -> Result<Record> {
        // A damaged registry stops everything before any file is touched.
        let records = self.records()?;
        match source {
            InstallSource::Folder(path) => {
                let metadata = std::fs::metadata(path).map_err(|e| match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        PluginError::SourceMissing { path: path.clone() }
                    }
                    _ => PluginError::io(path, e),
                })?;
                if !metadata.is_dir() {
                    return Err(PluginError::NotAFolder { path: path.clone() });
                }
                let path = std::fs::canonicalize(path).map_err(|e| PluginError::io(path, e))?;
                // Checked before copying, so a folder that is no plugin costs nothing.
                let manifest = Manifest::read(&path)?;
                check_free(
                    &records,
                    &self.plugin_dir(&manifest.name),
                    &manifest.name,
                    replace,
                )?;
                let staging = self.staging()?;
                let mut copy = Copy {
                    root: path.clone(),
                    skip: std::fs::canonicalize(&self.dir).unwrap_or_else(|_| self.dir.clone()),
                    bytes: 0,
                    files: 0,
                };
                let copied = copy.tree(&path, &staging.0, true);
                let record = Source::Folder { path };
                self.finish(staging, copied, record, records, replace)
            }
            InstallSource::Git(url) => {
                check_git_url(url)?;
                let staging = self.staging()?;
                let cloned = clone(url, &staging.0);
                self.finish(
                    staging,
                    cloned,
                    Source::Git { url: url.clone() },
                    records,
                    replace,
                )
            }
        }
    }

    /// A new, empty staging folder beside the plugins; removed when dropped unless kept.
    fn staging(&self) -> Result<Staging> {
        std::fs::create_dir_all(&self.dir).map_err(|e| PluginError::io(&self.dir, e))?;
        self.clear_leftovers();
        Ok(Staging(self.dir.join(format!(
            ".staging-{}",
            uuid::Uuid::new_v4().simple()
        ))))
    }

    /// Removes the staging and set-aside folders a stopped process left (Memo killed in
    /// the middle of an install): those untouched for an hour, so an install running now
    /// in another window keeps its own.
    fn clear_leftovers(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let hour = std::time::Duration::from_secs(3600);
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let ours = [".staging-", ".replaced-", ".removed-"]
                .iter()
                .any(|prefix| name.starts_with(prefix));
            let stale = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > hour);
            if ours && stale && entry.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }

    /// Checks what landed in `staging`, moves it into place and records it.
    fn finish(
        &self,
        staging: Staging,
        fetched: Result<()>,
        source: Source,
        _checked_before: Vec<Record>,
        replace: bool,
    ) -> Result<Record> {
        fetched?;
        let _registry = registry_lock();
        // Read again: the list may have changed while the plugin was copied or cloned.
        let mut records = self.records()?;
        let manifest = Manifest::read(&staging.0)?;
        let dest = self.plugin_dir(&manifest.name);
        check_free(&records, &dest, &manifest.name, replace)?;
        let aside = dest.exists().then(|| {
            self.dir
                .join(format!(".replaced-{}", uuid::Uuid::new_v4().simple()))
        });
        if let Some(aside) = &aside {
            std::fs::rename(&dest, aside).map_err(|e| PluginError::io(&dest, e))?;
        }
        let put_back = |aside: &Option<PathBuf>| {
            if let Some(aside) = aside {
                let _ = std::fs::rename(aside, &dest);
            }
        };
        if let Err(e) = std::fs::rename(&staging.0, &dest) {
            put_back(&aside);
            return Err(PluginError::io(&dest, e));
        }
        // Replacing keeps the user's switch: a plugin they turned off stays off.
        let enabled = records
            .iter()
            .find(|r| r.name == manifest.name)
            .is_none_or(|r| r.enabled);
        let record = Record {
            name: manifest.name.clone(),
            source,
            version: manifest.version.clone(),
            enabled,
            installed_at_ms: now_ms(),
        };
        records.retain(|r| r.name != record.name);
        records.push(record.clone());
        if let Err(e) = registry::write(&self.registry_path(), &records) {
            let _ = std::fs::remove_dir_all(&dest);
            put_back(&aside);
            return Err(e);
        }
        if let Some(aside) = aside {
            let _ = std::fs::remove_dir_all(aside);
        }
        Ok(record)
    }

    /// Turns an installed plugin on or off for sessions started from now on.
    pub fn set_enabled(&self, name: &str, enabled: bool) -> Result<Record> {
        check_name(name)?;
        let _registry = registry_lock();
        let mut records = self.records()?;
        let record = records
            .iter_mut()
            .find(|r| r.name == name)
            .ok_or_else(|| PluginError::NotInstalled { name: name.into() })?;
        record.enabled = enabled;
        let changed = record.clone();
        registry::write(&self.registry_path(), &records)?;
        Ok(changed)
    }

    /// Deletes Memo's copy of the plugin and its record (never the folder it came from).
    pub fn remove(&self, name: &str) -> Result<()> {
        check_name(name)?;
        let _registry = registry_lock();
        let mut records = self.records()?;
        let before = records.len();
        records.retain(|r| r.name != name);
        if records.len() == before {
            return Err(PluginError::NotInstalled { name: name.into() });
        }
        let dir = self.plugin_dir(name);
        let aside = self
            .dir
            .join(format!(".removed-{}", uuid::Uuid::new_v4().simple()));
        let moved = match std::fs::rename(&dir, &aside) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(PluginError::io(&dir, e)),
        };
        if let Err(e) = registry::write(&self.registry_path(), &records) {
            if moved {
                let _ = std::fs::rename(&aside, &dir);
            }
            return Err(e);
        }
        if moved {
            std::fs::remove_dir_all(&aside).map_err(|e| PluginError::io(&aside, e))?;
        }
        Ok(())
    }
}

/// A staging folder that is deleted unless it was renamed into place.
struct Staging(PathBuf);

impl Drop for Staging {
    fn drop(&mut self) {
        if self.0.exists() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn check_free(records: &[Record], dest: &Path, name: &str, replace: bool) -> Result<()> {
    let taken = records.iter().any(|r| r.name == name) || dest.exists();
    if taken && !replace {
        return Err(PluginError::AlreadyInstalled { name: name.into() });
    }
    Ok(())
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// A folder plugin's copy: only what its folder holds, within [`MAX_BYTES`] and
/// [`MAX_FILES`].
struct Copy {
    /// The plugin's folder (canonical): links may point inside it only.
    root: PathBuf,
    /// Memo's plugins folder (canonical), never copied into itself when the plugin's
    /// folder holds it.
    skip: PathBuf,
    bytes: u64,
    files: u64,
}

impl Copy {
    /// Copies `from` into the new folder `to`. A link is copied as what it points to when
    /// that is inside the plugin's folder, and refused when it leads out of it (a copied
    /// link would read, or break on, whatever is there on this machine). A repository's
    /// `.git` at the top is left out: the copy is a plugin, not a checkout.
    fn tree(&mut self, from: &Path, to: &Path, top: bool) -> Result<()> {
        std::fs::create_dir(to).map_err(|e| PluginError::io(to, e))?;
        let entries = std::fs::read_dir(from).map_err(|e| PluginError::io(from, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| PluginError::io(from, e))?;
            let name = entry.file_name();
            if top && name == ".git" {
                continue;
            }
            let (src, dst) = (entry.path(), to.join(&name));
            let mut kind = entry.file_type().map_err(|e| PluginError::io(&src, e))?;
            let mut real = src.clone();
            if kind.is_symlink() {
                real = std::fs::canonicalize(&src).map_err(|e| PluginError::io(&src, e))?;
                if !real.starts_with(&self.root) {
                    return Err(PluginError::LinkOutside {
                        path: src,
                        target: real,
                    });
                }
                kind = std::fs::metadata(&real)
                    .map_err(|e| PluginError::io(&real, e))?
                    .file_type();
            }
            if kind.is_dir() {
                let canonical = std::fs::canonicalize(&real).unwrap_or(real.clone());
                if canonical == self.skip {
                    continue;
                }
                self.tree(&real, &dst, false)?;
            } else if kind.is_file() {
                self.count(&real)?;
                std::fs::copy(&real, &dst).map_err(|e| PluginError::io(&src, e))?;
            }
        }
        Ok(())
    }

    fn count(&mut self, file: &Path) -> Result<()> {
        let len = std::fs::metadata(file)
            .map_err(|e| PluginError::io(file, e))?
            .len();
        self.bytes = self.bytes.saturating_add(len);
        self.files += 1;
        if self.bytes > MAX_BYTES || self.files > MAX_FILES {
            return Err(PluginError::TooLarge {
                path: self.root.clone(),
                limit_mb: MAX_BYTES / (1024 * 1024),
                max_files: MAX_FILES,
            });
        }
        Ok(())
    }
}

/// URLs git clones without a local path being taken for one (and never an option).
fn check_git_url(url: &str) -> Result<()> {
    let url = url.trim();
    let schemes = ["https://", "http://", "ssh://", "git://", "file://"];
    let scp_like = !url.contains("://")
        && url.split_once(':').is_some_and(|(host, path)| {
            host.contains('@') && !host.contains('/') && !path.is_empty()
        });
    let ok = !url.starts_with('-')
        && !url.chars().any(char::is_whitespace)
        && (schemes
            .iter()
            .any(|s| url.starts_with(s) && url.len() > s.len())
            || scp_like);
    if ok {
        Ok(())
    } else {
        Err(PluginError::InvalidGitUrl { url: url.into() })
    }
}

/// `git clone --depth 1` into `to`, without prompting for credentials (there is no
/// terminal to answer), then drops `.git`.
/// The longest a clone may take: a server that trickles bytes just above git's own
/// low-speed limit must not hold the install (and the settings page) for ever.
const CLONE_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(5 * 60);

fn clone(url: &str, to: &Path) -> Result<()> {
    clone_within(url, to, CLONE_TIME_LIMIT)
}

fn clone_within(url: &str, to: &Path, limit: std::time::Duration) -> Result<()> {
    let mut child = Command::new("git")
        .args([
            "-c",
            "http.lowSpeedLimit=1000",
            "-c",
            "http.lowSpeedTime=60",
            "clone",
            "--depth",
            "1",
            "--quiet",
            "--",
        ])
        .arg(url.trim())
        .arg(to)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env(
            "GIT_SSH_COMMAND",
            "ssh -o BatchMode=yes -o ConnectTimeout=30",
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        // Its own group: git runs helpers (git-remote-https, ssh) that a stop must end too.
        .process_group(0)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => PluginError::GitUnavailable {
                message: "the git command was not found".into(),
            },
            _ => PluginError::GitUnavailable {
                message: e.to_string(),
            },
        })?;
    // Read on the side: a full pipe would stall git while this waits for it to end.
    let stderr = child.stderr.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut pipe, &mut text);
            text
        })
    });
    let deadline = std::time::Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if std::time::Instant::now() >= deadline => {
                if let Ok(pid) = i32::try_from(child.id()) {
                    let group = nix::unistd::Pid::from_raw(pid);
                    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
                }
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(100)),
            Err(e) => return Err(PluginError::io(to, e)),
        }
    };
    let stderr = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
    let Some(status) = status else {
        return Err(PluginError::GitClone {
            url: url.trim().into(),
            message: match limit.as_secs() {
                s if s >= 60 => format!("stopped after {} minutes", s / 60),
                s => format!("stopped after {s} s"),
            },
        });
    };
    if !status.success() {
        let message = stderr
            .lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty())
            .unwrap_or("git exited with an error")
            .to_owned();
        return Err(PluginError::GitClone {
            url: url.trim().into(),
            message,
        });
    }
    let git = to.join(".git");
    if git.exists() {
        std::fs::remove_dir_all(&git).map_err(|e| PluginError::io(&git, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_that_never_ends_is_stopped_at_its_limit() {
        // A server that takes the connection and never answers.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let held = std::thread::spawn(move || {
            let (socket, _) = listener.accept().unwrap();
            std::thread::sleep(std::time::Duration::from_secs(3));
            drop(socket);
        });
        let dir = tempfile::tempdir().unwrap();
        let started = std::time::Instant::now();
        let url = format!("http://127.0.0.1:{port}/plugin.git");
        let err = clone_within(
            &url,
            &dir.path().join("x"),
            std::time::Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_millis(2500));
        assert!(
            matches!(&err, PluginError::GitClone { message, .. } if message == "stopped after 1 s"),
            "{err}"
        );
        held.join().unwrap();
    }

    #[test]
    fn git_urls_are_recognised_and_options_refused() {
        for url in [
            "https://github.com/o/r.git",
            "file:///tmp/repo",
            "git@github.com:o/r.git",
            "ssh://git@host/r",
        ] {
            check_git_url(url).unwrap();
        }
        for url in [
            "",
            "-uhttps://x",
            "/tmp/repo",
            "https://",
            "github.com/o/r",
            "a b",
        ] {
            assert!(
                matches!(check_git_url(url), Err(PluginError::InvalidGitUrl { .. })),
                "{url}"
            );
        }
    }
}
