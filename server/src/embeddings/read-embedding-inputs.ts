import type { CatalogModel } from '../catalog/price-list.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { EmbeddingsRequest } from '../openai-api/embeddings-request.ts';
import type { EmbeddingInput } from './embedding-client.ts';

/** OpenAI's limit on inputs per request. */
export const maxInputsPerRequest = 2048;
/** The usual UTF-8 bytes per token (docs/billing.md): the size check's estimate for text inputs. */
const bytesPerToken = 4;
const encoder = new TextEncoder();

/** The inputs of a request, checked, with the estimated tokens of each (exact for token ids). */
export type EmbeddingInputs = { inputs: EmbeddingInput[]; estimatedTokens: number[]; textBytes: number };

/**
 * `input` → one list of inputs, refusing before anything is held or sent: an empty list, an empty string or token
 * list, more than 2,048 inputs, and an input over the model's limit per input (`contextLength`; text estimated at 4
 * bytes per token, so a vendor's tokenizer may still refuse one near the limit, which is a 400 too and charges nothing).
 */
export function readEmbeddingInputs(request: EmbeddingsRequest, model: CatalogModel): EmbeddingInputs {
  const raw = request.input;
  const inputs = listInputs(raw);
  if (inputs.length === 0) {
    throw new InvalidRequestError('`input` is an empty list: send at least one string or token list.', {
      param: 'input',
    });
  }
  if (inputs.length > maxInputsPerRequest) {
    throw new InvalidRequestError(`\`input\` has ${inputs.length} items; at most ${maxInputsPerRequest} are allowed.`, {
      param: 'input',
      code: 'invalid_value',
    });
  }
  let textBytes = 0;
  const estimatedTokens = inputs.map((input, index) => {
    const param = typeof raw === 'string' ? 'input' : `input[${index}]`;
    const bytes = input.kind === 'text' ? encoder.encode(input.text).length : input.tokens.length * bytesPerToken;
    textBytes += bytes;
    const tokens = input.kind === 'text' ? Math.ceil(bytes / bytesPerToken) : input.tokens.length;
    if (tokens === 0) throw new InvalidRequestError(`\`${param}\` is empty.`, { param });
    if (tokens > model.contextLength) {
      throw new InvalidRequestError(
        `\`${param}\` is about ${tokens} tokens; the model \`${model.id}\` takes at most ${model.contextLength} tokens per input.`,
        { param, code: 'context_length_exceeded' },
      );
    }
    return tokens;
  });
  return { inputs, estimatedTokens, textBytes };
}

function listInputs(raw: EmbeddingsRequest['input']): EmbeddingInput[] {
  if (typeof raw === 'string') return [{ kind: 'text', text: raw }];
  if (isTokenList(raw)) return [{ kind: 'tokens', tokens: raw }];
  const items: ReadonlyArray<string | readonly number[]> = raw;
  return items.map((item) =>
    typeof item === 'string' ? { kind: 'text', text: item } : { kind: 'tokens', tokens: item },
  );
}

/** One input given as token ids (`[1, 2, 3]`), rather than a list of inputs. */
function isTokenList(raw: readonly string[] | readonly number[] | readonly number[][]): raw is readonly number[] {
  return typeof raw[0] === 'number';
}
