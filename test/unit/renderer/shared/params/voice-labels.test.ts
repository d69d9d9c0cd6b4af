/**
 * The Speak tab's voice list (src-renderer/src/lib/schema-form.ts) as the page draws it from the real catalogue
 * record of eSpeak NG: names come through as UTF-8 ("Māori", "Norwegian Bokmål"), never as mis-decoded bytes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../../../src-main/common/api-types.js';
import { fieldsFromSchema } from '../../../../../src-renderer/src/shared/params/schema-form.js';
import { startTestService, type TestService } from '../../../../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

it('the voice select of eSpeak NG shows Māori and Norwegian Bokmål', async () => {
  const record = (await (await fetch(`${svc.url}/v1/models/espeak-ng`)).json()) as CatalogueRecord;
  const voice = fieldsFromSchema(record.params_schema).find((f) => f.name === 'voice')!;
  const labels = voice.options.map((o) => o.label);
  expect(labels).toContain('Māori');
  expect(labels).toContain('Norwegian Bokmål');
  expect(labels.filter((l) => /Ã|Ä|[\u0080-\u009f]/.test(l))).toEqual([]);
});
