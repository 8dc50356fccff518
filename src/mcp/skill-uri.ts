/**
 * `skill://<name>/<path>`: how the MCP server names a skill's files as resources. Each segment is
 * percent-encoded, so whatever a registry calls a file, the URI parses back to exactly that name
 * and path; the registry client then decides whether such a file exists (and verifies it).
 */

/**
 * @example
 * skillUri('pdf', 'references/FORMS.md'); // 'skill://pdf/references/FORMS.md'
 */
export const skillUri = (name: string, path: string): string => `skill://${encodeURIComponent(name)}/${path.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The name and path a `skill://` URI names, or undefined for anything else.
 *
 * @example
 * parseSkillUri('skill://pdf/references/FORMS.md'); // { name: 'pdf', path: 'references/FORMS.md' }
 */
export function parseSkillUri(uri: string): { name: string; path: string } | undefined {
  const match = /^skill:\/\/([^/?#]+)\/([^?#]+)$/.exec(uri);
  if (!match) return undefined;
  try {
    const name = decodeURIComponent(match[1] as string);
    const path = (match[2] as string).split('/').map(decodeURIComponent).join('/');
    return name && path ? { name, path } : undefined;
  } catch {
    return undefined;
  }
}

const MIME: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/typescript',
  csv: 'text/csv',
  html: 'text/html',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
};

/** A MIME type from the file extension (application/octet-stream when unknown). */
export const mimeType = (path: string): string => MIME[/\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A file's bytes as MCP carries them: `text` when they are valid UTF-8, else base64 `blob`.
 *
 * @example
 * textOrBlob(new TextEncoder().encode('hi')); // { text: 'hi' }
 * textOrBlob(new Uint8Array([0xff]));         // { blob: '/w==' }
 */
export function textOrBlob(bytes: Uint8Array): { text: string } | { blob: string } {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { blob: Buffer.from(bytes).toString('base64') };
  }
}
