import { readFileSync } from 'node:fs';

/**
 * The operator's list of disposable e-mail domains: one domain a line, `#` starts a comment. No file, no list. Read
 * once at start-up; a file that cannot be read stops the start rather than silently letting every domain in.
 */
export function loadDisposableEmailDomains(filePath: string | undefined): ReadonlySet<string> {
  if (filePath === undefined) return new Set();
  const domains = readFileSync(filePath, 'utf8')
    .split('\n')
    .map((line) => (line.split('#')[0] ?? '').trim().toLowerCase())
    .filter((line) => line !== '');
  return new Set(domains);
}
