// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ProviderSettings } from "../../gen/protocol";
import { ProviderForm } from "./ProviderForm";

const { ipc } = vi.hoisted(() => ({ ipc: { testConnection: vi.fn() } }));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));

afterEach(cleanup);
beforeEach(() => ipc.testConnection.mockReset());

const EXISTING: ProviderSettings = {
  name: "deepseek",
  api: "openai",
  model: "deepseek-chat",
  base_url: "https://api.deepseek.com",
  effective_base_url: "https://api.deepseek.com",
  env_api_key: "DEEPSEEK_API_KEY",
  is_current: true,
  key: { provider: "deepseek", source: "OS keychain", required: true, keychain_error: null },
};

describe("ProviderForm", () => {
  it("fills a new provider from the chosen service and saves it with the key", async () => {
    const onSave = vi.fn(async () => ({ keyError: null }));
    render(<ProviderForm existing={null} profile={null} takenNames={["anthropic"]} onSave={onSave} />);
    fireEvent.change(screen.getByTestId("provider-preset"), { target: { value: "anthropic" } });
    expect((screen.getByTestId("provider-name") as HTMLInputElement).value).toBe("anthropic-2");
    expect((screen.getByTestId("provider-api") as HTMLSelectElement).value).toBe("anthropic");
    fireEvent.change(screen.getByTestId("provider-key"), { target: { value: "sk-ant-1" } });
    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith({
      original: null,
      provider: {
        name: "anthropic-2",
        api: "anthropic",
        model: "claude-sonnet-4-5",
        base_url: "https://api.anthropic.com",
        env_api_key: "ANTHROPIC_API_KEY",
      },
      makeCurrent: true,
      key: "sk-ant-1",
      profile: null,
    });
  });

  it("says what Save and Test still need while they are off", () => {
    render(<ProviderForm existing={null} profile={null} takenNames={[]} onSave={vi.fn(async () => ({ keyError: null }))} />);
    fireEvent.change(screen.getByTestId("provider-name"), { target: { value: "" } });
    fireEvent.change(screen.getByTestId("provider-model"), { target: { value: "" } });
    const save = screen.getByTestId("provider-save") as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.title).toBe("To save, enter a valid name and a model.");
    expect(screen.getByTestId("provider-form-missing").textContent).toBe("To save, enter a valid name and a model.");
    expect(screen.getByTestId("provider-test").title).toMatch(/Enter a model/);

    fireEvent.change(screen.getByTestId("provider-name"), { target: { value: "mine" } });
    fireEvent.change(screen.getByTestId("provider-model"), { target: { value: "m1" } });
    expect(save.disabled).toBe(false);
    expect(screen.queryByTestId("provider-form-missing")).toBeNull();
  });

  it("refuses a bad or taken name and a bad number before saving", async () => {
    const onSave = vi.fn(async () => ({ keyError: null }));
    render(<ProviderForm existing={null} profile={null} takenNames={["openai"]} onSave={onSave} />);
    const name = screen.getByTestId("provider-name");
    fireEvent.change(name, { target: { value: "has space" } });
    expect(screen.getByText(/Use letters, digits/)).toBeTruthy();
    expect((screen.getByTestId("provider-save") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: "openai" } });
    expect(screen.getByText("That name is taken.")).toBeTruthy();
    fireEvent.change(name, { target: { value: "mine" } });
    fireEvent.change(screen.getByTestId("profile-context-window"), { target: { value: "lots" } });
    fireEvent.click(screen.getByTestId("provider-save"));
    expect((await screen.findByTestId("provider-form-error")).textContent).toContain("Context window");
    expect(onSave).not.toHaveBeenCalled();
  });

  it("saves a temperature with the model profile and refuses one out of range", async () => {
    const onSave = vi.fn(async () => ({ keyError: null }));
    render(<ProviderForm existing={EXISTING} profile={null} takenNames={["deepseek"]} onSave={onSave} />);
    const temperature = screen.getByTestId("profile-temperature");
    fireEvent.change(temperature, { target: { value: "2.5" } });
    fireEvent.click(screen.getByTestId("provider-save"));
    expect((await screen.findByTestId("provider-form-error")).textContent).toContain("Temperature must be a number from 0 to 2");
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(temperature, { target: { value: "0.2" } });
    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ profile: expect.objectContaining({ temperature: 0.2, context_window: null }) }),
    );
  });

  it("tests the connection with the typed key and shows the verdict", async () => {
    ipc.testConnection.mockResolvedValue({
      ok: false,
      outcome: "auth",
      message: "The server refused the API key (401).",
      phrase: { code: "connect_key_refused", detail: "401" },
      elapsed_ms: 120,
    });
    render(<ProviderForm existing={EXISTING} profile={null} takenNames={["deepseek"]} onSave={vi.fn()} />);
    expect((screen.getByTestId("provider-key") as HTMLInputElement).placeholder).toContain("Stored (OS keychain)");
    fireEvent.change(screen.getByTestId("provider-key"), { target: { value: "sk-wrong" } });
    fireEvent.click(screen.getByTestId("provider-test"));
    const report = await screen.findByTestId("connection-report");
    expect(report.getAttribute("data-outcome")).toBe("auth");
    expect(report.textContent).toBe("The server refused the API key (401). Check the key and that it belongs to this provider.");
    expect(ipc.testConnection).toHaveBeenCalledWith({
      provider: {
        name: "deepseek",
        api: "openai",
        model: "deepseek-chat",
        base_url: "https://api.deepseek.com",
        env_api_key: "DEEPSEEK_API_KEY",
      },
      key: "sk-wrong",
    });
  });

  it("keeps the form open and says so when the keychain refuses the key", async () => {
    const onSave = vi.fn(async () => ({ keyError: "no Secret Service" }));
    render(<ProviderForm existing={EXISTING} profile={null} takenNames={["deepseek"]} onSave={onSave} />);
    fireEvent.change(screen.getByTestId("provider-key"), { target: { value: "sk-1" } });
    fireEvent.click(screen.getByTestId("provider-save"));
    const error = await screen.findByTestId("provider-form-error");
    expect(error.textContent).toContain("no Secret Service");
    expect(error.textContent).toContain("DEEPSEEK_API_KEY");
  });

  it("does not make a provider whose test just failed the default, and says why", async () => {
    ipc.testConnection.mockResolvedValueOnce({ ok: false, outcome: "auth", message: "Refused.", phrase: { code: "connect_failed", detail: "Refused." }, elapsed_ms: 5 });
    const onSave = vi.fn(async () => ({ keyError: null }));
    render(<ProviderForm existing={null} profile={null} takenNames={[]} onSave={onSave} />);
    const box = screen.getByTestId("provider-make-current") as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(screen.getByTestId("provider-test"));
    await screen.findByTestId("connection-report");
    expect(box.checked).toBe(false);
    expect(screen.getByTestId("provider-make-current-why").textContent).toContain("the connection test failed");
    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ makeCurrent: false })));

    // Ticked again on purpose: it is kept, and the note goes.
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    expect(screen.queryByTestId("provider-make-current-why")).toBeNull();
  });

  it("gives the tick back when a later test passes", async () => {
    ipc.testConnection
      .mockResolvedValueOnce({ ok: false, outcome: "network", message: "No answer.", phrase: { code: "connect_failed", detail: "No answer." }, elapsed_ms: 5 })
      .mockResolvedValueOnce({ ok: true, outcome: "ok", message: "Connected.", phrase: { code: "connect_ok", model: "m", base_url: "http://x" }, elapsed_ms: 5 });
    render(<ProviderForm existing={null} profile={null} takenNames={[]} onSave={vi.fn()} />);
    const box = screen.getByTestId("provider-make-current") as HTMLInputElement;
    fireEvent.click(screen.getByTestId("provider-test"));
    await waitFor(() => expect(box.checked).toBe(false));
    fireEvent.click(screen.getByTestId("provider-test"));
    await waitFor(() => expect(box.checked).toBe(true));
    expect(screen.queryByTestId("provider-make-current-why")).toBeNull();
  });

  it("labels the wire formats short enough for half a row, the whole name in the tooltip", () => {
    render(<ProviderForm existing={null} profile={null} takenNames={[]} onSave={vi.fn()} />);
    const select = screen.getByTestId("provider-api") as HTMLSelectElement;
    // The onboarding's card showed "OpenAI-compatible (chat completio": 18 characters fit.
    for (const option of select.options) expect(option.textContent!.length).toBeLessThanOrEqual(18);
    expect(select.value).toBe("openai");
    expect(select.title).toContain("chat completions");
    fireEvent.change(select, { target: { value: "anthropic" } });
    expect(select.title).toContain("Messages API");
  });
});
