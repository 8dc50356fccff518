import { defineCommand } from 'citty';
import { err, out, outJson, printable, style, visible } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';
import { parseLimit } from '../_skill-list.ts';

const list = (value: unknown): string[] => (typeof value === 'string' && value !== '' ? value.split(',').map((s) => s.trim()).filter(Boolean) : []);

export default defineCommand({
  meta: { name: 'match', description: "The skills whose triggers (phrases, intents, event types) fire for a user message, by priority then search score (rules: docs/extended-package.md#trigger-matching)" },
  args: {
    message: { type: 'positional', description: 'The user message, e.g. "convert 5 miles to km" or "帮我换算"', required: true },
    event: { type: 'string', description: 'The event being handled (fires skills listing it in triggers.event_types), e.g. abp.tool_request' },
    intent: { type: 'string', description: 'Intents already recognised (comma-separated)' },
    limit: { type: 'string', description: 'Most results', default: '10' },
    ...registryArgs,
  },
  async run({ args }) {
    const limit = parseLimit(args.limit);
    const registry = await openRegistryFromArgs(args);
    const matches = registry.match(String(args.message), { event: args.event, intents: list(args.intent), limit });
    if (args.json) {
      outJson({ matches: matches.map((m) => ({ name: m.skill.name, description: m.skill.description, priority: m.priority, score: Math.round(m.score * 1000) / 1000, fired: m.fired })) });
      return 0;
    }
    if (matches.length === 0) err(`no skill's triggers fire for '${visible(String(args.message))}'${args.event ? ` (event ${visible(args.event)})` : ''}`);
    const width = matches.reduce((most, m) => Math.max(most, m.skill.name.length), 0);
    for (const m of matches) {
      const fired = [...m.fired.phrases.map((p) => `"${p}"`), ...m.fired.intents.map((i) => `intent ${i}`), ...(m.fired.event ? [`event ${m.fired.event}`] : [])].join(', ');
      out(`${style.bold(m.skill.name.padEnd(width))}  ${style.dim(`priority ${m.priority}`)}  ${printable(fired)}`);
    }
    return 0;
  },
});
