/**
 * Issue 32, point 6: every refusal the multipart and JSON readers and the params validator can give says what was
 * wrong in the request and how to fix it. The known bad one: `model` sent as a file part answered "the model part
 * must come before the model part". Table-driven over real HTTP: each row is a request as a client might get it
 * wrong, the status and code it must get, and what the message must say (the part or field at fault, and the fix).
 * Plus issue 26 item 9: params nested 2,000 levels deep is a 400 naming params, not a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { audio, Client, expectError, type Part } from '../../../helpers/http-client.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService();
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
});

const model = (id = 'test-asr'): Part => ({ name: 'model', value: id });
const file = (name = 'a.wav', bytes = 2000): Part => ({ name: 'file', file: { name, data: audio(bytes) } });
const asFile = (name: string, text: string): Part => ({ name, file: { name: `${name}.txt`, data: new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>, type: 'text/plain' } });
const nested = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

interface Row {
  name: string;
  send: () => Promise<Response>;
  status: number;
  code: string;
  /** Each must appear in the message (case-insensitive): what was wrong, and the fix. */
  says: (string | RegExp)[];
}

const multipartRows = (): Row[] => [
  {
    name: 'model sent as a file part',
    send: () => api.postForm('/v1/speech-to-text', [asFile('model', 'test-asr'), file()]),
    status: 400,
    code: 'model_required',
    says: ['model part was sent as a file', 'send it as a text part', 'curl -F model='],
  },
  {
    name: 'params sent as a file part',
    send: () => api.postForm('/v1/speech-to-text', [model(), asFile('params', '{}'), file()]),
    status: 400,
    code: 'invalid_params',
    says: ['params part was sent as a file', 'text part'],
  },
  {
    name: 'the file before the model',
    send: () => api.postForm('/v1/speech-to-text', [file(), model()]),
    status: 400,
    code: 'model_required',
    says: ['file part came before the model part', 'send the model part first'],
  },
  {
    name: 'the file sent as text (no filename)',
    send: () => api.postForm('/v1/speech-to-text', [model(), { name: 'file', value: '/home/me/a.wav' }]),
    status: 400,
    code: 'file_required',
    says: ['file part arrived as text', 'curl -F file=@'],
  },
  {
    name: 'no model at all',
    send: () => api.postForm('/v1/speech-to-text', [{ name: 'name', value: 'x' }]),
    status: 400,
    code: 'model_required',
    says: ['model part is required', 'GET /v1/models'],
  },
  {
    name: 'no file',
    send: () => api.postForm('/v1/speech-to-text', [model()]),
    status: 400,
    code: 'file_required',
    says: ['file part is required', 'file=@'],
  },
  {
    name: 'an empty file',
    send: () => api.postForm('/v1/speech-to-text', [model(), file('empty.wav', 0)]),
    status: 400,
    code: 'file_required',
    says: ['"empty.wav"', '0 bytes', 'check the path'],
  },
  {
    name: 'an unknown text part',
    send: () => api.postForm('/v1/speech-to-text', [model(), { name: 'colour', value: 'red' }, file()]),
    status: 400,
    code: 'unsupported_param',
    says: ['"colour"', 'model, params, name', 'file part file'],
  },
  {
    name: 'the audio in a part with another name',
    send: () => api.postForm('/v1/speech-to-text', [model(), { name: 'audio', file: { name: 'a.wav', data: audio() } }]),
    status: 400,
    code: 'unsupported_param',
    says: ['"audio"', 'the part named file'],
  },
  {
    name: 'two files to the single route',
    send: () => api.postForm('/v1/speech-to-text', [model(), file('a.wav'), file('b.wav')]),
    status: 400,
    code: 'invalid_request',
    says: ['one file part', 'POST /v1/speech-to-text/batch'],
  },
  {
    name: 'the model part twice',
    send: () => api.postForm('/v1/speech-to-text', [model(), model(), file()]),
    status: 400,
    code: 'invalid_request',
    says: ['model part was sent twice', 'send it once'],
  },
  {
    name: 'a file past the model\'s limit',
    send: () => api.postForm('/v1/speech-to-text', [model('test-asr-small'), file('big.wav', 100_000)]),
    status: 413,
    code: 'file_too_large',
    says: ['big.wav', '65536 bytes', 'test-asr-small', 'limits.max_file_bytes'],
  },
  {
    name: 'params that are not JSON',
    send: () => api.postForm('/v1/speech-to-text', [model(), { name: 'params', value: '{language: en}' }, file()]),
    status: 400,
    code: 'invalid_params',
    says: ['params part is not valid JSON', `params={"language":"en"}`],
  },
  {
    name: 'params that are an array',
    send: () => api.postForm('/v1/speech-to-text', [model(), { name: 'params', value: '[1]' }, file()]),
    status: 400,
    code: 'invalid_params',
    says: ['must be a JSON object, not an array'],
  },
  {
    name: 'a JSON body to a multipart route',
    send: () => api.postJson('/v1/speech-to-text', { model: 'test-asr' }),
    status: 415,
    code: 'unsupported_media_type',
    says: ['multipart/form-data', '"application/json"', 'curl -F model=ID -F file=@audio.wav'],
  },
  {
    name: 'a multipart Content-Type without a boundary',
    send: () => api.post('/v1/speech-to-text', { 'content-type': 'multipart/form-data' }, 'x'),
    status: 400,
    code: 'invalid_request',
    says: ['no usable multipart boundary', 'rather than setting Content-Type by hand'],
  },
  {
    name: 'a multipart body cut short',
    send: () =>
      api.post(
        '/v1/speech-to-text',
        { 'content-type': 'multipart/form-data; boundary=b' },
        '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\ntest-asr\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
      ),
    status: 400,
    code: 'invalid_request',
    says: ['multipart body is malformed', 'closing boundary', 'let the HTTP client build the body'],
  },
  {
    name: 'a name part in a batch',
    send: () => api.postForm('/v1/speech-to-text/batch', [model(), { name: 'name', value: 'x' }, file()]),
    status: 400,
    code: 'unsupported_param',
    says: ['batch takes no name part', 'leave it out'],
  },
  {
    name: 'an unknown model',
    send: () => api.postForm('/v1/speech-to-text', [model('whisper-huge'), file()]),
    status: 400,
    code: 'invalid_request',
    says: ['"whisper-huge"', 'GET /v1/models'],
  },
];

