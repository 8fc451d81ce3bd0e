import { describe, expect, it } from "vitest";

import type { ZoneOffsets } from "./gen/protocol";
import { formatCount, formatDate, formatDateTime, formatTime, formatWhen, localTime, setFormatLanguage, setTimeZone, usesTwelveHourClock } from "./format";

describe("formatCount", () => {
  it("groups thousands with commas", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(15483)).toBe("15,483");
    expect(formatCount(1234567890)).toBe("1,234,567,890");
  });

  it("rounds and keeps the sign", () => {
    expect(formatCount(-1234.6)).toBe("-1,235");
    expect(formatCount(12.4)).toBe("12");
  });
});

describe("usesTwelveHourClock", () => {
  it("knows the common 12-hour regions and languages", () => {
    for (const tag of ["en-US", "en_US", "en", "en-CA", "en-AU", "en-IN", "ko-KR", "zh-TW", "ar", "es-US"]) {
      expect(usesTwelveHourClock(tag), tag).toBe(true);
    }
  });

  it("reads everything else on a 24-hour clock", () => {
    for (const tag of ["en-GB", "de-DE", "fr-FR", "fr-CA", "ja-JP", "zh-CN", "zh-Hans-CN", "de", "C", ""]) {
      expect(usesTwelveHourClock(tag), tag).toBe(false);
    }
  });
});

describe("dates and times", () => {
  // Local moments by the page's own clock (no zone given): as the test's process reads them.
  const morning = new Date(2026, 10, 25, 9, 5);
  const midnight = new Date(2026, 0, 3, 0, 30);
  const noon = new Date(2026, 0, 3, 12, 0);
  const evening = new Date(2026, 0, 3, 23, 59);
  const at = (date: Date) => localTime(date.getTime(), null);

  it("formats the time of day on either clock", () => {
    expect(formatTime(at(morning), true)).toBe("9:05 AM");
    expect(formatTime(at(midnight), true)).toBe("12:30 AM");
    expect(formatTime(at(noon), true)).toBe("12:00 PM");
    expect(formatTime(at(evening), true)).toBe("11:59 PM");
    expect(formatTime(at(morning), false)).toBe("09:05");
    expect(formatTime(at(evening), false)).toBe("23:59");
  });

  it("formats the day with the year only when asked", () => {
    expect(formatDate(at(morning), false)).toBe("Nov 25");
    expect(formatDate(at(midnight), true)).toBe("Jan 3, 2026");
    expect(formatDateTime(morning.getTime(), false, null)).toBe("Nov 25, 2026, 09:05");
  });

  it("writes days and moments as Chinese does when the page is in Chinese, on a 24-hour clock", () => {
    setFormatLanguage("zh");
    try {
      expect(formatDate(at(morning), false)).toBe("11月25日");
      expect(formatDate(at(midnight), true)).toBe("2026年1月3日");
      expect(formatDateTime(evening.getTime(), undefined, null)).toBe("2026年1月3日 23:59");
      const now = new Date(2026, 10, 25, 18, 0).getTime();
      expect(formatWhen(morning.getTime(), now, undefined, null)).toBe("09:05");
      expect(formatWhen(new Date(2025, 11, 31, 12, 0).getTime(), now, undefined, null)).toBe("2025年12月31日");
    } finally {
      setFormatLanguage("en");
    }
  });

  it("shows today's moments as a time, this year's as a day, older ones with the year", () => {
    const now = new Date(2026, 10, 25, 18, 0).getTime();
    expect(formatWhen(morning.getTime(), now, true, null)).toBe("9:05 AM");
    expect(formatWhen(new Date(2026, 10, 24, 23, 0).getTime(), now, true, null)).toBe("Nov 24");
    expect(formatWhen(new Date(2025, 11, 31, 12, 0).getTime(), now, false, null)).toBe("Dec 31, 2025");
  });
});

describe("local times in the shell's time zone", () => {
  // Central Europe in 2026: an hour east of UTC, two in summer time.
  const spring = Date.UTC(2026, 2, 29, 1, 0);
  const autumn = Date.UTC(2026, 9, 25, 1, 0);
  const berlin: ZoneOffsets = {
    from_ms: Date.UTC(2006, 0, 1),
    until_ms: Date.UTC(2028, 0, 1),
    offset_seconds: 3600,
    changes: [
      { at_ms: spring, offset_seconds: 7200 },
      { at_ms: autumn, offset_seconds: 3600 },
    ],
  };

  it("shifts a moment by the offset in force then, to the second of each change", () => {
    expect(localTime(Date.UTC(2026, 0, 3, 23, 30), berlin)).toEqual({ year: 2026, month: 0, day: 4, hours: 0, minutes: 30 });
    expect(localTime(Date.UTC(2026, 6, 1, 22, 30), berlin)).toEqual({ year: 2026, month: 6, day: 2, hours: 0, minutes: 30 });
    expect(localTime(spring - 60_000, berlin)).toMatchObject({ hours: 1, minutes: 59 });
    expect(localTime(spring, berlin)).toMatchObject({ hours: 3, minutes: 0 });
    expect(localTime(autumn - 60_000, berlin)).toMatchObject({ hours: 2, minutes: 59 });
    expect(localTime(autumn, berlin)).toMatchObject({ hours: 2, minutes: 0 });
  });

  it("decides what is today by the zone's day, not UTC's", () => {
    // 00:30 on Nov 26 in the zone, and a moment 40 minutes earlier: still Nov 25 there.
    const now = Date.UTC(2026, 10, 25, 23, 30);
    expect(formatWhen(Date.UTC(2026, 10, 25, 22, 50), now, false, berlin)).toBe("Nov 25");
    expect(formatWhen(Date.UTC(2026, 10, 25, 23, 10), now, false, berlin)).toBe("00:10");
  });

  it("uses the page's own clock outside the zone's span", () => {
    const longAgo = Date.UTC(1990, 4, 1, 12, 0);
    expect(localTime(longAgo, berlin)).toEqual(localTime(longAgo, null));
    expect(localTime(berlin.until_ms, berlin)).toEqual(localTime(berlin.until_ms, null));
  });

  it("is the default once the shell's zone is set", () => {
    setTimeZone(berlin);
    try {
      expect(formatDateTime(Date.UTC(2026, 6, 1, 22, 30), false)).toBe("Jul 2, 2026, 00:30");
    } finally {
      setTimeZone(null);
    }
  });
});
