import { defineRule, type SecurityRule, type TextCheck } from './rule.ts';
import { checkCredentialStoreNetwork, checkDotenvNetwork, credentialStoreNetwork, dotenvNetwork } from './rules/credential-exfiltration.ts';
import { checkDestructive, destructiveCommand } from './rules/destructive.ts';
import { checkDownloadExec, downloadPipeShell } from './rules/download-exec.ts';
import { disguisedExecutable, executableBinary, magicMismatch, symlinkEntry, undecodableFile } from './rules/file-type.ts';
import { bidiControl, checkHiddenUnicode, tagCharacters, variationSelectorRun, zeroWidth } from './rules/hidden-unicode.ts';
import { checkConcealment, checkDirectiveTag, checkInstructionOverride, concealment, directiveTag, instructionOverride } from './rules/injection.ts';
import { checkPrerequisiteLure, prerequisiteLure } from './rules/lure.ts';
import { checkUrls, exfiltrationEndpoint, pasteSiteUrl, rawIpUrl, urlShortener } from './rules/network.ts';
import { base64ToShell, checkBase64ToShell, checkEncodedData, checkEvalDecoded, encodedBlob, encodedCommand, evalDecoded } from './rules/obfuscation.ts';
import { checkSecretLiteral, secretLiteral } from './rules/secret-literal.ts';
import { checkActiveMarkup, htmlActiveContent, svgActiveContent } from './rules/active-markup.ts';
import { checkTlsDisabled, tlsDisabled } from './rules/tls-verification.ts';
import { typosquat } from './rules/typosquat.ts';

export const findingsTruncated = defineRule({
  id: 'scan/truncated',
  severity: 'info',
  description: 'More findings of the same rule were not listed',
  explanation:
    'To keep reports readable and bounded, at most 20 findings per rule and file are listed; this finding ' +
    'counts the rest. The verdict already reflects the listed ones, which have the same severity.',
  hint: 'Fix the listed findings and scan again to see the remaining ones.',
});

/** Every rule, in the order the documentation lists them. */
export const RULES = [
  downloadPipeShell, base64ToShell, evalDecoded, encodedCommand, encodedBlob,
  prerequisiteLure, rawIpUrl, pasteSiteUrl, urlShortener, exfiltrationEndpoint,
  instructionOverride, concealment, directiveTag,
  credentialStoreNetwork, dotenvNetwork, secretLiteral, tlsDisabled, destructiveCommand,
  tagCharacters, bidiControl, zeroWidth, variationSelectorRun,
  disguisedExecutable, executableBinary, magicMismatch, undecodableFile, symlinkEntry, svgActiveContent, htmlActiveContent,
  typosquat, findingsTruncated,
] as const satisfies readonly SecurityRule[];

/** Every scanner rule id. */
export type ScannerRuleId = (typeof RULES)[number]['meta']['id'];

/** The checks run on every decoded text file, in a fixed order so output is deterministic. */
export const TEXT_CHECKS: readonly TextCheck[] = [
  checkDownloadExec, checkBase64ToShell, checkEvalDecoded, checkEncodedData, checkPrerequisiteLure, checkUrls,
  checkInstructionOverride, checkConcealment, checkDirectiveTag, checkCredentialStoreNetwork, checkDotenvNetwork,
  checkSecretLiteral, checkTlsDisabled, checkDestructive, checkHiddenUnicode, checkActiveMarkup,
];