const jsonRows = (): Row[] => [
  {
    name: 'multipart to a JSON route',
    send: () => api.postForm('/v1/text-to-speech', [model('test-tts'), { name: 'text', value: 'hi' }]),
    status: 415,
    code: 'unsupported_media_type',
    says: ['application/json', 'multipart/form-data is for the routes that take a recording', 'one JSON object'],
  },
  {
    name: 'a body that is not JSON',
    send: () => api.post('/v1/text-to-speech', { 'content-type': 'application/json' }, '{"model": "test-tts", text: hi}'),
    status: 400,
    code: 'invalid_json',
    says: ['not valid JSON', 'check the quotes and commas'],
  },
  {
    name: 'an empty JSON body',
    send: () => api.post('/v1/text-to-speech', { 'content-type': 'application/json' }, ''),
    status: 400,
    code: 'invalid_json',
    says: ['body is empty', 'one JSON object'],
  },
  {
    name: 'a JSON array body',
    send: () => api.post('/v1/text-to-speech', { 'content-type': 'application/json' }, '[1, 2]'),
    status: 400,
    code: 'invalid_json',
    says: ['must be a JSON object', 'not an array'],
  },
  {
    name: 'an unknown field',
    send: () => api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hi', voice: 'x' }),
    status: 400,
    code: 'unsupported_param',
    says: ['"voice"', 'model, text, name, params'],
  },
  {
    name: 'a model that is not a string',
    send: () => api.postJson('/v1/text-to-speech', { model: 7, text: 'hi' }),
    status: 400,
    code: 'invalid_request',
    says: ['model must be a string', 'not the number 7'],
  },
  {
    name: 'a name that is not a string',
    send: () => api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hi', name: ['a'] }),
    status: 400,
    code: 'invalid_request',
    says: ['name must be a string, not an array', 'send it in quotes'],
  },
  {
    name: 'params that are not an object',
    send: () => api.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hi', params: 'fast' }),
    status: 400,
    code: 'invalid_params',
    says: ['params must be a JSON object', 'not the string "fast"'],
  },
  {
    name: 'batch items that are not an array',
    send: () => api.postJson('/v1/text-to-speech/batch', { model: 'test-tts', items: 'hello' }),
    status: 400,
    code: 'invalid_request',
    says: ['items must be a non-empty array of {text, name}', 'not the string "hello"'],
  },
];

