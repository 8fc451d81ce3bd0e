//! Content-addressed copies of file versions under `$MEMO_HOME/checkpoints/blobs`: one
//! file per distinct content (SHA-256), compressed, written to a temporary name and
//! renamed so a killed process never leaves half a blob behind. A version close to one
//! already stored is kept as a line delta against it (see [`crate::delta`]).
//!
//! Layout of a blob file: `MCB1`, a kind byte (0 whole, 1 delta), the delta chain depth,
//! for a delta the base's 32-byte hash, then the deflated payload. Reads check the hash of
//! what they rebuild, so a damaged copy is reported, never written back into a project.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};

use crate::delta;
use crate::error::{CheckpointError, Result};

const MAGIC: &[u8; 4] = b"MCB1";
/// Rebuilding a version walks its chain; past this depth a version is stored whole.
const MAX_DEPTH: u8 = 16;
const HEADER_FULL: usize = 6;
const HEADER_DELTA: usize = 6 + 32;

/// A SHA-256 content address, lowercase hex.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlobId(String);

impl BlobId {
    pub fn of(bytes: &[u8]) -> Self {
        BlobId(hex(&Sha256::digest(bytes)))
    }

    pub fn parse(text: &str) -> Option<Self> {
        (text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| BlobId(text.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn raw(&self) -> Option<[u8; 32]> {
        let mut out = [0u8; 32];
        for (i, pair) in self.0.as_bytes().chunks(2).enumerate() {
            let text = std::str::from_utf8(pair).ok()?;
            out[i] = u8::from_str_radix(text, 16).ok()?;
        }
        Some(out)
    }
}

impl std::fmt::Display for BlobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

pub struct BlobStore {
    dir: PathBuf,
}

impl BlobStore {
    pub fn open(dir: PathBuf) -> Result<Self> {
        std::fs::create_dir_all(&dir).map_err(CheckpointError::io("create", &dir))?;
        Ok(Self { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, id: &BlobId) -> PathBuf {
        self.dir.join(&id.0[..2]).join(&id.0[2..])
    }

    pub fn contains(&self, id: &BlobId) -> bool {
        self.path(id).is_file()
    }

    /// Stores `bytes` (known to hash to `id`); `base` is a stored version it is probably
    /// close to, tried as a delta base.
    pub fn put(&self, id: &BlobId, bytes: &[u8], base: Option<&BlobId>) -> Result<()> {
        let path = self.path(id);
        if path.is_file() {
            return Ok(());
        }
        let encoded = match base.and_then(|b| self.delta_against(b, bytes)) {
            Some(delta) => delta,
            None => {
                let mut out = Vec::with_capacity(bytes.len() / 3 + HEADER_FULL);
                out.extend_from_slice(MAGIC);
                out.extend_from_slice(&[0, 0]);
                deflate_into(&mut out, bytes);
                out
            }
        };
        write_new(&path, &encoded)
    }

    /// A delta blob when the base is stored, not too deep, and the delta is much smaller.
    fn delta_against(&self, base: &BlobId, bytes: &[u8]) -> Option<Vec<u8>> {
        if bytes.len() < 512 {
            return None;
        }
        let mut base = base.clone();
        let mut depth = self.depth(&base)?;
        if depth >= MAX_DEPTH {
            // A long chain of small edits: take the delta against the chain's whole
            // version instead (it holds the sum of the edits, still small) rather than
            // storing the file whole again.
            while let Some(next) = self.base_of(&base) {
                base = next;
            }
            depth = self.depth(&base)?;
        }
        let base = &base;
        let base_bytes = self.get(base).ok()?;
        let ops = delta::encode(&base_bytes, bytes)?;
        if ops.len() * 2 > bytes.len() {
            return None;
        }
        let mut out = Vec::with_capacity(HEADER_DELTA + ops.len() / 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[1, depth + 1]);
        out.extend_from_slice(&base.raw()?);
        deflate_into(&mut out, &ops);
        Some(out)
    }

    fn depth(&self, id: &BlobId) -> Option<u8> {
        let mut header = [0u8; HEADER_FULL];
        let mut file = std::fs::File::open(self.path(id)).ok()?;
        file.read_exact(&mut header).ok()?;
        (&header[..4] == MAGIC).then_some(header[5])
    }

    /// The delta base a stored blob depends on, if it is a delta (for pruning).
    pub fn base_of(&self, id: &BlobId) -> Option<BlobId> {
        let mut header = [0u8; HEADER_DELTA];
        let mut file = std::fs::File::open(self.path(id)).ok()?;
        file.read_exact(&mut header).ok()?;
        (&header[..4] == MAGIC && header[4] == 1).then(|| BlobId(hex(&header[6..38])))
    }

    pub fn get(&self, id: &BlobId) -> Result<Vec<u8>> {
        self.get_at_depth(id, 0)
    }

    fn get_at_depth(&self, id: &BlobId, hops: u8) -> Result<Vec<u8>> {
        let damaged = |reason: &str| CheckpointError::Damaged {
            id: id.0.clone(),
            reason: reason.to_owned(),
        };
        if hops > MAX_DEPTH + 1 {
            return Err(damaged("delta chain too long"));
        }
        let path = self.path(id);
        let data = std::fs::read(&path).map_err(CheckpointError::io("read", &path))?;
        if data.len() < HEADER_FULL || &data[..4] != MAGIC {
            return Err(damaged("not a blob"));
        }
        let bytes = match data[4] {
            0 => inflate(&data[HEADER_FULL..]).ok_or_else(|| damaged("bad compression"))?,
            1 if data.len() >= HEADER_DELTA => {
                let base = BlobId(hex(&data[6..38]));
                let base_bytes = self.get_at_depth(&base, hops + 1)?;
                let ops =
                    inflate(&data[HEADER_DELTA..]).ok_or_else(|| damaged("bad compression"))?;
                delta::apply(&base_bytes, &ops).ok_or_else(|| damaged("delta does not fit"))?
            }
            _ => return Err(damaged("unknown kind")),
        };
        if BlobId::of(&bytes) != *id {
            return Err(damaged("content does not match its hash"));
        }
        Ok(bytes)
    }

    /// Every stored blob with its size on disk (for pruning and the storage figure).
    pub fn list(&self) -> Vec<(BlobId, u64)> {
        let mut out = Vec::new();
        let Ok(shards) = std::fs::read_dir(&self.dir) else {
            return out;
        };
        for shard in shards.flatten() {
            let prefix = shard.file_name().to_string_lossy().into_owned();
            let Ok(files) = std::fs::read_dir(shard.path()) else {
                continue;
            };
            for file in files.flatten() {
                let name = file.file_name().to_string_lossy().into_owned();
                let Some(id) = BlobId::parse(&format!("{prefix}{name}")) else {
                    continue;
                };
                let size = file.metadata().map(|m| m.len()).unwrap_or(0);
                out.push((id, size));
            }
        }
        out
    }

    pub fn remove(&self, id: &BlobId) {
        let _ = std::fs::remove_file(self.path(id));
    }
}

fn deflate_into(out: &mut Vec<u8>, bytes: &[u8]) {
    // Fast level: checkpoints sit on the agent's path, and source text compresses well
    // even at level 1.
    let mut encoder = DeflateEncoder::new(out, Compression::fast());
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    let _ = encoder.finish();
}

fn inflate(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    DeflateDecoder::new(data).read_to_end(&mut out).ok()?;
    Some(out)
}

/// Writes a file that did not exist under its final name only once it is complete.
fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(CheckpointError::io("create", dir))?;
    let temp = dir.join(format!(
        ".tmp-{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = std::fs::write(&temp, bytes)
        .map_err(CheckpointError::io("write", &temp))
        .and_then(|()| std::fs::rename(&temp, path).map_err(CheckpointError::io("rename", path)));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_whole_and_delta_versions_and_detects_damage() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::open(dir.path().join("blobs")).unwrap();
        let v1: String = (0..400).map(|i| format!("fn f{i}() {{}}\n")).collect();
        let v2 = v1.replace("fn f200() {}", "fn f200() { todo() }");
        let (a, b) = (BlobId::of(v1.as_bytes()), BlobId::of(v2.as_bytes()));
        store.put(&a, v1.as_bytes(), None).unwrap();
        store.put(&b, v2.as_bytes(), Some(&a)).unwrap();
        assert_eq!(store.get(&a).unwrap(), v1.as_bytes());
        assert_eq!(store.get(&b).unwrap(), v2.as_bytes());
        assert_eq!(store.base_of(&b), Some(a.clone()));
        assert_eq!(store.base_of(&a), None);
        let sizes: u64 = store
            .list()
            .iter()
            .map(|(id, size)| if *id == b { *size } else { 0 })
            .sum();
        assert!(sizes < 100, "the delta is {sizes} bytes");

        // Flip a byte of the base: both versions report damage instead of wrong bytes.
        let path = store.path(&a);
        let mut data = std::fs::read(&path).unwrap();
        let last = data.len() - 1;
        data[last] ^= 0xff;
        std::fs::write(&path, data).unwrap();
        assert!(matches!(
            store.get(&a),
            Err(CheckpointError::Damaged { .. })
        ));
        assert!(matches!(
            store.get(&b),
            Err(CheckpointError::Damaged { .. })
        ));
    }
}
