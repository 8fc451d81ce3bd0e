import { afterEach, describe, expect, it } from "vitest";

import type { Phrase } from "../gen/protocol";
import { setUpI18n } from "./index";
import { say, sayAll } from "./phrase";

afterEach(async () => {
  await setUpI18n("en");
});

const guard: Phrase = {
  code: "guard_writes_protected",
  command: "echo x | sudo tee -a /etc/sudoers",
  target: "/etc/sudoers",
  what: { code: "area_system_files" },
  area: "/etc",
};

describe("Rust's phrases in the person's language", () => {
  it("words a phrase from its code and fields, a nested phrase first", async () => {
    expect(say(guard)).toBe("`echo x | sudo tee -a /etc/sudoers` writes to /etc/sudoers (system files under /etc)");
    await setUpI18n("zh");
    expect(say(guard)).toBe("`echo x | sudo tee -a /etc/sudoers` 会写入 /etc/sudoers（/etc 下的系统文件）");
  });

  it("joins an approval's reasons with the language's separator", async () => {
    const why: Phrase[] = [{ code: "run_command", command: "git push -f origin main" }, { code: "guard_force_push_main" }];
    expect(sayAll(why)).toMatch(/^run `git push -f origin main`; a force-push to main\/master/);
    await setUpI18n("zh");
    expect(sayAll(why)).toMatch(/^运行 `git push -f origin main`；强制推送到 main\/master/);
  });

  it("picks the plural by count in English", () => {
    const named = (count: number): Phrase => ({
      code: "names_denied_files",
      count,
      files: count === 1 ? ".env" : ".env, id_rsa",
      source: "settings.json",
      pattern: ".env",
    });
    expect(say(named(1))).toContain("the file's content");
    expect(say(named(2))).toContain("the files' content");
  });
});