const paramsRows = (): Row[] => [
  {
    name: 'a param the model does not take',
    send: () => api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'hi', params: { temperature: 0.2 } }),
    status: 400,
    code: 'unsupported_param',
    says: ['"temperature"', 'it accepts voice, language', 'leave "temperature" out'],
  },
  {
    name: 'a param of the wrong type',
    send: () => api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'hi', params: { speed: 'fast' } }),
    status: 400,
    code: 'invalid_params',
    says: ['params.speed must be number', 'got the string "fast"'],
  },
  {
    name: 'a value out of range',
    send: () => api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'hi', params: { speed: 9 } }),
    status: 400,
    code: 'invalid_params',
    says: ['params.speed must be <=', 'got the number 9'],
  },
  {
    name: 'a value outside the allowed ones',
    send: () => api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'hi', params: { output_format: 'aiff' } }),
    status: 400,
    code: 'invalid_params',
    says: ['params.output_format', 'allowed values', 'got the string "aiff"'],
  },
  {
    name: 'params nested 2,000 levels deep on the JSON route (issue 26 item 9)',
    send: () => api.post('/v1/text-to-speech', { 'content-type': 'application/json' }, `{"model":"espeak-ng","text":"hi","params":${nested(2000)}}`),
    status: 400,
    code: 'invalid_params',
    says: ['"params" nests objects and arrays', 'at most 32'],
  },
  {
    name: 'params nested 2,000 levels deep on the multipart route (issue 26 item 9)',
    send: () => api.postForm('/v1/speech-to-text', [model(), { name: 'params', value: nested(2000) }, file()]),
    status: 400,
    code: 'invalid_params',
    says: ['params nests objects and arrays more than 32 levels', 'flat object'],
  },
  {
    name: 'another field nested 2,000 levels deep',
    send: () => api.post('/v1/text-to-speech/batch', { 'content-type': 'application/json' }, `{"model":"espeak-ng","items":[{"text":"hi","name":${nested(2000)}}]}`),
    status: 400,
    code: 'invalid_json',
    says: ['"items" nests objects and arrays', 'at most 32'],
  },
];

function table(title: string, rows: () => Row[]): void {
  describe(title, () => {
    for (const row of rows()) {
      it(row.name, async () => {
        const message = await expectError(row.send(), row.status, row.code);
        for (const part of row.says) {
          if (typeof part === 'string') expect(message.toLowerCase(), message).toContain(part.toLowerCase());
          else expect(message).toMatch(part);
        }
        // Never the old circular wording.
        expect(message).not.toMatch(/the (\w+) part must come before the \1 part/);
      });
    }
  });
}

table('the multipart reader', multipartRows);
table('the JSON reader', jsonRows);
table('the params validator', paramsRows);

describe('the live socket (issue 26 item 9: every place that recurses over user JSON)', () => {
  it('a message nested 5,000 levels deep is an invalid_json error message, and the socket goes on', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?model=espeak-ng&api_key=${t.key}`);
    const messages: { type: string; error?: { code: string; message: string } }[] = [];
    ws.on('message', (data, binary) => {
      if (!binary) messages.push(JSON.parse(String(data)) as never);
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(`{"type":${nested(5000)}}`);
    ws.send(JSON.stringify({ type: 'speak', text: 'Still here.' }));
    await expect.poll(() => messages.map((m) => m.type), { timeout: scaled(30_000) }).toContain('response.done');
    ws.close();
    const error = messages.find((m) => m.type === 'error')!;
    expect(error.error!.code).toBe('invalid_json');
    expect(error.error!.message).toContain('more than 32 levels');
  });
});
