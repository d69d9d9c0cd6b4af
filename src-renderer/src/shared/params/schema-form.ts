/**
 * A form drawn from a model's params_schema (JSON Schema): enum → select, number with min and max → slider,
 * other numbers → number input, boolean → toggle, string → text input. Defaults come from the schema.
 */
import type { JsonSchema } from '$common/api-types.js';

export type FieldKind = 'select' | 'slider' | 'number' | 'toggle' | 'text';

export interface FormField {
  name: string;
  label: string;
  kind: FieldKind;
  description: string | null;
  /** select only: values in schema order, stringified for <option>, typed in `values`. */
  options: { label: string; value: string }[];
  values: unknown[];
  min: number | null;
  max: number | null;
  step: number | null;
  integer: boolean;
  defaultValue: unknown;
  /** The schema itself gave the default (so the service applies it when the field is omitted). */
  schemaDefault: boolean;
  required: boolean;
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  oneOf?: PropertySchema[];
  anyOf?: PropertySchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  title?: string;
  description?: string;
  /** Display names of enum values (Voxdesk catalogue extension, e.g. eSpeak voice names). */
  'x-labels'?: Record<string, string>;
}

function typeOf(schema: PropertySchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  return schema.type;
}

/** oneOf/anyOf of consts (a common way to give enum labels) flattened into enum values. */
function enumValues(schema: PropertySchema): { values: unknown[]; labels: string[] } | null {
  if (Array.isArray(schema.enum)) {
    const names = schema['x-labels'] ?? {};
    return { values: schema.enum, labels: schema.enum.map((v) => names[String(v)] ?? String(v)) };
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length && alternatives.every((a) => 'const' in a)) {
    return { values: alternatives.map((a) => a.const), labels: alternatives.map((a) => a.title ?? String(a.const)) };
  }
  return null;
}

export function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function fieldsFromSchema(schema: JsonSchema | null | undefined, omit: readonly string[] = []): FormField[] {
  const properties = (schema?.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  const fields: FormField[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    if (omit.includes(name) || typeof prop !== 'object' || prop === null) continue;
    const type = typeOf(prop);
    const enums = enumValues(prop);
    const base = {
      name,
      label: prop.title ?? humanize(name),
      description: prop.description ?? null,
      options: [] as { label: string; value: string }[],
      values: [] as unknown[],
      min: null as number | null,
      max: null as number | null,
      step: null as number | null,
      integer: type === 'integer',
      defaultValue: prop.default,
      schemaDefault: prop.default !== undefined,
      required: required.has(name),
    };
    if (enums) {
      fields.push({
        ...base,
        kind: 'select',
        values: enums.values,
        options: enums.values.map((v, i) => ({ label: enums.labels[i] ?? String(v), value: String(v) })),
        defaultValue: prop.default ?? (required.has(name) ? enums.values[0] : undefined),
      });
    } else if (type === 'number' || type === 'integer') {
      const min = prop.minimum ?? prop.exclusiveMinimum ?? null;
      const max = prop.maximum ?? prop.exclusiveMaximum ?? null;
      const bounded = min !== null && max !== null;
      const step = prop.multipleOf ?? (type === 'integer' ? 1 : bounded ? niceStep(max - min) : null);
      fields.push({ ...base, kind: bounded ? 'slider' : 'number', min, max, step });
    } else if (type === 'boolean') {
      fields.push({ ...base, kind: 'toggle', defaultValue: prop.default ?? false });
    } else if (type === 'string') {
      fields.push({ ...base, kind: 'text' });
    }
    // Objects and arrays have no sensible generic control; the service applies their defaults.
  }
  return fields;
}

function niceStep(range: number): number {
  if (range <= 0) return 0.01;
  const raw = range / 100;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? power;
}

/** Initial values of a form: the schema defaults (fields without one stay unset, so the service decides). */
export function defaultValues(fields: readonly FormField[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of fields) if (f.defaultValue !== undefined) values[f.name] = f.defaultValue;
  return values;
}

/** The params to send: only values that differ from the schema default, typed as the schema says. */
export function paramsToSend(fields: readonly FormField[], values: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name];
    if (raw === undefined || raw === '' || raw === null) continue;
    let value: unknown = raw;
    if (f.kind === 'select') value = f.values.find((v) => String(v) === String(raw)) ?? raw;
    else if (f.kind === 'slider' || f.kind === 'number') {
      value = Number(raw);
      if (Number.isNaN(value)) continue;
    } else if (f.kind === 'toggle') value = raw === true || raw === 'true';
    if (f.schemaDefault && value === f.defaultValue) continue;
    params[f.name] = value;
  }
  return params;
}
