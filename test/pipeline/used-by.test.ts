/**
 * "Used by": every way a skill of the registry refers to another (src/pipeline/references.ts), on
 * the real skill folders of test/fixtures/used-by, and through the build and its cache.
 */
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkillManifest } from '../../src/core/schemas/manifest.ts';
import { buildRegistry, validateRegistry } from '../../src/pipeline/index.ts';
import { linkDestinations, markdownReferences, MAX_MARKDOWN_CHARS, resolveLink, toolIdNames, usersOf, withoutCodeSpans } from '../../src/pipeline/references.ts';
import type { SkillSource } from '../../src/pipeline/model.ts';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'used-by');

describe('references found in the skill folders', () => {
  it('finds tool ids (code blocks included) and links (not in code), and leaves out the skill itself', async () => {
    const { accepted, diagnostics } = await validateRegistry(fixture);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const refs = Object.fromEntries(accepted.map((s) => [s.draft.name, s.references]));
    expect(refs['meeting-notes']).toEqual({
      // skill:nobody:x sits in a URL: a name that is in no registry, dropped later, not here.
      toolIds: ['count_fn', 'nobody'],
      links: [
        // Every link that stays below skills/ is kept here; whether it names a skill's file is decided across the registry.
        'skills/notes/ghost/SKILL.md',
        'skills/notes/style-guide/SKILL.md',
        'skills/text/word-count/nothing.md',
        'skills/text/word-count/references/usage.md',
      ],
    });
    // The prompt of an llm skill; skill:ghost:run is kept until the registry is known.
    expect(refs.ask_fn).toEqual({ toolIds: ['ghost', 'word-count'], links: [] });
    // A link from references/ resolves against that folder.
    expect(refs['style-guide']).toEqual({ toolIds: [], links: ['skills/text/word-count'] });
    // Its own tool id and its own references/ link are not references to another skill.
    expect(refs['word-count']).toEqual({ toolIds: [], links: [] });
  });

  it('lists, per skill, every other skill of the registry that refers to it and how, sorted', async () => {
    const { accepted } = await validateRegistry(fixture);
    const users = usersOf(accepted.map((s) => ({ draft: s.draft, dir: s.source.dir, text: s.references! })));
    expect(Object.fromEntries([...users].sort(([a], [b]) => (a < b ? -1 : 1)))).toEqual({
      count_fn: [
        { name: 'ask_fn', kinds: ['calls'] },
        { name: 'meeting-notes', kinds: ['tool-id'] },
        { name: 'report_fn', kinds: ['calls', 'pipeline-step'] },
      ],
      // depends_on: [report_fn], top-level in SKILL.md frontmatter.
      report_fn: [{ name: 'style-guide', kinds: ['dependency'] }],
      // A reference-style link.
      'style-guide': [{ name: 'meeting-notes', kinds: ['link'] }],
      'word-count': [
        { name: 'ask_fn', kinds: ['tool-id'] },
        // metadata.requires names it (and not-a-skill, which is in no registry); a link to one of its references.
        { name: 'meeting-notes', kinds: ['dependency', 'link'] },
        // A link to its folder.
        { name: 'style-guide', kinds: ['link'] },
      ],
    });
  });
});

