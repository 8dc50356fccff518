import { describe, expect, it } from 'vitest';
import { ok, runScript } from './_protocol.ts';

const SCRIPT = 'dev/semver-tool/scripts/semver.sh';
const run = (req: unknown, env?: Record<string, string>) => runScript('sh', SCRIPT, req, env);

describe('semver-tool (POSIX sh, seed 004)', () => {
  it('parse: splits a full version, accepting a leading v', () => {
    expect(ok(run({ action: 'parse', params: { version: 'v1.2.3-rc.1+build.5' } }), 'parse')).toEqual({
      version: '1.2.3-rc.1+build.5',
      major: 1,
      minor: 2,
      patch: 3,
      prerelease: ['rc', 1],
      build: ['build', 5],
      isPrerelease: true,
      isStable: false,
    });
    expect(ok(run({ action: 'parse', params: { version: '2.0.0' } }), 'parse')).toMatchObject({ isStable: true, prerelease: [], build: [] });
    expect(ok(run({ action: 'parse', params: { version: '0.4.1' } }), 'parse').isStable).toBe(false);
  });

  it('parse: rejects invalid versions with INVALID_PARAM', () => {
    for (const version of ['1.2', '01.2.3', '1.2.3-', '1.2.3-rc.01', '1.2.3+', 'x.y.z', '1.2.3 beta']) {
      const r = run({ action: 'parse', params: { version } });
      expect(r.envelope, version).toMatchObject({ success: false, action: 'parse', error: { code: 'INVALID_PARAM', details: { param: 'version', value: version } } });
    }
  });

  it('compare: follows SemVer §11 precedence', () => {
    const cmp = (a: string, b: string) => ok(run({ action: 'compare', params: { a, b } }), 'compare').result;
    expect(cmp('1.0.0-alpha', '1.0.0-alpha.1')).toBe(-1);
    expect(cmp('1.0.0-beta.11', '1.0.0-beta.2')).toBe(1);
    expect(cmp('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(cmp('1.10.0', '1.9.9')).toBe(1);
    expect(cmp('1.0.0-1', '1.0.0-alpha')).toBe(-1);
    expect(cmp('1.0.0+a', '1.0.0+b')).toBe(0);
    expect(ok(run({ action: 'compare', params: { a: '2.0.0', b: '10.0.0' } }), 'compare')).toEqual({ a: '2.0.0', b: '10.0.0', result: -1, relation: '<' });
  });

  it('bump: major, minor, patch, prerelease and release like npm version', () => {
    const bump = (version: string, part: string, preid?: string) =>
      ok(run({ action: 'bump', params: { version, part, ...(preid ? { preid } : {}) } }), 'bump').version;
    expect(bump('1.2.3', 'major')).toBe('2.0.0');
    expect(bump('1.2.3', 'minor')).toBe('1.3.0');
    expect(bump('1.2.3', 'patch')).toBe('1.2.4');
    expect(bump('2.0.0-rc.3', 'major')).toBe('2.0.0');
    expect(bump('1.3.0-beta.1', 'major')).toBe('2.0.0');
    expect(bump('1.3.0-beta.1', 'minor')).toBe('1.3.0');
    expect(bump('1.2.4-rc.0', 'patch')).toBe('1.2.4');
    expect(bump('1.2.3', 'prerelease')).toBe('1.2.4-0');
    expect(bump('1.2.3', 'prerelease', 'rc')).toBe('1.2.4-rc.0');
    expect(bump('1.2.4-rc.0', 'prerelease', 'rc')).toBe('1.2.4-rc.1');
    expect(bump('1.2.4-rc.0', 'prerelease', 'beta')).toBe('1.2.4-beta.0');
    expect(bump('1.2.3-alpha', 'prerelease')).toBe('1.2.3-alpha.0');
    expect(bump('1.2.3-rc.1+build.7', 'release')).toBe('1.2.3');
    // Thirteen runs of a POSIX sh script that parses its JSON in sh: about a minute on a busy machine.
  }, 180_000);

  it('bump: an unknown part is INVALID_PARAM, a missing one MISSING_PARAM', () => {
    expect(run({ action: 'bump', params: { version: '1.0.0', part: 'huge' } }).envelope.error).toMatchObject({ code: 'INVALID_PARAM', details: { param: 'part', value: 'huge' } });
    expect(run({ action: 'bump', params: { version: '1.0.0' } }).envelope.error).toMatchObject({ code: 'MISSING_PARAM', details: { param: 'part' } });
  });

  it('sort: orders by precedence and reports the latest', () => {
    const data = ok(run({ action: 'sort', params: { versions: ['1.0.0', '1.0.0-rc.1', '0.9.9', '1.0.0-alpha', '1.0.0-alpha.beta', '1.0.0-beta.11', '1.0.0-beta.2', '1.0.0-beta'] } }), 'sort');
    expect(data.sorted).toEqual(['0.9.9', '1.0.0-alpha', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0']);
    expect(data).toMatchObject({ count: 8, latest: '1.0.0' });
    expect(ok(run({ action: 'sort', params: { versions: [] } }), 'sort')).toEqual({ sorted: [], count: 0, latest: null });
  });

  it('unknown action → UNKNOWN_ACTION, with quotes in the name escaped', () => {
    const r = run({ action: 'de"ploy', params: {} });
    expect(r.envelope).toMatchObject({ success: false, action: 'de"ploy', error: { code: 'UNKNOWN_ACTION', details: { supported_actions: ['parse', 'compare', 'bump', 'sort'] } } });
  });

  it('missing params → MISSING_PARAM', () => {
    expect(run({ action: 'parse', params: {} }).envelope).toMatchObject({ success: false, action: 'parse', error: { code: 'MISSING_PARAM', details: { param: 'version' } } });
    expect(run({ action: 'compare', params: { a: '1.0.0' } }).envelope.error).toMatchObject({ code: 'MISSING_PARAM', details: { param: 'b' } });
    expect(run({ action: 'sort' }).envelope.error).toMatchObject({ code: 'MISSING_PARAM', details: { param: 'versions' } });
    expect(run({}).envelope).toMatchObject({ success: false, error: { code: 'MISSING_PARAM', details: { param: 'action' } } });
  });

  it('wrong parameter types → INVALID_PARAM', () => {
    expect(run({ action: 'parse', params: { version: 123 } }).envelope.error).toMatchObject({ code: 'INVALID_PARAM', details: { param: 'version' } });
    expect(run({ action: 'parse', params: [1] }).envelope).toMatchObject({ action: 'parse', error: { code: 'INVALID_PARAM' } });
  });

  it('invalid JSON on stdin → INVALID_JSON and exit status 1', () => {
    const r = run('{bad json');
    expect(r.envelope).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } });
    expect(r.status).toBe(1);
  });

  it('logs to stderr only; SKILL_DEBUG=1 adds the request', () => {
    const r = run({ action: 'parse', params: { version: '1.0.0' } }, { SKILL_DEBUG: '1' });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('debug: request');
    expect(run({ action: 'parse', params: { version: '1.0.0' } }).stderr).not.toContain('debug');
  });
});
