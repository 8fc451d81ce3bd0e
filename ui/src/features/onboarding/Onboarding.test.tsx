// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { LocalServer, ProviderSettings, ProviderSettingsPage } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { Onboarding } from "./Onboarding";

// The Rust side, played by the test: every command the screen (and the form and hook it
// reuses) calls goes through `commands` of ../../ipc.
const { ipc } = vi.hoisted(() => ({
  ipc: {
    probeLocalServers: vi.fn(),
    providerSettings: vi.fn(),
    updateProviders: vi.fn(),
    setApiKey: vi.fn(),
    testConnection: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../ipc")>()),
  ipc,
}));

const PAGE: ProviderSettingsPage = {
  config_path: "/home/me/.memo/config.toml",
  revision: "rev-1",
  current_provider: null,
  providers: [],
  model_profiles: [],
  warnings: [],
};

const OLLAMA: LocalServer = {
  kind: "ollama",
  label: "Ollama",
  base_url: "http://127.0.0.1:11434/v1",
  models: ["qwen2.5-coder:7b", "llama3.2:3b"],
};

const LLAMA_CPP: LocalServer = {
  kind: "llama.cpp",
  label: "llama.cpp",
  base_url: "http://127.0.0.1:8080/v1",
  models: ["model.gguf"],
};

function provider(name: string): ProviderSettings {
  return {
    name,
    api: "openai",
    model: "m",
    base_url: null,
    effective_base_url: "https://api.openai.com/v1",
    env_api_key: null,
    is_current: false,
    key: { provider: name, source: null, required: true, keychain_error: null },
  };
}

function renderOnboarding() {
  const onDone = vi.fn();
  const onOpenSettings = vi.fn();
  render(<Onboarding onDone={onDone} onOpenSettings={onOpenSettings} />);
  return { onDone, onOpenSettings };
}

beforeEach(() => {
  for (const mock of Object.values(ipc)) mock.mockReset();
  ipc.providerSettings.mockResolvedValue(PAGE);
  ipc.updateProviders.mockImplementation(async () => ({ ...PAGE, revision: "rev-2" }));
  ipc.probeLocalServers.mockResolvedValue([]);
});

afterEach(cleanup);

describe("Onboarding", () => {
  it("probes on mount and saves a found server's model as the current provider in one click", async () => {
    let answer: (servers: LocalServer[]) => void = () => {};
    ipc.probeLocalServers.mockReturnValue(new Promise<LocalServer[]>((resolve) => (answer = resolve)));
    const { onDone } = renderOnboarding();

    expect(screen.getByTestId("onboarding-probing").textContent).toContain("Looking for Ollama, llama.cpp, LM Studio and vLLM");
    answer([OLLAMA, LLAMA_CPP]);

    const cards = await screen.findAllByTestId("local-server");
    expect(cards.map((card) => card.dataset.kind)).toEqual(["ollama", "llama.cpp"]);
    const ollama = cards[0]!;
    expect(within(ollama).getByText("Ollama")).toBeTruthy();
    expect(within(ollama).getByText("http://127.0.0.1:11434/v1")).toBeTruthy();
    expect(screen.queryByTestId("onboarding-probing")).toBeNull();

    const use = within(ollama).getByRole("button", { name: "Use qwen2.5-coder:7b" });
    expect(use.dataset.testid).toBe("local-model-use");
    expect(use.dataset.model).toBe("qwen2.5-coder:7b");
    await waitFor(() => expect((use as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(use);

    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(ipc.updateProviders).toHaveBeenCalledTimes(1);
    expect(ipc.updateProviders).toHaveBeenCalledWith({
      change: {
        type: "save",
        original: null,
        provider: {
          name: "ollama",
          api: "openai",
          model: "qwen2.5-coder:7b",
          base_url: "http://127.0.0.1:11434/v1",
          env_api_key: null,
        },
        make_current: true,
      },
      revision: "rev-1",
    });
    // No key for a server on this machine.
    expect(ipc.setApiKey).not.toHaveBeenCalled();
  });

  it("names a local provider after its kind, avoiding names already taken", async () => {
    ipc.providerSettings.mockResolvedValue({ ...PAGE, providers: [provider("llama-cpp")] });
    ipc.probeLocalServers.mockResolvedValue([{ ...LLAMA_CPP, context_window: 8192 }]);
    const { onDone } = renderOnboarding();

    const use = await screen.findByRole("button", { name: "Use model.gguf" });
    await waitFor(() => expect((use as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(use);

    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [{ change }] = ipc.updateProviders.mock.calls[0] as [{ change: { provider: { name: string; base_url: string } } }];
    expect(change.provider.name).toBe("llama-cpp-2");
    expect(change.provider.base_url).toBe("http://127.0.0.1:8080/v1");
    // The server's context size goes into the model's profile (a small one: compact prompt).
    const [profileCall] = ipc.updateProviders.mock.calls[1] as [{ change: { type: string; key: string; profile: { context_window: number } } }];
    expect(profileCall.change).toMatchObject({ type: "save_profile", key: "model.gguf", profile: { context_window: 8192 } });
  });

  it("shows a few models as buttons and the rest in a list", async () => {
    const models = Array.from({ length: 9 }, (_, i) => `model-${i + 1}`);
    ipc.probeLocalServers.mockResolvedValue([{ ...OLLAMA, models }]);
    const { onDone } = renderOnboarding();

    await screen.findByTestId("local-server");
    const buttons = screen.getAllByTestId("local-model-use");
    // Six buttons of their own, plus the list's.
    expect(buttons.map((b) => b.dataset.model)).toEqual([...models.slice(0, 6), "model-7"]);
    const more = screen.getByTestId("local-model-more") as HTMLSelectElement;
    expect(Array.from(more.options).map((o) => o.value)).toEqual(["model-7", "model-8", "model-9"]);

    fireEvent.change(more, { target: { value: "model-9" } });
    const useOther = screen.getByRole("button", { name: "Use it" });
    await waitFor(() => expect((useOther as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(useOther);
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [{ change }] = ipc.updateProviders.mock.calls[0] as [{ change: { provider: { model: string } } }];
    expect(change.provider.model).toBe("model-9");
  });

  it("says when nothing was found, with how to start a server, and looks again on request", async () => {
    renderOnboarding();

    const none = await screen.findByTestId("onboarding-none-found");
    expect(none.textContent).toContain("11434");
    expect(none.textContent).toContain("8080");
    expect(none.textContent).toContain("ollama serve");
    expect(none.textContent).toContain("llama-server -m model.gguf --port 8080");
    expect(ipc.probeLocalServers).toHaveBeenCalledTimes(1);

    ipc.probeLocalServers.mockResolvedValue([OLLAMA]);
    fireEvent.click(screen.getByTestId("onboarding-rescan"));
    expect(ipc.probeLocalServers).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId("onboarding-probing")).toBeTruthy();
    expect((await screen.findByTestId("local-server")).dataset.kind).toBe("ollama");
    expect(screen.queryByTestId("onboarding-none-found")).toBeNull();
  });

  it("shows an invalid config.toml's error and sends the person to settings, never offering to overwrite", async () => {
    ipc.providerSettings.mockRejectedValue({
      code: "config",
      message: "/home/me/.memo/config.toml:3:7: expected `=`",
      retryable: false,
    });
    const { onDone, onOpenSettings } = renderOnboarding();

    const error = await screen.findByTestId("onboarding-error");
    expect(error.textContent).toContain("/home/me/.memo/config.toml:3:7: expected `=`");
    expect(screen.queryByTestId("provider-form")).toBeNull();
    expect(screen.queryByTestId("local-model-use")).toBeNull();

    fireEvent.click(within(error).getByRole("button", { name: "Open settings" }));
    expect(onOpenSettings).toHaveBeenCalledTimes(1);
    expect(ipc.updateProviders).not.toHaveBeenCalled();
    expect(onDone).not.toHaveBeenCalled();
  });

  it("shows why a save failed and stays on the screen", async () => {
    ipc.probeLocalServers.mockResolvedValue([OLLAMA]);
    ipc.updateProviders.mockRejectedValue({ code: "io", message: "config.toml could not be written: disk full", retryable: false });
    const { onDone } = renderOnboarding();

    const use = await screen.findByRole("button", { name: "Use llama3.2:3b" });
    await waitFor(() => expect((use as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(use);

    expect((await screen.findByTestId("onboarding-error")).textContent).toBe("config.toml could not be written: disk full");
    expect(onDone).not.toHaveBeenCalled();
    // The choice can be made again.
    await waitFor(() => expect((screen.getByRole("button", { name: "Use llama3.2:3b" }) as HTMLButtonElement).disabled).toBe(false));
  });

  it("saves a cloud provider with its key through the form, then is done", async () => {
    ipc.setApiKey.mockResolvedValue({ provider: "openai", source: "OS keychain", required: true, keychain_error: null });
    const { onDone } = renderOnboarding();

    const form = await screen.findByTestId("provider-form");
    fireEvent.change(within(form).getByTestId("provider-key"), { target: { value: "sk-test" } });
    fireEvent.click(within(form).getByRole("button", { name: "Start using it" }));

    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(ipc.updateProviders).toHaveBeenCalledWith(
      expect.objectContaining({
        change: expect.objectContaining({
          type: "save",
          make_current: true,
          provider: expect.objectContaining({ name: "openai", api: "openai" }),
        }),
        revision: "rev-1",
      }),
    );
    expect(ipc.setApiKey).toHaveBeenCalledWith({ provider: "openai", key: "sk-test" });
  });

  it("leaves the keychain's refusal to the form and does not finish", async () => {
    ipc.setApiKey.mockRejectedValue({ code: "unavailable", message: "the keychain is locked", retryable: true });
    const { onDone } = renderOnboarding();

    const form = await screen.findByTestId("provider-form");
    fireEvent.change(within(form).getByTestId("provider-key"), { target: { value: "sk-test" } });
    fireEvent.click(within(form).getByRole("button", { name: "Start using it" }));

    expect((await screen.findByTestId("provider-form-error")).textContent).toContain("the keychain is locked");
    expect(onDone).not.toHaveBeenCalled();
  });

  it("saves a cloud provider whose test just failed without making it the default", async () => {
    ipc.testConnection.mockResolvedValue({ ok: false, outcome: "auth", message: "Refused.", phrase: { code: "connect_failed", detail: "Refused." }, elapsed_ms: 5 });
    renderOnboarding();

    const form = await screen.findByTestId("provider-form");
    fireEvent.change(within(form).getByTestId("provider-key"), { target: { value: "sk-bad" } });
    fireEvent.click(within(form).getByTestId("provider-test"));
    expect((await within(form).findByTestId("provider-make-current-why")).textContent).toContain("test failed");
    fireEvent.click(within(form).getByRole("button", { name: "Start using it" }));

    await waitFor(() =>
      expect(ipc.updateProviders).toHaveBeenCalledWith(
        expect.objectContaining({ change: expect.objectContaining({ type: "save", make_current: false }) }),
      ),
    );
  });
  it("greets a Chinese desktop in Chinese, commands and names as they are", async () => {
    ipc.probeLocalServers.mockResolvedValue([{ ...OLLAMA, models: [] }]);
    await setUpI18n("zh");
    try {
      renderOnboarding();
      expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("连接模型");
      const said = await screen.findByTestId("local-server-no-models");
      expect(said.textContent).toBe("服务正在运行，但还没有提供任何模型。先用 ollama pull qwen2.5-coder 拉取一个模型，然后重新扫描。");
      expect(said.querySelector("code")?.textContent).toBe("ollama pull qwen2.5-coder");
      expect(await screen.findByRole("button", { name: "开始使用" })).toBeTruthy();
      cleanup();
      ipc.probeLocalServers.mockResolvedValue([]);
      renderOnboarding();
      expect((await screen.findByTestId("onboarding-none-found")).textContent).toContain(
        "本机没有正在运行的模型服务器（已检查 127.0.0.1 的 11434、8080、1234 和 8000 端口）。",
      );
    } finally {
      setUpI18n("en");
    }
  });

  it("says the ports it checked, in English as before, and opens settings from its last line", async () => {
    const { onOpenSettings } = renderOnboarding();
    expect((await screen.findByTestId("onboarding-none-found")).textContent).toContain(
      "No model server is running here (checked ports 11434, 8080, 1234 and 8000 on 127.0.0.1).",
    );
    const footer = screen.getByText(/Already have a config.toml/);
    expect(footer.textContent).toBe("Already have a config.toml, or want every option? Open settings");
    fireEvent.click(within(footer).getByRole("button", { name: "Open settings" }));
    expect(onOpenSettings).toHaveBeenCalledTimes(1);
  });

  it("says what answered on a port that listed no model, and fills the manual form with its URL", async () => {
    ipc.probeLocalServers.mockResolvedValue([
      { kind: "llama.cpp", label: "llama.cpp", base_url: "http://127.0.0.1:8080/v1", models: [], no_models: { code: "answered_http", status: 404, path: "/v1/models" } },
    ]);
    renderOnboarding();
    const said = await screen.findByTestId("local-server-no-models");
    expect(said.textContent).toContain("Something answered HTTP 404 at /v1/models");
    expect(screen.queryByTestId("onboarding-none-found")).toBeNull();
    fireEvent.click(screen.getByTestId("local-server-by-hand"));
    await waitFor(() =>
      expect((screen.getByTestId("provider-base-url") as HTMLInputElement).value).toBe("http://127.0.0.1:8080/v1"),
    );
  });
});

describe("the first-run screen's pointer to the user guide", () => {
  afterEach(() => {
    setUpI18n("en");
  });

  it("names the English guide in English", async () => {
    renderOnboarding();
    await screen.findByTestId("onboarding-none-found");
    const guide = screen.getByTestId("onboarding-guide");
    expect(guide.textContent).toBe("New to Memo? The user guide walks through every feature: docs/user-guide.md in Memo's source folder.");
    expect(guide.querySelector("code")?.textContent).toBe("docs/user-guide.md");
  });

  it("names the Chinese guide in Chinese, and follows a switch of language at once", async () => {
    await setUpI18n("zh");
    renderOnboarding();
    await screen.findByTestId("onboarding-none-found");
    const guide = screen.getByTestId("onboarding-guide");
    expect(guide.textContent).toBe("第一次使用 Memo？用户指南逐一介绍了每项功能：见 Memo 源码目录中的 docs/zh-CN/user-guide.md。");
    expect(guide.querySelector("code")?.textContent).toBe("docs/zh-CN/user-guide.md");
    act(() => {
      void setUpI18n("en");
    });
    expect(guide.querySelector("code")?.textContent).toBe("docs/user-guide.md");
  });

  it("is there when config.toml cannot be read too", async () => {
    ipc.providerSettings.mockRejectedValue({ code: "config", message: "config.toml:1:1: bad", retryable: false });
    await setUpI18n("zh");
    renderOnboarding();
    await screen.findByTestId("onboarding-error");
    expect(screen.getByTestId("onboarding-guide").querySelector("code")?.textContent).toBe("docs/zh-CN/user-guide.md");
  });
});
