/** Indents every non-empty line of a block by two spaces per level. */
export const indent = ({ text, level = 1 }: { text: string; level?: number }) =>
  text
    .split('\n')
    .map((line) => (line ? '  '.repeat(level) + line : line))
    .join('\n');

/** Lines joined with newlines, skipping the empty ones that conditionals leave behind. */
export const lines = (...parts: (string | false | undefined)[]) => parts.filter((p) => p).join('\n');

/** A block `head { body }` with the body indented. */
export const block = ({ head, body }: { head: string; body: string }) => `${head} {\n${indent({ text: body })}\n}`;
