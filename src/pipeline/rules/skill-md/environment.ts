import { reservedEnvironmentVariable } from '../../../core/schemas/skill-md.ts';
import { defineRule } from '../rule.ts';

/**
 * The publisher's side of the runner's refusal (src/runtime/node/run-sandbox.ts): a skill that
 * declares `NODE_OPTIONS` or `LD_PRELOAD` would never run, so the pull request that adds it
 * should fail, at the line of the variable.
 */
export const reservedEnvironment = defineRule({
  id: 'package/reserved-environment',
  severity: 'error',
  scope: 'skill-md',
  description: '`security.environment` may not set variables that steer the interpreter or the dynamic linker (`NODE_OPTIONS`, `LD_PRELOAD`, `PYTHONPATH`, `PATH` …) or that the runner sets itself (`HOME`, `TMPDIR` …); `skilldex run` refuses such a skill.',
  hint: 'remove the variable; read settings the script needs from ordinary variables of its own (`MY_SKILL_MODE`) or from its input',
  check({ data }, report) {
    const security = data.security;
    if (!security || typeof security !== 'object' || Array.isArray(security)) return;
    const environment = (security as Record<string, unknown>).environment;
    if (!environment || typeof environment !== 'object' || Array.isArray(environment)) return;
    for (const name of Object.keys(environment)) {
      const reason = reservedEnvironmentVariable(name);
      if (reason !== undefined) report(['security', 'environment', name], `security.environment sets ${JSON.stringify(name)}, which ${reason}`);
    }
  },
});