describe('reading hostile Markdown', () => {
  it('takes a tool id only as a whole word with a name and a tool', () => {
    expect(toolIdNames('run skill:a-b:x, then (skill:c_d:y.sh) and `skill:e:z`')).toEqual(['a-b', 'c_d', 'e']);
    expect(toolIdNames('myskill:a:x skill::x skill:a: skill:a skill:a:: skill:')).toEqual([]);
    expect(toolIdNames(`skill:${'n'.repeat(65)}:x skill:${'n'.repeat(64)}:x`)).toEqual(['n'.repeat(64)]);
  });

  it('reads inline links, images and definitions, not code spans, fences or frontmatter', () => {
    const text = ['---', 'x: "[a](../fm/SKILL.md)"', '---', '[b](../b/SKILL.md "title") ![c](<../c/x y.png>)', '  [d]: ../d/', '`[e](../e/)` ``[f](../f/)`` [g](../g/)', '~~~', '[h](../h/)', '~~~'].join('\n');
    expect(linkDestinations('SKILL.md', text)).toEqual(['../b/SKILL.md', '../c/x y.png', '../d/', '../g/']);
  });

  it('pairs code spans like CommonMark, in linear time on unmatched backtick runs', () => {
    expect(withoutCodeSpans('a `x` b ``y`z`` c ` d')).toBe('a     b         c ` d');
    // Every run length once: nothing closes, and the line comes back whole, quickly.
    const hostile = Array.from({ length: 2000 }, (_, i) => '`'.repeat(i + 1)).join('x');
    const started = performance.now();
    expect(withoutCodeSpans(hostile)).toBe(hostile);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('resolves a link as a path below the skills folder, or not at all', () => {
    const base = ['skills', 'notes', 'a', 'references'];
    expect(resolveLink('../../b/SKILL.md#usage', base, 'skills')).toBe('skills/notes/b/SKILL.md');
    expect(resolveLink('../../../text/b%2Dc/?x=1', base, 'skills')).toBe('skills/text/b-c');
    for (const escaping of ['../../../../README.md', '../../../../../../etc/passwd', '/skills/notes/b/SKILL.md', 'https://example.com/skills/b', 'javascript:alert(1)', '#top', '..\\..\\b\\SKILL.md', '../../b%00/SKILL.md']) {
      expect(resolveLink(escaping, base, 'skills'), escaping).toBeUndefined();
    }
  });

  it('reads a file of nothing but link and tool id openings in linear time', () => {
    const started = performance.now();
    for (const unit of ['](', '[a](', 'skill:', 'skill:a:', '`', '[x]: ']) {
      const text = unit.repeat(Math.floor(MAX_MARKDOWN_CHARS / unit.length));
      linkDestinations('SKILL.md', text);
      toolIdNames(text);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads a bounded prefix of each Markdown file', () => {
    const text = `${'a'.repeat(MAX_MARKDOWN_CHARS)}\nskill:late:x [late](../late/SKILL.md)\n`;
    const source: SkillSource = {
      dir: 'skills/big',
      absDir: '/nonexistent',
      folderName: 'big',
      declaration: 'SKILL.md',
      files: [{ path: 'SKILL.md', bytes: new TextEncoder().encode(`skill:early:x\n${text}`), size: text.length, hex: '' }],
    };
    expect(markdownReferences(source, 'big', 'skills')).toEqual({ references: { toolIds: ['early'], links: [] }, outwardLinks: [] });
  });

  it('finds the links out of a skill into the skills folder, where each is written', () => {
    const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text), size: text.length, hex: '' });
    const source: SkillSource = {
      dir: 'skills/dev/linker',
      absDir: '/nonexistent',
      folderName: 'linker',
      declaration: 'SKILL.md',
      files: [
        file('SKILL.md', '---\nname: linker\ndescription: see ../x\n---\n[a](../semver-tool/SKILL.md) [own](../linker/references/r.md) `[code](../nope/)`\n[out](../../../etc/passwd) [site](https://x.org/../y) [up](..) [top](../../)\n'),
        file('references/r.md', '# R\n\n[b](../../%2e%2e/text/summarize/)\n'),
        // No `../`: never decoded, and it has no way into another folder.
        file('references/plain.md', '[c](guide.md) [d](/abs) and so on... [e](..)\n'),
      ],
    };
    const { references, outwardLinks } = markdownReferences(source, 'linker', 'skills');
    expect(outwardLinks).toEqual([
      { file: 'SKILL.md', line: 5, column: 5, destination: '../semver-tool/SKILL.md', target: 'skills/dev/semver-tool/SKILL.md' },
      { file: 'references/r.md', line: 3, column: 5, destination: '../../%2e%2e/text/summarize/', target: 'skills/text/summarize' },
    ]);
    // "Used by" counts the same links, once each; a folder the skill is in is no skill it uses, and usersOf drops it.
    expect(references).toEqual({ toolIds: [], links: ['skills/dev', 'skills/dev/semver-tool/SKILL.md', 'skills/text/summarize'] });
  });
});

