//! Real files in temporary folders, real `sh` processes: the hooks crate end to end.

mod common;
mod loading;
mod running;
mod stdin;
