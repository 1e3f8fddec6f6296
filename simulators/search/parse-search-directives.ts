/** Fault directives a test puts in the query text; every simulated engine honours them. */
export type SearchDirectives = {
  /** `[search:empty]`: the engine finds nothing. */
  isEmpty: boolean;
  /** `[search:slow=3000]`: wait this long before answering (capped at one minute). */
  delayMs: number;
  /** `[search:status=500]`: answer with this status (400–599) in the engine's error shape. */
  status: number | undefined;
  /** The query without its directives, which is what results are built from. */
  query: string;
};

const directivePattern = /\[search:([a-z-]+)(?:=([^\]\s]*))?\]/gi;
const maxDelayMs = 60_000;

export function parseSearchDirectives(text: string): SearchDirectives {
  const directives: SearchDirectives = { isEmpty: false, delayMs: 0, status: undefined, query: '' };
  for (const match of text.matchAll(directivePattern)) {
    const name = match[1]?.toLowerCase();
    const value = Number(match[2]);
    if (name === 'empty') directives.isEmpty = true;
    if (name === 'slow' && Number.isInteger(value) && value > 0) directives.delayMs = Math.min(value, maxDelayMs);
    if (name === 'status' && Number.isInteger(value) && value >= 400 && value <= 599) directives.status = value;
  }
  directives.query = text.replace(directivePattern, ' ').replace(/\s+/g, ' ').trim();
  return directives;
}
