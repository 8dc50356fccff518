import { stat, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { defineCommand } from 'citty';
import { generateSigningKey } from '../../pipeline/index.ts';
import { CliError, EXIT, systemReason } from '../_errors.ts';
import { out, printable } from '../_output.ts';

export default defineCommand({
  meta: { name: 'keygen', description: 'Create an Ed25519 key pair that signs the registry index (see docs/security.md#the-chain-of-trust)' },
  args: {
    out: { type: 'string', description: 'The file to write the private key to (PKCS #8 PEM, mode 600; never an existing file or a folder); never commit it', default: 'skilldex-signing-key.pem' },
  },
  async run({ args }) {
    const given = String(args.out);
    // What the user typed, as the terminal should show it: a name may hold control characters.
    const shown = printable(given);
    // `resolve` drops a trailing slash: `--out keys/` would write a file named `keys`.
    if (given.endsWith('/') || given.endsWith(sep) || (await stat(given).catch(() => undefined))?.isDirectory()) {
      throw new CliError('E_KEYGEN', `--out ${shown} names a folder; it takes the key's file name`, { hint: `name the file, e.g. --out ${printable(join(given, 'skilldex-signing-key.pem'))}`, exitCode: EXIT.usage });
    }
    const file = resolve(given);
    const key = await generateSigningKey();
    // `wx`: never overwrite an existing key, which may be the only copy of the registry's key.
    await writeFile(file, key.privateKeyPem, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      throw new CliError('E_KEYGEN', error.code === 'EEXIST' ? `${shown} already exists; it is not overwritten` : `cannot write ${shown}: ${systemReason(error) ?? error.message}`, {
        hint: 'choose another file with --out',
      });
    });
    out(`private key: ${shown} (keep it secret; do not commit it)`);
    out(`public key:  ${key.publicKey}`);
    out(`key id:      ${key.kid}`);
    out('');
    out('1. Store the private key as the repository secret SKILLDEX_SIGNING_KEY, e.g.');
    out(`     gh secret set SKILLDEX_SIGNING_KEY < ${shown}`);
    out('   then delete the file or keep it offline. The deploy workflow signs with it on the default branch only.');
    out('2. List the public key in skilldex.config.json:');
    out(`     "signing": { "keys": [ { "publicKey": "${key.publicKey}", "status": "active" } ] }`);
    out('3. Tell clients to pin it:');
    out(`     skilldex search <query> --registry <url> --trust ${key.publicKey}`);
  },
});
