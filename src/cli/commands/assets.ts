import { defineCommand } from 'citty';
import { out, outContent, outJson, visible } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

export default defineCommand({
  meta: { name: 'assets', description: "List a skill's references/, assets/ and scripts/, print one of them, or give a script's local path" },
  args: {
    name: { type: 'positional', description: 'Skill name (case-insensitive) or tool id (skill:<name>:<script>)', required: true },
    path: { type: 'positional', description: 'An asset to print, e.g. references/REFERENCE.md', required: false },
    'script-path': { type: 'string', description: 'Print the absolute path of a script in a verified local copy: a file under scripts/, its name without extension, or a tool id', valueHint: 'script' },
    dir: { type: 'string', description: 'With --script-path: an installed copy to use instead of the cache' },
    ...registryArgs,
  },
  async run({ args }) {
    const registry = await openRegistryFromArgs(args);
    const name = String(args.name);
    if (args['script-path']) {
      const path = await registry.scriptPath(name, String(args['script-path']), args.dir ? { dir: String(args.dir) } : {});
      if (args.json) outJson({ name, script: args['script-path'], path });
      else out(visible(path));
      return 0;
    }
    if (args.path) {
      const bytes = await registry.loadAssetBytes(name, String(args.path));
      if (args.json) outJson({ name, path: args.path, content: new TextDecoder().decode(bytes) });
      else outContent(bytes);
      return 0;
    }
    const assets = await registry.listAssets(name);
    if (args.json) outJson({ name, assets });
    else for (const asset of assets) out(visible(asset));
    return 0;
  },
});
