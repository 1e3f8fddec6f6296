import type { ImageApi } from '../providers/vendor-definition.ts';

/** Which vendor wire format draws the images of a model. */
export type { ImageApi };

/** Optional request fields that only some models accept. */
export type ImageOption = 'background' | 'style' | 'moderation' | 'output_compression' | 'user';

/**
 * What one image model accepts. The first listed size is the default; `auto` sizes let the vendor choose. Every
 * limit here is the vendor's own, so a request the vendor would refuse is refused before any credit is held.
 */
export type ImageProfile = {
  api: ImageApi;
  sizes: SizeRule;
  maximumCount: number;
  /** Accepted `quality` values; `auto` is always accepted. */
  qualities: readonly string[];
  /** The quality the vendor draws when none is given, when it is a fixed one (DALL·E: `standard`). */
  defaultQuality?: string;
  outputFormats: readonly ('png' | 'jpeg' | 'webp')[];
  /** Whether the upstream hands out image URLs (`response_format: "url"`), and whether that is its default. */
  url: 'none' | 'optional' | 'default';
  options: readonly ImageOption[];
  /** The longest prompt the vendor takes, in characters, where it documents one. */
  maximumPromptChars?: number;
};

export type SizeRule =
  | { kind: 'list'; sizes: readonly string[]; allowsAuto: boolean }
  /** Any `WxH` with both sides in range and a multiple of `stepPx` (FLUX). */
  | { kind: 'range'; defaultSize: string; minimumPx: number; maximumPx: number; stepPx: number };

/** Gemini 2.5 Flash Image: one picture per aspect ratio, 1290 output tokens each. */
export const geminiImageAspectRatios: Readonly<Record<string, string>> = {
  '1024x1024': '1:1',
  '832x1248': '2:3',
  '1248x832': '3:2',
  '864x1184': '3:4',
  '1184x864': '4:3',
  '896x1152': '4:5',
  '1152x896': '5:4',
  '768x1344': '9:16',
  '1344x768': '16:9',
  '1536x672': '21:9',
};

/** Imagen 4 at its default 1K image size. */
export const imagenAspectRatios: Readonly<Record<string, string>> = {
  '1024x1024': '1:1',
  '896x1280': '3:4',
  '1280x896': '4:3',
  '768x1408': '9:16',
  '1408x768': '16:9',
};

const gptImage: ImageProfile = {
  api: 'openai',
  sizes: { kind: 'list', sizes: ['1024x1024', '1536x1024', '1024x1536'], allowsAuto: true },
  maximumCount: 10,
  qualities: ['low', 'medium', 'high'],
  outputFormats: ['png', 'jpeg', 'webp'],
  url: 'none',
  options: ['background', 'moderation', 'output_compression', 'user'],
  maximumPromptChars: 32_000,
};

const flux: ImageProfile = {
  api: 'bfl',
  sizes: { kind: 'range', defaultSize: '1024x1024', minimumPx: 256, maximumPx: 1440, stepPx: 32 },
  maximumCount: 4,
  qualities: [],
  outputFormats: ['png', 'jpeg'],
  url: 'optional',
  options: [],
};

/**
 * The image models the gateway knows, by catalogue id.
 * @see https://platform.openai.com/docs/api-reference/images/create
 * @see https://ai.google.dev/gemini-api/docs/image-generation (aspect ratios and sizes)
 * @see https://ai.google.dev/gemini-api/docs/imagen (sampleCount 1–4, aspect ratios)
 * @see https://docs.bfl.ai/api-reference (width/height 256–1440 in steps of 32; one image per task)
 */
const profiles: Readonly<Record<string, ImageProfile>> = {
  'gpt-image-1': gptImage,
  'gpt-image-1-mini': gptImage,
  'gpt-image-1.5': gptImage,
  'dall-e-3': {
    api: 'openai',
    sizes: { kind: 'list', sizes: ['1024x1024', '1792x1024', '1024x1792'], allowsAuto: false },
    maximumCount: 1,
    qualities: ['standard', 'hd'],
    defaultQuality: 'standard',
    outputFormats: ['png'],
    url: 'default',
    options: ['style', 'user'],
    maximumPromptChars: 4000,
  },
  'dall-e-2': {
    api: 'openai',
    sizes: { kind: 'list', sizes: ['1024x1024', '256x256', '512x512'], allowsAuto: false },
    maximumCount: 10,
    qualities: ['standard'],
    defaultQuality: 'standard',
    outputFormats: ['png'],
    url: 'default',
    options: ['user'],
    maximumPromptChars: 1000,
  },
  'gemini-2.5-flash-image': {
    api: 'gemini-image',
    sizes: { kind: 'list', sizes: Object.keys(geminiImageAspectRatios), allowsAuto: false },
    maximumCount: 1,
    qualities: [],
    outputFormats: ['png'],
    url: 'none',
    options: [],
  },
  'imagen-4.0-generate-001': {
    api: 'imagen',
    sizes: { kind: 'list', sizes: Object.keys(imagenAspectRatios), allowsAuto: false },
    maximumCount: 4,
    qualities: [],
    outputFormats: ['png'],
    url: 'none',
    options: [],
  },
  'flux-pro-1.1': flux,
  'flux-dev': flux,
};

/** The profile of a catalogue image model; undefined for a model the gateway cannot drive. */
export function findImageProfile(modelId: string): ImageProfile | undefined {
  return profiles[modelId];
}

/** The profile of a catalogue model, else of the vendor model its first route calls (an operator's own model id). */
export function findRoutedImageProfile(
  modelId: string,
  routes: readonly { upstreamModel: string }[],
): ImageProfile | undefined {
  return findImageProfile(modelId) ?? findImageProfile(routes[0]?.upstreamModel ?? '');
}
