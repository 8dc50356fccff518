/**
 * Pure frontmatter splitting and YAML parsing: no disk, no registry. Positions are asserted as
 * 1-based line/column in the whole SKILL.md, because that is what a contributor's editor shows.
 */
import { describe, expect, it, vi } from 'vitest';
import { FORBIDDEN_KEYS, parseFrontmatter, type Frontmatter } from '../../../src/core/parse/frontmatter.ts';
import { decodeUtf8, positionAt, sourceFromString, type SourceText } from '../../../src/core/parse/source-text.ts';

const LIMITS = { maxFrontmatterBytes: 64 * 1024, maxDepth: 32, maxAliases: 100 };

const parse = (text: string, limits: Partial<typeof LIMITS> = {}) => {
  const source = sourceFromString(text);
  return { fm: parseFrontmatter(source, { ...LIMITS, ...limits }), source };
};
/** Problems as `rule line:column`. */
const problems = (fm: Frontmatter, source: SourceText) =>
  fm.problems.map((p) => {
    const at = positionAt(source, p.offset);
    return `${p.rule} ${at.line}:${at.column}`;
  });

describe('splitting', () => {
  it('splits data and body, and the body starts after the closing line', () => {
    const text = '---\nname: a\ndescription: b\n---\n# Title\n\nText.\n';
    const { fm, source } = parse(text);
    expect(fm.problems).toEqual([]);
    expect(fm.data).toEqual({ name: 'a', description: 'b' });
    expect(fm.body).toBe('# Title\n\nText.\n');
    expect(text.slice(fm.bodyOffset)).toBe(fm.body);
    expect(positionAt(source, fm.bodyOffset)).toEqual({ line: 5, column: 1 });
  });

  it('accepts a file that ends right after the closing ---', () => {
    const { fm } = parse('---\nname: a\ndescription: b\n---');
    expect(fm.problems).toEqual([]);
    expect(fm.body).toBe('');
  });

  it('tolerates a BOM (stripped by decoding) and keeps positions true to the file', () => {
    const bytes = new TextEncoder().encode('\uFEFF---\nname: a\ndescription: b\n---\nBody\n');
    const decoded = decodeUtf8(bytes);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.source.bom).toBe(true);
    const fm = parseFrontmatter(decoded.source, LIMITS);
    expect(fm.data).toEqual({ name: 'a', description: 'b' });
    expect(fm.locate(['description'])).toEqual({ line: 3, column: 14 });
  });

  it('tolerates CRLF: values carry no CR, the body keeps its line endings, lines are counted right', () => {
    const { fm } = parse('---\r\nname: a\r\ndescription: >-\r\n  two\r\n  lines\r\nlicense: MIT\r\n---\r\nBody\r\nmore\r\n');
    expect(fm.problems).toEqual([]);
    expect(fm.data).toEqual({ name: 'a', description: 'two lines', license: 'MIT' });
    expect(fm.body).toBe('Body\r\nmore\r\n');
    expect(fm.locate(['license'])).toEqual({ line: 6, column: 10 });
  });

  it('allows ---yaml as the opening line', () => {
    const { fm } = parse('---yaml\nname: a\ndescription: b\n---\nBody\n');
    expect(fm.problems).toEqual([]);
    expect(fm.data).toEqual({ name: 'a', description: 'b' });
  });

  it('ends the frontmatter only at a line that is --- alone (trailing blanks allowed)', () => {
    const text = [
      '---',
      'name: a',
      'description: "a --- b"',
      'inline: x---y',
      'block: |',
      '  first',
      '  ---',
      '  last',
      'folded: >',
      '  ---not a fence',
      '--- ',
      'Body',
      '---',
      'more body',
      '',
    ].join('\n');
    const { fm } = parse(text);
    expect(fm.problems).toEqual([]);
    expect(fm.data).toEqual({ name: 'a', description: 'a --- b', inline: 'x---y', block: 'first\n---\nlast\n', folded: '---not a fence\n' });
    expect(fm.body).toBe('Body\n---\nmore body\n');
  });

  it('does not take ---- or ---text as the closing line', () => {
    const { fm, source } = parse('---\nname: a\n----\n---x\n');
    expect(problems(fm, source)).toEqual(['frontmatter/unclosed 1:1']);
    expect(fm.problems[0]?.message).toBe('SKILL.md frontmatter not properly closed with ---');
  });
});

