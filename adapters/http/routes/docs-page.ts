import type { Route } from '../route';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GET /docs: a readable, dependency-free reference page rendered from the route table. */
export function renderDocsPage(routes: Route[]): string {
  const sections = new Map<string, Route[]>();
  for (const r of routes) sections.set(r.tag, [...(sections.get(r.tag) ?? []), r]);
  const body = [...sections]
    .map(([tag, rs]) => {
      const rows = rs
        .map((r) => {
          const schema = r.body ? `<details><summary>Request body</summary><pre>${escape(JSON.stringify(r.body, null, 2))}</pre></details>` : '';
          const query = r.query ? `<details><summary>Query</summary><pre>${escape(JSON.stringify(r.query, null, 2))}</pre></details>` : '';
          return `<tr><td><code>${r.method.toUpperCase()}</code></td><td><code>${escape(r.path.replace(/:(\w+)/g, '{$1}'))}</code></td><td>${escape(r.summary)}${schema}${query}</td><td>${r.status ?? 200}${r.errors?.length ? ', ' + r.errors.join(', ') : ''}</td></tr>`;
        })
        .join('\n');
      return `<h2>${escape(tag)}</h2><table><thead><tr><th>Method</th><th>Path</th><th>Purpose</th><th>Statuses</th></tr></thead><tbody>${rows}</tbody></table>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Collections Facade API reference</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}pre{background:#f5f5f5;padding:.5rem;overflow:auto}code{font-size:.95em}</style>
</head><body>
<h1>Collections Facade API</h1>
<p>Every resource route needs the headers <code>x-api-key</code> and <code>x-authorization-token</code> (from <code>POST /auth/login</code>). Success bodies are <code>{ data, requestId }</code>; errors are <code>{ error: { code, message, details? }, requestId }</code>. The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>
${body}
</body></html>`;
}
