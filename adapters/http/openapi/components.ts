import { nameOf } from '../schemas/named';
import type { JsonSchema } from '../validation';

/** Keywords whose values are data (examples, enums, defaults), never schemas to rewrite. */
const DATA_KEYWORDS = new Set(['examples', 'example', 'enum', 'const', 'default', 'required']);

/**
 * Turns the service's schemas into the document's: each named schema (schemas/named.ts) is
 * published once under `components.schemas` and referred to by `$ref` wherever it appears; a
 * one-item `allOf` around a named schema (`described()`) becomes `{ $ref, description }`; the
 * ajv-only format `zoned-date-time` is published as the standard `date-time` it narrows.
 */
export class ComponentSchemas {
  private readonly schemas = new Map<string, unknown>();
  private readonly owners = new Map<string, object>();

  /** The schema as the document shows it where it is used. */
  use(schema: JsonSchema): unknown {
    return this.publish(schema, false);
  }

  /** Every named schema used so far, sorted by name. */
  all(): Record<string, unknown> {
    return Object.fromEntries([...this.schemas].sort(([a], [b]) => a.localeCompare(b)));
  }

  private publish(value: unknown, asComponent: boolean): unknown {
    if (Array.isArray(value)) return value.map((item) => this.publish(item, false));
    if (value === null || typeof value !== 'object') return value;
    const name = nameOf(value);
    if (name !== undefined && !asComponent) return { $ref: this.register(name, value) };
    const schema = value as Record<string, unknown>;
    const allOf = schema.allOf as unknown[] | undefined;
    if (allOf?.length === 1 && nameOf(allOf[0] as object) !== undefined) {
      const { allOf: _one, ...siblings } = schema;
      return { ...(this.publish(allOf[0], false) as object), ...this.publishMembers(siblings) };
    }
    return this.publishMembers(schema);
  }

  private publishMembers(schema: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(schema)) {
      if (DATA_KEYWORDS.has(key)) out[key] = member;
      else if (key === 'format' && member === 'zoned-date-time') out[key] = 'date-time';
      else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(member as object).map(([p, s]) => [p, this.publish(s, false)]));
      else out[key] = this.publish(member, false);
    }
    return out;
  }

  private register(name: string, schema: object): string {
    const owner = this.owners.get(name);
    if (owner !== undefined && owner !== schema) throw new Error(`two different schemas are named ${name}`);
    if (owner === undefined) {
      this.owners.set(name, schema);
      this.schemas.set(name, {}); // a placeholder first: a schema may refer to itself
      this.schemas.set(name, this.publish(schema, true));
    }
    return `#/components/schemas/${name}`;
  }
}
