//! One window per Memo home: a second launch hands its command line to the running app
//! and exits.
//!
//! The first app to start on a home holds a lock file for its whole life (the kernel lets
//! go of it when the process ends, even in a crash, so a lock is never stale) and listens
//! on a Unix socket beside it. A later launch finds the lock taken, sends its arguments and
//! directory over the socket, waits for the running app to acknowledge them and exits.
//!
//! Not Tauri's single-instance plugin: on Linux it keeps a D-Bus connection (zbus) with its
//! own threads in the app for its whole life, ~2–4 MiB measured at idle, for a message that
//! comes once in a while. The socket costs a file descriptor and an idle task.
//!
//! Keyed on the Memo home rather than the user session, so two homes (`MEMO_HOME`) are two
//! apps, each with its own store, as the engine and CLI treat them.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// What a second launch hands over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handover {
    /// Its command line, `argv[0]` first.
    pub args: Vec<String>,
    /// Its working directory, against which a relative folder argument is read.
    pub cwd: String,
}

/// How a start went.
pub enum Claim {
    /// This is the app for the home: serve `Listener` for later launches.
    First(Listener),
    /// A running app took this launch's command line: exit.
    HandedOver,
    /// Another app holds the home but did not answer; this one runs on its own and does
    /// not take later launches (it is not the home's first app).
    Alone(String),
}

/// The first app's end: the held lock and the socket later launches write to.
pub struct Listener {
    socket: UnixListener,
    path: PathBuf,
    /// Held, never read: the lock lasts as long as this file stays open.
    lock: File,
}

/// A handover larger than this is not a command line.
const MAX_HANDOVER_BYTES: u64 = 64 * 1024;
/// How long a second launch waits for the first to bind its socket and to answer: the
/// first may have taken the lock a moment ago and still be starting.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the first app waits for a connected launch to finish writing.
const READ_TIMEOUT: Duration = Duration::from_secs(2);
const ACK: &[u8] = b"ok\n";

/// Where the lock and the socket of a Memo home are: the user's runtime directory (private
/// to them, emptied at log-out), else a private folder of theirs in the temp directory.
pub fn place_for(memo_home: &Path) -> io::Result<PathBuf> {
    let uid = std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(u32::MAX);
    let runtime = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute() && check_private(dir, uid).is_ok());
    let dir = match runtime {
        Some(dir) => dir,
        None => {
            let dir = std::env::temp_dir().join(format!("memo-desktop-{uid}"));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(error),
            }
            check_private(&dir, uid)?;
            dir
        }
    };
    let name = fnv1a(memo_home.as_os_str().as_encoded_bytes());
    Ok(dir.join(format!("memo-desktop-{name:016x}")))
}

/// Refuses a folder someone else owns, others may enter, or that is not a plain folder (a
/// link another user left in the temp directory).
fn check_private(dir: &Path, uid: u32) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.is_dir() && meta.uid() == uid && meta.permissions().mode() & 0o077 == 0 {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is not a private folder of this user", dir.display()),
        ))
    }
}

/// A stable 64-bit hash (FNV-1a): the name must be the same for every build of the app.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Becomes the home's app, or hands `handover` to the one already running. `place` is from
/// [`place_for`]; the lock is `place.lock`, the socket `place.sock`.
pub fn claim(place: &Path, handover: &Handover) -> io::Result<Claim> {
    claim_within(place, handover, ANSWER_TIMEOUT)
}

fn claim_within(place: &Path, handover: &Handover, timeout: Duration) -> io::Result<Claim> {
    let lock_path = place.with_extension("lock");
    let socket_path = place.with_extension("sock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)?;
    match lock.try_lock() {
        Ok(()) => {
            // Whatever socket is there was left by an app that has ended.
            match std::fs::remove_file(&socket_path) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => return Err(error),
            }
            let socket = UnixListener::bind(&socket_path)?;
            Ok(Claim::First(Listener {
                socket,
                path: socket_path,
                lock,
            }))
        }
        Err(TryLockError::WouldBlock) => match hand_over(&socket_path, handover, timeout) {
            Ok(()) => Ok(Claim::HandedOver),
            Err(error) => Ok(Claim::Alone(format!(
                "another Memo runs on this home but did not take this launch ({error})"
            ))),
        },
        Err(TryLockError::Error(error)) => Err(error),
    }
}

/// Sends the command line and waits for the running app's acknowledgement.
fn hand_over(socket_path: &Path, handover: &Handover, timeout: Duration) -> io::Result<()> {
    let deadline = Instant::now() + timeout;
    let mut stream = loop {
        match UnixStream::connect(socket_path) {
            Ok(stream) => break stream,
            // Not bound yet: the lock's holder is still starting.
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
                ) && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(error) => return Err(error),
        }
    };
    stream.set_read_timeout(Some(
        deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(100)),
    ))?;
    let mut line = serde_json::to_vec(handover).map_err(io::Error::other)?;
    line.push(b'\n');
    stream.write_all(&line)?;
    let mut answer = Vec::new();
    stream.take(ACK.len() as u64).read_to_end(&mut answer)?;
    if answer == ACK {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the running app did not acknowledge",
        ))
    }
}

