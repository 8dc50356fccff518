import { isFencedAt, type SkillTextFile } from '../document.ts';
import { forEachPatternMatch, pattern, type Pattern } from '../pattern.ts';
import { defineRule, type Hit, type ReportHit } from '../rule.ts';

export const instructionOverride = defineRule({
  id: 'injection/instruction-override',
  severity: 'high',
  description: 'Tries to override the agent\'s instructions',
  explanation:
    'Phrases such as "ignore previous instructions", "disregard the system prompt", "your new system prompt ' +
    'is" or "you are now in developer mode" try to replace the rules the agent was given. A skill\'s text ' +
    'goes straight into the model\'s context, so this is prompt injection.',
  hint:
    'Describe what the skill does without addressing the model\'s other instructions. To quote such a phrase ' +
    '(e.g. in a security lesson), put it in a fenced code block: there it is reported only as `info`.',
  check: (file, report) => reportAll(INSTRUCTION_OVERRIDE, file, report),
});

export const concealment = defineRule({
  id: 'injection/conceal-from-user',
  severity: 'high',
  description: 'Tells the agent to hide something from the user',
  explanation:
    '"Do not tell the user", "without the user knowing", "silently send…": an honest skill has nothing to ' +
    'hide from the person using it. Malicious skills pair this with data theft.',
  hint: 'Remove the instruction; if output should be brief, say so without asking the agent to keep secrets from the user.',
  check: (file, report) => reportAll(CONCEALMENT, file, report),
});

export const directiveTag = defineRule({
  id: 'injection/directive-tag',
  severity: 'warn',
  description: 'Pseudo-system markup such as <IMPORTANT>',
  explanation:
    '`<IMPORTANT>`, `<system>`, `<|im_start|>system`, `[INST]` or `<<SYS>>` imitate the markup models treat ' +
    'as authoritative. MCP tool-poisoning attacks hide their orders in `<IMPORTANT>` blocks.',
  hint: 'Use ordinary Markdown emphasis (`**Important:**`) for notes to the reader.',
  // Closing tags are skipped so an `<IMPORTANT>…</IMPORTANT>` block is one finding, not two.
  check: (file, report) => reportAll(DIRECTIVE_TAG, file, report, true),
});

export const INSTRUCTION_OVERRIDE: readonly Pattern<RegExp>[] = [
  pattern(
    'ignore disregard forget override bypass skip',
    /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|the|your|of|my|these|those)\s+){0,3}(?:previous|prior|above|preceding|earlier|foregoing|system|original|developer|initial|safety)\s+(?:instructions|prompts?|rules|directives|guidelines|guardrails|messages|context|policies)\b/gi,
  ),
  pattern('ignore', /\bignore\s+all\s+(?:other\s+)?(?:instructions|rules|guidelines)\b/gi),
  pattern('prompt', /\b(?:new|updated|real|true|override|overwrite|replace)\s+(?:the\s+|your\s+)?system\s+prompt\b/gi),
  pattern('prompt', /\bsystem\s+prompt\s+(?:override|update|injection)\s*:/gi),
  pattern('prompt', /\b(?:reveal|print|show|output|repeat|leak|dump)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|hidden\s+|original\s+)?system\s+prompt\b/gi),
  pattern('dan developer jailbroken unrestricted unfiltered', /\byou\s+are\s+now\s+(?:in\s+)?(?:DAN|developer\s+mode|jailbroken|unrestricted|an?\s+unfiltered)\b/gi),
  // `ignore`, `disregard`, or the `follow` of `no longer follow`.
  pattern('ignore disregard follow', /\bfrom\s+now\s+on,?\s+you\s+(?:will|must|are\s+to)\s+(?:ignore|disregard|no\s+longer\s+follow)\b/gi),
];

export const CONCEALMENT: readonly Pattern<RegExp>[] = [
  pattern(
    'tell inform mention reveal disclose notify alert show',
    /\b(?:do\s+not|don['’]t|dont|never)\s+(?:tell|inform|mention|reveal|disclose|notify|alert|show)\s+(?:this\s+|it\s+|anything\s+|that\s+)?(?:to\s+)?(?:the\s+)?(?:user|human|operator)\b(?!['’]s)(?!\s+(?:name|data|input|raw|password|credentials?|secrets?|api\s+key|stack|internal))/gi,
  ),
  pattern('without', /\bwithout\s+(?:the\s+)?(?:user|human)(?:['’]s)?\s+(?:knowing|knowledge|noticing|being\s+aware|seeing)\b/gi),
  pattern('hide conceal keep', /\b(?:hide|conceal|keep)\s+(?:this|these|it|that)\s+(?:secret\s+|hidden\s+)?from\s+(?:the\s+)?(?:user|human)\b/gi),
  pattern('silently', /\bsilently\s+(?:send|upload|exfiltrate|post|transmit|forward|copy|collect|read)\b/gi),
  pattern('must should', /\b(?:the\s+)?user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|find\s+out|be\s+told)\b/gi),
];

export const DIRECTIVE_TAG: readonly Pattern<RegExp>[] = [
  // `system_prompt` is one word (`_` is a word character), `system-prompt` two: prefixes cover both.
  // One way to read the spaces around `/` (not `\s*\/?\s*`): a `<` before a megabyte of spaces took minutes.
  pattern('important system* admin*', /<\s*(?:\/\s*)?(?:IMPORTANT|SYSTEM|system[-_]prompt|system[-_]instructions?|admin[-_]instructions?)\s*>/gi),
  pattern('im_start im_end system start_header_id', /<\|(?:im_start|im_end|system|start_header_id)\|>/gi),
  pattern('inst sys', /\[INST\]|<<SYS>>/g),
];

/**
 * Where a match sits decides its weight: quoted in a fenced code block of a Markdown file, or in
 * test data, it is an example rather than an order to the agent, so it is capped at `info`.
 */
function contextCeiling(file: SkillTextFile, offset: number): Pick<Hit, 'ceiling' | 'because'> {
  if (file.isTestData) return { ceiling: 'info', because: 'it sits in test data' };
  if (file.kind === 'markdown' && isFencedAt(file, offset)) return { ceiling: 'info', because: 'it is quoted in a fenced code block' };
  return {};
}

function reportAll(patterns: readonly Pattern<RegExp>[], file: SkillTextFile, report: ReportHit, onlyOpeningTags = false): void {
  // SVG and HTML markup legitimately contain tags such as <system> only in unusual cases; still
  // report there, the ceiling logic is the same.
  for (const p of patterns) {
    forEachPatternMatch(p, file, (start, end) => {
      const match = file.text.slice(start, end);
      if (onlyOpeningTags && match.includes('/')) return;
      report({ offset: start, evidence: match, ...contextCeiling(file, start) });
    });
  }
}
