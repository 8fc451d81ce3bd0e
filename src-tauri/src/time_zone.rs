//! The computer's time zone for the page ([`ZoneOffsets`] in the app info): its offset from
//! UTC twenty years back and two ahead, with every change in between. The page makes local
//! times from these with a `Date`'s UTC getters. Its local getters would make WebKit load
//! ICU's calendar and time-zone data, ~1.3 MiB that the web process keeps for the window's
//! life (measured idle), to print an hour and a day in the sidebar.
//!
//! On Linux the zone is GLib's, which reads what the rest of the desktop does (`TZ`, else
//! `/etc/localtime`). Elsewhere there is none, and the page keeps to its own clock.

use memo_protocol::{ZoneChange, ZoneOffsets};

/// How far back the offsets go: older moments in the app (a session's date) are rare, and
/// the page falls back to its own clock for them.
const YEARS_BEFORE: i64 = 20;
const YEARS_AFTER: i64 = 2;
const YEAR_SECONDS: i64 = 365 * DAY_SECONDS;
/// The zone is sampled once a day: no zone has changed its offset twice within one.
const DAY_SECONDS: i64 = 86_400;

/// The local zone around now, where the shell can read it.
pub fn local() -> Option<ZoneOffsets> {
    #[cfg(target_os = "linux")]
    {
        // A clock before 1970 (or past i64 seconds) is broken; the epoch is as good a "now".
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .and_then(|since| i64::try_from(since.as_secs()).ok())
            .unwrap_or(0);
        let zone = gtk::glib::TimeZone::local();
        Some(offsets_around(now, |at| glib_offset(&zone, at)))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Seconds east of UTC that `zone` is at `at` (seconds since the epoch).
#[cfg(target_os = "linux")]
fn glib_offset(zone: &gtk::glib::TimeZone, at: i64) -> i32 {
    let interval = zone.find_interval(gtk::glib::TimeType::Universal, at);
    // GLib answers -1 only for a moment that is not in the zone's timeline; a universal
    // time always is, and UTC is the least wrong answer if that ever changes.
    if interval < 0 {
        0
    } else {
        zone.offset(interval)
    }
}

/// The offsets `offset_at` gives from `YEARS_BEFORE` before `now_seconds` to `YEARS_AFTER`
/// after it: sampled daily, each change then found to the second by bisection.
pub fn offsets_around(now_seconds: i64, offset_at: impl Fn(i64) -> i32) -> ZoneOffsets {
    let from = now_seconds - YEARS_BEFORE * YEAR_SECONDS;
    let until = now_seconds + YEARS_AFTER * YEAR_SECONDS;
    let first = offset_at(from);
    let mut changes = Vec::new();
    let (mut at, mut offset) = (from, first);
    while at < until {
        let next = (at + DAY_SECONDS).min(until);
        let next_offset = offset_at(next);
        if next_offset != offset {
            // The first second in (at, next] with the new offset.
            let (mut before, mut after) = (at, next);
            while after - before > 1 {
                let middle = before + (after - before) / 2;
                if offset_at(middle) == offset {
                    before = middle;
                } else {
                    after = middle;
                }
            }
            changes.push(ZoneChange {
                at_ms: after * 1000,
                offset_seconds: next_offset,
            });
        }
        (at, offset) = (next, next_offset);
    }
    ZoneOffsets {
        from_ms: from * 1000,
        until_ms: until * 1000,
        offset_seconds: first,
        changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-03-29T01:00:00Z and 2026-10-25T01:00:00Z: Central Europe's summer time.
    const SPRING_2026: i64 = 1_774_746_000;
    const AUTUMN_2026: i64 = 1_792_890_000;
    /// 2026-11-29T00:00:00Z.
    const NOW: i64 = 1_795_910_400;

    #[test]
    fn a_zone_without_changes_has_one_offset_over_the_whole_span() {
        let zone = offsets_around(NOW, |_| 19_800);
        assert_eq!(zone.offset_seconds, 19_800);
        assert!(zone.changes.is_empty());
        assert_eq!(zone.from_ms, (NOW - 20 * YEAR_SECONDS) * 1000);
        assert_eq!(zone.until_ms, (NOW + 2 * YEAR_SECONDS) * 1000);
    }

    #[test]
    fn each_change_is_found_to_the_second() {
        // Summer time for 2026 only, in a zone an hour east of UTC.
        let summer = |at: i64| {
            if (SPRING_2026..AUTUMN_2026).contains(&at) {
                7200
            } else {
                3600
            }
        };
        let zone = offsets_around(NOW, summer);
        assert_eq!(zone.offset_seconds, 3600);
        assert_eq!(
            zone.changes,
            [
                ZoneChange {
                    at_ms: SPRING_2026 * 1000,
                    offset_seconds: 7200
                },
                ZoneChange {
                    at_ms: AUTUMN_2026 * 1000,
                    offset_seconds: 3600
                },
            ]
        );
    }

    #[test]
    fn a_change_on_the_span_s_last_day_is_kept() {
        let until = NOW + 2 * YEAR_SECONDS;
        let zone = offsets_around(NOW, |at| if at >= until - 10 { -18_000 } else { -14_400 });
        assert_eq!(
            zone.changes,
            [ZoneChange {
                at_ms: (until - 10) * 1000,
                offset_seconds: -18_000
            }]
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    // `new` is deprecated only beside `from_identifier`, which Tauri's GLib binding leaves out.
    #[allow(deprecated)]
    fn glib_reads_a_real_zone_s_summer_time() {
        let berlin = gtk::glib::TimeZone::new(Some("Europe/Berlin"));
        let zone = offsets_around(NOW, |at| glib_offset(&berlin, at));
        // 2006 to 2028: two changes a year.
        assert_eq!(zone.changes.len(), 44, "{:?}", zone.changes);
        assert!(zone.changes.contains(&ZoneChange {
            at_ms: SPRING_2026 * 1000,
            offset_seconds: 7200
        }));
        assert!(zone.changes.contains(&ZoneChange {
            at_ms: AUTUMN_2026 * 1000,
            offset_seconds: 3600
        }));
        assert_eq!(zone.offset_seconds, 3600);
    }
}
