import { By, until } from "selenium-webdriver";

// WebKitWebDriver can report a node as stale while the page it searches re-renders; for a
// test waiting on the page that only means "look again", never a failure.

/** How many elements match `locator` now, or null when the page changed under the search. */
export async function countNow(driver, locator) {
  try {
    return (await driver.findElements(locator)).length;
  } catch (error) {
    if (error.name === "StaleElementReferenceError") return null;
    throw error;
  }
}

/**
 * The lookups every spec writes, for one app: `app()` gives the running app (it is
 * launched in `before`, after the helpers are made). Screenshots of a dark-theme run are
 * named "(dark)", so the two runs' pictures sit side by side.
 */
export function specHelpers(app, { theme, timeoutMs }) {
  const byTestId = (id) => By.css(`[data-testid="${id}"]`);
  return {
    byTestId,
    find: (id, root = app().driver) => root.findElement(byTestId(id)),
    wait: (id) => app().driver.wait(until.elementLocated(byTestId(id)), timeoutMs),
    gone: (id) =>
      app().driver.wait(async () => (await countNow(app().driver, byTestId(id))) === 0, timeoutMs, `${id} is still there`),
    button: (root, text) => root.findElement(By.xpath(`.//button[normalize-space()='${text}']`)),
    shot: (name) => app().screenshot(`${name}${theme.includes("dark") ? " (dark)" : ""}`).catch(() => {}),
  };
}

/**
 * Opens the terminal panel's read-only watch of a running command from its card's
 * "Watch in terminal" and returns the watch. The card re-renders as the approved command
 * starts: a click that lands in that moment can miss, so it is given once more.
 */
export async function watchCommand(driver, timeoutMs) {
  const located = (id, ms) => driver.wait(until.elementLocated(By.css(`[data-testid="${id}"]`)), ms);
  for (let attempt = 0; ; attempt++) {
    await (await located("watch-command", timeoutMs)).click();
    try {
      return await located("terminal-watch", attempt === 0 ? 5000 : timeoutMs);
    } catch (error) {
      if (attempt > 0) throw error;
    }
  }
}
