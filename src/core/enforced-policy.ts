import type { SecurityPolicy } from './schemas/skill-md.ts';

/** The `security` fields the runner knows about. */
const POLICY_FIELDS = ['timeout_ms', 'memory_mb', 'network', 'network_allowlist', 'filesystem', 'requires_filesystem', 'environment'] as const;
export type PolicyField = (typeof POLICY_FIELDS)[number];

export interface PolicyEnforcement {
  /**
   * True when `skilldex run` enforces the field as declared, in its sandbox (see
   * docs/security.md#what-the-runner-guarantees). Every field is, today; the flag exists so a
   * field the runtime cannot enforce is never shown as enforced.
   */
  enforced: boolean;
  /** One sentence a reader can trust: how it is enforced, or what is missing. */
  note: string;
}

/**
 * What `skilldex run` does with each field of a declared `security` policy, so a catalog page
 * shows a policy as enforced only where the runtime really enforces it. Pure: the answer depends
 * on the policy alone. The sandbox itself (Linux with bubblewrap) is described in
 * docs/security.md#what-the-runner-guarantees; a run without it is refused unless the caller
 * explicitly asks to run unconfined.
 *
 * @example
 * enforcedPolicy({ network: 'allowlist', network_allowlist: ['https://api.example.com'] }).network.enforced
 * // → true: only HTTP(S) to api.example.com:443 leaves the sandbox
 */
export function enforcedPolicy(security: SecurityPolicy | undefined): Record<PolicyField, PolicyEnforcement> {
  const allowlist = security?.network === 'allowlist' && (security.network_allowlist?.length ?? 0) > 0;
  const writable = security?.filesystem === undefined ? security?.requires_filesystem !== false : security.requires_filesystem === true;
  const noNetwork: PolicyEnforcement = { enforced: true, note: 'no network: the run has its own empty network namespace' };
  return {
    timeout_ms: { enforced: true, note: 'the whole run, retries included, is killed at the deadline' },
    memory_mb: { enforced: true, note: 'an address-space limit on the skill process (plus a fixed reserve for Node entries, whose engine reserves address space up front)' },
    network: allowlist ? { enforced: true, note: 'only HTTP and HTTPS to the listed hosts, through a filtering proxy; nothing else leaves the sandbox' } : noNetwork,
    network_allowlist: allowlist ? { enforced: true, note: 'each request and HTTPS tunnel is checked against the list by host and port' } : { enforced: true, note: 'no allowlist declared, so no network' },
    filesystem: writable
      ? { enforced: true, note: 'the skill reads its own files and system libraries only, and writes only a fresh work folder deleted after the run' }
      : { enforced: true, note: 'the skill reads its own files and system libraries only, and can write nowhere' },
    requires_filesystem: { enforced: true, note: writable ? 'a fresh writable work folder' : 'no writable folder' },
    environment: { enforced: true, note: 'exactly these variables (plus PATH, HOME, locale and SKILL_*) reach the skill; nothing else is inherited' },
  };
}
