/** bansha's version, read from its package.json (one level above src/ and dist/ alike). */
import { readFileSync } from 'node:fs';
import { packagePath } from './paths.js';

export const VERSION: string = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
