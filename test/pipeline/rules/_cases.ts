/**
 * The table of the rule suite (rules.test.ts): one valid and one invalid fixture per validation
 * rule, each a tiny registry root under test/fixtures/rules/<case>/. Kept apart so that the test
 * that every rule of the one list has a module and a fixture that triggers it
 * (rule-modules.test.ts) reads the same table.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ValidationResult } from '../../../src/pipeline/index.ts';
import { formatHuman } from '../../../src/core/reporters/human.ts';
import { FIXTURES } from './_harness.ts';

export interface Ctx {
  result: ValidationResult;
  root: string;
}

export interface RuleCase {
  /** Folder under test/fixtures/rules. */
  fixture: string;
  /** Rule ids this case is the valid (or invalid) fixture for. */
  covers: string[];
  /** Adds what git does not keep well (symlinks, FIFOs, odd bytes) to the temp copy. */
  setup?: (root: string) => Promise<void>;
  /** Every diagnostic, as `severity rule file:line`, in output order. */
  expect: string[];
  /** Names of the skills that must be accepted (exactly). */
  accepted: string[];
  /** Further facts about this case, each its own test. */
  checks?: Record<string, (ctx: Ctx) => void | Promise<void>>;
}

const write = async (root: string, rel: string, data: string | Uint8Array) => {
  await mkdir(join(root, rel, '..'), { recursive: true });
  await writeFile(join(root, rel), data);
};
const message = (ctx: Ctx, rule: string, file?: string) => {
  const found = ctx.result.diagnostics.filter((d) => d.rule === rule && (file === undefined || d.file === file));
  expect(found.length, `${rule} ${file ?? ''}`).toBeGreaterThan(0);
  return found.map((d) => d.message);
};
const draft = (ctx: Ctx, name: string) => {
  const found = ctx.result.accepted.find((s) => s.draft.name === name);
  expect(found, `accepted skill ${name}`).toBeDefined();
  return found!.draft;
};

