/**
 * Preloaded into a CLI child process (`node --import`) to kill it with SIGKILL at one chosen
 * step of its writes below a folder, as `kill -9` or a power cut between two system calls would:
 * the `SKILLDEX_KILL_AT`-th call that changes something below `SKILLDEX_KILL_UNDER` (writing,
 * copying, renaming, removing, making a folder). A write or a copy is cut off half way, leaving
 * the half-written file a real kill mid-write leaves. A process that makes fewer changes than
 * that ends normally, so a test counts up from 1 until one does, and has then stopped the command
 * at every step it takes. With `SKILLDEX_NO_HARD_LINKS=1`, making a hard link below the folder
 * fails as it does on a file system without them.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const under = process.env.SKILLDEX_KILL_UNDER ?? '';
const at = Number(process.env.SKILLDEX_KILL_AT ?? '0');
let calls = 0;

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  for (;;) {
    // SIGKILL ends the process before anything else of it runs.
  }
};
const below = (path: unknown): boolean => under !== '' && (typeof path === 'string' || path instanceof URL) && String(path).startsWith(under);
/** True when this call is the one to be stopped at. */
const reached = (...paths: unknown[]): boolean => paths.some(below) && ++calls === at;

const { writeFileSync, copyFileSync, renameSync, rmSync, unlinkSync, linkSync, mkdirSync, readFileSync } = fs;
const half = (data: string | NodeJS.ArrayBufferView): string | Uint8Array =>
  typeof data === 'string' ? data.slice(0, Math.floor(data.length / 2)) : new Uint8Array(data.buffer, data.byteOffset, Math.floor(data.byteLength / 2));

fs.writeFileSync = ((file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, options?: fs.WriteFileOptions) => {
  if (reached(file)) {
    writeFileSync(file, half(data), options);
    die();
  }
  return writeFileSync(file, data, options);
}) as typeof fs.writeFileSync;
fs.copyFileSync = ((from: fs.PathLike, to: fs.PathLike, mode?: number) => {
  if (reached(to)) {
    writeFileSync(to, half(readFileSync(from)));
    die();
  }
  return copyFileSync(from, to, mode);
}) as typeof fs.copyFileSync;
fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => (reached(from, to) ? die() : renameSync(from, to))) as typeof fs.renameSync;
fs.rmSync = ((path: fs.PathLike, options?: fs.RmOptions) => (reached(path) ? die() : rmSync(path, options))) as typeof fs.rmSync;
fs.unlinkSync = ((path: fs.PathLike) => (reached(path) ? die() : unlinkSync(path))) as typeof fs.unlinkSync;
// SKILLDEX_NO_HARD_LINKS=1: a file system without hard links (FAT, some network shares).
const noHardLinks = process.env.SKILLDEX_NO_HARD_LINKS === '1';
fs.linkSync = ((from: fs.PathLike, to: fs.PathLike) => {
  if (noHardLinks && below(to)) throw Object.assign(new Error(`EPERM: operation not permitted, link '${String(from)}' -> '${String(to)}'`), { code: 'EPERM', syscall: 'link', path: String(from), dest: String(to) });
  return reached(to) ? die() : linkSync(from, to);
}) as typeof fs.linkSync;
fs.mkdirSync = ((path: fs.PathLike, options?: fs.MakeDirectoryOptions) => (reached(path) ? die() : mkdirSync(path, options))) as typeof fs.mkdirSync;
// `import { renameSync } from 'node:fs'` in the command reads these from now on.
syncBuiltinESMExports();
