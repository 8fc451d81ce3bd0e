// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { EventEnvelope } from "../../../gen/protocol";
import { applyBatch, emptyTranscript } from "../../../state/transcript";
import { Transcript } from "./Transcript";

afterEach(cleanup);

const USAGE = { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, reasoning_tokens: 0 };
const turn = (k: number): EventEnvelope[] =>
  (
    [
      { type: "turn_started", input: { text: `question ${k}` } },
      { type: "assistant_message", text: `answer ${k}`, tool_calls: [] },
      { type: "turn_ended", reason: "completed", usage: USAGE },
    ] as EventEnvelope["event"][]
  ).map((event, i) => ({ session_id: "s1", turn_id: `t${k}`, seq: 3 * k + i + 1, timestamp_ms: 1, event }));
const transcript = applyBatch(emptyTranscript, [0, 1, 2].flatMap(turn));

describe("Transcript says what the view reads", () => {
  it("nothing while it follows the end; the entry at the top while it reads on page by page, pinned or not", () => {
    const scroller = document.createElement("div");
    document.body.append(scroller);
    const following = vi.fn();
    const end = render(<Transcript transcript={transcript} scroller={scroller} pinned onReading={following} />);
    expect(following).toHaveBeenLastCalledWith(null);
    end.unmount();

    // Reading on towards the end (a window short of it): at the bottom of what is loaded
    // counts as pinned, but the view stays on its entry, so what grows below is out of
    // sight and the chat offers "Latest".
    const reading = vi.fn();
    const forward = render(
      <Transcript transcript={transcript} scroller={scroller} pinned hasNewer onReading={reading} />,
    );
    expect(reading).toHaveBeenLastCalledWith(transcript.entries[0]?.key);
    // The pages met the end: still reading, until the user scrolls to the bottom.
    forward.rerender(<Transcript transcript={transcript} scroller={scroller} pinned onReading={reading} />);
    expect(reading).toHaveBeenLastCalledWith(transcript.entries[0]?.key);
    // Gone (another session shown): nothing of it is read any more.
    forward.unmount();
    expect(reading).toHaveBeenLastCalledWith(null);
  });
});
