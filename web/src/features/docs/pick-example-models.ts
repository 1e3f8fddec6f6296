import type { PublicModel } from '../../../../contract/models.ts';

const fallbackTextModel = 'gpt-5-mini';
const fallbackImageModel = 'gpt-image-1';

/**
 * The model ids the examples use: the first text model that takes tools (every example can then run as is) and the
 * first image model of the price list; well-known ids when the list has none.
 */
export function pickExampleModels(models: readonly PublicModel[]): { textModel: string; imageModel: string } {
  const textModels = models.filter((model) => model.kind === 'text');
  const textModel = textModels.find((model) => model.supports_tools) ?? textModels[0];
  const imageModel = models.find((model) => model.kind === 'image');
  return { textModel: textModel?.id ?? fallbackTextModel, imageModel: imageModel?.id ?? fallbackImageModel };
}