describe('refusals', () => {
  it.each(['js', 'javascript', 'coffee', 'coffeescript', 'cson', 'json', 'toml', ' js'])('refuses ---%s without evaluating it', (lang) => {
    const marker = `__skilldexFrontmatter_${lang.trim()}`;
    const { fm, source } = parse(`---${lang}\nglobalThis.${marker} = true; ({ name: 'x' })\n---\nBody\n`);
    expect(problems(fm, source)).toEqual(['frontmatter/language 1:4']);
    expect(fm.data).toBeUndefined();
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
  });

  it('says a file whose lines end in CR alone has no line the frontmatter could start on', () => {
    const { fm, source } = parse('---\rname: a\rdescription: b\r---\rBody\r');
    expect(problems(fm, source)).toEqual(['frontmatter/missing 1:1']);
    expect(fm.problems[0]!.message).toContain('ends its lines with CR alone');
    expect(fm.problems[0]!.hint).toBe('save the file with LF (or CRLF) line endings');
  });

  it('reports a file without frontmatter, including one that starts with a blank line', () => {
    for (const text of ['# Title\n', '\n---\nname: a\n---\n', '', ' ---\nname: a\n---\n']) {
      const { fm, source } = parse(text);
      expect(problems(fm, source), JSON.stringify(text)).toEqual(['frontmatter/missing 1:1']);
      expect(fm.body).toBe(text);
    }
  });

  it('reports YAML syntax errors with line and column in the file', () => {
    const { fm, source } = parse('---\nname: a\ndescription: [unclosed\nlicense: MIT\n---\nBody\n');
    expect(fm.data).toBeUndefined();
    expect(fm.problems.length).toBeGreaterThan(0);
    expect(new Set(fm.problems.map((p) => p.rule))).toEqual(new Set(['frontmatter/yaml']));
    const first = positionAt(source, fm.problems[0]!.offset);
    expect(first.line).toBeGreaterThanOrEqual(3);
    expect(first.line).toBeLessThanOrEqual(5);
    expect(fm.problems[0]!.message).toMatch(/^YAML: /);
    expect(fm.problems[0]!.message).not.toContain('\n');
  });

  it('reports an unquoted ": " at the value', () => {
    const { fm, source } = parse('---\nname: a\ndescription: Use it: when asked\n---\n');
    expect(problems(fm, source)).toEqual(['frontmatter/yaml 3:14']);
  });

  it('reports a duplicate key at the second occurrence', () => {
    const { fm, source } = parse('---\nname: a\ndescription: b\nname: c\n---\n');
    expect(problems(fm, source)).toEqual(['frontmatter/yaml 4:1']);
  });

  it('gives the hint that fits the mistake: quoting, a repeated field, tabs, an open quote, alignment', () => {
    const hintFor = (yaml: string) => parse(`---\n${yaml}---\n`).fm.problems[0]?.hint;
    expect(hintFor("name: a\ndescription: Use it: when asked\n")).toMatch(/^quote a value that contains `: `/);
    expect(hintFor('name: a\nname: b\n')).toBe('write each field once; remove or merge the repeated one');
    expect(hintFor('name: a\nmetadata:\n\tkey: v\n')).toMatch(/^indent with spaces/);
    expect(hintFor('name: "a\ndescription: b\n')).toMatch(/^close the quote/);
    expect(hintFor('tags:\n  - a\n  b: c\n')).toMatch(/^line up the fields/);
    expect(hintFor('name: a\ndescription: @mention me\n')).toMatch(/^quote the value/);
    expect(hintFor('name: a\ntags: [a, b\nlicense: MIT\n')).toMatch(/^close the bracket/);
    expect(hintFor('name: a\nmetadata:\n  author: me\n   team: x\n')).toMatch(/line up the fields/);
  });

  it('reports an unclosed quote where the quoted value opens, not at the end of the frontmatter', () => {
    const double = parse('---\nname: a\ndescription: "Use it\nlicense: MIT\n---\n');
    expect(problems(double.fm, double.source)).toEqual(['frontmatter/yaml 3:14']);
    const single = parse("---\nname: a\nmetadata:\n  x: 'Use it\nlicense: MIT\n---\n");
    expect(problems(single.fm, single.source)).toEqual(['frontmatter/yaml 4:6']);
  });

  it('reports an alias that refers to no anchor as YAML, where it is, with a hint to quote it', () => {
    const { fm, source } = parse('---\nname: a\ndescription: b\nauthor: *me\n---\n');
    expect(problems(fm, source)).toEqual(['frontmatter/yaml 4:9']);
    expect(fm.problems[0]).toMatchObject({ message: 'YAML: the alias *me refers to no anchor', hint: expect.stringMatching(/^quote the value/) });
    const early = parse('---\nname: a\ndescription: *d\nother: &d text\n---\n');
    expect(early.fm.problems.map((p) => p.rule)).toEqual(['frontmatter/yaml']);
    expect(early.fm.problems[0]?.hint).toMatch(/^define the anchor/);
  });

  it('refuses a tag it cannot resolve rather than reading the value after it as a string', () => {
    const { fm, source } = parse("---\nname: a\ndescription: !!js/function 'function () { return process.env }'\ntags: !custom [x]\n---\n");
    expect(problems(fm, source)).toEqual(['frontmatter/yaml 3:14', 'frontmatter/yaml 4:7']);
    expect(fm.problems[0]?.message).toBe('YAML: Unresolved tag: tag:yaml.org,2002:js/function');
    expect(fm.data).toBeUndefined();
  });

  it('accepts the core schema tags (!!str, !!int)', () => {
    const { fm } = parse('---\nname: a\ndescription: !!str 123\nversion: !!int "2"\n---\n');
    expect(fm.problems).toEqual([]);
    expect(fm.data).toEqual({ name: 'a', description: '123', version: 2 });
  });

  it('reports the same errors every time (no cache shared between calls)', () => {
    const text = '---\nname: [\n---\n';
    const first = parse(text).fm.problems;
    const second = parse(text).fm.problems;
    expect(first.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
    expect(parse('---\nname: a\n---\n').fm.data).toEqual({ name: 'a' });
  });

  it.each([
    ['an empty block', '---\n---\n', 'frontmatter/not-a-map 2:1'],
    ['a list', '---\n- a\n- b\n---\n', 'frontmatter/not-a-map 2:1'],
    ['a scalar', '---\nhello\n---\n', 'frontmatter/not-a-map 2:1'],
  ])('refuses %s', (_what, text, expected) => {
    const { fm, source } = parse(text);
    expect(problems(fm, source)).toEqual([expected]);
    expect(fm.data).toBeUndefined();
  });

  it('measures the size cap in bytes, not characters, and does not parse an oversize block', () => {
    const { fm, source } = parse('---\nname: 技能名称\n---\n', { maxFrontmatterBytes: 12 });
    expect(problems(fm, source)).toEqual(['frontmatter/too-large 2:1']);
    expect(parse('---\nname: ab\n---\n', { maxFrontmatterBytes: 9 }).fm.data).toEqual({ name: 'ab' });
  });

  it('caps nesting depth at the offending node', () => {
    const { fm, source } = parse('---\na:\n  b:\n    c: [1]\n---\n', { maxDepth: 3 });
    expect(problems(fm, source)).toEqual(['frontmatter/too-deep 4:8']);
    expect(parse('---\na:\n  b:\n    c: 1\n---\n', { maxDepth: 3 }).fm.problems).toEqual([]);
  });

  it('nesting deep enough to exhaust the parser is one too-deep problem, at the same place every time', () => {
    const head = '---\nname: deep\ndescription: It\'s deep.\n';
    const cases: Record<string, [string, string]> = {
      // The apostrophe of a plain value is no quote: the brackets after it still count.
      brackets: [`${head}tags: ${'['.repeat(20_000)}\n---\n`, 'frontmatter/too-deep 4:39'],
      entries: [`${head}tags:\n  ${'- '.repeat(20_000)}x\n---\n`, 'frontmatter/too-deep 5:67'],
      keys: [`${head}tags:\n  ${'? '.repeat(20_000)}x\n---\n`, 'frontmatter/too-deep 5:67'],
    };
    for (const [name, [text, expected]] of Object.entries(cases)) {
      const first = parse(text);
      expect(problems(first.fm, first.source), name).toEqual([expected]);
      expect(first.fm.data, name).toBeUndefined();
      expect(problems(parse(text).fm, first.source), name).toEqual([expected]);
    }
  });

  it('caps alias expansion (billion laughs) and keeps a few aliases working', () => {
    const bomb = ['---', 'a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]', '---', ''].join('\n');
    const started = performance.now();
    const { fm, source } = parse(bomb);
    expect(performance.now() - started).toBeLessThan(1000);
    // At the alias that went past the cap (the ninth *b), not at the top of the frontmatter.
    expect(problems(fm, source)).toEqual(['frontmatter/alias-limit 4:40']);
    const early = parse('---\nname: a\ncopy: *later\nbase: &later 1\n---\n');
    expect(problems(early.fm, early.source)).toEqual(['frontmatter/yaml 3:7']);
    expect(parse('---\nbase: &b {k: v}\ncopy: *b\n---\n').fm.data).toEqual({ base: { k: 'v' }, copy: { k: 'v' } });
  });

  it('refuses an alias inside the value its own anchor names, where the alias is, and keeps an alias to a closed or shadowing anchor', () => {
    const list = parse('---\nname: a\ndescription: b\nmetadata:\n  a: &a [*a]\n---\n');
    expect(problems(list.fm, list.source)).toEqual(['frontmatter/alias-limit 5:10']);
    expect(list.fm.problems[0]?.message).toBe('YAML: the alias *a is inside the value &a names, so that value would contain itself forever');
    expect(list.fm.data).toBeUndefined();
    const map = parse('---\nname: a\nx: &m\n  y:\n    z: *m\n---\n');
    expect(problems(map.fm, map.source)).toEqual(['frontmatter/alias-limit 5:8']);
    // The same name anchored again inside, closed before the alias: the alias means the inner value.
    expect(parse('---\nx: &a\n  y: &a [1]\n  z: *a\n---\n').fm.data).toEqual({ x: { y: [1], z: [1] } });
  });

  it('refuses __proto__, constructor and prototype keys at any depth, including inside lists', () => {
    expect([...FORBIDDEN_KEYS].sort()).toEqual(['__proto__', 'constructor', 'prototype']);
    const { fm, source } = parse('---\n__proto__: {polluted: 1}\nlist:\n  - constructor: x\nmeta:\n  deep:\n    prototype: y\n"__proto__x": fine\n---\n');
    expect(problems(fm, source)).toEqual(['frontmatter/forbidden-key 2:1', 'frontmatter/forbidden-key 4:5', 'frontmatter/forbidden-key 7:5']);
    expect(fm.data).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('values', () => {
  it('uses the YAML 1.2 core schema: dates, yes/no and octal-looking values are not converted', () => {
    const { fm } = parse('---\ndate: 2024-01-02\nflag: yes\nnorway: NO\nzip: 01234\nversion: 1.10\nnothing: null\n---\n');
    expect(fm.data).toEqual({ date: '2024-01-02', flag: 'yes', norway: 'NO', zip: 1234, version: 1.1, nothing: null });
  });

  it('prints nothing of its own: a flow collection used as a key is read without a Node warning on the terminal', () => {
    const warn = vi.spyOn(process, 'emitWarning');
    try {
      const { fm } = parse('---\n[a, b]: x\nname: y\n---\n');
      expect(fm.data).toEqual({ '[ a, b ]': 'x', name: 'y' });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('locates values, missing values (at the parent) and list items', () => {
    const { fm } = parse('---\nname: a\nmetadata:\n  author: me\ntags:\n  - x\n  - y\n---\n');
    expect(fm.locate(['name'])).toEqual({ line: 2, column: 7 });
    expect(fm.locate(['metadata', 'author'])).toEqual({ line: 4, column: 11 });
    expect(fm.locate(['tags', 1])).toEqual({ line: 7, column: 5 });
    expect(fm.locate(['metadata', 'missing'])).toEqual({ line: 4, column: 3 });
    expect(fm.locate(['nope'])).toEqual({ line: 2, column: 1 });
  });
});
