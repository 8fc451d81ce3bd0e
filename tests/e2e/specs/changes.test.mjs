// Review and undo on the real app: the agent edits a file under a session grant and runs
// a shell command that edits another; both show in the changes panel; one hunk is
// reverted (checked on disk); a line comment goes to the agent as the next message (seen
// in the request the mock records); rewinding with "Restore code" puts the files back.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const A = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";
const B = "alpha\nbeta\ngamma\n";
const COMMENT = "Keep BETA lowercase in the config";

const SCENARIO = {
  responses: [
    { tool_calls: [{ name: "apply_patch", arguments: JSON.stringify({ file_path: "a.txt", old_string: "two\n", new_string: "TWO\n" }) }] },
    { tool_calls: [{ name: "apply_patch", arguments: JSON.stringify({ file_path: "a.txt", old_string: "eleven\n", new_string: "ELEVEN\n" }) }] },
    { tool_calls: [{ name: "exec_command", arguments: JSON.stringify({ cmd: "sed -i 's/beta/BETA/' b.txt" }) }] },
    { text: "Edited both files." },
    { text: "I will keep it lowercase." },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("Reviewing and undoing the agent's changes", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let project;
  const read = (name) => readFileSync(path.join(project, name), "utf8");

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-changes-")));
    writeFileSync(path.join(project, "a.txt"), A);
    writeFileSync(path.join(project, "b.txt"), B);
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      env: { GTK_THEME: THEME },
      args: [project],
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const find = (id, root = app.driver) => root.findElement(byTestId(id));
  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const button = async (root, text) => root.findElement(By.xpath(`.//button[normalize-space()='${text}']`));
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});

  /** Waits for a pending approval card and answers it. */
  const approve = async (answer) => {
    const card = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
    );
    await (await button(card, answer)).click();
    // Answered once the card shows the decision; the next pending card is another one.
    await app.driver.wait(async () => (await card.getAttribute("data-state")) !== "pending", UI_TIMEOUT_MS);
  };

  test("an edit under a session grant and a shell edit both land in the changes panel", async (t) => {
    t.after(() => shot("after the agent's turn"));
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(project),
      UI_TIMEOUT_MS,
      "the folder on the command line did not open",
    );
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys("edit a.txt and b.txt", Key.ENTER);
    await approve("Approve for session");
    // The second apply_patch runs under the grant; the shell command asks.
    await approve("Approve once");
    await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
    assert.equal(read("a.txt"), A.replace("two", "TWO").replace("eleven", "ELEVEN"));
    assert.equal(read("b.txt"), B.replace("beta", "BETA"));

    const toggle = await wait("open-changes");
    await app.driver.wait(async () => (await toggle.getText()).includes("2"), UI_TIMEOUT_MS, "the header counts two files");
    await toggle.click();
    const panel = await wait("changes-panel");
    const rows = await app.driver.wait(async () => {
      const found = await panel.findElements(byTestId("changed-file"));
      return found.length === 2 ? found : null;
    }, UI_TIMEOUT_MS);
    const paths = await Promise.all(rows.map((r) => r.getAttribute("data-path")));
    assert.deepEqual(paths.sort(), ["a.txt", "b.txt"]);
    const text = await panel.getText();
    assert.match(text, /apply_patch/);
    assert.match(text, /exec_command/, "the sed edit is marked as made by the shell tool");
  });

  test("reverting one hunk changes exactly that part of the file on disk", async () => {
    const panel = await find("changes-panel");
    const row = await panel.findElement(By.css('[data-testid="changed-file"][data-path="a.txt"]'));
    await (await row.findElement(By.css(".changes__toggle"))).click();
    const hunks = await app.driver.wait(async () => {
      const found = await row.findElements(byTestId("changes-hunk"));
      return found.length === 2 ? found : null;
    }, UI_TIMEOUT_MS);
    await shot("changes panel with a two-hunk diff");
    await (await find("revert-hunk", hunks[0])).click();
    await app.driver.wait(() => read("a.txt") === A.replace("eleven", "ELEVEN"), UI_TIMEOUT_MS, "hunk 1 was not reverted on disk");
    await app.driver.wait(async () => {
      const fresh = await app.driver.findElements(By.css('[data-testid="changed-file"][data-path="a.txt"] [data-testid="changes-hunk"]'));
      return fresh.length === 1;
    }, UI_TIMEOUT_MS, "the panel shows the one hunk left");
  });

  test("a comment on a line goes to the agent as the next message", async () => {
    const panel = await find("changes-panel");
    const row = await panel.findElement(By.css('[data-testid="changed-file"][data-path="b.txt"]'));
    await (await row.findElement(By.css(".changes__toggle"))).click();
    const line = await app.driver.wait(async () => {
      for (const candidate of await row.findElements(byTestId("diff-line"))) {
        if ((await candidate.getText()).includes("BETA")) return candidate;
      }
      return null;
    }, UI_TIMEOUT_MS);
    await (await line.findElement(By.css("button"))).click();
    const form = await wait("comment-form");
    await (await form.findElement(By.css("textarea"))).sendKeys(COMMENT);
    await (await button(form, "Add comment")).click();
    await shot("a review comment ready to send");
    await (await wait("send-comments")).click();
    await app.driver.wait(async () => (await app.driver.findElements(By.css('[data-testid="turn"][data-status="completed"]'))).length === 2, UI_TIMEOUT_MS);
    const requests = await mock.requests();
    const last = JSON.stringify(requests[requests.length - 1]);
    assert.ok(last.includes("`b.txt` line 2"), "the file and line are named");
    assert.ok(last.includes(COMMENT), "the comment text is sent");
  });

  test("rewinding the first message with 'Restore code' puts both files back", async () => {
    await (await find("open-changes")).click();
    const firstTurn = (await app.driver.findElements(byTestId("turn")))[0];
    const rewind = await firstTurn.findElement(By.css(".turn__rewind"));
    await app.driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", firstTurn);
    await app.driver.actions().move({ origin: firstTurn }).perform();
    await app.driver.executeScript("arguments[0].click()", rewind);
    const dialog = await wait("restore-dialog");
    const files = await app.driver.wait(async () => {
      const found = await dialog.findElements(byTestId("restore-file"));
      return found.length === 2 ? found : null;
    }, UI_TIMEOUT_MS, "the preview lists both files");
    for (const file of files) assert.equal(await file.getAttribute("data-action"), "write");
    await shot("rewind offers restore code, conversation or both");
    await (await find("restore-code", dialog)).click();
    await app.driver.wait(async () => (await dialog.getText()).includes("2 files restored"), UI_TIMEOUT_MS);
    assert.equal(read("a.txt"), A);
    assert.equal(read("b.txt"), B);
    await (await find("undo-restore", dialog)).click();
    await app.driver.wait(() => read("b.txt") === B.replace("beta", "BETA"), UI_TIMEOUT_MS, "undo brings the edits back");
  });

  test("stopping the app leaves no process behind", async () => {
    assert.deepEqual(await app.stop(), []);
  });
});
