/**
 * The reference validator over a corpus, the way its own library is meant to be used: one Node
 * process, `validate(skillDir)` from the skills-ref package for every skill folder, in turn.
 *
 *   node scripts/bench/skills-ref-run.ts <corpus root>   (prints BENCH_RESULT {"skills":…,"invalid":…})
 *
 * Kept apart from scripts/bench.ts so its start-up is skills-ref's alone, not the bench's imports.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'skills-ref';

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/bench/skills-ref-run.ts <corpus root>');
  process.exit(2);
}
let skills = 0;
let invalid = 0;
const errors: string[] = [];
// The corpus layout: skills/<collection>/<name>/SKILL.md (scripts/generate-corpus.ts).
const base = join(root, 'skills');
for (const collection of readdirSync(base).sort()) {
  for (const name of readdirSync(join(base, collection)).sort()) {
    const problems = await validate(join(base, collection, name));
    skills++;
    if (problems.length > 0) {
      invalid++;
      if (errors.length < 5) errors.push(`${collection}/${name}: ${problems.join('; ')}`);
    }
  }
}
process.stdout.write(`BENCH_RESULT ${JSON.stringify({ skills, invalid, errors })}\n`);
