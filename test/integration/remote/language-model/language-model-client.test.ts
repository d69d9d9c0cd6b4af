import { createServer } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContextTooLong,
  LanguageModelRefused,
  LanguageModelUnreachable,
  chatCompletion,
  listModels,
} from '../../../../src-main/remote/language-model/language-model-client.js';
import { startChatServer } from '../../../helpers/chat-server.js';

const chat = await startChatServer();
afterAll(() => chat.close());
beforeEach(() => chat.reset());

const endpoint = () => ({ baseUrl: chat.baseUrl, model: 'tiny-chat', apiKey: null });
const messages = [
  { role: 'system' as const, content: 'You summarise transcripts of recordings.' },
  { role: 'user' as const, content: '[00:00] ask not what your country can do for you' },
];

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('language-model client against a local OpenAI-compatible server', () => {
  it('answers a non-streamed completion with the usage the endpoint reported', async () => {
    chat.answer = () => 'A short summary.';
    const answer = await chatCompletion(endpoint(), messages);
    expect(answer).toMatchObject({ text: 'A short summary.', reportedUsage: true });
    expect(answer.usage.completionTokens).toBe(Math.ceil('A short summary.'.length / 4));
    expect(chat.calls[0]).toMatchObject({ stream: false, model: 'tiny-chat', authorization: undefined });
  });

  it('streams: every piece reaches onDelta in order and makes the whole answer', async () => {
    chat.answer = () => 'One two three four five six seven eight nine ten eleven twelve.';
    const pieces: string[] = [];
    const answer = await chatCompletion(endpoint(), messages, { onDelta: (p) => pieces.push(p) });
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('')).toBe(answer.text);
    expect(answer.text).toBe('One two three four five six seven eight nine ten eleven twelve.');
    expect(answer.reportedUsage).toBe(true);
    expect(chat.calls[0]!.stream).toBe(true);
  });

  it('estimates tokens (characters / 4) when the endpoint reports none', async () => {
    chat.reportUsage = false;
    chat.answer = () => '12345678';
    for (const onDelta of [undefined, () => {}]) {
      const answer = await chatCompletion(endpoint(), messages, onDelta ? { onDelta } : {});
      expect(answer.reportedUsage).toBe(false);
      expect(answer.usage.completionTokens).toBe(2);
      expect(answer.usage.promptTokens).toBe(Math.ceil((messages[0]!.content + '\n' + messages[1]!.content).length / 4));
    }
  });

  it('sends the key as a bearer token; a wrong one is language_model_refused with a hint', async () => {
    chat.requiredKey = 'sk-right';
    await expect(chatCompletion({ ...endpoint(), apiKey: 'sk-right' }, messages)).resolves.toMatchObject({ reportedUsage: true });
    const error = await chatCompletion({ ...endpoint(), apiKey: 'sk-wrong' }, messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LanguageModelRefused);
    expect(error).toMatchObject({ code: 'language_model_refused', status: 401 });
    expect((error as Error).message).toMatch(/Incorrect API key.*Check the API key in Settings/);
  });

  it('a context-length refusal is ContextTooLong (the caller splits and retries)', async () => {
    chat.contextChars = 10;
    const error = await chatCompletion(endpoint(), messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextTooLong);
    expect(error).toMatchObject({ code: 'language_model_refused', status: 400 });
  });

  it("asks a reasoning model again the way it takes the answer's length and temperature, and keeps that way for it", async () => {
    chat.reasoningModel = true;
    const reasoning = { ...endpoint(), model: 'o-reasoning' };
    const answer = await chatCompletion(reasoning, messages, { maxTokens: 300 });
    expect(answer.text.length).toBeGreaterThan(0);
    // Refused for max_tokens, then for temperature, then answered: three requests, the last with the length it asked.
    expect(chat.calls).toHaveLength(3);
    expect(chat.calls[2]!.maxTokens).toBe(300);
    await chatCompletion(reasoning, messages, { maxTokens: 300 });
    expect(chat.calls).toHaveLength(4); // learned: one request
  });

  it('a refusal naming a parameter it cannot drop is language_model_refused as any other', async () => {
    chat.failWith = { status: 400, message: "Unsupported parameter: 'messages' is odd" };
    await expect(chatCompletion(endpoint(), messages)).rejects.toMatchObject({ code: 'language_model_refused' });
    expect(chat.calls).toHaveLength(1);
  });

  it('a server error is language_model_refused with its message', async () => {
    chat.failWith = { status: 500, message: 'model failed to load' };
    await expect(chatCompletion(endpoint(), messages, { onDelta: () => {} })).rejects.toMatchObject({ code: 'language_model_refused', status: 500, message: expect.stringContaining('model failed to load') });
  });

  it('nothing listening is language_model_unreachable, naming the URL', async () => {
    const port = await closedPort();
    const error = await chatCompletion({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: null }, messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LanguageModelUnreachable);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
  });

  it('a slow endpoint past the connect timeout is unreachable ("did not answer within")', async () => {
    chat.delayMs = 3000;
    const error = await chatCompletion(endpoint(), messages, { connectTimeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LanguageModelUnreachable);
    expect((error as Error).message).toMatch(/did not answer within/);
  });

  it('a stream that stalls past the idle timeout is unreachable; one that keeps coming is not', async () => {
    chat.answer = () => 'x'.repeat(60);
    chat.pieceDelayMs = 1500;
    await expect(chatCompletion(endpoint(), messages, { onDelta: () => {}, idleTimeoutMs: 200 })).rejects.toBeInstanceOf(LanguageModelUnreachable);
    chat.pieceDelayMs = 20;
    await expect(chatCompletion(endpoint(), messages, { onDelta: () => {}, idleTimeoutMs: 5000 })).resolves.toMatchObject({ text: 'x'.repeat(60) });
  });

  it('the caller aborting ends the request with its own reason', async () => {
    chat.delayMs = 3000;
    const controller = new AbortController();
    const pending = chatCompletion(endpoint(), messages, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 50);
    await expect(pending).rejects.toThrow('cancelled by the test');
  });

  it('lists the models of GET /models', async () => {
    chat.models = ['llama3.2', 'qwen2.5'];
    await expect(listModels({ baseUrl: chat.baseUrl, apiKey: null })).resolves.toEqual(['llama3.2', 'qwen2.5']);
  });
});
