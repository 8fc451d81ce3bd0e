// Numbers, dates and times in the app's own (English) words, formatted by hand, never
// through Intl or toLocale*: the first such call makes WebKit load ICU's formatting data
// into the page, ~2 MiB, kept for as long as the window is open (measured in the
// benchmark's hello-world window), to print what these few lines print. Local times come
// from the time zone the shell reads (`setTimeZone`) and a `Date`'s UTC getters: its local
// getters load ICU's calendar and time-zone data, another ~1.3 MiB (measured idle).

import type { ZoneOffsets } from "./gen/protocol";

/** "12,345": whole numbers with thousands separators. */
export function formatCount(value: number): string {
  const sign = value < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(value)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The language dates and times are written in: the page's (set by ../i18n when it
 * changes). Chinese reads "11月25日 14:05" on a 24-hour clock; English as before.
 */
let language: "en" | "zh" = "en";

export function setFormatLanguage(next: "en" | "zh"): void {
  language = next;
}

/**
 * Whether `language` (a BCP 47 tag, the system's as the page sees it) reads the time on a
 * 12-hour clock: the main regions, and languages without a region, whose usual clock CLDR
 * gives as 12-hour; everything else reads 24-hour.
 */
export function usesTwelveHourClock(language: string): boolean {
  const [lang = "", ...rest] = language.toLowerCase().split(/[-_]/);
  const region = rest.find((part) => /^[a-z]{2}$/.test(part)) ?? "";
  if (["us", "ca", "au", "nz", "in", "ph", "pk", "bd", "eg", "sa", "kr", "tw", "my", "co", "sv", "hn", "ni", "pr", "ve"].includes(region)) {
    return !(lang === "fr" && region === "ca");
  }
  if (region !== "") return false;
  return ["en", "ar", "hi", "bn", "ur", "ko"].includes(lang);
}

function twelveHourClock(): boolean {
  // A page in Chinese reads the clock as Chinese does (24-hour), whatever the system's region.
  if (language === "zh") return false;
  return typeof navigator !== "undefined" && usesTwelveHourClock(navigator.language ?? "");
}

/** The computer's time zone as the shell read it (the app info's); null until then. */
let zone: ZoneOffsets | null = null;

/** Takes the time zone the shell read: local times from now on are made with it. */
export function setTimeZone(next: ZoneOffsets | null): void {
  zone = next;
}

/** A moment as the clock on the wall shows it. `month` counts from 0, as a `Date`'s. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
}

/** Seconds east of UTC that `offsets` give at `ms`; null outside their span. */
function offsetAt(offsets: ZoneOffsets, ms: number): number | null {
  if (ms < offsets.from_ms || ms >= offsets.until_ms) return null;
  let offset = offsets.offset_seconds;
  for (const change of offsets.changes) {
    if (change.at_ms > ms) break;
    offset = change.offset_seconds;
  }
  return offset;
}

/**
 * `ms` (since the epoch) as a local time: in the shell's time zone where it covers `ms`,
 * else by the page's own clock (off Linux, before the app info has come, or a moment
 * decades away).
 */
export function localTime(ms: number, offsets: ZoneOffsets | null = zone): LocalTime {
  const offset = offsets === null ? null : offsetAt(offsets, ms);
  if (offset === null) {
    const date = new Date(ms);
    return { year: date.getFullYear(), month: date.getMonth(), day: date.getDate(), hours: date.getHours(), minutes: date.getMinutes() };
  }
  const shifted = new Date(ms + offset * 1000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth(),
    day: shifted.getUTCDate(),
    hours: shifted.getUTCHours(),
    minutes: shifted.getUTCMinutes(),
  };
}

/** "10:05 AM" on a 12-hour clock, "10:05" on a 24-hour one. */
export function formatTime(time: LocalTime, twelveHour = twelveHourClock()): string {
  const minutes = String(time.minutes).padStart(2, "0");
  const hours = time.hours;
  if (!twelveHour) return `${String(hours).padStart(2, "0")}:${minutes}`;
  return `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

/** "Nov 25", or "Nov 25, 2025" when `withYear` ("11月25日", "2025年11月25日" in Chinese). */
export function formatDate(time: LocalTime, withYear: boolean): string {
  if (language === "zh") {
    const day = `${time.month + 1}月${time.day}日`;
    return withYear ? `${time.year}年${day}` : day;
  }
  const day = `${MONTHS[time.month]} ${time.day}`;
  return withYear ? `${day}, ${time.year}` : day;
}

/** "Nov 25, 2026, 10:05 AM" ("2026年11月25日 10:05"): a moment in a list of past ones (rules used, folders trusted). */
export function formatDateTime(ms: number, twelveHour = twelveHourClock(), offsets: ZoneOffsets | null = zone): string {
  const time = localTime(ms, offsets);
  const separator = language === "zh" ? " " : ", ";
  return `${formatDate(time, true)}${separator}${formatTime(time, twelveHour)}`;
}

/** Time of day for today, "Nov 25" otherwise ("Nov 25, 2025" before this year); sidebar rows stay one short line. */
export function formatWhen(ms: number, now = Date.now(), twelveHour = twelveHourClock(), offsets: ZoneOffsets | null = zone): string {
  const time = localTime(ms, offsets);
  const today = localTime(now, offsets);
  const sameDay = time.year === today.year && time.month === today.month && time.day === today.day;
  if (sameDay) return formatTime(time, twelveHour);
  return formatDate(time, time.year !== today.year);
}
