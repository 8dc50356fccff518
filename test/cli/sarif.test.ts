/**
 * `skilldex validate --format sarif` and `skilldex scan --format sarif` are written by one SARIF
 * writer; both logs, from the real CLI, must satisfy the official SARIF 2.1.0 schema (shipped by
 * Microsoft's @microsoft/jest-sarif) so GitHub code scanning accepts the upload.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runSkilldex } from '../helpers/cli.ts';

const require = createRequire(import.meta.url);
// CommonJS whose default export TypeScript's NodeNext view cannot construct; require gives the class.
const Ajv = require('ajv-draft-04') as typeof import('ajv').Ajv;
const schema = JSON.parse(readFileSync(join(require.resolve('@microsoft/jest-sarif/package.json'), '..', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
// The official schema's language-tag pattern is not valid with the `u` flag, hence unicodeRegExp off.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
// SARIF requires absolute `uri`s (helpUri, informationUri); artifact locations are references.
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'file:///'));
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
const validateSarif = ajv.compile(schema);

interface SarifRun {
  tool: { driver: { name: string; rules: { id: string }[] } };
  results: { ruleId: string; ruleIndex?: number; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[]; relatedLocations?: { message?: { text: string }; physicalLocation: { artifactLocation: { uri: string } } }[] }[];
}

const parse = (stdout: string): SarifRun => {
  const log = JSON.parse(stdout) as { version: string; runs: SarifRun[] };
  expect(validateSarif(log), JSON.stringify(validateSarif.errors, null, 2)).toBe(true);
  expect(log.version).toBe('2.1.0');
  return log.runs[0]!;
};

describe('SARIF output', () => {
  it('the schema check itself rejects a log without a tool', () => {
    expect(validateSarif({ version: '2.1.0', runs: [{ results: [] }] })).toBe(false);
  });

  it('validate --format sarif: one result per diagnostic, the other skill as a related location, schema-valid', async () => {
    const root = join(REPO, 'test', 'fixtures', 'rules', 'registry-duplicate-name');
    const json = await runSkilldex(REPO, ['validate', root, '--format', 'json']);
    const sarif = await runSkilldex(REPO, ['validate', root, '--format', 'sarif']);
    expect(sarif.status).toBe(json.status);
    expect(sarif.status).toBe(1);
    const run = parse(sarif.stdout);
    const diagnostics = (JSON.parse(json.stdout) as { diagnostics: { rule: string; severity: string; file: string; line: number; hint?: string; related?: unknown[] }[] }).diagnostics;
    expect(run.tool.driver.name).toBe('skilldex-validate');
    expect(run.results.map((r) => [r.ruleId, r.level, r.locations[0]!.physicalLocation.artifactLocation.uri, r.locations[0]!.physicalLocation.region.startLine]))
      .toEqual(diagnostics.map((d) => [d.rule, d.severity, encodeURI(d.file), d.line]));
    const duplicate = run.results.find((r) => r.ruleId === 'registry/duplicate-name')!;
    expect(run.tool.driver.rules[duplicate.ruleIndex!]!.id).toBe('registry/duplicate-name');
    expect(duplicate.relatedLocations).toHaveLength(1);
    expect(duplicate.relatedLocations![0]!.message!.text).toMatch(/declared here|also/i);
    expect(duplicate.message.text).toContain('Hint: ');
    // The one rule list: validator, pull-request and scanner rules all described to code scanning.
    const ids = run.tool.driver.rules.map((r) => r.id);
    for (const id of ['name/folder-mismatch', 'publish/version-not-bumped', 'exec/download-pipe-shell']) expect(ids).toContain(id);
  });

  it('validate --format sarif on a clean skill is a schema-valid log with no results', async () => {
    const sarif = await runSkilldex(REPO, ['validate', join(REPO, 'test', 'fixtures', 'rules', 'cli-clean'), '--format', 'sarif']);
    expect(sarif.status).toBe(0);
    expect(parse(sarif.stdout).results).toEqual([]);
  });

  it('scan --format sarif is schema-valid too', async () => {
    const sarif = await runSkilldex(REPO, ['scan', join('test', 'fixtures', 'security', 'malicious'), '--format', 'sarif', '--site-url', 'https://skills.example.org/']);
    const run = parse(sarif.stdout);
    expect(run.tool.driver.name).toBe('skilldex-scan');
    expect(run.results.length).toBeGreaterThan(10);
  });
});
