import { defineRule, type ScannerRule } from './rule.ts';
import { credentialStoreNetwork, dotenvNetwork } from './rules/credential-exfiltration.ts';
import { destructiveCommand } from './rules/destructive.ts';
import { downloadPipeShell } from './rules/download-exec.ts';
import { disguisedExecutable, executableBinary, magicMismatch, symlinkEntry, undecodableFile } from './rules/file-type.ts';
import { bidiControl, tagCharacters, variationSelectorRun, zeroWidth } from './rules/hidden-unicode.ts';
import { concealment, directiveTag, instructionOverride } from './rules/injection.ts';
import { prerequisiteLure } from './rules/lure.ts';
import { exfiltrationEndpoint, pasteSiteUrl, rawIpUrl, urlShortener } from './rules/network.ts';
import { base64ToShell, encodedBlob, encodedCommand, evalDecoded } from './rules/obfuscation.ts';
import { secretLiteral } from './rules/secret-literal.ts';
import { htmlActiveContent, htmlOffSite, svgActiveContent } from './rules/active-markup.ts';
import { tlsDisabled } from './rules/tls-verification.ts';
import { typosquat } from './rules/typosquat.ts';

export const findingsTruncated = defineRule({
  id: 'scan/truncated',
  severity: 'info',
  description: 'More findings of the same rule were not listed',
  explanation:
    'To keep reports readable and bounded, at most 20 findings per rule and file are listed; this finding ' +
    'counts the rest. The verdict already reflects the listed ones, which have the same severity.',
  hint: 'Fix the listed findings and scan again to see the remaining ones.',
  reportedBy: 'the scan, when it caps a rule\'s findings in a file (src/scanner/scan.ts)',
});

/**
 * The scanner's rules, in the order the documentation lists them. The one rule list
 * (src/pipeline/rules/all-rules.ts) registers them whole; the scanner runs from this list because
 * it must work without the build pipeline (`skilldex scan`, the site, its worker threads).
 */
export const SCANNER_RULES = [
  downloadPipeShell, base64ToShell, evalDecoded, encodedCommand, encodedBlob,
  prerequisiteLure, rawIpUrl, pasteSiteUrl, urlShortener, exfiltrationEndpoint,
  instructionOverride, concealment, directiveTag,
  credentialStoreNetwork, dotenvNetwork, secretLiteral, tlsDisabled, destructiveCommand,
  tagCharacters, bidiControl, zeroWidth, variationSelectorRun,
  disguisedExecutable, executableBinary, magicMismatch, undecodableFile, symlinkEntry, svgActiveContent, htmlActiveContent, htmlOffSite,
  typosquat, findingsTruncated,
] as const satisfies readonly ScannerRule[];

/** Every scanner rule id. */
export type ScannerRuleId = (typeof SCANNER_RULES)[number]['meta']['id'];

/** The rules with a check of their own, run over every decoded text file in this fixed order, so output is deterministic. */
export const TEXT_RULES: readonly (ScannerRule & { check: NonNullable<ScannerRule['check']> })[] = SCANNER_RULES.filter(
  (r): r is (typeof SCANNER_RULES)[number] & { check: NonNullable<ScannerRule['check']> } => 'check' in r && r.check !== undefined,
);