/** Every file under `dir` with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.set(relative(dir, join(entry.parentPath, entry.name)), readFileSync(join(entry.parentPath, entry.name)).toString('base64'));
  }
  return out;
}

/** An hour back: older than the cache's racy window, so a cached build trusts it when unchanged. */
const backdate = (path: string) => utimesSync(path, Date.now() / 1000 - 3600, Date.now() / 1000 - 3600);

describe('usedBy in the built registry', () => {
  let work: string;
  const root = () => join(work, 'root');
  const build = (out: string, cache: string | false) => buildRegistry({ root: root(), outDir: join(work, out), cache, sourceDateEpoch: 1767225600 });
  const manifest = (out: string, name: string) => SkillManifest.parse(JSON.parse(readFileSync(join(work, out, 'skills', `${name}.json`), 'utf8')));

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'skilldex-used-by-'));
    cpSync(fixture, root(), { recursive: true });
    for (const entry of readdirSync(root(), { withFileTypes: true, recursive: true })) backdate(join(entry.parentPath, entry.name));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('carries usedBy next to calledBy in each manifest, and a cached rebuild after a new reference is byte-identical to a cold build', async () => {
    const first = await build('cached', join(work, 'cache.json'));
    expect(first.ok).toBe(true);
    expect(manifest('cached', 'count_fn')).toMatchObject({
      calledBy: ['ask_fn', 'report_fn'],
      usedBy: [
        { name: 'ask_fn', kinds: ['calls'] },
        { name: 'meeting-notes', kinds: ['tool-id'] },
        { name: 'report_fn', kinds: ['calls', 'pipeline-step'] },
      ],
    });
    expect(manifest('cached', 'meeting-notes').usedBy).toEqual([]);
    const index = readFileSync(join(work, 'cached', 'index.json'), 'utf8');
    expect(index).not.toContain('usedBy');

    // ask_fn's prompt now links to style-guide: only ask_fn is read again, style-guide's manifest changes.
    appendFileSync(join(root(), 'skills/flows/ask_fn/prompt.md'), '\nWrite the answer in the [house style](../../notes/style-guide/SKILL.md).\n');
    backdate(join(root(), 'skills/flows/ask_fn/prompt.md'));
    const again = await build('cached', join(work, 'cache.json'));
    expect(again.cache).toMatchObject({ hits: 5, misses: 1, emitSkipped: false });
    expect(manifest('cached', 'style-guide').usedBy).toEqual([
      { name: 'ask_fn', kinds: ['link'] },
      { name: 'meeting-notes', kinds: ['link'] },
    ]);
    await build('cold', false);
    expect(snapshot(join(work, 'cached'))).toEqual(snapshot(join(work, 'cold')));

    // A new skill named where unchanged, cached skills already pointed: their references count now.
    mkdirSync(join(root(), 'skills/notes/ghost'));
    writeFileSync(join(root(), 'skills/notes/ghost/SKILL.md'), '---\nname: ghost\ndescription: Haunts the registry. Use it for tests.\n---\n\n# Ghost\n');
    const added = await build('cached', join(work, 'cache.json'));
    expect(added.cache).toMatchObject({ hits: 6, misses: 1 });
    expect(manifest('cached', 'ghost').usedBy).toEqual([
      { name: 'ask_fn', kinds: ['tool-id'] },
      { name: 'meeting-notes', kinds: ['link'] },
    ]);
    await build('cold', false);
    expect(snapshot(join(work, 'cached'))).toEqual(snapshot(join(work, 'cold')));
  }, 120_000);
});
