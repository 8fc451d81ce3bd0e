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
