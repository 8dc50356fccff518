import { access, copyFile, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { ConvertError } from '../../publish/convert-error.ts';
import { skillJsonToSkillMd, skillMdToSkillJson, type Conversion } from '../../publish/convert.ts';
import { folderKind } from '../../pipeline/discover.ts';
import { CliError, EXIT } from '../_errors.ts';
import { notUsable } from '../_registry-root.ts';
import { out, style } from '../_output.ts';
import { makeFolder } from '../../core-node/make-folder.ts';

const TARGETS = ['skill-json', 'skill-md'] as const;

export default defineCommand({
  meta: { name: 'convert', description: 'Convert a SKILL.md skill into skill.json + prompt.md and back, listing what cannot be carried over' },
  args: {
    dir: { type: 'positional', required: true, description: 'The skill folder to convert' },
    to: { type: 'string', description: 'skill-json or skill-md (default: the other format)' },
    out: { type: 'string', description: 'Write the converted skill to this folder (default: convert in place)' },
    'dry-run': { type: 'boolean', description: 'Print what would be written and lost, write nothing', default: false },
  },
  async run({ args }) {
    const dir = resolve(String(args.dir));
    const unusable = notUsable(await folderKind(dir), String(args.dir));
    if (unusable) throw unusable;
    const has = async (file: string) => access(join(dir, file)).then(() => true, () => false);
    const isMd = await has('SKILL.md');
    const isJson = await has('skill.json');
    if (!isMd && !isJson) throw new CliError('E_NOT_A_SKILL', `${String(args.dir)} holds neither SKILL.md nor skill.json`, { exitCode: EXIT.usage });
    if (isMd && isJson) throw new CliError('E_AMBIGUOUS', `${String(args.dir)} holds both SKILL.md and skill.json`, { hint: 'remove one declaration first', exitCode: EXIT.usage });
    const to = String(args.to ?? (isMd ? 'skill-json' : 'skill-md'));
    if (!(TARGETS as readonly string[]).includes(to)) throw new CliError('E_USAGE', `--to must be ${TARGETS.join(' or ')}`, { exitCode: EXIT.usage });
    if ((to === 'skill-json') !== isMd) throw new CliError('E_USAGE', `${String(args.dir)} is already ${to === 'skill-json' ? 'a skill.json' : 'a SKILL.md'} skill`, { exitCode: EXIT.usage });

    const target = args.out ? resolve(String(args.out)) : dir;
    let conversion: Conversion;
    try {
      if (isMd) {
        // A skills/<category>/<name> layout supplies the category when the frontmatter has none;
        // any other parent folder (Downloads, a home folder) says nothing about the skill.
        const parent = basename(dirname(dir));
        const category = basename(dirname(dirname(dir))) === 'skills' && parent !== 'skills' ? parent : undefined;
        conversion = skillMdToSkillJson(await readFile(join(dir, 'SKILL.md'), 'utf8'), { category });
      } else {
        const prompt = (await has('prompt.md')) ? await readFile(join(dir, 'prompt.md'), 'utf8') : undefined;
        conversion = skillJsonToSkillMd(await readFile(join(dir, 'skill.json'), 'utf8'), prompt, { folderName: basename(target) });
      }
    } catch (error) {
      if (error instanceof ConvertError) throw new CliError('E_CONVERT', error.message, { hint: "run 'skilldex validate' on the skill first" });
      throw error;
    }

    const inPlace = target === dir;
    const copies = inPlace ? [] : (await listFiles(dir)).filter((p) => !conversion.replaces.includes(p) && !conversion.files.some((f) => f.path === p));
    const shown = (p: string) => relative(process.cwd(), p) || '.';
    const verb = args['dry-run'] ? 'would' : 'did';
    out(`${conversion.name}: ${isMd ? 'SKILL.md → skill.json + prompt.md' : 'skill.json → SKILL.md'}${args['dry-run'] ? ' (dry run)' : ''}`);
    for (const f of conversion.files) out(`  ${verb === 'would' ? 'write ' : 'wrote '} ${shown(join(target, f.path))}`);
    for (const p of copies) out(`  ${verb === 'would' ? 'copy  ' : 'copied'} ${shown(join(target, p))}`);
    if (inPlace) for (const p of conversion.replaces) out(`  ${verb === 'would' ? 'remove' : 'removed'} ${shown(join(dir, p))}`);
    for (const n of conversion.notes) out(`  ${style.dim('note')} ${n}`);
    if (conversion.lost.length > 0) {
      out(`${style.yellow('not carried over')} (${conversion.lost.length}):`);
      for (const l of conversion.lost) out(`  - ${l.field}: ${l.reason}`);
    }
    if (args['dry-run']) return EXIT.ok;

    if (!inPlace && (await access(target).then(() => true, () => false)) && (await readdir(target)).length > 0) {
      throw new CliError('E_EXISTS', `${shown(target)} already exists and is not empty`, { hint: 'choose an empty --out folder' });
    }
    for (const p of copies) {
      makeFolder(dirname(join(target, p)));
      await copyFile(join(dir, p), join(target, p));
    }
    for (const f of conversion.files) {
      makeFolder(dirname(join(target, f.path)));
      await writeFile(join(target, f.path), f.content);
    }
    if (inPlace) for (const p of conversion.replaces) if (!conversion.files.some((f) => f.path === p)) await rm(join(dir, p));
    out(`next: npx skilldex validate`);
    return EXIT.ok;
  },
});

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) files.push(...(await listFiles(dir, path)));
    else if (e.isFile()) files.push(path);
  }
  return files;
}
