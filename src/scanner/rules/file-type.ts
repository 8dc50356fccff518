import { defineRule } from '../rule.ts';

// What a file's bytes are is decided once per file by the scan itself (src/scanner/scan.ts, with
// the magic numbers of ../magic.ts), before any text rule runs; it reports these.
const reportedBy = 'the scan, from each file\'s bytes (src/scanner/scan.ts)';

export const disguisedExecutable = defineRule({
  id: 'file/disguised-executable',
  severity: 'critical',
  description: 'Executable disguised as another file type',
  explanation:
    'The file\'s bytes are a native executable (ELF, Windows PE or Mach-O) but its name claims something ' +
    'harmless, such as `logo.png` or `notes.txt`. There is no innocent reason for that.',
  hint: 'Remove the binary. Skills ship source that reviewers can read, never compiled programs.',
  reportedBy,
});

export const executableBinary = defineRule({
  id: 'file/executable-binary',
  severity: 'high',
  description: 'Native executable in the skill',
  explanation:
    'The skill contains compiled native code (ELF, PE or Mach-O). It cannot be reviewed, and nothing ties it to source.',
  hint: 'Ship the source and let users build it, or depend on a published package instead.',
  reportedBy,
});

export const magicMismatch = defineRule({
  id: 'file/magic-mismatch',
  severity: 'high',
  description: 'File content does not match its extension',
  explanation:
    'The file\'s magic bytes say one format and its extension another (a PNG named `.py`, a ZIP named ' +
    '`.md`, a shell script named `.png`). Mislabelled files slip past reviewers and tools that trust names.',
  hint: 'Rename the file to match its content, or replace it with the file the name promises.',
  reportedBy,
});

export const undecodableFile = defineRule({
  id: 'file/undecodable',
  severity: 'warn',
  description: 'File is neither readable text nor a known binary format',
  explanation:
    'The scanner could not decode the file as UTF-8 or UTF-16 and did not recognise it as an image, ' +
    'archive, font or other known format, so it could not check it. Nothing is skipped silently: when the ' +
    'bytes still look like text they are also scanned as Windows-1252.',
  hint: 'Save text files as UTF-8. Use a standard format for binary data.',
  reportedBy,
});

export const symlinkEntry = defineRule({
  id: 'file/symlink',
  severity: 'high',
  description: 'Symbolic link in the skill',
  explanation:
    'A symlink can point outside the skill (to `~/.ssh`, `/etc/passwd` …), so installing or packaging the ' +
    'skill may copy or expose files that are not part of it. The scanner does not follow it.',
  hint: 'Replace the link with a copy of the file it points to.',
  reportedBy,
});