impl Listener {
    /// Takes later launches one by one, handing each to `on_launch`, for as long as the
    /// future is polled (the app spawns it for its whole life; it owns the lock meanwhile).
    /// It sleeps in `accept`: no thread of its own, no polling. A connection that sends
    /// something other than a handover is answered with nothing and dropped; the next one
    /// is served.
    pub async fn serve(self, on_launch: impl Fn(Handover)) {
        // Held to the end of the future, which the app keeps for its whole life.
        let Listener {
            socket,
            lock: _held,
            ..
        } = self;
        let socket = match socket
            .set_nonblocking(true)
            .and_then(|()| tokio::net::UnixListener::from_std(socket))
        {
            Ok(socket) => socket,
            Err(error) => {
                tracing::warn!(%error, "later launches will open windows of their own");
                return;
            }
        };
        loop {
            let mut stream = match socket.accept().await {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of descriptors, say: not worth spinning over.
                    tracing::warn!(%error, "could not take a launch");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            };
            match tokio::time::timeout(READ_TIMEOUT, read_handover(&mut stream)).await {
                Ok(Ok(handover)) => {
                    on_launch(handover);
                    let _ = stream.write_all(ACK).await;
                }
                Ok(Err(error)) => {
                    tracing::warn!(%error, "a launch sent something that is not a command line")
                }
                Err(_) => tracing::warn!("a launch connected but sent no command line"),
            }
        }
    }

    /// The socket's path (removed when the app ends).
    pub fn socket_path(&self) -> &Path {
        &self.path
    }
}

async fn read_handover(stream: &mut tokio::net::UnixStream) -> io::Result<Handover> {
    let mut line = Vec::new();
    BufReader::new(stream.take(MAX_HANDOVER_BYTES + 1))
        .read_until(b'\n', &mut line)
        .await?;
    if line.len() as u64 > MAX_HANDOVER_BYTES || line.last() != Some(&b'\n') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "no complete line within 64 KiB",
        ));
    }
    serde_json::from_slice(&line).map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    fn handover(arg: &str) -> Handover {
        Handover {
            args: vec!["memo-desktop".into(), arg.into()],
            cwd: "/somewhere".into(),
        }
    }

    fn claim_first(place: &Path) -> Listener {
        match claim(place, &handover("first")).unwrap() {
            Claim::First(listener) => listener,
            _ => panic!("the first start did not become the home's app"),
        }
    }

    /// The home's first app, serving: what later launches hand over arrives on the receiver.
    fn serving(place: &Path) -> mpsc::Receiver<Handover> {
        let (tx, rx) = mpsc::channel();
        let listener = claim_first(place);
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(listener.serve(move |launch| tx.send(launch).unwrap()));
        });
        rx
    }

    /// A launch with `arg` finds the first app, which acknowledges and receives it.
    fn hands_over(place: &Path, launches: &mpsc::Receiver<Handover>, arg: &str) {
        assert!(matches!(
            claim(place, &handover(arg)).unwrap(),
            Claim::HandedOver
        ));
        assert_eq!(
            launches.recv_timeout(Duration::from_secs(5)).unwrap(),
            handover(arg)
        );
    }

    #[test]
    fn a_second_launch_hands_over_its_command_line_and_the_first_acknowledges() {
        let dir = tempfile::tempdir().unwrap();
        let place = dir.path().join("home");
        let launches = serving(&place);

        hands_over(&place, &launches, "/a");
        hands_over(&place, &launches, "/b");
    }

    #[test]
    fn once_the_first_app_ends_the_next_start_is_first_despite_the_socket_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let place = dir.path().join("home");
        let listener = claim_first(&place);
        let socket = listener.socket_path().to_path_buf();
        drop(listener);
        // The file stays, as after a crash; its lock went with the process.
        assert!(socket.exists());
        assert!(UnixStream::connect(&socket).is_err());

        let launches = serving(&place);
        hands_over(&place, &launches, "/c");
    }

    #[test]
    fn a_connection_that_sends_no_command_line_is_dropped_and_the_next_is_served() {
        let dir = tempfile::tempdir().unwrap();
        let place = dir.path().join("home");
        let launches = serving(&place);
        let socket = place.with_extension("sock");

        for junk in [
            &b"not json\n"[..],
            &b"{\"args\": 3}\n"[..],
            &[b'x'; 70 * 1024][..],
        ] {
            let mut stream = UnixStream::connect(&socket).unwrap();
            // A long write may fail once the app has stopped reading: that is the refusal.
            let _ = stream.write_all(junk);
            let _ = stream.shutdown(std::net::Shutdown::Write);
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer);
            assert!(answer.is_empty(), "acknowledged junk: {answer:?}");
        }
        hands_over(&place, &launches, "/d");
        assert!(launches.try_recv().is_err(), "junk reached the app");
    }

    #[test]
    fn a_running_app_that_does_not_answer_leaves_the_launch_to_run_alone() {
        let dir = tempfile::tempdir().unwrap();
        let place = dir.path().join("home");
        // Holds the lock and the socket but never accepts: a hung first app.
        let _hung = claim_first(&place);
        match claim_within(&place, &handover("/e"), Duration::from_millis(300)).unwrap() {
            Claim::Alone(why) => assert!(why.contains("did not take this launch"), "{why}"),
            _ => panic!("a hung app was said to take the launch"),
        }
    }

    #[test]
    fn each_home_has_its_own_place_in_a_private_folder() {
        let a = place_for(Path::new("/home/u/.memo")).unwrap();
        let b = place_for(Path::new("/tmp/other-home")).unwrap();
        assert_ne!(a, b);
        assert_eq!(a, place_for(Path::new("/home/u/.memo")).unwrap());
        let dir = a.parent().unwrap();
        let mode = std::fs::metadata(dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{} is open to others", dir.display());
    }
}
