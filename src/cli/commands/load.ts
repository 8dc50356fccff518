import { defineCommand } from 'citty';
import { outContent, outJson, visible } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

export default defineCommand({
  meta: { name: 'load', description: "Print a skill's instructions as '# Skill: <name>' + body (or the raw SKILL.md / prompt.md)" },
  args: {
    name: { type: 'positional', description: 'Skill name (case-insensitive)', required: true },
    raw: { type: 'boolean', description: 'Print SKILL.md exactly as published (prompt.md for skill.json skills)', default: false },
    ...registryArgs,
  },
  async run({ args }) {
    const registry = await openRegistryFromArgs(args);
    const skill = await registry.load(String(args.name));
    if (args.json) {
      outJson({ name: skill.name, format: skill.format, mode: skill.mode, skillMd: skill.skillMd, prompt: skill.prompt, body: skill.body, text: skill.text, manifest: skill.manifest });
    } else {
      if (args.raw) {
        // --raw promises the file as published: exact bytes into a pipe, visible controls on a terminal.
        const text = skill.format === 'skill-json' ? (skill.prompt ?? skill.body) : (skill.skillMd ?? skill.body);
        outContent(text.endsWith('\n') ? text : `${text}\n`);
      } else {
        const text = visible(skill.text);
        process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      }
    }
    return 0;
  },
});
