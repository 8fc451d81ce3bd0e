//! IPC commands, one module per domain. Each command is a thin adapter: it pulls what it
//! needs from Tauri (handles, managed state), calls plain functions that are tested
//! without a window, and maps failures into [`crate::error::CommandError`].

pub mod app;
pub mod keys;
pub mod prompt;
pub mod session;
