import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });
}

describe('architecture', () => {
  it('reads process.env only in cmd/shared/config.ts', () => {
    const offenders = ['internal', 'ports', 'adapters', 'cmd']
      .flatMap(sourceFiles)
      .filter((file) => file !== path.join('cmd', 'shared', 'config.ts'))
      .filter((file) => /process\.env/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).to.deep.equal([]);
  });
});
