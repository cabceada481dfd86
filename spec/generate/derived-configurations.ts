import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The 6.1 embedded configuration and its target file are the upstream-named 5.2 ones on other
 * ports (18280+ for 18180+) and another standard: written from them, so that the two never drift
 * apart (a target file has no include mechanism, and both are 800 lines). Edit the upstream ones.
 */
export function derivedConfigurations(root: string): Record<string, string> {
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const replaceOnce = (text: string, from: string, to: string, file: string) => {
    if (!text.includes(from)) throw new Error(`${file} no longer holds ${from}: update spec/generate/derived-configurations.ts`);
    return text.replace(from, to);
  };
  const config = 'reference/config/conformance-upstream.json';
  const target = 'suites/targets/reference-upstream.json';
  return {
    'reference/config/conformance-6.1.json': replaceOnce(read(config), '"dataStandard": "5.2"', '"dataStandard": "6.1"', config).replace(/\b181(\d\d)\b/g, '182$1'),
    'suites/targets/reference-6.1.json': replaceOnce(read(target), '"name": "reference-upstream"', '"name": "reference-6.1"', target).replace(/:181(\d\d)\b/g, ':182$1'),
  };
}
