//! Memo home, config and keys.
