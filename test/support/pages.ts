/** Drives the hosted pages like a browser without one: GET a page, read its form, post it back. */
import crypto from 'node:crypto';
import { expect } from 'chai';
import supertest from 'supertest';
import type { ApiHarness } from './harness';

export interface PageForm {
  action: string;
  fields: Record<string, string>;
}

export interface OpenedPage {
  res: supertest.Response;
  html: string;
  /** The first form of the page (null when the page has none). */
  form: PageForm | null;
}

/** A client of its own: its own cookie jar and, by default, its own client address. */
export interface PageClient {
  agent: supertest.Agent;
  ip: string;
  open(url: string, headers?: Record<string, string>): Promise<OpenedPage>;
  post(action: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<supertest.Response>;
  /** Opens `url`, fills its form with `values` and sends it. */
  submit(url: string, values: Record<string, string>, headers?: Record<string, string>): Promise<supertest.Response>;
}

export function randomIp(): string {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/** The path (and query) of an absolute URL: the harness serves every paymentUrl's path. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

export function pageClient(api: ApiHarness, ip = randomIp()): PageClient {
  const agent = supertest.agent(api.server);
  const client: PageClient = {
    agent,
    ip,
    async open(url, headers = {}) {
      const res = await agent.get(url.startsWith('http') ? pathOf(url) : url).set('X-Forwarded-For', ip).set(headers);
      return { res, html: res.text, form: formOf(res.text) };
    },
    post(action, fields, headers = {}) {
      return agent.post(action).set('X-Forwarded-For', ip).set(headers).type('form').send(new URLSearchParams(fields).toString());
    },
    async submit(url, values, headers = {}) {
      const page = await client.open(url, headers);
      expect(page.form, `no form on ${url}: ${page.res.status} ${textOf(page.html).slice(0, 300)}`).to.not.equal(null);
      return client.post(page.form!.action, { ...page.form!.fields, ...values }, headers);
    },
  };
  return client;
}

/** The first form: its action and the values it would send as rendered (hidden fields, checked choices, text values). */
export function formOf(html: string): PageForm | null {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    const value = decode(/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    if (!name) continue;
    if ((type === 'radio' || type === 'checkbox') && !/\schecked/.test(attrs)) continue;
    fields[name] = type === 'checkbox' ? 'on' : value;
  }
  return { action: decode(form[1]!), fields };
}

/** The visible text of a page, tags dropped, whitespace collapsed. */
export function textOf(html: string): string {
  return decode(html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
}

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The security headers every hosted page carries. */
export function expectPageHeaders(res: supertest.Response): void {
  const csp = String(res.headers['content-security-policy']);
  expect(csp).to.include("default-src 'self'");
  expect(csp).to.include("script-src 'self'");
  expect(csp).to.include("style-src 'self'");
  expect(csp).to.include("frame-ancestors 'none'");
  expect(csp).to.match(/form-action 'self'/);
  expect(csp).to.not.include('unsafe-inline');
  expect(res.headers['x-content-type-options']).to.equal('nosniff');
  expect(res.headers['referrer-policy']).to.equal('no-referrer');
  expect(res.headers['x-frame-options']).to.equal('DENY');
}

/** An HTML page (never the JSON envelope, never a stack trace). */
export function expectHtmlPage(res: supertest.Response, status: number): string {
  expect(res.status, textOf(res.text).slice(0, 500)).to.equal(status);
  expect(res.headers['content-type']).to.match(/^text\/html/);
  expect(res.text).to.match(/^<!doctype html>/);
  expect(res.text).to.not.match(/at \S+ \(|Error:|stack/i);
  expectPageHeaders(res);
  return textOf(res.text);
}
