// xterm.js colours from the app's own CSS variables (ui/src/styles/app.css), so the
// terminal follows light and dark like the rest of the window, plus an ANSI palette per
// scheme chosen for contrast on that background.

import type { ITheme } from "@xterm/xterm";

type Palette = Required<
  Pick<
    ITheme,
    | "black"
    | "red"
    | "green"
    | "yellow"
    | "blue"
    | "magenta"
    | "cyan"
    | "white"
    | "brightBlack"
    | "brightRed"
    | "brightGreen"
    | "brightYellow"
    | "brightBlue"
    | "brightMagenta"
    | "brightCyan"
    | "brightWhite"
  >
>;

// Dark enough on white that yellow and cyan stay readable (the classic xterm palette's
// are not).
const LIGHT: Palette = {
  black: "#24292f",
  red: "#cf222e",
  green: "#116329",
  yellow: "#7d4e00",
  blue: "#0969da",
  magenta: "#8250df",
  cyan: "#1b7c83",
  white: "#6e7781",
  brightBlack: "#57606a",
  brightRed: "#a40e26",
  brightGreen: "#1a7f37",
  brightYellow: "#955800",
  brightBlue: "#218bff",
  brightMagenta: "#a475f9",
  brightCyan: "#3192aa",
  brightWhite: "#8c959f",
};

const DARK: Palette = {
  black: "#484f58",
  red: "#ff7b72",
  green: "#3fb950",
  yellow: "#d29922",
  blue: "#58a6ff",
  magenta: "#bc8cff",
  cyan: "#39c5cf",
  white: "#b1bac4",
  brightBlack: "#6e7681",
  brightRed: "#ffa198",
  brightGreen: "#56d364",
  brightYellow: "#e3b341",
  brightBlue: "#79c0ff",
  brightMagenta: "#d2a8ff",
  brightCyan: "#56d4dd",
  brightWhite: "#f0f6fc",
};

/** Reads one CSS custom property (`--bg`), trimmed; "" when unset. */
export type CssVar = (name: string) => string;

export function terminalTheme(cssVar: CssVar, dark: boolean): ITheme {
  const pick = (name: string, fallback: string) => cssVar(name) || fallback;
  const background = pick("--terminal-bg", pick("--bg", dark ? "#15171c" : "#ffffff"));
  const foreground = pick("--text", dark ? "#e6e8ee" : "#1b1f27");
  return {
    ...(dark ? DARK : LIGHT),
    background,
    foreground,
    cursor: foreground,
    cursorAccent: background,
    selectionBackground: dark ? "rgba(129, 140, 248, 0.35)" : "rgba(79, 70, 229, 0.22)",
    selectionInactiveBackground: dark ? "rgba(129, 140, 248, 0.18)" : "rgba(79, 70, 229, 0.12)",
    scrollbarSliderBackground: dark ? "rgba(255, 255, 255, 0.14)" : "rgba(0, 0, 0, 0.14)",
    scrollbarSliderHoverBackground: dark ? "rgba(255, 255, 255, 0.24)" : "rgba(0, 0, 0, 0.24)",
    scrollbarSliderActiveBackground: dark ? "rgba(255, 255, 255, 0.32)" : "rgba(0, 0, 0, 0.32)",
  };
}

/**
 * Whether a `#rgb`/`#rrggbb` colour is dark (relative luminance under one half); null for
 * anything else. The palette follows the background actually shown, not only the OS
 * preference, so a theme chosen in the app (setting the variables) gets the right one.
 */
export function isDarkColor(color: string): boolean | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}

/** The document's variables and colour scheme right now. */
export function currentTheme(): ITheme {
  const style = getComputedStyle(document.documentElement);
  const cssVar = (name: string) => style.getPropertyValue(name).trim();
  const dark =
    isDarkColor(cssVar("--terminal-bg") || cssVar("--bg")) ??
    window.matchMedia?.("(prefers-color-scheme: dark)").matches ??
    false;
  return terminalTheme(cssVar, dark);
}

/** The monospace font stack the app uses for code. */
export function monoFont(): string {
  const font = getComputedStyle(document.documentElement).getPropertyValue("--font-mono").trim();
  return font || "monospace";
}

/**
 * Calls `onChange` whenever the colour scheme may have changed: the OS preference, or an
 * attribute on <html> (a theme class or data attribute set by an Appearance setting).
 */
export function watchTheme(onChange: () => void): () => void {
  const media = window.matchMedia?.("(prefers-color-scheme: dark)");
  media?.addEventListener("change", onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class", "style", "data-theme"] });
  return () => {
    media?.removeEventListener("change", onChange);
    observer.disconnect();
  };
}
