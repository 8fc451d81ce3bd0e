// Numbers, dates and times in the app's own (English) words, formatted by hand, never
// through Intl or toLocale*: the first such call makes WebKit load ICU's formatting data
// into the page, ~2 MiB beyond the time-zone data local times load anyway, kept for as
// long as the window is open (measured in the benchmark's hello-world window), to print
// what these few lines print.

/** "12,345": whole numbers with thousands separators. */
export function formatCount(value: number): string {
  const sign = value < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(value)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

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
  return typeof navigator !== "undefined" && usesTwelveHourClock(navigator.language ?? "");
}

/** "10:05 AM" on a 12-hour clock, "10:05" on a 24-hour one. */
export function formatTime(date: Date, twelveHour = twelveHourClock()): string {
  const minutes = String(date.getMinutes()).padStart(2, "0");
  const hours = date.getHours();
  if (!twelveHour) return `${String(hours).padStart(2, "0")}:${minutes}`;
  return `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

/** "Nov 25", or "Nov 25, 2025" when `withYear`. */
export function formatDate(date: Date, withYear: boolean): string {
  const day = `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return withYear ? `${day}, ${date.getFullYear()}` : day;
}

/** "Nov 25, 2026, 10:05 AM": a moment in a list of past ones (rules used, folders trusted). */
export function formatDateTime(ms: number, twelveHour = twelveHourClock()): string {
  const date = new Date(ms);
  return `${formatDate(date, true)}, ${formatTime(date, twelveHour)}`;
}

/** Time of day for today, "Nov 25" otherwise ("Nov 25, 2025" before this year); sidebar rows stay one short line. */
export function formatWhen(ms: number, now = Date.now(), twelveHour = twelveHourClock()): string {
  const date = new Date(ms);
  const today = new Date(now);
  const sameDay = date.toDateString() === today.toDateString();
  if (sameDay) return formatTime(date, twelveHour);
  return formatDate(date, date.getFullYear() !== today.getFullYear());
}
