import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFiles } from './generator.js';

/**
 * `npm run sdk:generate [-- <openapi.json>]`: writes src/generated/openapi.ts and
 * src/generated/operations.ts from an OpenAPI document; without a path, from the document the API
 * serves (`npm run openapi`). Commit both files: the drift test compares them with a fresh run.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const sdkRoot = path.resolve(here, '..');
const repositoryRoot = path.resolve(sdkRoot, '../..');

const source = process.argv[2];
const text = source
  ? fs.readFileSync(path.resolve(source), 'utf8')
  : execFileSync('npm', ['run', '--silent', 'openapi'], { cwd: repositoryRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const document = JSON.parse(text);

const files = await generateFiles(document);
const out = path.join(sdkRoot, 'src/generated');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'openapi.ts'), files.openapiTs);
fs.writeFileSync(path.join(out, 'operations.ts'), files.operationsTs);
process.stdout.write(`wrote ${path.relative(process.cwd(), out)}/openapi.ts and operations.ts from ${source ?? 'npm run openapi'}\n`);
