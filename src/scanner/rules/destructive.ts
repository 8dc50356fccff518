import { forEachPatternMatch, gapped, pattern, unguarded, type Pattern } from '../pattern.ts';
import { defineRule } from '../rule.ts';

export const destructiveCommand = defineRule({
  id: 'destructive/system-wipe',
  severity: 'critical',
  description: 'Destroys the home folder, a system folder or a disk',
  explanation:
    'A command recursively deletes or rewrites the user\'s home folder or a system folder (`rm -rf ~`, ' +
    '`rm -rf /etc`), formats or overwrites a disk (`mkfs`, `dd of=/dev/sda`), opens the whole file system ' +
    'to everyone (`chmod -R 777 /`) or exhausts the machine (fork bomb). No skill needs this.',
  hint: 'Delete only paths the skill itself created, named exactly (e.g. a temporary folder from `mktemp -d`).',
  quotable: true,
  check(file, report) {
    for (const p of DESTRUCTIVE_PATTERNS) forEachPatternMatch(p, file, (start, end) => report({ offset: start, evidence: file.text.slice(start, end) }));
  },
});

const HOME = String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)`;
const SYSTEM_DIR = String.raw`/(?:etc|usr|bin|sbin|lib|lib64|boot|var|home|root|opt|dev|sys|proc|srv|System|Users|Library|Applications|private)?`;
// The target must end the argument: `~/` or `/*` still count, `~/project/tmp` does not.
const TARGET_END = String.raw`/?\*?["']?(?=[\s;&|)\x60]|$)`;

// Every pattern here runs over whole files a pull request brings, so none may backtrack more than
// a bounded amount at each place it starts: a flag is `-(?=[A-Za-z]*R)[A-Za-z]+` (one pass to find
// the R) rather than `-[A-Za-z]*R[A-Za-z]*` (which tries every R of a long run of letters), and
// options before a device are counted. A one-megabyte line of either kind took minutes to scan.
export const DESTRUCTIVE_PATTERNS: readonly Pattern[] = [
  pattern('rm', new RegExp(String.raw`\brm\s+(?:-{1,2}[A-Za-z-]+\s+){0,8}?(?:-(?=[A-Za-z]*[rR])[A-Za-z]+|--recursive)\s+(?:-{1,2}[A-Za-z-]+\s+){0,8}(?:--\s+)?["']?(?:${HOME}|${SYSTEM_DIR})${TARGET_END}`, 'gm')),
  pattern('mkfs', /\bmkfs(?:\.[a-z0-9]+)?\s+(?:-\S{1,64}\s{1,16}){0,16}\/dev\//gm),
  pattern('dd', gapped(/\bdd\b/g, /\bof=\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d|xvd[a-z]|vd[a-z])/g, 200)),
  pattern('dev', /(?<![<>])>\s*\/dev\/(?:sd[a-z]|nvme\d+n\d|disk\d)\b/gm),
  pattern('chmod', /\bchmod\s+(?:-(?=[A-Za-z]*R)[A-Za-z]+\s+|--recursive\s+)(?:0?777|a\+rwx|ugo\+rwx)\s+\/(?:\*|etc|usr|bin|var|home)?(?=[\s;&|]|$)/gm),
  pattern('chmod', /\bchmod\s+(?:0?777|a\+rwx)\s+-R\s+\/(?=[\s;&|]|$)/gm),
  // A fork bomb is all punctuation.
  unguarded(/:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/gm),
  pattern('rd rmdir', /\b(?:rd|rmdir)\s+\/s\s+\/q\s+[A-Za-z]:\\(?:Windows|Users)?\\?(?=[\s"]|$)/gim),
  // `remove` of `Remove-Item`. Not `-Recurse`: the gap is tested on its own, so `\b` would also
  // hold at its end where the text goes on with a word character.
  pattern('remove', gapped(/\bRemove-Item\b/gi, /(?:\$env:USERPROFILE|\$HOME|~|[A-Za-z]:\\(?:Windows|Users)?)\\?["']?(?=\s|$)/gim, 200, { gapMust: /-Recurse\b/i })),
  // The terminal's `delete`, after `-`.
  pattern('delete', gapped(/\bfind\s+(?:\/|~|\$HOME)\s/g, /-delete\b/g, 100)),
];
