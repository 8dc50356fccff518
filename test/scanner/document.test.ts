/**
 * The scanner finds a Markdown file's frontmatter with the validator's own splitter, so both
 * agree on where the body starts: what the validator calls unclosed is body text to the scanner
 * too, and a `---yaml` opening line or a closing `---` with trailing blanks opens and closes it.
 */
import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../src/core/parse/frontmatter.ts';
import { sourceFromString } from '../../src/core/parse/source-text.ts';
import { createTextFile } from '../../src/scanner/document.ts';

const limits = { maxFrontmatterBytes: 65536, maxDepth: 20, maxAliases: 50 };
const cases: [string, string, number][] = [
  ['plain block', '---\nname: x\ndescription: "a --- b"\n---\nBody.\n', 4],
  ['CRLF and trailing blanks on the closing line', '---\r\nname: x\r\n---  \r\nBody.\r\n', 3],
  ['`---yaml` opening line', '---yaml\nname: x\n---\nBody.\n', 3],
  ['closed by `...` (not a closing line)', '---\nname: x\n...\nBody.\n', 0],
  ['no frontmatter', '# Title\n---\nnot: frontmatter\n---\n', 0],
  ['`---js` is never frontmatter', '---js\n{name: 1}\n---\nBody.\n', 0],
];

describe('scanner frontmatter', () => {
  it.each(cases)('%s', (_, text, lines) => {
    expect(createTextFile('SKILL.md', text).frontmatterLines).toBe(lines);
    const validator = parseFrontmatter(sourceFromString(text), limits);
    // Where the scanner sees frontmatter, the validator parses the same block.
    expect(validator.data !== undefined).toBe(lines > 0);
  });
});
