import { defineCommand } from 'citty';
import { abpToolSignature } from '../../core/abp-schema.ts';
import { functionSignature } from '../../core/signature.ts';
import { shellQuote } from '../../core/shell-quote.ts';
import { REFERENCE_LABELS, skillUsers } from '../../core/used-by.ts';
import { out, outJson, printable, style, visible } from '../_output.ts';
import { formatBytes, openRegistryFromArgs, registryArgs } from '../_registry.ts';

export default defineCommand({
  meta: { name: 'info', description: "Show a skill's manifest: signature, entry, actions, the skills that use it, files, digest, scan verdict and every published version" },
  args: {
    name: { type: 'positional', description: 'Skill name (case-insensitive) or tool id (skill:<name>:<script>), optionally with @version or @range for an earlier version', required: true },
    ...registryArgs,
  },
  async run({ args }) {
    const registry = await openRegistryFromArgs(args);
    const m = await registry.manifest(String(args.name));
    if (args.json) {
      outJson(m);
      return 0;
    }
    // Each field on one line: a line feed in a title, tag or author would otherwise print a line
    // of its own, such as a forged 'scan pass'. Only the description below is a block of text.
    const row = (label: string, value: string | undefined) => {
      if (value) out(`${style.dim(label.padEnd(10))} ${printable(value)}`);
    };
    out(`${style.bold(m.name)} ${printable(`${m.version} — ${m.title}`)}`);
    out(visible(m.description));
    out();
    row('format', `${m.format} · mode ${m.mode}${m.type ? ` · type ${m.type}` : ''}`);
    row('category', m.category);
    row('tags', m.tags.join(', '));
    row('license', m.license);
    row('author', m.author);
    if (m.inputSchema || m.outputSchema) row('signature', functionSignature(m.name, m.inputSchema, m.outputSchema));
    if (m.entry) row('entry', `${m.entry.path} (${m.entry.runner}, ${m.entry.language})`);
    if (m.actions?.length) row('actions', m.actions.map((a) => a.name).join(', '));
    // Tool ids run one script each: `skilldex run skill:<name>:<script>`.
    if (m.tools.length) row('tools', m.tools.join(', '));
    // ABP tools are called with `skilldex run <name> --tool <tool>`.
    (m.abp?.tools ?? []).forEach((tool, i) => row(i === 0 ? 'abp tools' : '', abpToolSignature(tool)));
    if (m.pipeline?.length) row('pipeline', m.pipeline.map((s) => `${s.step}:${s.skill}`).join(' → '));
    row('calls', m.calls.join(', '));
    // Every skill that refers to this one (calls, pipeline steps, dependencies, tool ids, links), one a line.
    skillUsers(m).forEach((u, i) => row(i === 0 ? 'used by' : '', `${u.name} (${u.kinds.map((k) => REFERENCE_LABELS[k]).join(', ')})`));
    row('limits', `timeout ${m.timeoutMs} ms · retry ${m.retry}`);
    row('files', `${m.files.length} (${formatBytes(m.files.reduce((n, f) => n + f.size, 0))})`);
    row('digest', m.digest);
    if (m.scan) {
      // Coloured after it is made visible: the colour's own escape codes must reach the terminal.
      const paint = m.scan.verdict === 'pass' ? style.green : m.scan.verdict === 'fail' ? style.red : style.yellow;
      out(`${style.dim('scan'.padEnd(10))} ${paint(visible(m.scan.verdict))} (${m.scan.findings.length} finding${m.scan.findings.length === 1 ? '' : 's'})`);
      for (const f of m.scan.findings) out(`           ${printable(`${f.severity} ${f.rule} ${f.file}:${f.line} ${f.message}`)}`);
    }
    // Every published version, the one shown marked; dates are when each first appeared.
    const { versions } = await registry.versions(m.name);
    versions.forEach((v, i) => row(i === 0 ? 'versions' : '', `${v.version}${v.date ? `  ${v.date.slice(0, 10)}` : ''}${v.digest === m.digest ? '  ← shown' : ''}`));
    const asked = String(args.name).includes('@') ? `${m.name}@${m.version}` : m.name;
    // Pasted as it is, the command must reach the same registry: one given by --registry is named.
    const from = typeof args.registry === 'string' && args.registry !== '' ? ` --registry ${shellQuote(args.registry)}` : '';
    row('install', `skilldex install ${asked}${from} --to claude`);
    return 0;
  },
});
