import { cp, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { defineCommand } from 'citty';
import fg from 'fast-glob';
import { loadConfig, validateRegistry } from '../../pipeline/index.ts';
import { MigrationError } from '../../publish/migration-error.ts';
import { planMigration, type MigrationOp, type MigrationPlan } from '../../publish/migrate.ts';
import { CliError, EXIT } from '../_errors.ts';
import { printReport } from '../_report.ts';
import { err, out, style } from '../_output.ts';
import { makeFolder } from '../../core-node/make-folder.ts';

export default defineCommand({
  meta: { name: 'migrate', description: 'Migrate legacy skills (SKILL.md with code blocks, METADATA.yml + scripts/main.ts) to the extended package layout' },
  args: {
    'skill-dir': { type: 'string', description: 'Folder holding the skills', default: 'skills' },
    'dry-run': { type: 'boolean', description: 'Print the plan and write nothing', default: false },
    validate: { type: 'boolean', description: 'Validate the migrated skills afterwards (with --dry-run: in a scratch copy)', default: false },
    backup: { type: 'boolean', description: 'Keep the originals as SKILL.md.legacy / METADATA.yml.legacy (--no-backup to delete them)', default: true },
  },
  async run({ args }) {
    const skillsDir = resolve(String(args['skill-dir']));
    const folders = await legacyCandidates(skillsDir);
    if (folders.length === 0) throw new CliError('E_NO_SKILLS', `no skill folders under ${String(args['skill-dir'])}`, { hint: 'pass --skill-dir with the folder that holds your skills', exitCode: EXIT.usage });

    const plans: { folder: string; plan: MigrationPlan }[] = [];
    let failed = 0;
    for (const folder of folders) {
      const abs = join(skillsDir, folder);
      const paths = await listFiles(abs);
      const texts = new Map<string, string>();
      for (const p of paths) if (/\.(md|ya?ml|[cm]?[jt]s)$/i.test(p) || p === 'SKILL.md') texts.set(p, await readFile(join(abs, p), 'utf8'));
      try {
        plans.push({ folder, plan: planMigration({ folderName: basename(folder), paths, read: (p) => texts.get(p) }, { backup: args.backup }) });
      } catch (error) {
        if (!(error instanceof MigrationError)) throw error;
        failed++;
        err(`${style.red('error', process.stderr)} ${folder}: ${error.message}`);
      }
    }

    const shown = (folder: string) => relative(process.cwd(), join(skillsDir, folder)) || '.';
    const migrating = plans.filter((p) => p.plan.status === 'migrate');
    for (const { folder, plan } of plans) {
      if (plan.status === 'skip') {
        out(`${style.dim('skip')}    ${shown(folder)}: ${plan.reason}`);
        continue;
      }
      out(`${style.green('migrate')} ${shown(folder)}${args['dry-run'] ? ' (dry run)' : ''}`);
      for (const op of plan.ops) out(`  ${describe(op)}`);
      for (const note of plan.notes) out(`  ${style.dim('note')} ${note}`);
    }
    out(`${migrating.length} to migrate, ${plans.length - migrating.length} skipped${failed ? `, ${failed} unreadable` : ''}`);

    let workDir = skillsDir;
    let scratch: string | undefined;
    if (args['dry-run']) {
      if (!args.validate) return failed ? EXIT.failure : EXIT.ok;
      // Validate the plan without touching the real folder: apply it to a scratch copy.
      scratch = await mkdtemp(join(tmpdir(), 'skilldex-migrate-'));
      workDir = join(scratch, basename(skillsDir));
      await cp(skillsDir, workDir, { recursive: true });
    }
    try {
      for (const { folder, plan } of migrating) await applyPlan(join(workDir, folder), plan.ops);
      if (!args.validate) return failed ? EXIT.failure : EXIT.ok;
      const root = dirname(workDir);
      const config = { ...(await loadConfig(dirname(skillsDir))), skillsDir: basename(workDir) };
      const { diagnostics } = await validateRegistry(root, { config, scan: false });
      const dirs = migrating.map((m) => `${basename(workDir)}/${m.folder}/`);
      const mine = diagnostics.filter((d) => dirs.some((dir) => d.file.startsWith(dir)));
      await printReport({ diagnostics: mine }, 'human');
      return failed || mine.some((d) => d.severity === 'error') ? EXIT.failure : EXIT.ok;
    } finally {
      if (scratch) await rm(scratch, { recursive: true, force: true });
    }
  },
});

function describe(op: MigrationOp): string {
  switch (op.kind) {
    case 'backup': return `backup ${op.from} → ${op.to}`;
    case 'move': return `move   ${op.from} → ${op.to}`;
    case 'delete': return `delete ${op.path}`;
    case 'write': return `write  ${op.path}`;
  }
}

async function applyPlan(dir: string, ops: readonly MigrationOp[]): Promise<void> {
  for (const op of ops) {
    if (op.kind === 'backup' || op.kind === 'move') {
      makeFolder(dirname(join(dir, op.to)));
      await rename(join(dir, op.from), join(dir, op.to));
    } else if (op.kind === 'delete') await rm(join(dir, op.path));
    else {
      makeFolder(dirname(join(dir, op.path)));
      await writeFile(join(dir, op.path), op.content);
    }
  }
}

/** Skill folders (`<name>/` or `<category>/<name>/`) holding SKILL.md or METADATA.yml; nested ones belong to their outer skill. */
async function legacyCandidates(skillsDir: string): Promise<string[]> {
  const found = await fg(['*/{SKILL.md,METADATA.yml,METADATA.yaml}', '*/*/{SKILL.md,METADATA.yml,METADATA.yaml}'], { cwd: skillsDir, dot: false, onlyFiles: true, followSymbolicLinks: false }).catch(() => [] as string[]);
  const dirs = [...new Set(found.map((f) => f.slice(0, f.lastIndexOf('/'))))].sort();
  return dirs.filter((d) => !dirs.some((o) => o !== d && d.startsWith(`${o}/`)));
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) files.push(...(await listFiles(dir, path)));
    else if (e.isFile()) files.push(path);
  }
  return files;
}
