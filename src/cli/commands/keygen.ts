import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { generateSigningKey } from '../../pipeline/index.ts';
import { CliError, systemReason } from '../_errors.ts';
import { out } from '../_output.ts';

export default defineCommand({
  meta: { name: 'keygen', description: 'Create an Ed25519 key pair that signs the registry index (see docs/security.md#the-chain-of-trust)' },
  args: {
    out: { type: 'string', description: 'Where to write the private key (PKCS #8 PEM, mode 600); never commit it', default: 'skilldex-signing-key.pem' },
  },
  async run({ args }) {
    const file = resolve(String(args.out));
    const key = await generateSigningKey();
    // `wx`: never overwrite an existing key, which may be the only copy of the registry's key.
    await writeFile(file, key.privateKeyPem, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      throw new CliError('E_KEYGEN', error.code === 'EEXIST' ? `${String(args.out)} already exists; it is not overwritten` : `cannot write ${String(args.out)}: ${systemReason(error) ?? error.message}`, {
        hint: 'choose another file with --out',
      });
    });
    out(`private key: ${String(args.out)} (keep it secret; do not commit it)`);
    out(`public key:  ${key.publicKey}`);
    out(`key id:      ${key.kid}`);
    out('');
    out('1. Store the private key as the repository secret SKILLDEX_SIGNING_KEY, e.g.');
    out(`     gh secret set SKILLDEX_SIGNING_KEY < ${String(args.out)}`);
    out('   then delete the file or keep it offline. The deploy workflow signs with it on the default branch only.');
    out('2. List the public key in skilldex.config.json:');
    out(`     "signing": { "keys": [ { "publicKey": "${key.publicKey}", "status": "active" } ] }`);
    out('3. Tell clients to pin it:');
    out(`     skilldex search <query> --registry <url> --trust ${key.publicKey}`);
  },
});
