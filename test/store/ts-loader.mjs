// Node module hooks so a forked child process can import the TypeScript sources directly
// (`./x.js` → `./x.ts`, transpiled with the project's own typescript). Used by store-file.test.ts.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
    const tsPath = fileURLToPath(new URL(specifier, context.parentURL)).replace(/\.js$/, '.ts');
    if (existsSync(tsPath)) return { url: pathToFileURL(tsPath).href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.startsWith('file:') && url.endsWith('.ts')) {
    const file = fileURLToPath(url);
    const out = ts.transpileModule(await readFile(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    });
    return { format: 'module', source: out.outputText, shortCircuit: true };
  }
  return next(url, context);
}
