import { describe, expect, it } from "vitest";

import { formatCount, formatDate, formatDateTime, formatTime, formatWhen, usesTwelveHourClock } from "./format";

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
  const morning = new Date(2026, 10, 25, 9, 5);
  const midnight = new Date(2026, 0, 3, 0, 30);
  const noon = new Date(2026, 0, 3, 12, 0);
  const evening = new Date(2026, 0, 3, 23, 59);

  it("formats the time of day on either clock", () => {
    expect(formatTime(morning, true)).toBe("9:05 AM");
    expect(formatTime(midnight, true)).toBe("12:30 AM");
    expect(formatTime(noon, true)).toBe("12:00 PM");
    expect(formatTime(evening, true)).toBe("11:59 PM");
    expect(formatTime(morning, false)).toBe("09:05");
    expect(formatTime(evening, false)).toBe("23:59");
  });

  it("formats the day with the year only when asked", () => {
    expect(formatDate(morning, false)).toBe("Nov 25");
    expect(formatDate(midnight, true)).toBe("Jan 3, 2026");
    expect(formatDateTime(morning.getTime(), false)).toBe("Nov 25, 2026, 09:05");
  });

  it("shows today's moments as a time, this year's as a day, older ones with the year", () => {
    const now = new Date(2026, 10, 25, 18, 0).getTime();
    expect(formatWhen(morning.getTime(), now, true)).toBe("9:05 AM");
    expect(formatWhen(new Date(2026, 10, 24, 23, 0).getTime(), now, true)).toBe("Nov 24");
    expect(formatWhen(new Date(2025, 11, 31, 12, 0).getTime(), now, false)).toBe("Dec 31, 2025");
  });
});
