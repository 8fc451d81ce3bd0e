// The chat against a scripted model: open a folder by path, ask a question, watch the
// agent call read_file and stream its answer, then reopen the stored session. A long
// Markdown answer is spaced alike across the runs its blocks are rendered in.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const ANSWER = "The file says hello.";
const QUESTION = "what does hello.txt say?";
const FOLLOW_UP = "how do I print it from a shell?";
const FOLLOW_UP_ANSWER =
  "Use **cat**:\n\n```sh\ncat hello.txt\n```\n\nOr, for `less`-style paging:\n\n- `less hello.txt`\n- `more hello.txt`";
const RUN_REQUEST = "run the slow build";
const RUN_CMD = "for i in 1 2 3 4 5 6; do echo step $i; sleep 0.5; done";
const RUN_ANSWER = "All six steps ran.";
// Screenshots are taken in the light theme unless E2E_GTK_THEME says otherwise (handy for
// checking the dark one by eye: E2E_GTK_THEME=Adwaita:dark).
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";

const SCENARIO = {
  responses: [
    {
      tool_calls: [{ name: "read_file", arguments: '{"file_path":"hello.txt"}' }],
      usage: { input_tokens: 20, output_tokens: 6 },
    },
    // Small chunks with a delay, so the answer really streams in.
    { text: ANSWER, chunk_chars: 4, drip_ms: 40, usage: { input_tokens: 10, output_tokens: 4 } },
    // The follow-up: one rate-limited attempt, then reasoning and a Markdown answer.
    { error: { status: 429, retry_after_secs: 1, message: "slow down" } },
    {
      reasoning: "The user wants a shell command that prints the file.",
      text: FOLLOW_UP_ANSWER,
      usage: { input_tokens: 40, output_tokens: 12 },
    },
    // A command that prints for a few seconds: it needs approval, then streams.
    { tool_calls: [{ name: "exec_command", arguments: JSON.stringify({ cmd: RUN_CMD, yield_time_ms: 20000 }) }] },
    { text: RUN_ANSWER },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

/** Runs a test body and always saves a screenshot named after the test. */
const withScreenshot = (getApp, body) => async (t) => {
  try {
    await body(t);
  } finally {
    await getApp()?.screenshot(t.name).catch(() => {});
  }
};

/** Asia/Kolkata: UTC+5:30 all year (no summer time to straddle). */
const ZONE = "Asia/Kolkata";
const ZONE_OFFSET_MINUTES = 330;

/** The minute of the day a row's "9:05 AM" or "09:05" names. */
function minuteOfDay(text) {
  const match = /(\d{1,2}):(\d{2})(?:\s*([AP]M))?/.exec(text);
  assert.ok(match, `no time of day in ${text}`);
  const [, hours, minutes, half] = match;
  const hour = half === undefined ? Number(hours) : (Number(hours) % 12) + (half === "PM" ? 12 : 0);
  return hour * 60 + Number(minutes);
}

describe("Memo chat with a scripted model", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-project-"));
    writeFileSync(path.join(project, "hello.txt"), "hello\n");
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      // A zone five and a half hours from this machine's UTC: the sidebar's times must come
      // from the zone the shell reads, not the page's default.
      env: { GTK_THEME: THEME, TZ: ZONE },
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    // Each step runs even when an earlier one throws, so nothing is left running.
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const find = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);

  /** Waits for `id`, failing at once with the app's own message if it shows an error. */
  const findOrError = async (id) => {
    const found = await app.driver.wait(async () => {
      const [element] = await app.driver.findElements(byTestId(id));
      if (element) return element;
      const [notice] = await app.driver.findElements(byTestId("error-notice"));
      if (notice) throw new Error(`the app showed an error instead of ${id}: ${await notice.getText()}`);
      return null;
    }, UI_TIMEOUT_MS);
    return found;
  };

  test(
    "a folder typed as a path opens with a fresh session and the configured model",
    withScreenshot(() => app, async () => {
      const input = await find("folder-path-input");
      await input.sendKeys(project);
      await (await find("folder-path-open")).click();

      await find("chat-new-session");
      // Its text, not WebDriver's "visible text": the heading clips its overflow (the name
      // gives way last), which WebKit's visibility atom reads as hidden.
      const title = await find("chat-title");
      assert.equal(await title.getAttribute("textContent"), path.basename(project));
      const model = await (await find("chat-model")).getText();
      assert.match(model, /mock/);
      assert.match(model, /mock-model/);
      const workspace = await find("workspace-item");
      assert.equal(await workspace.getAttribute("aria-current"), "true");
      assert.equal(await workspace.getAttribute("title"), project);
    }),
  );

  test(
    "a question streams back an answer after a read_file tool call",
    withScreenshot(() => app, async () => {
      const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
      await message.sendKeys(QUESTION, Key.ENTER);

      const user = await findOrError("user-message");
      assert.equal(await user.getText(), QUESTION);

      const tool = await findOrError("tool-card");
      assert.equal(await tool.getAttribute("data-tool"), "read_file");
      await app.driver.wait(
        until.elementLocated(By.css('[data-testid="tool-card"][data-status="ok"]')),
        UI_TIMEOUT_MS,
        "the read_file card never turned ok",
      );
      // textContent: WebKit's visible-text reading leaves out the folded line's subject.
      assert.match(await tool.getAttribute("textContent"), /hello\.txt:1/);

      const answer = await find("assistant-text");
      await app.driver.wait(until.elementTextIs(answer, ANSWER), UI_TIMEOUT_MS);
      await app.driver.wait(
        until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')),
        UI_TIMEOUT_MS,
      );
      // The turn's total over both model calls.
      assert.match(await (await find("turn-usage")).getText(), /30 in · 10 out/);
      // The message box is free again and shows Send, not Stop.
      await find("send-button");
      assert.equal(await message.getAttribute("value"), "");

      const requests = await mock.requests();
      assert.equal(requests.length, 2, "one model call for the tool, one for the answer");
      const secondMessages = JSON.stringify(requests[1].body.messages);
      assert.match(secondMessages, /hello/, "the tool output went back to the model");
    }),
  );

  test(
    "the tool card unfolds to show the arguments and the file's content",
    withScreenshot(() => app, async () => {
      await (await find("tool-card")).findElement(By.css("summary")).click();
      const output = await find("tool-output");
      assert.match(await output.getText(), /hello/);
    }),
  );

  test(
    "a rate-limited follow-up is retried and renders thinking and Markdown",
    withScreenshot(() => app, async () => {
      const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
      await message.sendKeys(FOLLOW_UP, Key.ENTER);

      const turns = () => app.driver.findElements(byTestId("turn"));
      await app.driver.wait(async () => (await turns()).length === 2, UI_TIMEOUT_MS);
      const turn = (await turns())[1];
      await app.driver.wait(async () => (await turn.getAttribute("data-status")) === "completed", UI_TIMEOUT_MS);
      assert.match(await (await turn.findElement(byTestId("retry-notice"))).getText(), /Retried: the provider is rate limiting/);
      assert.match(await (await turn.findElement(byTestId("thinking"))).getText(), /Thinking/);
      const code = await turn.findElement(By.css(".md__pre code"));
      assert.equal(await code.getText(), "cat hello.txt");
      assert.equal(await (await turn.findElement(By.css(".md strong"))).getText(), "cat");
      assert.equal((await turn.findElements(By.css(".md li"))).length, 2);
      assert.equal((await mock.requests()).length, 4, "the 429 attempt, then the answer");
    }),
  );

  test(
    "the session is listed and reopens with its history replayed",
    withScreenshot(() => app, async () => {
      const item = await app.driver.wait(
        until.elementLocated(By.xpath(`//*[@data-testid="session-item"][contains(., "${QUESTION}")]`)),
        UI_TIMEOUT_MS,
      );
      // textContent: WebKitWebDriver's getText() comes back empty for `user-select: none`
      // chrome such as the sidebar.
      const row = await item.getAttribute("textContent");
      assert.match(row, /mock-model/);
      assert.equal(await item.getAttribute("aria-current"), "true");
      // Updated a moment ago: today's time of day in the app's zone, on either clock.
      const shown = minuteOfDay(row);
      const now = Math.floor((Date.now() / 60_000 + ZONE_OFFSET_MINUTES) % 1440);
      const apart = Math.min(Math.abs(shown - now), 1440 - Math.abs(shown - now));
      assert.ok(apart <= 3, `the row says ${row}, ${ZONE}'s time is ${Math.floor(now / 60)}:${now % 60}`);

      await (await find("new-session")).click();
      await find("chat-new-session");
      assert.equal(await item.getAttribute("aria-current"), null);

      await item.click();
      const answer = await find("assistant-text");
      await app.driver.wait(until.elementTextIs(answer, ANSWER), UI_TIMEOUT_MS);
      await app.driver.wait(until.elementLocated(By.css('[data-testid="tool-card"][data-status="ok"]')), UI_TIMEOUT_MS);
      assert.equal((await app.driver.findElements(byTestId("turn"))).length, 2, "replayed once, not duplicated");
      assert.equal((await mock.requests()).length, 4, "reopening does not call the model");
    }),
  );

  test(
    "a command asks for approval, then its output streams into the tool card while it runs",
    withScreenshot(() => app, async () => {
      const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
      await message.sendKeys(RUN_REQUEST, Key.ENTER);

      // The question sits in the command's own card, which shows the command.
      const approval = await find("approval-card");
      const asking = await approval.findElement(By.xpath('./ancestor::*[@data-testid="tool-card"]'));
      assert.equal(await asking.getAttribute("data-tool"), "exec_command");
      assert.match(await asking.getText(), /step \$i/, "the card shows the command");
      await (await approval.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();

      const execCard = By.css('[data-testid="tool-card"][data-tool="exec_command"]');
      const live = await app.driver.wait(
        until.elementLocated(By.css('[data-tool="exec_command"] [data-testid="tool-live-output"]')),
        UI_TIMEOUT_MS,
        "no live output appeared",
      );
      await app.driver.wait(until.elementTextMatches(live, /step 2/), UI_TIMEOUT_MS);
      // Seen while the command still runs: the card is open and not finished.
      assert.equal(await (await app.driver.findElement(execCard)).getAttribute("data-status"), "running");
      assert.doesNotMatch(await live.getText(), /step 6/);
      await app.screenshot("command output streaming").catch(() => {});

      await app.driver.wait(
        until.elementLocated(By.css('[data-testid="tool-card"][data-tool="exec_command"][data-status="ok"]')),
        UI_TIMEOUT_MS,
        "the command never finished",
      );
      await app.driver.wait(
        async () => {
          const all = await app.driver.findElements(byTestId("assistant-text"));
          return all.length > 0 && (await all[all.length - 1].getText()) === RUN_ANSWER;
        },
        UI_TIMEOUT_MS,
        "the answer after the command never came",
      );
      // Folded again once done; the result holds every line.
      assert.equal((await app.driver.findElements(By.css('[data-tool="exec_command"] [data-testid="tool-live-output"]'))).length, 0);
      const requests = await mock.requests();
      assert.equal(requests.length, 6);
      assert.match(JSON.stringify(requests[5].body.messages), /step 1\\nstep 2.*step 6/);
    }),
  );

  test(
    "rewinding to before a message continues in a new session that can be renamed and deleted",
    withScreenshot(() => app, async () => {
      const turnsBefore = (await app.driver.findElements(byTestId("turn"))).length;
      assert.equal(turnsBefore, 3);
      // Rewind to before the second message (the follow-up about printing the file).
      await (await app.driver.findElements(byTestId("rewind-turn")))[1].click();
      // The dialog offers code, conversation or both; nothing changed files here.
      const dialog = await find("restore-dialog");
      await app.driver.wait(until.elementTextContains(dialog, "changed no file"), UI_TIMEOUT_MS);
      await (await dialog.findElement(byTestId("restore-conversation"))).click();
      const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
      await app.driver.wait(async () => (await message.getAttribute("value")) === FOLLOW_UP, UI_TIMEOUT_MS, "the message did not come back to the box");
      await app.driver.wait(async () => (await app.driver.findElements(byTestId("turn"))).length === 1, UI_TIMEOUT_MS);
      assert.equal(await (await find("user-message")).getText(), QUESTION);
      const active = By.css('[data-testid="session-row"].nav-item--active');
      const activeText = async () => (await app.driver.findElement(active)).getAttribute("textContent");
      await app.driver.wait(async () => /^Rewound: what does hello\.txt say\?/.test(await activeText()), UI_TIMEOUT_MS, "the rewound session is not the open one");
      assert.equal((await app.driver.findElements(byTestId("session-row"))).length, 2, "the original session is kept");
      await app.screenshot("rewound session with the message back in the box").catch(() => {});

      // Rename it from the sidebar.
      await (await app.driver.findElement(active)).findElement(byTestId("session-rename")).click();
      const title = await find("session-rename-input");
      // Backspaces rather than a select-all chord: WebKitWebDriver's chord left the field empty.
      await title.sendKeys(Key.END, ...Array(80).fill(Key.BACK_SPACE), "Printing hello.txt", Key.ENTER);
      await app.driver.wait(async () => /Printing hello\.txt/.test(await activeText()), UI_TIMEOUT_MS, "the new title did not show");

      // Delete it: asked first, then the chat falls back to a new session.
      await (await app.driver.findElement(active)).findElement(byTestId("session-delete")).click();
      const confirm = await find("session-delete-confirm");
      assert.match(await confirm.getAttribute("textContent"), /Printing hello\.txt/);
      await (await confirm.findElement(By.xpath(".//button[normalize-space()='Delete']"))).click();
      await find("chat-new-session");
      await app.driver.wait(async () => (await app.driver.findElements(byTestId("session-row"))).length === 1, UI_TIMEOUT_MS);
      const left = await (await find("session-item")).getAttribute("textContent");
      assert.match(left, new RegExp(QUESTION.replace(/[.?]/g, "\\$&")));
      assert.equal((await mock.requests()).length, 6, "none of this called the model");
    }),
  );

  test(
    "searching the folder's conversations opens the session at the matching turn",
    withScreenshot(() => app, async () => {
      const box = await find("session-search");
      await box.sendKeys("shell");
      const result = await find("search-result");
      assert.match(await result.getAttribute("textContent"), /shell/);
      assert.equal(await (await result.findElement(By.css("mark"))).getAttribute("textContent"), "shell");
      await app.screenshot("search results").catch(() => {});
      await result.click();

      await app.driver.wait(async () => (await app.driver.findElements(byTestId("turn"))).length === 3, UI_TIMEOUT_MS);
      // The matching turn (the follow-up) is scrolled into view at the top of the chat.
      await app.driver.wait(
        async () =>
          app.driver.executeScript(() => {
            const turn = document.querySelectorAll('[data-testid="turn"]')[1];
            const body = turn?.closest(".chat__body");
            if (!turn || !body) return false;
            const offset = turn.getBoundingClientRect().top - body.getBoundingClientRect().top;
            // At the top, or as near as the scroll range allows.
            const atEnd = body.scrollTop >= body.scrollHeight - body.clientHeight - 2;
            return offset >= -2 && (offset < 80 || (atEnd && offset < body.clientHeight));
          }),
        UI_TIMEOUT_MS,
        "the matching turn was not brought into view",
      );
      assert.equal(await box.getAttribute("value"), "", "opening a result clears the search");
    }),
  );

  test("stopping the app and the mock leaves no process behind", async () => {
    const leftovers = await app.stop();
    assert.deepEqual(leftovers, [], "processes survived a graceful stop and had to be killed");
    assert.deepEqual(app.processes(), []);
  });
});

describe("Memo with an invalid config.toml", { timeout: 120_000 }, () => {
  let app;

  before(async () => {
    app = await launchApp({
      env: { GTK_THEME: THEME },
      // Line 3 has the wrong type: the message must point there.
      homeFiles: { "config.toml": '# Memo test config\n\ncurrent_provider = 3\n' },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
  });

  test(
    "shows a config error banner naming the file and line",
    withScreenshot(() => app, async () => {
      const banner = await app.driver.wait(until.elementLocated(byTestId("config-banner")), UI_TIMEOUT_MS);
      const detail = await (await banner.findElement(byTestId("config-error"))).getText();
      const file = path.join(app.memoHome, "config.toml");
      assert.ok(detail.includes(`${file}:3`), `expected ${file}:3 in: ${detail}`);
      assert.match(await banner.getText(), /configuration has a problem/);
      assert.match(await (await app.driver.findElement(byTestId("chat-model"))).getText(), /No model/);
    }),
  );
});

// An answer's Markdown blocks are rendered in runs of 32 (Markdown.tsx); a block's spacing
// depends on its neighbour, which may be in the run before or after. 70 blocks: a heading
// and a rule inside the first run, a heading that opens the second and a rule that ends it.
const LONG_BLOCKS = Array.from({ length: 70 }, (_, i) =>
  i === 10 || i === 32 ? `## Heading ${i}` : i === 20 || i === 63 ? "---" : `Paragraph ${i}.`,
);

describe("A long Markdown answer", { timeout: 120_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-markdown-"));
    mock = await startMockLlm({ responses: [{ text: LONG_BLOCKS.join("\n\n"), chunk_chars: 16, drip_ms: 5 }] });
    app = await launchApp({ env: { GTK_THEME: THEME }, args: [project], homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) } });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test(
    "is spaced alike inside a run of blocks and across runs",
    withScreenshot(() => app, async () => {
      const message = await app.driver.wait(until.elementLocated(By.css("textarea[aria-label='Message']")), UI_TIMEOUT_MS);
      await app.driver.wait(until.elementIsEnabled(message), UI_TIMEOUT_MS);
      await message.sendKeys("write a long answer", Key.ENTER);
      await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
      // The gap above each block, in the real window's layout.
      const { runs, gaps } = await app.driver.executeScript(`
        const md = document.querySelector('[data-testid="assistant-text"] .md');
        const blocks = [...md.querySelectorAll(":scope > .md__run > *")];
        const gaps = blocks.slice(1).map((block, i) => Math.round(block.getBoundingClientRect().top - blocks[i].getBoundingClientRect().bottom));
        return { runs: [...md.children].map((run) => run.children.length), gaps };
      `);
      assert.deepEqual(runs, [32, 32, 6]);
      // gaps[i] is above block i + 1.
      const expected = LONG_BLOCKS.slice(1).map((block, i) =>
        block.startsWith("## ") ? 16 : block === "---" || LONG_BLOCKS[i] === "---" ? 14 : 10,
      );
      assert.deepEqual(gaps, expected);
      await app.driver.executeScript("document.querySelectorAll('.md__run > *')[30].scrollIntoView()");
    }),
  );
});

// Retry after a failed request runs the same turn again: the message goes to the model
// once, and the transcript shows it once. A typed folder that does not exist is refused
// under the field and closes nothing.
describe("Retry and a mistyped folder", { timeout: 120_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-retry-"));
    mock = await startMockLlm({
      responses: [{ error: { status: 422, message: "upstream rejected the request" } }, { text: "pong" }],
    });
    app = await launchApp({ env: { GTK_THEME: THEME }, args: [project], homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) } });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test(
    "Retry sends the failed message once more, not twice",
    withScreenshot(() => app, async () => {
      const message = await app.driver.wait(until.elementLocated(By.css("textarea[aria-label='Message']")), UI_TIMEOUT_MS);
      await app.driver.wait(until.elementIsEnabled(message), UI_TIMEOUT_MS);
      await message.sendKeys("ping", Key.ENTER);
      const retry = await app.driver.wait(until.elementLocated(byTestId("retry-turn")), UI_TIMEOUT_MS);
      await retry.click();
      await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
      const bubbles = await app.driver.findElements(byTestId("user-message"));
      assert.equal(bubbles.length, 1, "one bubble for the message");
      assert.equal((await app.driver.findElements(byTestId("turn-resumed"))).length, 1);
      const requests = await mock.requests();
      assert.equal(requests.length, 2);
      // The message, as it ends the first user message (after the session context).
      const users = JSON.stringify(requests[1].body).match(/ping"/g) ?? [];
      assert.equal(users.length, 1, "the retried request carries the message once");
    }),
  );

  test(
    "a folder path that does not exist is refused under the field, and the open folder stays",
    withScreenshot(() => app, async () => {
      await (await app.driver.findElement(byTestId("workspace-add"))).click();
      const missing = path.join(project, "no-such-folder");
      await (await app.driver.wait(until.elementLocated(byTestId("workspace-path-input")), UI_TIMEOUT_MS)).sendKeys(missing);
      await (await app.driver.findElement(byTestId("workspace-path-open"))).click();
      const alert = await app.driver.wait(until.elementLocated(By.css('[data-testid="workspace-add-form"] [role="alert"]')), UI_TIMEOUT_MS);
      assert.equal(await alert.getText(), `No such folder: ${missing}`);
      const items = await app.driver.findElements(byTestId("workspace-item"));
      assert.equal(items.length, 1, "nothing added");
      assert.equal(await items[0].getAttribute("aria-current"), "true", "the open folder stays in front");
    }),
  );
});
