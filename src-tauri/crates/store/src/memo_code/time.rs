//! The ISO 8601 timestamps of Memo Code's JSONL (`2026-02-23T16:22:21.144Z`, from
//! JavaScript's `Date.toISOString()`), to and from Unix milliseconds. Small enough that a
//! date crate is not worth the dependency.

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    // Shift the year to start in March so the leap day is the last day of the year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count from [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
pub fn format_ms(ms: u64) -> String {
    let ms = i64::try_from(ms).unwrap_or(i64::MAX);
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s, milli) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

/// Parses `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or `±HH:MM` (a space may stand in
/// for the `T`). `None` for anything else or a time before 1970.
pub fn parse_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = text.get(from..from + len)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if b.len() < 16 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    if b[13] != b':' {
        return None;
    }
    let (hour, minute) = (num(11, 2)?, num(14, 2)?);
    let mut i = 16;
    let mut second = 0;
    let mut millis = 0;
    if b.get(i) == Some(&b':') {
        second = num(i + 1, 2)?;
        i += 3;
        if b.get(i) == Some(&b'.') {
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            let frac = &text[i + 1..i + 1 + digits.min(3)];
            millis = frac.parse::<i64>().ok()? * 10_i64.pow(3 - frac.len() as u32);
            i += 1 + digits;
        }
    }
    let offset_minutes = match &text[i..] {
        "Z" | "z" => 0,
        tz if tz.len() == 6 && (tz.starts_with('+') || tz.starts_with('-')) && &tz[3..4] == ":" => {
            let sign = if tz.starts_with('-') { -1 } else { 1 };
            sign * (num(i + 1, 2)? * 60 + num(i + 4, 2)?)
        }
        _ => return None,
    };
    let valid = (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && hour < 24
        && minute < 60
        && second < 61;
    if !valid {
        return None;
    }
    let days = days_from_civil(year, month as u32, day as u32);
    let ms = ((days * 24 + hour) * 60 + minute - offset_minutes) * 60_000 + second * 1000 + millis;
    u64::try_from(ms).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(format_ms(0), "1970-01-01T00:00:00.000Z");
        // 2026-02-23T16:22:21.144Z, as in Memo Code's docs.
        let ms = parse_ms("2026-02-23T16:22:21.144Z").unwrap();
        assert_eq!(ms, 1_771_863_741_144);
        assert_eq!(format_ms(ms), "2026-02-23T16:22:21.144Z");
        assert_eq!(parse_ms("2000-02-29T00:00:00Z"), Some(951_782_400_000));
        assert_eq!(parse_ms("2026-02-23T18:22:21.144+02:00"), Some(ms));
        assert_eq!(parse_ms("2026-02-23 16:22:21.1441234Z"), Some(ms));
        assert_eq!(parse_ms("2026-02-23T16:22Z"), Some(ms - 21_144));
    }

    #[test]
    fn round_trips_across_centuries() {
        for ms in [
            1u64,
            86_399_999,
            951_782_400_000,
            4_102_444_800_000,
            253_402_300_799_999,
        ] {
            assert_eq!(parse_ms(&format_ms(ms)), Some(ms), "{ms}");
        }
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "",
            "yesterday",
            "2026-13-01T00:00:00Z",
            "2026-02-23T16:22:21",
            "2026-02-23T16:22:21.Z",
            "1969-12-31T23:59:59Z",
            "2026-02-23T25:00:00Z",
            "２０２６-02-23T16:22:21Z",
        ] {
            assert_eq!(parse_ms(bad), None, "{bad}");
        }
    }
}
