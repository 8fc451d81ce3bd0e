// The answer the app benchmark and the stream probe stream: ~`seconds` of Markdown at
// 1,000 tokens (about 4,000 characters) a second, mixing paragraphs, lists and code blocks.
export function streamedAnswer(seconds) {
  const parts = [];
  let length = 0;
  for (let i = 0; length < seconds * 4000; i++) {
    const part =
      i % 5 === 4
        ? "```rust\nfn step_" + i + "(input: &str) -> Result<usize, Error> {\n    Ok(input.len() + " + i + ")\n}\n```\n\n"
        : i % 5 === 2
          ? `- item ${i}: the parser reads the **next token** and checks \`state_${i}\`\n- then it moves on to the following one\n\n`
          : `Paragraph ${i}. The session streams a long answer so the window has to keep up with a fast model; each word arrives in its own small piece and the transcript grows while the view stays pinned to its end.\n\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("");
}
