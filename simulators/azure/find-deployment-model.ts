import { openAiModelIds } from '../openai/openai-quirks.ts';

const normalize = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The model a simulated Azure deployment serves. On Azure the operator names a deployment freely and picks its model
 * when creating it; the simulator has no portal, so a deployment serves the OpenAI model whose name its own name
 * contains, punctuation ignored, the longest match winning: `prod-gpt4o` → `gpt-4o`, `gpt-4o-mini-eu` →
 * `gpt-4o-mini`, `o3-deployment` → `o3`. A name containing no model is a deployment that does not exist.
 */
export function findDeploymentModel(deployment: string): string | undefined {
  const name = normalize(deployment);
  let found: string | undefined;
  for (const model of openAiModelIds) {
    const key = normalize(model);
    if (name.includes(key) && key.length > normalize(found ?? '').length) found = model;
  }
  return found;
}
