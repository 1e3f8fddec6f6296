/**
 * Misbehaviour asked for by a test: through `[sim:…]` directives in the last user message, or through a
 * `/_fault/<spec>/` path prefix that makes a whole base URL misbehave. README.md lists the syntax.
 */
export type FaultSpec = {
  status: number | undefined;
  retryAfterSeconds: number | undefined;
  firstByteDelayMs: number | undefined;
  stallAfterEvents: number | undefined;
  isReset: boolean;
  resetAfterEvents: number | undefined;
  hasInvalidJson: boolean;
  hasMidStreamError: boolean;
  isRefusal: boolean;
  wordCount: number | undefined;
  isParallel: boolean;
  /** Rounds of tool calls the model makes in one turn before it answers in text (default 1; 0: only when forced). */
  toolRounds: number | undefined;
};

export const noFaults: FaultSpec = {
  status: undefined,
  retryAfterSeconds: undefined,
  firstByteDelayMs: undefined,
  stallAfterEvents: undefined,
  isReset: false,
  resetAfterEvents: undefined,
  hasInvalidJson: false,
  hasMidStreamError: false,
  isRefusal: false,
  wordCount: undefined,
  isParallel: false,
  toolRounds: undefined,
};

const directivePattern = /\[sim:([^\]]*)\]/g;

/** Every `[sim:…]` directive in the text, merged in order (a later value wins). */
export function findFaultDirectives(text: string): FaultSpec {
  let spec = noFaults;
  for (const match of text.matchAll(directivePattern)) spec = parseFaultItems(match[1] ?? '', spec);
  return spec;
}

/** The spec of a `/_fault/<spec>/` path segment: the directive body, with or without its `[sim:` `]` wrapper. */
export function parseFaultSegment(segment: string): FaultSpec {
  const trimmed = segment.trim();
  return trimmed.startsWith('[sim:') ? findFaultDirectives(trimmed) : parseFaultItems(trimmed, noFaults);
}

export function mergeFaults(base: FaultSpec, override: FaultSpec): FaultSpec {
  return {
    status: override.status ?? base.status,
    retryAfterSeconds: override.retryAfterSeconds ?? base.retryAfterSeconds,
    firstByteDelayMs: override.firstByteDelayMs ?? base.firstByteDelayMs,
    stallAfterEvents: override.stallAfterEvents ?? base.stallAfterEvents,
    isReset: base.isReset || override.isReset,
    resetAfterEvents: override.resetAfterEvents ?? base.resetAfterEvents,
    hasInvalidJson: base.hasInvalidJson || override.hasInvalidJson,
    hasMidStreamError: base.hasMidStreamError || override.hasMidStreamError,
    isRefusal: base.isRefusal || override.isRefusal,
    wordCount: override.wordCount ?? base.wordCount,
    isParallel: base.isParallel || override.isParallel,
    toolRounds: override.toolRounds ?? base.toolRounds,
  };
}

function parseFaultItems(body: string, base: FaultSpec): FaultSpec {
  const spec = { ...base };
  for (const item of body.split(/[\s,;]+/).filter(Boolean)) {
    const [key = '', rawValue] = item.split('=', 2);
    const value = rawValue === undefined ? undefined : Number(rawValue);
    const number = value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
    switch (key.toLowerCase()) {
      case 'status':
        spec.status = number !== undefined && number >= 400 && number <= 599 ? number : spec.status;
        break;
      case 'retry-after':
        spec.retryAfterSeconds = number ?? spec.retryAfterSeconds;
        break;
      case 'delay-first-byte':
        spec.firstByteDelayMs = number ?? spec.firstByteDelayMs;
        break;
      case 'stall-after':
        spec.stallAfterEvents = number ?? spec.stallAfterEvents;
        break;
      case 'reset':
        spec.isReset = true;
        break;
      case 'reset-after':
        spec.resetAfterEvents = number ?? spec.resetAfterEvents;
        break;
      case 'invalid-json':
        spec.hasInvalidJson = true;
        break;
      case 'mid-stream-error':
        spec.hasMidStreamError = true;
        break;
      case 'refusal':
        spec.isRefusal = true;
        break;
      case 'words':
        spec.wordCount = number ?? spec.wordCount;
        break;
      case 'parallel':
        spec.isParallel = true;
        break;
      case 'tool-rounds':
        spec.toolRounds = number ?? spec.toolRounds;
        break;
      default:
        break;
    }
  }
  return spec;
}
