/**
 * Whether a file-system or socket error code means this user may not do it (read, list or search
 * a path, bind a port), as opposed to the thing being missing or broken.
 *
 * @example
 * isPermissionDenied((error as NodeJS.ErrnoException).code); // true for EACCES and EPERM
 */
export const isPermissionDenied = (code: string | undefined): boolean => code === 'EACCES' || code === 'EPERM';
