import fs from 'node:fs';
import path from 'node:path';
import type { RouteTable } from '../segment-router';
import type { Context } from 'koa';
import { setPageHeaders } from '../pages/page-security';
import { StaticScript } from './static-script';

/**
 * GET /docs: the interactive API reference (Scalar, docs/api-decisions.md), entirely served by
 * this process: the page, Scalar's self-contained browser bundle from node_modules, a small
 * start script, and the OpenAPI document it renders (/openapi.json). Nothing comes from another
 * origin, and the CSP says so.
 */

export const REFERENCE_PATH = '/docs';
export const BUNDLE_PATH = '/docs/scalar.js';
export const START_PATH = '/docs/reference.js';

/**
 * The policy of /docs. Like the hosted pages' (pages/page-security.ts), stricter where it can be
 * (default-src, form-action 'none'), with one relaxation: style-src 'unsafe-inline', because
 * Scalar writes its styles at run time (a <style> with its whole stylesheet, one with the theme,
 * style attributes set by Vue), not all of them with a nonce; scripts stay 'self' only.
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Scalar's browser bundle, read once per process. It is the IIFE build (`standalone.js`), which
 * holds every chunk it needs: it imports nothing at run time (dist/browser/chunks belongs to
 * the ESM build). Its trailing sourceMappingURL comment is dropped (the 17 MB map is not
 * served, so developer tools would only ask for a 404).
 */
let bundle: StaticScript | null = null;
export function scalarBundle(): StaticScript {
  if (!bundle) {
    // The package exports no subpath for it: found beside its main module (dist/index.js).
    const file = path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
    const text = fs.readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    bundle = new StaticScript(Buffer.from(text, 'utf8'));
  }
  return bundle;
}

/**
 * The start script, run before the bundle (both are deferred: they run in document order, then
 * DOMContentLoaded). It tells Zod, bundled in Scalar, not to probe for `Function` (its JIT
 * check, which under script-src without 'unsafe-eval' throws and reports a CSP violation),
 * then, once the bundle has run, reads the configuration from the page's data attribute (no
 * inline script), points "try it" at the origin the reader opened the page on (the document's
 * own server is PUBLIC_BASE_URL, which a reader may not reach, and connect-src allows only this
 * origin), and mounts the reference.
 */
export const START_SCRIPT = `(function () {
  'use strict';
  var zod = (globalThis.__zod_globalConfig = globalThis.__zod_globalConfig || {});
  zod.jitless = true;
  document.addEventListener('DOMContentLoaded', function () {
    var mount = document.getElementById('reference');
    var configuration = JSON.parse(mount.getAttribute('data-configuration'));
    configuration.servers = [{ url: window.location.origin, description: 'This server (the one serving this page)' }];
    window.Scalar.createApiReference(mount, configuration);
  });
})();
`;
const startScript = new StaticScript(Buffer.from(START_SCRIPT, 'utf8'));

/**
 * Scalar's configuration (@scalar/types ApiReferenceConfiguration), chosen so that the page
 * makes no request to another origin: no default fonts (they come from Scalar's font CDN), no
 * proxy (requests go straight to this origin), no telemetry, neither the AI agent nor the MCP
 * button (both are on by default on localhost), no developer toolbar (it shares documents on
 * scalar.com). The download button links to /openapi.json itself. No preferred security scheme:
 * each operation's "try it" then selects the schemes the operation requires (both credential
 * headers for the resource routes, none for POST /auth/login, whose x-api-key is the login key
 * the reader adds as a header), where a preferred one would send the resource key to login too.
 */
export function referenceConfiguration(): Record<string, unknown> {
  return {
    url: '/openapi.json',
    title: 'Collections Facade API',
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    agent: { disabled: true },
    mcp: { disabled: true },
    documentDownloadType: 'direct',
    showOperationId: true,
    persistAuth: false,
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  };
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderReferencePage(configuration: Record<string, unknown>, scripts: { bundle: string; start: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Collections Facade API reference</title>
<link rel="icon" href="data:,">
<script src="${escapeAttribute(scripts.start)}" defer></script>
<script src="${escapeAttribute(scripts.bundle)}" defer></script>
</head><body>
<noscript><p>This interactive reference needs JavaScript. The OpenAPI document it shows is at <a href="/openapi.json">/openapi.json</a>: every resource route needs the headers <code>x-api-key</code> and <code>x-authorization-token</code> (from <code>POST /auth/login</code>, sent with the login API key).</p></noscript>
<div id="reference" data-configuration="${escapeAttribute(JSON.stringify(configuration))}"></div>
</body></html>`;
}

/** The headers of the page: the hosted pages' ones, with the reference's policy. */
function setReferenceHeaders(ctx: Context): void {
  setPageHeaders(ctx);
  ctx.set('Content-Security-Policy', REFERENCE_CSP);
}

/** Mounts GET /docs and its two scripts on `router` (the reference reads /openapi.json). */
export function mountApiReference(router: RouteTable): void {
  const bundle = scalarBundle();
  const page = renderReferencePage(referenceConfiguration(), { bundle: bundle.url(BUNDLE_PATH), start: startScript.url(START_PATH) });
  router.get(REFERENCE_PATH, (ctx) => {
    setReferenceHeaders(ctx);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'html';
    ctx.body = page;
  });
  router.get(BUNDLE_PATH, (ctx) => bundle.serve(ctx));
  router.get(START_PATH, (ctx) => startScript.serve(ctx));
}
