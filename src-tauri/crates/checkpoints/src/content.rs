//! What a file held at one point, as recorded in the database.

use crate::blobs::BlobId;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// No file there.
    Absent,
    /// A stored copy.
    Blob(BlobId),
    /// Over the size cap or unreadable: known to exist (with this size), not kept.
    Large { size: u64 },
}

impl Content {
    /// Database form: NULL, the hash, or `large:<size>`.
    pub(crate) fn to_sql(&self) -> Option<String> {
        match self {
            Content::Absent => None,
            Content::Blob(id) => Some(id.as_str().to_owned()),
            Content::Large { size } => Some(format!("large:{size}")),
        }
    }

    pub(crate) fn from_sql(text: Option<String>) -> Content {
        match text {
            None => Content::Absent,
            Some(text) => match text.strip_prefix("large:") {
                Some(size) => Content::Large {
                    size: size.parse().unwrap_or(0),
                },
                None => BlobId::parse(&text).map_or(Content::Large { size: 0 }, Content::Blob),
            },
        }
    }

    pub fn is_absent(&self) -> bool {
        matches!(self, Content::Absent)
    }

    pub fn blob(&self) -> Option<&BlobId> {
        match self {
            Content::Blob(id) => Some(id),
            _ => None,
        }
    }
}

/// One file's change within a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    pub before: Content,
    pub after: Content,
    /// Unix permission bits of each side (0 when absent).
    pub before_mode: u32,
    pub after_mode: u32,
}
