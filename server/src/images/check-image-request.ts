import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ImageJob } from './image-job.ts';
import type { ImageOption, ImageProfile, SizeRule } from './image-profiles.ts';
import type { ImageRequest } from './image-request.ts';

/**
 * Checks a request against what its model accepts and fills in the defaults. Anything the vendor would refuse is a
 * 400 naming the field, raised before any credit is held; nothing is silently changed.
 */
export function checkImageRequest(request: ImageRequest, profile: ImageProfile): ImageJob {
  refuseStreaming(request);
  const maximumPromptChars = profile.maximumPromptChars;
  if (maximumPromptChars !== undefined && request.prompt.length > maximumPromptChars) {
    throw new InvalidRequestError(
      `The prompt is ${request.prompt.length} characters long; the model \`${request.model}\` takes at most ${maximumPromptChars}.`,
      { param: 'prompt', code: 'string_above_max_length' },
    );
  }
  const count = request.n ?? 1;
  if (count < 1 || count > profile.maximumCount) {
    throw new InvalidRequestError(
      `\`n\` must be between 1 and ${profile.maximumCount} for the model \`${request.model}\`; got ${count}.`,
      { param: 'n', code: 'invalid_value' },
    );
  }
  const size = checkSize(request, profile.sizes);
  const quality = request.quality ?? undefined;
  if (quality !== undefined && quality !== 'auto' && !profile.qualities.includes(quality)) {
    throw unsupported({
      param: 'quality',
      value: quality,
      model: request.model,
      allowed: ['auto', ...profile.qualities],
    });
  }
  const outputFormat = request.output_format ?? undefined;
  if (outputFormat !== undefined && !profile.outputFormats.includes(outputFormat)) {
    throw unsupported({
      param: 'output_format',
      value: outputFormat,
      model: request.model,
      allowed: profile.outputFormats,
    });
  }
  const responseFormat = request.response_format ?? (profile.url === 'default' ? 'url' : 'b64_json');
  if (responseFormat === 'url' && profile.url === 'none') {
    throw new InvalidRequestError(
      `The model \`${request.model}\` returns images as base64 only; use \`response_format: "b64_json"\`.`,
      { param: 'response_format', code: 'invalid_value' },
    );
  }
  checkOptions(request, { profile, outputFormat });
  return {
    prompt: request.prompt,
    count,
    ...size,
    quality: quality === 'auto' ? undefined : quality,
    responseFormat,
    outputFormat,
    background: request.background ?? undefined,
    style: request.style ?? undefined,
    moderation: request.moderation ?? undefined,
    outputCompression: request.output_compression ?? undefined,
    user: supports(profile, 'user') ? request.user : undefined,
    profile,
  };
}

/** The optional fields only some models take, and OpenAI's rule that a transparent background is never a JPEG. */
function checkOptions(
  request: ImageRequest,
  input: { profile: ImageProfile; outputFormat: ImageRequest['output_format'] },
): void {
  for (const option of ['background', 'style', 'moderation', 'output_compression'] as const) {
    const value = request[option];
    if (value !== undefined && value !== null && !input.profile.options.includes(option)) {
      throw new InvalidRequestError(`The model \`${request.model}\` does not support \`${option}\`.`, {
        param: option,
        code: 'unsupported_parameter',
      });
    }
  }
  if (request.background === 'transparent' && input.outputFormat === 'jpeg') {
    // OpenAI: a transparent background needs an output format that keeps transparency (PNG or WebP); it refuses
    // JPEG rather than draw an opaque picture.
    throw new InvalidRequestError(
      'A transparent background needs an `output_format` with transparency: `png` (the default) or `webp`, not `jpeg`.',
      { param: 'background', code: 'invalid_value' },
    );
  }
}

/** A streamed image answer (partial images as SSE events) is not relayed: say so rather than answer unstreamed. */
function refuseStreaming(request: ImageRequest): void {
  for (const param of ['stream', 'partial_images'] as const) {
    const value = request[param];
    if (value !== undefined && value !== null && value !== false && value !== 0) {
      throw new InvalidRequestError(
        `The gateway does not stream images; leave out \`${param}\` to receive the whole answer at once.`,
        { param, code: 'unsupported_parameter' },
      );
    }
  }
}

function checkSize(
  request: ImageRequest,
  rule: SizeRule,
): { size: string; width: number | undefined; height: number | undefined } {
  const requested = request.size ?? undefined;
  if (rule.kind === 'list') {
    const size = requested ?? rule.sizes[0] ?? '1024x1024';
    if (size === 'auto' && rule.allowsAuto) return { size, width: undefined, height: undefined };
    if (!rule.sizes.includes(size)) {
      const allowed = rule.allowsAuto ? [...rule.sizes, 'auto'] : rule.sizes;
      throw unsupported({ param: 'size', value: size, model: request.model, allowed });
    }
    return { size, ...parseSize(size) };
  }
  const size = requested ?? rule.defaultSize;
  const pixels = /^(\d{2,5})x(\d{2,5})$/.test(size) ? parseSize(size) : undefined;
  const fits = (side: number) => side >= rule.minimumPx && side <= rule.maximumPx && side % rule.stepPx === 0;
  if (!pixels || !fits(pixels.width) || !fits(pixels.height)) {
    throw new InvalidRequestError(
      `The size '${size}' is not supported by the model \`${request.model}\`: use WIDTHxHEIGHT with each side a multiple of ${rule.stepPx} from ${rule.minimumPx} to ${rule.maximumPx}.`,
      { param: 'size', code: 'invalid_value' },
    );
  }
  return { size, ...pixels };
}

function parseSize(size: string): { width: number; height: number } {
  const [width = 0, height = 0] = size.split('x').map(Number);
  return { width, height };
}

function supports(profile: ImageProfile, option: ImageOption): boolean {
  return profile.options.includes(option);
}

function unsupported(input: { param: string; value: string; model: string; allowed: readonly string[] }) {
  const allowed = input.allowed.map((value) => `'${value}'`).join(', ');
  return new InvalidRequestError(
    `The ${input.param} '${input.value}' is not supported by the model \`${input.model}\`. Supported values: ${allowed}.`,
    { param: input.param, code: 'invalid_value' },
  );
}
