import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildRegistry, validateRegistry } from '../../src/pipeline/index.ts';
import { planMigration, securityFromPermissions } from '../../src/publish/migrate.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { fixtureCopier } from '../helpers/fixture-copies.ts';

const REPO = join(import.meta.dirname, '..', '..');
const FIXTURE = join(REPO, 'test/fixtures/publish/legacy');
const MIGRATED = ['data-processor', 'notes-only', 'preference-recorder', 'weather-query'];

const copyFixture = fixtureCopier(FIXTURE, 'skilldex-migrate-');

const skilldex = (cwd: string, ...args: string[]) => runSkilldex(cwd, args);

/** Every file under a folder with its bytes, to prove a dry run wrote nothing. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name).slice(dir.length)] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

describe('skilldex migrate', () => {
  it('--dry-run prints the plan and writes nothing, even with --validate', async () => {
    const root = await copyFixture();
    const before = await tree(root);
    const result = await skilldex(root, 'migrate', '--dry-run', '--validate');
    expect(result.status).toBe(0);
    expect(await tree(root)).toEqual(before);
    expect(result.stdout).toContain('migrate skills/weather-query (dry run)\n  backup METADATA.yml → METADATA.yml.legacy\n  backup SKILL.md → SKILL.md.legacy\n  write  SKILL.md\n  write  assets/.gitkeep\n');
    expect(result.stdout).toContain('skip    skills/tools/already-package: already an extended package (resources.entry is set)');
    expect(result.stdout).toContain('4 to migrate, 1 skipped\n0 errors, 0 warnings\n');
  });

  it('converts every legacy layout into a package that validates, scans clean and builds', async () => {
    const root = await copyFixture();
    const result = await skilldex(root, 'migrate', '--skill-dir', 'skills', '--validate');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);

    for (const name of MIGRATED) {
      await expect(await readFile(join(root, 'skills', name, 'SKILL.md'), 'utf8')).toMatchFileSnapshot(`__snapshots__/migrate/${name}.SKILL.md`);
    }
    // The originals are kept byte for byte.
    expect(await readFile(join(root, 'skills/weather-query/METADATA.yml.legacy'), 'utf8')).toBe(await readFile(join(FIXTURE, 'skills/weather-query/METADATA.yml'), 'utf8'));
    expect(await readFile(join(root, 'skills/preference-recorder/SKILL.md.legacy'), 'utf8')).toBe(await readFile(join(FIXTURE, 'skills/preference-recorder/SKILL.md'), 'utf8'));
    expect((await readdir(join(root, 'skills/data-processor/scripts'))).sort()).toEqual(['execute.ts', 'helpers.ts']);

    const validation = await validateRegistry(root);
    expect(validation.diagnostics).toEqual([]);
    expect(validation.accepted.map((s) => `${s.draft.name} ${s.draft.format} ${s.draft.entry?.path} ${s.draft.entry?.runner}`)).toEqual([
      'already-package package scripts/execute.ts module',
      'data-processor package scripts/execute.ts module',
      'notes-only package scripts/execute.ts module',
      'preference-recorder package scripts/execute.ts module',
      'weather-query package scripts/main.ts module',
    ]);
    const out = join(root, 'dist');
    expect((await buildRegistry({ root, outDir: out, scan: false, sourceDateEpoch: 1_700_000_000 })).ok).toBe(true);

    // Extracted code runs as the seed 001 entry, helpers included.
    const recorder = await import(pathToFileURL(join(root, 'skills/preference-recorder/scripts/execute.ts')).href);
    expect(await recorder.execute({ preference: '喜欢拿铁' }, { userId: 'u1' })).toMatchObject({ status: 'success', output: { success: true, preference: '喜欢拿铁' }, memoryWrites: [{ ownerId: 'u1', content: '喜欢拿铁' }] });
    const processor = await import(pathToFileURL(join(root, 'skills/data-processor/scripts/execute.ts')).href);
    expect(await processor.execute({ data: [1, null, 2] })).toEqual({ output: [1, 2], format: 'object', status: 'success' });

    // A second run finds nothing left to do.
    const again = await skilldex(root, 'migrate');
    expect(again.stdout).toContain('0 to migrate, 5 skipped');
  });

  it('--no-backup drops the originals instead of keeping .legacy copies', async () => {
    const root = await copyFixture();
    expect((await skilldex(root, 'migrate', '--no-backup')).status).toBe(0);
    const files = Object.keys(await tree(join(root, 'skills')));
    expect(files.filter((f) => f.endsWith('.legacy') || f.endsWith('METADATA.yml'))).toEqual([]);
  });
});

describe('planMigration', () => {
  it('maps legacy permissions into security and says what it could not express', () => {
    const notes: string[] = [];
    expect(securityFromPermissions({ network: ['https://api.example.com'], filesystem: 'write', shell: true }, notes)).toEqual({
      network: 'allowlist', network_allowlist: ['https://api.example.com'], filesystem: 'read-only', requires_filesystem: true,
    });
    expect(notes).toEqual([
      "permissions.filesystem 'write' has no security equivalent: set to read-only with requires_filesystem; review it",
      'permissions.shell has no security equivalent and was dropped',
    ]);
    expect(securityFromPermissions({ network: false, filesystem: 'read' }, [])).toEqual({ network: 'none', filesystem: 'read-only' });
  });

  it('skips plain Agent Skills and refuses unreadable frontmatter', () => {
    const plain = '---\nname: x\ndescription: plain\n---\n\n# X\n';
    expect(planMigration({ folderName: 'x', paths: ['SKILL.md'], read: () => plain }).status).toBe('skip');
    expect(() => planMigration({ folderName: 'x', paths: ['SKILL.md'], read: () => '---\nname: [\n---\n' })).toThrow(/frontmatter cannot be read/);
  });

  it('writes every file in the line endings the legacy skill was written with, never a mix', () => {
    const lf = '---\nname: x\ndescription: Legacy x. Use it when testing.\n---\n# X\n\nSome text.\n\n```typescript\nexport async function execute() {\n  return 1;\n}\n```\n';
    const crlf = lf.replaceAll('\n', '\r\n');
    const written = (text: string) => planMigration({ folderName: 'x', paths: ['SKILL.md'], read: () => text }).ops.flatMap((op) => (op.kind === 'write' && op.content !== '' ? [op] : []));
    const endings = (content: string) => ({ crlf: content.split('\r\n').length - 1, lf: content.split(/(?<!\r)\n/).length - 1 });
    for (const op of written(crlf)) expect(endings(op.content), op.path).toMatchObject({ lf: 0, crlf: expect.any(Number) });
    for (const op of written(lf)) expect(endings(op.content), op.path).toMatchObject({ crlf: 0 });
    expect(written(crlf).map((op) => op.path).sort()).toEqual(['SKILL.md', 'scripts/execute.ts']);
    // The same skill either way, but for the line endings.
    expect(written(crlf).map((op) => op.content.replaceAll('\r\n', '\n'))).toEqual(written(lf).map((op) => op.content));
    const metadata = planMigration({ folderName: 'm', paths: ['METADATA.yml'], read: () => 'name: m\r\ndescription: Legacy m. Use it when testing.\r\n' });
    for (const op of metadata.ops) if (op.kind === 'write' && op.content !== '') expect(op.content, op.path).not.toMatch(/(?<!\r)\n/);
  });

  it('moves only the blocks that define execute, at the top level, in backtick or tilde fences', () => {
    const md = [
      '---', 'name: demo', 'description: Counts characters in a text. Use it when asked how long a text is.', '---', '',
      'Call it like this:', '', '```ts', 'const out = await execute({ text: "hi" }, context);', '```', '',
      'A block that documents one:', '', '````markdown', '```typescript', 'export async function execute() { return "example" }', '```', '````', '',
      'Implementation:', '', '~~~ts', 'export async function execute(parameters: { text: string }) {', '  return { length: parameters.text.length };', '}', '~~~', '',
    ].join('\n');
    const plan = planMigration({ folderName: 'demo', paths: ['SKILL.md'], read: () => md });
    const written = (path: string) => plan.ops.flatMap((op) => (op.kind === 'write' && op.path === path ? [op.content] : []))[0] ?? '';
    expect(written('scripts/execute.ts')).toBe('// Extracted from the legacy SKILL.md by skilldex migrate.\nexport async function execute(parameters: { text: string }) {\n  return { length: parameters.text.length };\n}\n');
    const body = written('SKILL.md');
    // The example that calls it and the documented block stay as they were; the implementation is replaced by a link.
    expect(body).toContain('```ts\nconst out = await execute({ text: "hi" }, context);\n```');
    expect(body).toContain('````markdown\n```typescript\nexport async function execute() { return "example" }\n```\n````');
    expect(body).toContain('Implementation:\n\nThe implementation lives in [scripts/execute.ts](scripts/execute.ts).\n');
    expect(body.match(/The implementation lives in/g)).toHaveLength(1);
    expect(plan.notes).toContain('1 TypeScript code block moved to scripts/execute.ts');
  });

  it('reads YAML merge keys in legacy permissions, so the values they carry are kept', () => {
    const md = [
      '---', 'name: anchors', 'description: Legacy skill whose frontmatter uses YAML anchors. Use it to test.', 'version: 1.0.0',
      'defaults: &defaults', '  timeout: 1000', '  network: false', 'permissions:', '  <<: *defaults', '  filesystem: read', '---', '',
      '```typescript', 'export async function execute() { return 1 }', '```', '',
    ].join('\n');
    const plan = planMigration({ folderName: 'anchors', paths: ['SKILL.md'], read: () => md });
    const skillMd = plan.ops.flatMap((op) => (op.kind === 'write' && op.path === 'SKILL.md' ? [op.content] : []))[0] ?? '';
    expect(skillMd).toMatch(/timeout_ms: 1000\b/);
    expect(skillMd).toMatch(/network: none\b/);
    expect(skillMd).toMatch(/filesystem: read-only\b/);
    expect(plan.notes.join('\n')).not.toContain('<<');
  });

  it('puts extracted code beside an existing scripts/execute.ts instead of overwriting it', () => {
    const md = '---\nname: x\ndescription: d\n---\n\n```typescript\nfunction execute() { return 1 }\n```\n';
    const plan = planMigration({ folderName: 'x', paths: ['SKILL.md', 'scripts/execute.ts'], read: () => md });
    expect(plan.ops.find((o) => o.kind === 'write' && o.path.startsWith('scripts/'))).toEqual({ kind: 'write', path: 'scripts/execute.extracted.ts', content: '// Extracted from the legacy SKILL.md by skilldex migrate.\nexport function execute() { return 1 }\n' });
    expect(plan.notes[0]).toContain('merge them by hand');
  });
});
