import { z } from 'zod';
import { codePointOffsetOfUtf8 } from '../../lib/code-point-offsets.ts';
import type { NativeSearchEvent } from '../shared/native-web-search.ts';

/**
 * Gemini's Google Search grounding (docs/reference/gemini.md §Response): `webSearchQueries`, the pages (`groundingChunks[].web`, whose
 * `uri` is usually a Google redirect and `title` the site's domain) and `groundingSupports`, segments of the answer in
 * UTF-8 **byte** offsets within part `partIndex` (proto3 JSON leaves out zeros) that cite chunks by index.
 * @see https://ai.google.dev/gemini-api/docs/google-search
 */
const groundingMetadataSchema = z
  .object({
    webSearchQueries: z.array(z.string()).nullish(),
    groundingChunks: z
      .array(z.object({ web: z.object({ uri: z.string(), title: z.string().nullish() }).loose().nullish() }).loose())
      .nullish(),
    groundingSupports: z
      .array(
        z
          .object({
            segment: z
              .object({
                partIndex: z.number().int().nonnegative().nullish(),
                startIndex: z.number().int().nonnegative().nullish(),
                endIndex: z.number().int().nonnegative().nullish(),
              })
              .loose(),
            groundingChunkIndices: z.array(z.number().int().nonnegative()).nullish(),
          })
          .loose(),
      )
      .nullish(),
  })
  .loose();

const candidateSchema = z
  .object({
    content: z
      .object({
        parts: z.array(z.object({ text: z.string().nullish(), thought: z.boolean().nullish() }).loose()).nullish(),
      })
      .loose()
      .nullish(),
    groundingMetadata: groundingMetadataSchema.nullish(),
  })
  .loose();

export const groundedResponseSchema = z.object({ candidates: z.array(candidateSchema).nullish() }).loose();

type GroundingMetadata = z.infer<typeof groundingMetadataSchema>;

/**
 * Follows the first candidate of an answer (a whole response, or every chunk of a stream) and reports its grounding
 * as search events: the citations, with byte offsets turned into code points of the answer's text, then one search
 * per query, the pages listed on the first. Grounding arrives with the last chunks of a stream, after the text, so
 * the events go out once the answer has ended (`finish`).
 */
export class GroundingReader {
  /** The answer's text parts, in order, as the chat conversion joins them. */
  readonly #parts: string[] = [];
  #metadata: GroundingMetadata | undefined;

  read(response: unknown): void {
    const candidate = groundedResponseSchema.safeParse(response).data?.candidates?.[0];
    if (!candidate) return;
    for (const part of candidate.content?.parts ?? []) {
      if (typeof part.text === 'string' && part.thought !== true) this.#parts.push(part.text);
    }
    if (candidate.groundingMetadata) this.#metadata = candidate.groundingMetadata;
  }

  finish(): NativeSearchEvent[] {
    const metadata = this.#metadata;
    if (!metadata) return [];
    const pages = (metadata.groundingChunks ?? []).map((chunk) => chunk.web);
    const text = this.#parts.join('');
    const citations = (metadata.groundingSupports ?? []).flatMap((support): NativeSearchEvent[] => {
      const segment = support.segment;
      const partStartBytes = Buffer.byteLength(this.#parts.slice(0, segment.partIndex ?? 0).join(''), 'utf8');
      const startIndex = codePointOffsetOfUtf8(text, partStartBytes + (segment.startIndex ?? 0));
      const endIndex = codePointOffsetOfUtf8(text, partStartBytes + (segment.endIndex ?? 0));
      if (endIndex <= startIndex) return [];
      return (support.groundingChunkIndices ?? []).flatMap((chunkIndex) => {
        const page = pages[chunkIndex];
        return page ? [{ type: 'url_citation', url: page.uri, title: page.title ?? '', startIndex, endIndex }] : [];
      });
    });
    const sourceUrls = pages.flatMap((page) => (page ? [page.uri] : []));
    const searches = (metadata.webSearchQueries ?? []).map((query, index): NativeSearchEvent => ({
      type: 'web_search',
      query,
      sourceUrls: index === 0 ? sourceUrls : [],
      isCompleted: true,
    }));
    return [...citations, ...searches];
  }
}
