/** Reading the Prometheus text format in tests: samples by name and labels. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    if (line.startsWith('#') || line.trim() === '') return [];
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(LABEL)) labels[key!] = value!.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    return [{ name: m[1]!, labels, value: Number(m[3]) }];
  });
}

/** The samples named `name` whose labels include `labels`. */
export function samples(text: string, name: string, labels: Record<string, string> = {}): Sample[] {
  return parseSamples(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The single sample named `name` with `labels`; throws when there is none or several. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = samples(text, name, labels);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}:\n${text.split('\n').filter((l) => l.startsWith(name)).join('\n')}`);
  return found[0]!.value;
}
