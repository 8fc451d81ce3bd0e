// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { applyBatch, emptyTranscript, type ElicitationView } from "../../../state/transcript";
import { ElicitationCard } from "./ElicitationCard";

afterEach(cleanup);

const VIEW: ElicitationView = {
  kind: "elicitation",
  key: "e1",
  requestId: "q1",
  server: "everything",
  message: "Please provide inputs for the following fields:",
  schema: {
    properties: {
      name: { type: "string", title: "Name", description: "Your full name" },
      check: { type: "boolean", title: "Agree" },
      integer: { type: "integer", title: "Integer", default: 42 },
      color: { type: "string", title: "Color", enum: ["red", "green"] },
      pets: { type: "array", title: "Pets", items: { anyOf: [{ const: "cat", title: "Cat" }, { const: "dog", title: "Dog" }] } },
    },
    required: ["name"],
  },
  answer: null,
};

describe("ElicitationCard", () => {
  it("builds the form from the schema and sends typed values", () => {
    const onAnswer = vi.fn().mockResolvedValue(undefined);
    render(<ElicitationCard view={VIEW} onAnswer={onAnswer} />);
    expect(screen.getByText("Please provide inputs for the following fields:")).toBeTruthy();
    fireEvent.change(screen.getByTestId("elicit-name"), { target: { value: "Ada" } });
    fireEvent.click(screen.getByTestId("elicit-check"));
    fireEvent.change(screen.getByTestId("elicit-color"), { target: { value: "green" } });
    fireEvent.click(screen.getByLabelText("Dog"));
    fireEvent.click(screen.getByTestId("elicit-submit"));
    expect(onAnswer).toHaveBeenCalledWith("q1", "accept", { name: "Ada", check: true, integer: 42, color: "green", pets: ["dog"] });
  });

  it("declines or cancels without sending values", () => {
    const onAnswer = vi.fn().mockResolvedValue(undefined);
    render(<ElicitationCard view={VIEW} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByTestId("elicit-decline"));
    expect(onAnswer).toHaveBeenLastCalledWith("q1", "decline", undefined);
    cleanup();
    render(<ElicitationCard view={VIEW} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByTestId("elicit-cancel"));
    expect(onAnswer).toHaveBeenLastCalledWith("q1", "cancel", undefined);
  });

  it("leaves an input method's Enter to the input method, and submits on a plain Enter", () => {
    const onAnswer = vi.fn().mockResolvedValue(undefined);
    render(<ElicitationCard view={VIEW} onAnswer={onAnswer} />);
    const field = screen.getByTestId("elicit-name");
    fireEvent.change(field, { target: { value: "Ada" } });
    // Composing (pinyin, say): Enter picks a candidate, so the form's implicit submission is held back.
    expect(fireEvent.keyDown(field, { key: "Enter", isComposing: true })).toBe(false);
    expect(fireEvent.keyDown(field, { key: "Enter", keyCode: 229 })).toBe(false);
    expect(onAnswer).not.toHaveBeenCalled();
    // A plain Enter is left to the browser, which submits the form (jsdom does not: submit stands in).
    const form = screen.getByTestId("elicitation") as HTMLFormElement;
    if (fireEvent.keyDown(field, { key: "Enter" })) fireEvent.submit(form);
    expect(onAnswer).toHaveBeenCalledWith("q1", "accept", { name: "Ada", check: false, integer: 42, pets: [] });
  });

  it("follows the request and its answer from the events", () => {
    const state = applyBatch(emptyTranscript, [
      { session_id: "s", seq: 1, turn_id: null, timestamp_ms: 0, event: { type: "elicitation_requested", request_id: "q1", server: "s", message: "m", schema: {} } },
      { session_id: "s", seq: 2, turn_id: null, timestamp_ms: 0, event: { type: "elicitation_resolved", request_id: "q1", action: "decline" } },
    ]);
    const entry = state.entries[0] as ElicitationView;
    expect(entry.kind).toBe("elicitation");
    expect(entry.answer).toBe("decline");
    render(<ElicitationCard view={entry} onAnswer={vi.fn()} />);
    expect(screen.getByTestId("elicitation").textContent).toContain("Declined");
  });
});