// ---------------------------------------------------------------- valid fixtures
export const VALID: RuleCase[] = [
  {
    fixture: 'boundaries-valid',
    covers: [
      'name/required', 'name/charset', 'name/length', 'name/hyphens', 'name/folder-mismatch', 'description/required', 'description/length', 'description/placeholder',
      'text/control-chars', 'compatibility/length', 'metadata/nested', 'body/empty', 'frontmatter/missing', 'frontmatter/unclosed', 'frontmatter/language',
      'frontmatter/too-large', 'frontmatter/yaml', 'frontmatter/alias-limit', 'frontmatter/too-deep', 'frontmatter/forbidden-key', 'frontmatter/not-a-map',
    ],
    expect: [],
    accepted: ['a', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'x9-y8-z7'],
    checks: {
      'accepts a 64-character name, a 1024-character description and a 500-character compatibility': (ctx) => {
        const long = draft(ctx, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
        expect(long.name).toHaveLength(64);
        expect(long.description).toHaveLength(1024);
        expect(long.compatibility).toHaveLength(500);
        expect(draft(ctx, 'x9-y8-z7').description).toBe('Contains --- and: colons, quoted.');
      },
    },
  },
  {
    fixture: 'bom-crlf-valid',
    covers: ['frontmatter/missing', 'frontmatter/unclosed', 'files/zero-width'],
    expect: [],
    accepted: ['crlf-skill'],
    checks: {
      'the fixture really has a BOM and CRLF line endings': async () => {
        const bytes = await readFile(join(FIXTURES, 'rules', 'bom-crlf-valid', 'skills', 'crlf-skill', 'SKILL.md'));
        expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        expect(bytes.toString('utf8')).toContain('---\r\nname: crlf-skill\r\n');
        expect(bytes.toString('utf8').replace(/\r\n/g, '')).not.toContain('\n');
      },
      'values carry no CR and the BOM is not a zero-width character': (ctx) => {
        const d = draft(ctx, 'crlf-skill');
        expect(d.description).toBe('Written on Windows with a BOM and CRLF line endings.');
        expect(d.title).toBe('CRLF');
        expect(d.metadata).toEqual({ author: 'someone' });
      },
    },
  },
  {
    fixture: 'claude-code-extras-valid',
    covers: ['frontmatter/unknown-field', 'frontmatter/field-type'],
    expect: [],
    accepted: ['deploy'],
    checks: {
      'Claude Code extras are recognised, and allowed-tools may be a list': (ctx) => {
        expect(draft(ctx, 'deploy').allowedTools).toEqual(['Bash(git push:*)', 'Read']);
      },
    },
  },
  {
    fixture: 'package-valid',
    covers: [
      'package/version', 'package/required-field', 'package/resource-missing', 'package/resource-escape', 'package/code-outside-scripts',
      'package/entry-missing', 'package/entry-not-runnable', 'package/legacy-permissions', 'schema/invalid', 'schema/remote-ref', 'schema/unsafe-pattern', 'frontmatter/field-type',
    ],
    expect: [],
    accepted: ['text-tool'],
    checks: {
      'a prerelease version, priority 1, a local $ref and an RE2-safe ^(a+)+$ pattern are accepted': (ctx) => {
        const d = draft(ctx, 'text-tool');
        expect(d.version).toBe('1.2.3-beta.1');
        expect(d.format).toBe('package');
        expect(d.entry).toEqual({ path: 'scripts/execute.ts', runner: 'module', language: 'typescript' });
      },
    },
  },
  {
    fixture: 'skill-json-valid',
    covers: [
      'skill-json/syntax', 'skill-json/too-deep', 'skill-json/forbidden-key', 'skill-json/meta-schema', 'skill-json/body-missing', 'pipeline/undeclared-call',
      'pipeline/duplicate-step', 'pipeline/template', 'pipeline/not-composite', 'registry/duplicate-name', 'registry/unknown-call', 'registry/call-cycle',
      'registry/cross-format-collision', 'discovery/ambiguous', 'discovery/misnamed-declaration', 'discovery/nested-skill', 'discovery/no-declaration', 'discovery/too-deep',
    ],
    expect: [],
    accepted: ['proofread', 'scripted', 'translate', 'translate_and_count', 'word_count'],
    checks: {
      'category folders are accepted (skills/text/translate/skill.json) and give the category': (ctx) => {
        expect(draft(ctx, 'translate').sourcePath).toBe('skills/text/translate');
        expect(draft(ctx, 'proofread').category).toBe('text');
        expect(draft(ctx, 'scripted').category).toBe('text'); // declared "category" wins over the folder
      },
      'skill.json defaults are applied (version, calls, timeout, retry)': (ctx) => {
        const wc = draft(ctx, 'word_count');
        expect([wc.version, wc.calls, wc.timeoutMs, wc.retry]).toEqual(['1.0.0', [], 30000, 0]);
        const tr = draft(ctx, 'translate');
        expect([tr.version, tr.timeoutMs, tr.retry]).toEqual(['2.0.0', 60000, 1]);
        expect(draft(ctx, 'translate_and_count').calls).toEqual(['translate', 'word_count']);
      },
    },
  },
  {
    fixture: 'files-valid',
    covers: ['files/symlink', 'files/special', 'files/path', 'files/too-large', 'files/skill-too-large', 'files/too-many', 'files/case-collision', 'files/executable-binary', 'files/encoding', 'files/bidi', 'files/unicode-tag', 'files/zero-width'],
    setup: async (root) => {
      const dir = join('skills', 'media');
      // A real PNG signature and a Java class (shares Mach-O's universal magic; byte 7 is the class version).
      await write(root, join(dir, 'assets', 'logo.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
      await write(root, join(dir, 'assets', 'Hello.class'), new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34, 0xff, 0xfe]));
      await write(root, join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
      await write(root, join(dir, '__pycache__', 'x.cpython-312.pyc'), new Uint8Array([0x7f, 0x45, 0x4c, 0x46]));
    },
    expect: [],
    accepted: ['media'],
    checks: {
      'a file of exactly maxFileBytes and exactly maxFiles files are accepted; dot-folders and node_modules are not published': (ctx) => {
        expect(draft(ctx, 'media').files.map((f) => `${f.path}:${f.size}`)).toEqual(['SKILL.md:145', 'assets/Hello.class:10', 'assets/at-limit.txt:200', 'assets/logo.png:12', 'assets/notes.md:70']);
      },
    },
  },
  { fixture: 'body-links-valid', covers: ['body/broken-link', 'registry/broken-link'], expect: [], accepted: ['linker', 'other'] },
  {
    fixture: 'typescript-valid',
    covers: ['files/typescript-syntax'],
    // TypeScript whose types erase: annotations, interfaces, `as`, type-only imports; a declaration file is never run.
    setup: async (root) => {
      await write(root, 'skills/target/scripts/helper.ts', "import type { Readable } from 'node:stream';\ninterface Row { a: string }\nexport const rows = (input: unknown): Row[] => input as Row[];\nexport type { Readable };\n");
      await write(root, 'skills/target/scripts/types.d.ts', 'declare enum Legacy { A }\nexport declare function f(): void;\n');
    },
    expect: [],
    accepted: ['target'],
  },

  {
    fixture: 'body-lines-valid',
    covers: ['body/too-long'],
    expect: [],
    accepted: ['exact'],
  },
  {
    fixture: 'body-tokens-valid',
    covers: ['body/too-large'],
    expect: [],
    accepted: ['exact'],
  },
  {
    fixture: 'unknown-field-off',
    covers: ['frontmatter/unknown-field'],
    expect: [],
    accepted: ['extra'],
  },
  {
    fixture: 'package-environment-valid',
    covers: ['package/reserved-environment'],
    expect: [],
    accepted: ['tuned'],
    checks: { 'ordinary variables, NODE_ENV and PYTHONUNBUFFERED are kept as declared': (ctx) => expect(draft(ctx, 'tuned').security?.environment).toEqual({ GREETING: 'hello', NODE_ENV: 'production', PYTHONUNBUFFERED: '1', TUNED_MODE: 'fast' }) },
  },
  { fixture: 'tags-valid', covers: ['tags/too-many'], expect: [], accepted: ['full'] },
  // Names that only start like a device, a COM port past 9, and a function whose folder is `con-tool`.
  { fixture: 'name-windows-device-valid', covers: ['name/windows-device'], expect: [], accepted: ['aux-notes', 'com10', 'con_tool', 'console'] },
  {
    // frontmatter/yaml turned off: a registry whose skills all parse is unaffected.
    fixture: 'held-back-valid',
    covers: ['internal/held-back'],
    expect: [],
    accepted: ['good'],
  },
];

// ---------------------------------------------------------------- invalid fixtures
const S = (kind: 'error' | 'warning', rule: string, file: string, line: number) => `${kind} ${rule} skills/${file}:${line}`;
const E = (rule: string, file: string, line: number) => S('error', rule, file, line);
const W = (rule: string, file: string, line: number) => S('warning', rule, file, line);

export const INVALID: RuleCase[] = [
  // discovery
  { fixture: 'discovery-ambiguous', covers: ['discovery/ambiguous'], expect: [E('discovery/ambiguous', 'both/skill.json', 1)], accepted: ['neighbour'] },
  {
    fixture: 'discovery-nested',
    covers: ['discovery/nested-skill'],
    expect: [W('discovery/nested-skill', 'outer/inner/SKILL.md', 1)],
    accepted: ['outer'],
    checks: {
      'the nested folder is published only as files of the outer skill': (ctx) => {
        expect(draft(ctx, 'outer').files.map((f) => f.path)).toEqual(['SKILL.md', 'inner/SKILL.md']);
      },
    },
  },
  { fixture: 'discovery-too-deep', covers: ['discovery/too-deep'], expect: [E('discovery/too-deep', 'a/b/deep/SKILL.md', 1)], accepted: ['shallow'] },
  {
    // A skill whose SKILL.md was deleted, a folder of a category that never became a skill, and a
    // file loose in a category folder (its README is expected there).
    fixture: 'discovery-no-declaration',
    covers: ['discovery/no-declaration'],
    expect: [W('discovery/no-declaration', 'lost', 1), W('discovery/no-declaration', 'text', 1), W('discovery/no-declaration', 'text/draft', 1)],
    accepted: ['count', 'fine'],
    checks: {
      'names the files that are not published': (ctx) => {
        expect(message(ctx, 'discovery/no-declaration', 'skills/lost')).toEqual(["'skills/lost' holds a file (references/notes.md) but no SKILL.md or skill.json, so it is not published"]);
        expect(message(ctx, 'discovery/no-declaration', 'skills/text')).toEqual(["'skills/text' holds a file (todo.txt) but no SKILL.md or skill.json, so it is not published"]);
      },
    },
  },
  {
    fixture: 'discovery-misnamed-declaration',
    covers: ['discovery/misnamed-declaration'],
    expect: [E('discovery/misnamed-declaration', 'lower/skill.md', 1), E('discovery/misnamed-declaration', 'tools/upper-json/Skill.json', 1)],
    accepted: ['fine'],
  },

  // files
  {
    fixture: 'files-symlink',
    covers: ['files/symlink'],
    setup: async (root) => {
      await mkdir(join(root, 'skills/target/references'), { recursive: true });
      await symlink('/etc/passwd', join(root, 'skills/target/references/passwd'));
      await symlink('/etc', join(root, 'skills/target/etc'));
    },
    expect: [E('files/symlink', 'target/etc', 1), E('files/symlink', 'target/references/passwd', 1)],
    accepted: [],
  },
  {
    fixture: 'files-special',
    covers: ['files/special'],
    setup: async (root) => {
      execFileSync('mkfifo', [join(root, 'skills/target/pipe')]);
    },
    expect: [E('files/special', 'target/pipe', 1)],
    accepted: [],
  },
  {
    fixture: 'files-path',
    covers: ['files/path'],
    setup: async (root) => {
      for (const name of ['what?.md', 'a#b.md', 'back\\slash.md', 'résumé.md', 'list[1].md', 'tab\tname.md', 'aux.txt', 'COM1', 'notes.', 'notes ', '%41.md', 'a:b.md', 'x|y.md']) await write(root, join('skills/target/references', name), 'x\n');
      // A category folder and a skill.json's folder named after a Windows device.
      await write(root, 'skills/Aux/tool/SKILL.md', '---\nname: tool\ndescription: In a category named Aux.\n---\n\n# Tool\n\nUse it when asked.\n');
      await write(root, 'skills/text/prn/skill.json', JSON.stringify({ name: 'printer', description: 'Prints.', category: 'text', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm' }));
      await write(root, 'skills/text/prn/prompt.md', 'Answer.\n');
    },
    expect: [
      E('files/path', 'Aux/tool/SKILL.md', 1),
      E('files/path', 'target/references/%41.md', 1),
      E('files/path', 'target/references/COM1', 1),
      E('files/path', 'target/references/a#b.md', 1),
      E('files/path', 'target/references/a:b.md', 1),
      E('files/path', 'target/references/aux.txt', 1),
      E('files/path', 'target/references/back\\slash.md', 1),
      E('files/path', 'target/references/list[1].md', 1),
      E('files/path', 'target/references/notes ', 1),
      E('files/path', 'target/references/notes.', 1),
      E('files/path', 'target/references/résumé.md', 1),
      E('files/path', 'target/references/tab\tname.md', 1),
      E('files/path', 'target/references/what?.md', 1),
      E('files/path', 'target/references/x|y.md', 1),
      E('files/path', 'text/prn/skill.json', 1),
    ],
    accepted: [],
  },
  {
    fixture: 'files-typescript-syntax',
    covers: ['files/typescript-syntax'],
    setup: async (root) => {
      await write(root, 'skills/target/scripts/colors.ts', 'export enum Color { Red, Green }\n');
      await write(root, 'skills/target/scripts/shapes.mts', 'export namespace Shapes {\n  export const sides = 4;\n}\n');
    },
    expect: [E('files/typescript-syntax', 'target/scripts/colors.ts', 1), E('files/typescript-syntax', 'target/scripts/shapes.mts', 1)],
    accepted: [],
    checks: {
      'names the construct Node cannot erase': (ctx) => expect(message(ctx, 'files/typescript-syntax', 'skills/target/scripts/colors.ts')).toEqual(["'scripts/colors.ts' cannot run: TypeScript enum is not supported in strip-only mode (Node runs TypeScript by erasing its types)"]),
    },
  },
  {
    fixture: 'files-too-large',
    covers: ['files/too-large'],
    setup: async (root) => write(root, 'skills/target/references/big.txt', 'x'.repeat(201)),
    expect: [E('files/too-large', 'target/references/big.txt', 1)],
    accepted: [],
    checks: { 'names the size and the limit': (ctx) => expect(message(ctx, 'files/too-large')).toEqual(["'references/big.txt' is 201 bytes; the limit is 200"]) },
  },
  {
    fixture: 'files-skill-too-large',
    covers: ['files/skill-too-large'],
    setup: async (root) => write(root, 'skills/target/references/half.txt', 'x'.repeat(300)),
    expect: [E('files/skill-too-large', 'target/SKILL.md', 1)],
    accepted: [],
  },
  {
    fixture: 'files-too-many',
    covers: ['files/too-many'],
    setup: async (root) => {
      await write(root, 'skills/target/references/two.md', 'two\n');
      await write(root, 'skills/target/references/three.md', 'three\n');
    },
    expect: [E('files/too-many', 'target/SKILL.md', 1)],
    accepted: [],
  },
  {
    fixture: 'files-case-collision',
    covers: ['files/case-collision'],
    // Written here, not committed: a checkout on macOS or Windows could not hold both.
    setup: async (root) => {
      await write(root, 'skills/twins/notes.md', 'lower\n');
      await write(root, 'skills/twins/NOTES.md', 'upper\n');
    },
    expect: [E('files/case-collision', 'twins/notes.md', 1)],
    accepted: [],
    checks: {
      'names both files': (ctx) =>
        expect(message(ctx, 'files/case-collision')).toEqual(["'notes.md' and 'NOTES.md' differ only in case: on macOS and Windows they are one file, so a checkout or an install keeps only one"]),
    },
  },
  {
    fixture: 'files-executable-binary',
    covers: ['files/executable-binary'],
    setup: async (root) => {
      await write(root, 'skills/target/assets/logo.png', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]));
      // A DOS header (64 bytes, binary): `MZ` alone starts text files too, so it is not enough.
      await write(root, 'skills/target/assets/tool.dll', Uint8Array.from({ length: 64 }, (_, i) => [0x4d, 0x5a, 0x90][i] ?? 0));
      await write(root, 'skills/target/assets/mod.wasm', new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
      await write(root, 'skills/target/assets/macho', new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]));
    },
    expect: [
      E('files/executable-binary', 'target/assets/logo.png', 1),
      E('files/executable-binary', 'target/assets/macho', 1),
      E('files/executable-binary', 'target/assets/mod.wasm', 1),
      E('files/executable-binary', 'target/assets/tool.dll', 1),
    ],
    accepted: [],
    checks: {
      'says what kind of executable each file is': (ctx) =>
        expect(message(ctx, 'files/executable-binary')).toEqual([
          "'assets/logo.png' is an ELF executable",
          "'assets/macho' is a Mach-O executable",
          "'assets/mod.wasm' is a WebAssembly module",
          "'assets/tool.dll' is a Windows PE executable",
        ]),
    },
  },
  {
    fixture: 'files-encoding',
    covers: ['files/encoding'],
    setup: async (root) => {
      await write(root, 'skills/target/references/notes.md', Buffer.concat([Buffer.from('ok\nfine\nbad '), Buffer.from([0xff]), Buffer.from(' here\n')]));
      await write(root, 'skills/target/assets/blob.bin', new Uint8Array([0xff, 0xfe, 0x00])); // not a text file: not checked
    },
    expect: [E('files/encoding', 'target/references/notes.md', 3)],
    accepted: [],
    checks: {
      'points at the first bad byte': (ctx) => {
        const d = ctx.result.diagnostics[0]!;
        expect([d.line, d.column, d.message]).toEqual([3, 5, "'references/notes.md' is not valid UTF-8 (first bad byte at offset 12)"]);
      },
    },
  },
  {
    fixture: 'files-hidden-unicode',
    covers: ['files/bidi', 'files/unicode-tag', 'files/zero-width'],
    setup: async (root) => {
      await write(root, 'skills/target/references/bidi.md', 'line one\naccess = "user\u202E \u2066// admin\u2069\u2066"\n');
      await write(root, 'skills/target/references/tags.md', 'one\ntwo\nhello\u{E0049}\u{E0047}\u{E004E}\n');
      await write(root, 'skills/target/references/zw.md', 'pass\u200Bword\n');
    },
    expect: [
      E('files/bidi', 'target/references/bidi.md', 2),
      E('files/unicode-tag', 'target/references/tags.md', 3),
      W('files/zero-width', 'target/references/zw.md', 1),
    ],
    accepted: [],
    checks: {
      'counts the characters and names the first code point and its column': (ctx) => {
        const [bidi, tag, zw] = ctx.result.diagnostics;
        expect([bidi!.column, bidi!.message]).toEqual([15, '4 bidirectional control characters, first U+202E']);
        expect([tag!.column, tag!.message]).toEqual([6, '3 Unicode tag characters, first U+E0049']);
        expect([zw!.column, zw!.message]).toEqual([5, '1 zero-width character, first U+200B']);
      },
    },
  },

  // frontmatter
  {
    fixture: 'frontmatter-missing',
    covers: ['frontmatter/missing'],
    expect: [E('frontmatter/missing', 'late-fm/SKILL.md', 1), E('frontmatter/missing', 'no-fm/SKILL.md', 1)],
    accepted: [],
  },
  {
    fixture: 'frontmatter-unclosed',
    covers: ['frontmatter/unclosed'],
    expect: [E('frontmatter/unclosed', 'dashes/SKILL.md', 1), E('frontmatter/unclosed', 'open/SKILL.md', 1)],
    accepted: [],
    checks: { 'uses the reference validator wording': (ctx) => expect(new Set(message(ctx, 'frontmatter/unclosed'))).toEqual(new Set(['SKILL.md frontmatter not properly closed with ---'])) },
  },
  {
    fixture: 'frontmatter-language',
    covers: ['frontmatter/language'],
    expect: [E('frontmatter/language', 'js-fm/SKILL.md', 1), E('frontmatter/language', 'toml-fm/SKILL.md', 1)],
    accepted: [],
  },
  { fixture: 'frontmatter-too-large', covers: ['frontmatter/too-large'], expect: [E('frontmatter/too-large', 'big/SKILL.md', 2)], accepted: [] },
  {
    fixture: 'frontmatter-yaml',
    covers: ['frontmatter/yaml'],
    expect: [E('frontmatter/yaml', 'colon/SKILL.md', 3), E('frontmatter/yaml', 'dupe/SKILL.md', 5), E('frontmatter/yaml', 'indent/SKILL.md', 5), E('frontmatter/yaml', 'indent/SKILL.md', 5)],
    accepted: [],
    checks: { 'a duplicate key is a YAML error at the second key': (ctx) => expect(message(ctx, 'frontmatter/yaml', 'skills/dupe/SKILL.md')).toEqual(['YAML: Map keys must be unique']) },
  },
  { fixture: 'frontmatter-alias-limit', covers: ['frontmatter/alias-limit'], expect: [E('frontmatter/alias-limit', 'lol/SKILL.md', 8)], accepted: [] },
  { fixture: 'frontmatter-too-deep', covers: ['frontmatter/too-deep'], expect: [E('frontmatter/too-deep', 'deep/SKILL.md', 7)], accepted: [] },
  {
    fixture: 'frontmatter-forbidden-key',
    covers: ['frontmatter/forbidden-key'],
    expect: [E('frontmatter/forbidden-key', 'ctor/SKILL.md', 5), E('frontmatter/forbidden-key', 'ctor/SKILL.md', 7), E('frontmatter/forbidden-key', 'proto/SKILL.md', 4)],
    accepted: [],
  },
  {
    fixture: 'frontmatter-not-a-map',
    covers: ['frontmatter/not-a-map'],
    expect: [E('frontmatter/not-a-map', 'empty/SKILL.md', 2), E('frontmatter/not-a-map', 'list/SKILL.md', 2), E('frontmatter/not-a-map', 'scalar/SKILL.md', 2)],
    accepted: [],
  },
  {
    fixture: 'frontmatter-field-type',
    covers: ['frontmatter/field-type'],
    expect: [4, 5, 6, 7, 8].map((line) => E('frontmatter/field-type', 'types/SKILL.md', line)),
    accepted: [],
  },
  {
    fixture: 'frontmatter-unknown-field',
    covers: ['frontmatter/unknown-field'],
    expect: [W('frontmatter/unknown-field', 'extra/SKILL.md', 4)],
    accepted: ['extra'],
    checks: { 'is a warning by default, so the skill is still accepted': (ctx) => expect(message(ctx, 'frontmatter/unknown-field')).toEqual(["unknown frontmatter field 'owner'"]) },
  },
  { fixture: 'unknown-field-error', covers: ['frontmatter/unknown-field'], expect: [E('frontmatter/unknown-field', 'extra/SKILL.md', 4)], accepted: [] },

  // names, description, compatibility, metadata, body
  {
    fixture: 'name-required',
    covers: ['name/required'],
    expect: [E('name/required', 'blank/SKILL.md', 2), E('name/required', 'nameless/SKILL.md', 2), E('name/required', 'numeric/SKILL.md', 2)],
    accepted: [],
    checks: {
      'a name that is not text is said to be so, not missing': (ctx) => expect(message(ctx, 'name/required', 'skills/numeric/SKILL.md')).toEqual(['name is a number (123), not text']),
    },
  },
  {
    fixture: 'name-charset',
    covers: ['name/charset'],
    expect: [E('name/charset', 'My_Skill/SKILL.md', 2), E('name/charset', 'dot.name/SKILL.md', 2)],
    accepted: [],
  },
  {
    fixture: 'skill-json-name',
    covers: ['name/charset'],
    expect: [E('name/charset', 'CodeReview/skill.json', 2), E('name/charset', 'kebab-case/skill.json', 2)],
    accepted: ['snake_ok'],
  },
  {
    fixture: 'name-length',
    covers: ['name/length'],
    expect: [E('name/length', `${'a'.repeat(65)}/SKILL.md`, 2)],
    accepted: [],
    checks: { 'says how long the name is': (ctx) => expect(message(ctx, 'name/length')[0]).toMatch(/exceeds 64 character limit \(65 chars\)$/) },
  },
  {
    // Only nul_ (installed as nul) is committed: a folder named con or lpt9 in this repository would break its own Windows checkout.
    fixture: 'name-windows-device',
    covers: ['name/windows-device'],
    setup: async (root) => {
      for (const name of ['con', 'lpt9']) await write(root, `skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: A skill named after a Windows device.\n---\n\n# Skill\n\nFollow these steps when the user asks for it.\n`);
      // A skill.json's folder need not be its name (a folder named com1 is files/path's).
      await write(root, 'skills/text/serial/skill.json', (await readFile(join(root, 'skills/text/nul_/skill.json'), 'utf8')).replaceAll('nul_', 'com1'));
      await write(root, 'skills/text/serial/prompt.md', 'You are a careful assistant. Answer from the input only.\n');
    },
    expect: [E('name/windows-device', 'con/SKILL.md', 2), E('name/windows-device', 'lpt9/SKILL.md', 2), E('name/windows-device', 'text/nul_/skill.json', 2), E('name/windows-device', 'text/serial/skill.json', 2)],
    accepted: [],
    checks: {
      'names the device and, for a function, the folder it is installed into': (ctx) => {
        expect(message(ctx, 'name/windows-device', 'skills/con/SKILL.md')[0]).toMatch(/^Skill name 'con' is a device name on Windows \(CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9\)/);
        expect(message(ctx, 'name/windows-device', 'skills/text/nul_/skill.json')[0]).toMatch(/^Function name 'nul_' is installed as folder 'nul', a device name on Windows/);
        expect(ctx.result.diagnostics.find((d) => d.file === 'skills/text/nul_/skill.json')?.hint).toBe("choose another name, e.g. 'nul_skill'");
      },
    },
  },
  {
    fixture: 'name-hyphens',
    covers: ['name/hyphens'],
    expect: [E('name/hyphens', '-lead/SKILL.md', 2), E('name/hyphens', 'double--dash/SKILL.md', 2), E('name/hyphens', 'trail-/SKILL.md', 2)],
    accepted: [],
    checks: {
      'uses the reference validator wording': (ctx) => {
        expect(message(ctx, 'name/hyphens', 'skills/double--dash/SKILL.md')).toEqual(['Skill name cannot contain consecutive hyphens']);
        expect(message(ctx, 'name/hyphens', 'skills/trail-/SKILL.md')).toEqual(['Skill name cannot start or end with a hyphen']);
      },
    },
  },
  {
    fixture: 'name-folder-mismatch',
    covers: ['name/folder-mismatch'],
    expect: [E('name/folder-mismatch', 'pdf-tools/SKILL.md', 2)],
    accepted: [],
    checks: { 'uses the reference validator wording': (ctx) => expect(message(ctx, 'name/folder-mismatch')).toEqual(["Directory name 'pdf-tools' must match skill name 'pdf-tool'"]) },
  },
  {
    fixture: 'description-required',
    covers: ['description/required'],
    expect: [E('description/required', 'empty/SKILL.md', 3), E('description/required', 'flagged/SKILL.md', 3), E('description/required', 'json_empty/skill.json', 3), E('description/required', 'missing/SKILL.md', 2)],
    accepted: [],
    checks: {
      'a description that is not text is said to be so, not missing': (ctx) => expect(message(ctx, 'description/required', 'skills/flagged/SKILL.md')).toEqual(['description is true or false (true), not text']),
    },
  },
  {
    fixture: 'description-length',
    covers: ['description/length'],
    expect: [E('description/length', 'long/SKILL.md', 3)],
    accepted: [],
    checks: { 'uses the reference validator wording': (ctx) => expect(message(ctx, 'description/length')).toEqual(['Description exceeds 1024 character limit (1025 chars)']) },
  },
  {
    fixture: 'text-control-chars',
    covers: ['text/control-chars'],
    expect: [
      E('text/control-chars', 'esc-tag/SKILL.md', 6),
      E('text/control-chars', 'json_ctrl/skill.json', 3),
      E('text/control-chars', 'osc-title/SKILL.md', 3),
      E('text/control-chars', 'other-fields/SKILL.md', 4),
      E('text/control-chars', 'other-fields/SKILL.md', 5),
      E('text/control-chars', 'other-fields/SKILL.md', 7),
    ],
    accepted: ['multi-line'],
    checks: {
      'names the field, the character and where it is, and links the rule': (ctx) => {
        expect(message(ctx, 'text/control-chars', 'skills/osc-title/SKILL.md')).toEqual(['description contains the control character U+001B at character 15']);
        expect(message(ctx, 'text/control-chars', 'skills/esc-tag/SKILL.md')).toEqual(['tags.1 contains the control character U+001B at character 1']);
        expect(message(ctx, 'text/control-chars', 'skills/other-fields/SKILL.md')).toEqual(['license contains the control character U+001B at character 4', 'compatibility contains the control character U+001B at character 2', 'metadata.k contains the control character U+001B at character 2']);
        expect(formatHuman({ diagnostics: ctx.result.diagnostics.filter((d) => d.rule === 'text/control-chars') })).toContain('docs/rules.md#text-control-chars');
      },
    },
  },
  {
    fixture: 'tags-too-many',
    covers: ['tags/too-many'],
    expect: [E('tags/too-many', 'crowded/SKILL.md', 4), E('tags/too-many', 'crowded_json/skill.json', 5)],
    accepted: [],
    checks: {
      'says how many tags there are and how many are allowed': (ctx) =>
        expect(message(ctx, 'tags/too-many')).toEqual(['33 tags; at most 32 are allowed', '33 tags; at most 32 are allowed']),
    },
  },
  {
    fixture: 'compatibility-length',
    covers: ['compatibility/length'],
    expect: [E('compatibility/length', 'empty/SKILL.md', 4), E('compatibility/length', 'too-long/SKILL.md', 4)],
    accepted: [],
  },
  {
    fixture: 'metadata-nested',
    covers: ['metadata/nested'],
    expect: [W('metadata/nested', 'meta/SKILL.md', 6), W('metadata/nested', 'meta/SKILL.md', 8), W('metadata/nested', 'meta/SKILL.md', 9), W('metadata/nested', 'meta/SKILL.md', 10)],
    accepted: ['meta'],
    checks: {
      'nested metadata is kept as written': (ctx) => expect(draft(ctx, 'meta').metadata).toEqual({ author: 'a', owners: ['x', 'y'], extra: { k: 'v' }, count: 3, empty: null }),
      'says what each value is': (ctx) =>
        expect(message(ctx, 'metadata/nested')).toEqual(['metadata.owners is a list, not a string', 'metadata.extra is a mapping, not a string', 'metadata.count is a number, not a string', 'metadata.empty is null, not a string']),
    },
  },
  { fixture: 'description-placeholder', covers: ['description/placeholder'], expect: [W('description/placeholder', 'fresh/SKILL.md', 3)], accepted: ['fresh'] },
  { fixture: 'body-empty', covers: ['body/empty'], expect: [W('body/empty', 'hollow/SKILL.md', 2)], accepted: ['hollow'] },
  {
    fixture: 'body-broken-link',
    covers: ['body/broken-link'],
    expect: [W('body/broken-link', 'linker/SKILL.md', 8), W('body/broken-link', 'linker/SKILL.md', 10), W('body/broken-link', 'linker/SKILL.md', 10)],
    accepted: ['linker'],
  },
  {
    fixture: 'body-too-long',
    covers: ['body/too-long'],
    expect: [W('body/too-long', 'five/SKILL.md', 5), W('body/too-long', 'verbose/SKILL.md', 5)],
    accepted: ['five', 'verbose'],
    checks: {
      'counts the lines of the body, not the empty string after its final newline': (ctx) => {
        expect(message(ctx, 'body/too-long', 'skills/five/SKILL.md')[0]).toMatch(/^the body has 5 lines/);
        expect(message(ctx, 'body/too-long', 'skills/verbose/SKILL.md')[0]).toMatch(/^the body has 4 lines/);
      },
    },
  },
  {
    fixture: 'body-too-large',
    covers: ['body/too-large'],
    // One line of prose, and Chinese at about one token a character: few lines, many tokens.
    expect: [W('body/too-large', 'cjk-long/SKILL.md', 5), W('body/too-large', 'one-line/SKILL.md', 5)],
    accepted: ['cjk-long', 'one-line'],
    checks: {
      'gives the estimate and the budget': (ctx) => {
        expect(message(ctx, 'body/too-large', 'skills/one-line/SKILL.md')).toEqual(['the body is about 102 tokens (guidance: under 100); agents load all of it']);
        expect(message(ctx, 'body/too-large', 'skills/cjk-long/SKILL.md')[0]).toMatch(/^the body is about 102 tokens/);
      },
    },
  },

  // extended package
  { fixture: 'package-version', covers: ['package/version'], expect: [E('package/version', 'short/SKILL.md', 4), E('package/version', 'words/SKILL.md', 4)], accepted: [] },
  {
    fixture: 'package-required-field',
    covers: ['package/required-field'],
    expect: [E('package/required-field', 'no-author/SKILL.md', 2), E('package/required-field', 'no-author/SKILL.md', 2)],
    accepted: [],
  },
  {
    fixture: 'package-resources',
    covers: ['package/resource-missing', 'package/resource-escape'],
    expect: [
      E('package/resource-missing', 'res/SKILL.md', 6),
      E('package/resource-escape', 'res/SKILL.md', 8),
      E('package/resource-escape', 'res/SKILL.md', 9),
      E('package/resource-escape', 'res/SKILL.md', 10),
      E('package/resource-missing', 'res/SKILL.md', 11),
    ],
    accepted: [],
  },
  {
    fixture: 'package-code-outside-scripts',
    covers: ['package/code-outside-scripts'],
    // Reported on the offending files themselves, so a reviewer lands on the code to move.
    expect: [E('package/code-outside-scripts', 'loose/helper.py', 1), E('package/code-outside-scripts', 'loose/lib/util.js', 1)],
    accepted: [],
    checks: {
      'names each file': (ctx) => expect(message(ctx, 'package/code-outside-scripts')).toEqual(["executable code 'helper.py' lies outside scripts/", "executable code 'lib/util.js' lies outside scripts/"]),
    },
  },
  {
    // Two entry candidates under scripts/ and no resources.entry: the catalog promises an error.
    fixture: 'package-entry-missing',
    covers: ['package/entry-missing'],
    expect: [E('package/entry-missing', 'two-entries/SKILL.md', 6)],
    accepted: [],
  },
  {
    // An entry without a language's extension: the runner would have nothing to start, and the
    // skill was published as an instructions skill without a word.
    fixture: 'package-entry-not-runnable',
    covers: ['package/entry-not-runnable'],
    expect: [E('package/entry-not-runnable', 'no-ext/SKILL.md', 6)],
    accepted: [],
    checks: {
      'names the entry and the extensions that run': (ctx) => {
        expect(message(ctx, 'package/entry-not-runnable')).toEqual(["resources.entry './scripts/run' is not a program the runner can start, so the skill would be published with nothing to run"]);
        expect(ctx.result.diagnostics.find((d) => d.rule === 'package/entry-not-runnable')?.hint).toContain('.py, .sh, .bash');
      },
    },
  },
  { fixture: 'package-legacy-permissions', covers: ['package/legacy-permissions'], expect: [W('package/legacy-permissions', 'legacy/SKILL.md', 6)], accepted: ['legacy'] },
  {
    fixture: 'package-reserved-environment',
    covers: ['package/reserved-environment'],
    expect: [9, 10, 11, 12, 13, 14].map((line) => E('package/reserved-environment', 'node-probe/SKILL.md', line)),
    accepted: [],
    checks: {
      'each message names the variable and why the runner refuses it': (ctx) =>
        expect(message(ctx, 'package/reserved-environment')).toEqual([
          'security.environment sets "NODE_OPTIONS", which controls how Node starts and what it loads (NODE_OPTIONS can switch off the runner\'s permission model)',
          'security.environment sets "LD_PRELOAD", which controls the dynamic linker: it would load a library of the skill\'s choosing into the interpreter',
          'security.environment sets "PYTHONPATH", which controls how Python starts and what it imports',
          'security.environment sets "PATH", which chooses which interpreter and tools run; the runner sets it',
          'security.environment sets "node_path", which controls how Node starts and what it loads (NODE_OPTIONS can switch off the runner\'s permission model)',
          'security.environment sets "HOME", which is set by the runner for every run (the run\'s own home and temporary folders, the skill folder, the network proxy, the service channel); a declared value would never be used',
        ]),
    },
  },
  {
    fixture: 'frontmatter-non-finite',
    covers: ['frontmatter/field-type'],
    expect: [E('frontmatter/field-type', 'infinite/SKILL.md', 8), E('frontmatter/field-type', 'infinite/SKILL.md', 10), W('metadata/nested', 'infinite/SKILL.md', 10)],
    accepted: [],
    checks: {
      'names each .inf and .nan, and leaves a quoted one alone': (ctx) =>
        expect(message(ctx, 'frontmatter/field-type')).toEqual([
          'input_schema.properties.limit.maximum: .inf and .nan cannot be published, as JSON has no such numbers (the manifest would hold null)',
          'metadata.ratio: .inf and .nan cannot be published, as JSON has no such numbers (the manifest would hold null)',
        ]),
    },
  },
  {
    fixture: 'package-field-types',
    covers: ['frontmatter/field-type'],
    expect: [E('frontmatter/field-type', 'numver/SKILL.md', 4), ...[5, 7, 8, 9, 10].map((line) => E('frontmatter/field-type', 'typed/SKILL.md', line))],
    accepted: [],
    checks: {
      'type outside the enum and triggers.priority above 1 are named by path': (ctx) => {
        const msgs = message(ctx, 'frontmatter/field-type', 'skills/typed/SKILL.md');
        expect(msgs.some((m) => m.startsWith('type: Invalid option'))).toBe(true);
        expect(msgs.some((m) => m.startsWith('triggers.priority: Too big'))).toBe(true);
      },
    },
  },

  // schemas
  {
    fixture: 'schema-invalid',
    covers: ['schema/invalid'],
    expect: [
      E('schema/invalid', 'bad-schema/SKILL.md', 8),
      E('schema/invalid', 'bad-schema/SKILL.md', 9),
      E('frontmatter/field-type', 'bad-schema/SKILL.md', 10),
      E('schema/invalid', 'bad-schema/SKILL.md', 10),
      E('schema/invalid', 'bad_json_schema/skill.json', 7),
      E('schema/invalid', 'bad_json_schema/skill.json', 10),
    ],
    accepted: [],
  },
  {
    fixture: 'schema-remote-ref',
    covers: ['schema/remote-ref'],
    expect: [E('schema/remote-ref', 'remote/SKILL.md', 8), E('schema/remote-ref', 'remote_json/skill.json', 17)],
    accepted: [],
  },
  {
    fixture: 'schema-unsafe-pattern',
    covers: ['schema/unsafe-pattern'],
    expect: [E('schema/unsafe-pattern', 'backref/SKILL.md', 8), E('schema/unsafe-pattern', 'backref/SKILL.md', 9), E('schema/unsafe-pattern', 'backref/SKILL.md', 11)],
    accepted: [],
  },

  // skill.json
  {
    fixture: 'skill-json-syntax',
    covers: ['skill-json/syntax'],
    expect: [E('skill-json/syntax', 'dupe_key/skill.json', 8), E('skill-json/syntax', 'trailing/skill.json', 5), E('skill-json/syntax', 'truncated/skill.json', 3)],
    accepted: [],
    checks: {
      'reports line and column of the trailing comma error': (ctx) => {
        const d = ctx.result.diagnostics.find((x) => x.file === 'skills/trailing/skill.json')!;
        expect([d.line, d.column]).toEqual([5, 1]);
      },
    },
  },
  { fixture: 'skill-json-too-deep', covers: ['skill-json/too-deep'], expect: [E('skill-json/too-deep', 'deep_json/skill.json', 11)], accepted: [] },
  {
    fixture: 'skill-json-forbidden-key',
    covers: ['skill-json/forbidden-key'],
    expect: [E('skill-json/forbidden-key', 'proto_json/skill.json', 5), E('skill-json/forbidden-key', 'proto_json/skill.json', 8)],
    accepted: [],
  },
  {
    fixture: 'skill-json-meta-schema',
    covers: ['skill-json/meta-schema'],
    expect: [
      E('skill-json/meta-schema', 'array_json/skill.json', 1),
      E('skill-json/meta-schema', 'bad_mode/skill.json', 24),
      E('skill-json/meta-schema', 'bad_types/skill.json', 25),
      E('skill-json/meta-schema', 'bad_types/skill.json', 26),
      E('skill-json/meta-schema', 'bad_types/skill.json', 28),
      E('skill-json/meta-schema', 'no_category/skill.json', 1),
      E('skill-json/meta-schema', 'no_mode/skill.json', 1),
      E('skill-json/meta-schema', 'unknown_field/skill.json', 25),
    ],
    accepted: [],
    checks: {
      'a missing field is reported as missing': (ctx) => expect(message(ctx, 'skill-json/meta-schema', 'skills/no_category/skill.json')).toEqual(["missing required field 'category'"]),
      'a missing field of fixed values is reported as missing, with its values': (ctx) =>
        expect(message(ctx, 'skill-json/meta-schema', 'skills/no_mode/skill.json')).toEqual(['missing required field \'mode\' (one of "code", "llm", "composite")']),
      'an unknown field is named': (ctx) => expect(message(ctx, 'skill-json/meta-schema', 'skills/unknown_field/skill.json')[0]).toMatch(/^unknown field 'icon'/),
      'a field of the wrong type is not reported as missing': (ctx) => {
        for (const m of message(ctx, 'skill-json/meta-schema', 'skills/bad_types/skill.json')) expect(m).not.toMatch(/missing required field/);
      },
    },
  },
  {
    fixture: 'skill-json-body-missing',
    covers: ['skill-json/body-missing'],
    expect: [E('skill-json/body-missing', 'code_no_index/skill.json', 24), E('skill-json/body-missing', 'composite_empty/skill.json', 24), E('skill-json/body-missing', 'llm_no_prompt/skill.json', 24)],
    accepted: ['code_js'],
  },

  // pipelines
  { fixture: 'pipeline-undeclared-call', covers: ['pipeline/undeclared-call'], expect: [E('pipeline/undeclared-call', 'flow/skill.json', 38)], accepted: ['leaf_a', 'leaf_b'] },
  { fixture: 'pipeline-duplicate-step', covers: ['pipeline/duplicate-step'], expect: [E('pipeline/duplicate-step', 'flow/skill.json', 38)], accepted: ['leaf_a', 'leaf_b'] },
  {
    fixture: 'pipeline-template',
    covers: ['pipeline/template'],
    expect: [34, 41, 42, 43, 48, 49].map((line) => E('pipeline/template', 'flow/skill.json', line)),
    accepted: ['leaf_a', 'leaf_b'],
    checks: {
      'a later step and an undeclared input are named': (ctx) => {
        const msgs = message(ctx, 'pipeline/template');
        expect(msgs[0]).toBe("{{steps.two.result}} refers to step 'two', which does not run before this point");
        expect(msgs[1]).toBe("{{input.missing}} refers to 'missing', which the input schema does not declare");
      },
    },
  },
  // The ignored pipeline calls a skill "calls" does not list, repeats a step id and refers to a
  // later step: none of that is reported, as the pipeline never runs.
  { fixture: 'pipeline-not-composite', covers: ['pipeline/not-composite'], expect: [W('pipeline/not-composite', 'flow/skill.json', 28)], accepted: ['flow', 'leaf_a', 'leaf_b'] },

  // registry
  {
    fixture: 'registry-duplicate-name',
    covers: ['registry/duplicate-name'],
    // Each duplicate points at its `name` value: line 2 in both formats.
    expect: [E('registry/duplicate-name', 'json/pdf/skill.json', 2), E('registry/duplicate-name', 'tools/pdf/SKILL.md', 2)],
    accepted: ['pdf'],
    checks: {
      'the first by path is kept': (ctx) => expect(draft(ctx, 'pdf').sourcePath).toBe('skills/docs/pdf'),
      'each duplicate names the kept skill as a related location, and the human output shows it': (ctx) => {
        const dup = ctx.result.diagnostics.find((d) => d.rule === 'registry/duplicate-name' && d.file === 'skills/tools/pdf/SKILL.md');
        expect(dup?.related).toEqual([{ file: 'skills/docs/pdf/SKILL.md', line: 2, column: 7, message: "'pdf' is declared here" }]);
        expect(formatHuman({ diagnostics: [dup!] })).toContain('\n    skills/docs/pdf/SKILL.md:2:7  \'pdf\' is declared here\n');
      },
    },
  },
  {
    fixture: 'registry-broken-link',
    covers: ['registry/broken-link'],
    expect: [W('registry/broken-link', 'linker/SKILL.md', 10), W('registry/broken-link', 'linker/SKILL.md', 10), W('registry/broken-link', 'linker/SKILL.md', 12), W('registry/broken-link', 'linker/references/more.md', 3)],
    // A warning: the linking skill is published all the same.
    accepted: ['linker', 'other'],
    checks: {
      'names what is missing, and the skill a misspelt link meant': (ctx) => {
        const found = ctx.result.diagnostics.map((d) => `${d.message} | ${d.hint}`);
        expect(found).toContain("the link '../gone/SKILL.md' points to skills/gone/SKILL.md, but no skill of the registry is there | fix the link to name another skill's folder or one of its files (relative to the file the link is in, and case-sensitive), or remove it");
        expect(found).toContain("the link '../tools/otter/SKILL.md' points to skills/tools/otter/SKILL.md, but no skill of the registry is there | did you mean '../tools/other/SKILL.md'? A link is relative to the file it is in");
        expect(found).toContain("the link '../tools/other/SETUP.md' points to skills/tools/other/SETUP.md, which skill 'other' does not have | link to a file the skill has, such as ../tools/other/SKILL.md (paths are case-sensitive)");
      },
    },
  },
  { fixture: 'registry-unknown-call', covers: ['registry/unknown-call'], expect: [E('registry/unknown-call', 'caller/skill.json', 26)], accepted: ['leaf'] },
  {
    // The callees are there, but their declarations do not parse or miss a field: saying "not in the registry" sent authors looking for a typo.
    fixture: 'registry-unknown-call-unreadable',
    covers: ['registry/unknown-call'],
    expect: [
      E('frontmatter/yaml', 'bad-yaml/SKILL.md', 4), E('skill-json/syntax', 'broken_json/skill.json', 4),
      E('registry/unknown-call', 'caller/skill.json', 26), E('registry/unknown-call', 'caller/skill.json', 27), E('registry/unknown-call', 'caller/skill.json', 28),
      E('skill-json/meta-schema', 'text/no-input/skill.json', 1),
    ],
    accepted: [],
    checks: {
      "quotes each callee's own first error and points at it": (ctx) => {
        const calls = ctx.result.diagnostics.filter((d) => d.rule === 'registry/unknown-call');
        expect(calls.map((d) => d.message)).toEqual([
          "'caller' calls 'broken_json', which is not published: skills/broken_json/skill.json has errors (skill-json/syntax: invalid JSON: Expected double-quoted property name)",
          "'caller' calls 'bad-yaml', which is not published: skills/bad-yaml/SKILL.md has errors (frontmatter/yaml: YAML: Flow sequence in block collection must be sufficiently indented and end with a ])",
          "'caller' calls 'no_input', which is not published: skills/text/no-input/skill.json has errors (skill-json/meta-schema: missing required field 'input')",
        ]);
        expect(calls.map((d) => d.hint)).toEqual(['fix skills/broken_json/skill.json first', 'fix skills/bad-yaml/SKILL.md first', 'fix skills/text/no-input/skill.json first']);
        expect(calls[0]?.related).toEqual([{ file: 'skills/broken_json/skill.json', line: 4, column: 22, message: "why 'broken_json' is not published" }]);
      },
    },
  },
  {
    fixture: 'registry-call-cycle',
    covers: ['registry/call-cycle'],
    expect: [E('registry/unknown-call', 'bystander/skill.json', 26), E('registry/call-cycle', 'narcissus/skill.json', 25), E('registry/call-cycle', 'ping/skill.json', 25), E('registry/call-cycle', 'pong/skill.json', 25)],
    // bystander calls ping, which is rejected: it cannot run, so it must not be published either.
    accepted: [],
    checks: {
      'names the whole cycle and a self-call': (ctx) => {
        expect(message(ctx, 'registry/call-cycle', 'skills/ping/skill.json')).toEqual(['calls form a cycle: ping → pong → ping']);
        expect(message(ctx, 'registry/call-cycle', 'skills/narcissus/skill.json')).toEqual(['calls form a cycle: narcissus → narcissus']);
      },
    },
  },
  {
    fixture: 'registry-cross-format-collision',
    covers: ['registry/cross-format-collision'],
    // A newcomer must not take the other's place in the discovery indexes: neither is published.
    expect: [E('registry/cross-format-collision', 'code-review/SKILL.md', 2), E('registry/cross-format-collision', 'code_review/skill.json', 2)],
    accepted: [],
    checks: {
      'each names the other and the shared published name': (ctx) => {
        expect(message(ctx, 'registry/cross-format-collision', 'skills/code_review/skill.json')).toEqual(["'code_review' is published as 'code-review', as is 'code-review' (skills/code-review/SKILL.md)"]);
      },
    },
  },

  // config severity overrides
  {
    fixture: 'internal-held-back',
    covers: ['internal/held-back'],
    expect: [E('internal/held-back', 'tabs/SKILL.md', 1)],
    accepted: ['good'],
    checks: { "names the rule the config turned off": (ctx) => expect(message(ctx, 'internal/held-back', 'skills/tabs/SKILL.md')).toEqual([expect.stringContaining("'frontmatter/yaml'")]) },
  },
  {
    fixture: 'config-severity',
    covers: [],
    expect: [E('body/empty', 'hollow/SKILL.md', 2), W('frontmatter/unknown-field', 'hollow/SKILL.md', 4)],
    accepted: ['fine'],
    checks: { 'a warning raised to error rejects the skill; "off" silences metadata/nested': (ctx) => expect(ctx.result.rejected.map((r) => [r.dir, r.errors.map((e) => e.rule)])).toEqual([['skills/hollow', ['body/empty']]]) },
  },
  {
    // Importing public collections (name ≠ folder is common) is why severities are configurable.
    fixture: 'config-downgrade',
    covers: [],
    expect: [W('name/folder-mismatch', 'pdf-tools/SKILL.md', 2)],
    accepted: ['pdf-tool'],
    checks: { 'no skill is rejected without an error that says why': (ctx) => expect(ctx.result.rejected.filter((r) => r.errors.length === 0)).toEqual([]) },
  },
];
