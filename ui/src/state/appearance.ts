// How the window looks, as the person chose in Settings → Appearance: the theme (the
// OS preference, or light or dark whatever it says) and the text size (the whole page
// scaled, as an editor's zoom). Kept in the page's storage and applied at once, before
// the first render too, so no frame shows the other theme.
import { pageStorage } from "./pageStorage";

export type ThemeChoice = "system" | "light" | "dark";

/** Text sizes offered, as a scale of the whole page. */
export const TEXT_SIZES = [0.9, 1, 1.1, 1.25] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

const THEME_KEY = "memo.theme";
const SIZE_KEY = "memo.textSize";


export function storedTheme(): ThemeChoice {
  const value = pageStorage()?.getItem(THEME_KEY);
  return value === "light" || value === "dark" ? value : "system";
}

export function storedTextSize(): TextSize {
  const value = Number(pageStorage()?.getItem(SIZE_KEY));
  return (TEXT_SIZES as readonly number[]).includes(value) ? (value as TextSize) : 1;
}

const darkQuery = () => (typeof window === "undefined" ? null : (window.matchMedia?.("(prefers-color-scheme: dark)") ?? null));

/** What "system" means right now. */
function systemTheme(): "light" | "dark" {
  return darkQuery()?.matches ? "dark" : "light";
}

let following: (() => void) | null = null;

/** Puts the theme on the page; "system" keeps following the OS while chosen. */
export function applyTheme(choice: ThemeChoice): void {
  if (typeof document === "undefined") return;
  const set = () => {
    const theme = choice === "system" ? systemTheme() : choice;
    document.documentElement.dataset.theme = theme;
    // Native controls and scrollbars follow the page's scheme, not the OS's.
    document.documentElement.style.colorScheme = theme;
  };
  following?.();
  following = null;
  const query = darkQuery();
  if (choice === "system" && query) {
    query.addEventListener("change", set);
    following = () => query.removeEventListener("change", set);
  }
  set();
}

export function applyTextSize(size: TextSize): void {
  if (typeof document === "undefined") return;
  // app.css scales the page by it (`zoom` on <html>).
  if (size === 1) document.documentElement.style.removeProperty("--text-zoom");
  else document.documentElement.style.setProperty("--text-zoom", String(size));
}

export function chooseTheme(choice: ThemeChoice): void {
  if (choice === "system") pageStorage()?.removeItem(THEME_KEY);
  else pageStorage()?.setItem(THEME_KEY, choice);
  applyTheme(choice);
}

export function chooseTextSize(size: TextSize): void {
  if (size === 1) pageStorage()?.removeItem(SIZE_KEY);
  else pageStorage()?.setItem(SIZE_KEY, String(size));
  applyTextSize(size);
}

/** At start-up: what was chosen last time. */
export function applyStoredAppearance(): void {
  applyTheme(storedTheme());
  applyTextSize(storedTextSize());
}
