// @vitest-environment jsdom
// The shell puts the desktop's languages in the page before it loads
// (src-tauri/src/languages.rs), so a Chinese desktop whose WebKit does not report Chinese
// still gets a Chinese first frame.
import { afterEach, describe, expect, it } from "vitest";

import { setSystemLanguages, systemLanguage } from ".";

type WithLanguages = { __MEMO_SYSTEM_LANGUAGES__?: unknown };

afterEach(() => {
  delete (window as WithLanguages).__MEMO_SYSTEM_LANGUAGES__;
  setSystemLanguages([]);
});

describe("the system's language before the app info arrives", () => {
  it("comes from the languages the shell put in the page", () => {
    expect(systemLanguage()).toBe("en");
    (window as WithLanguages).__MEMO_SYSTEM_LANGUAGES__ = ["zh_CN", "en_US"];
    expect(systemLanguage()).toBe("zh");
  });

  it("ignores anything that is not a list of names", () => {
    (window as WithLanguages).__MEMO_SYSTEM_LANGUAGES__ = "zh_CN";
    expect(systemLanguage()).toBe("en");
    (window as WithLanguages).__MEMO_SYSTEM_LANGUAGES__ = [42];
    expect(systemLanguage()).toBe("en");
  });
});
