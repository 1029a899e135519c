import { until } from '../support/poll.js';

/**
 * Spends a server's create bucket (folder creation; site registrations spend from it too) until it
 * answers 429 with at least `minSeconds` of its window left, so that a registration made right
 * after is refused with a Retry-After. Polls the condition, never a fixed sleep.
 */
export async function exhaustCreateBudget(baseUrl: string, minSeconds = 3): Promise<void> {
  await until(`a create answered 429 with ${minSeconds} s or more to wait`, async () => {
    const res = await fetch(`${baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'send', title: 'spends the create budget' }),
    });
    await res.body?.cancel();
    return res.status === 429 && Number(res.headers.get('retry-after')) >= minSeconds ? true : undefined;
  });
}
