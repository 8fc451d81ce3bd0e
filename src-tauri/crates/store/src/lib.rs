//! Session and event persistence on SQLite.
