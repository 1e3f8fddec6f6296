import type { Provider } from '@pydantic/genai-prices';

/** Which of the genai-prices data's models a simulated vendor lists: its provider there and the ids it sells. */
export type KnownModels = { priceDataProviderId: string; pattern: RegExp };

/**
 * The simulator's model list: its fixed ids plus the vendor's models that the genai-prices data the project ships
 * names and has not marked deprecated, so that, like the vendor's own list, it names current releases (a model sync
 * in sandbox mode sees them) and every model the catalogue starts with.
 */
export async function listKnownModelIds(fixed: readonly string[], known: KnownModels | undefined): Promise<string[]> {
  if (!known) return [...fixed];
  const { waitForUpdate } = await import('@pydantic/genai-prices');
  const providers: readonly Provider[] = (await waitForUpdate()) ?? [];
  const models = providers.find((provider) => provider.id === known.priceDataProviderId)?.models ?? [];
  const listed = models.filter((model) => !model.deprecated && known.pattern.test(model.id)).map((model) => model.id);
  return [...new Set([...fixed, ...listed])];
}
