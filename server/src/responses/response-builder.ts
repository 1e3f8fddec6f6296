import type { SearchInputSource } from '../search/search-results-to-input.ts';
import { CitationTracker } from './citation-tracker.ts';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';
import type { ToolOrigins } from './flatten-tool-groups.ts';
import type {
  CustomToolCallItem,
  FunctionCallItem,
  MessageItem,
  OutputTextPart,
  ReasoningItem,
  RefusalPart,
  ResponseObject,
  ResponseSettings,
  ResponseUsage,
  UrlCitationAnnotation,
  WebSearchCallItem,
} from './response-object.ts';
import type { ResponseStreamEvent, SequencedEvent } from './response-stream-event.ts';

type OpenMessage = {
  item: MessageItem;
  outputIndex: number;
  text?: { part: OutputTextPart; contentIndex: number; tracker: CitationTracker };
  refusal?: { part: RefusalPart; contentIndex: number };
};
type OpenReasoning = {
  item: ReasoningItem & { content: Array<{ type: 'reasoning_text'; text: string }> };
  outputIndex: number;
};
/** A custom tool's call holds the vendor's JSON arguments until the round ends, then gives the `input` they carry. */
type OpenCall = { item: FunctionCallItem | CustomToolCallItem; outputIndex: number; argumentsJson: string };
/** Answer text, or a vendor citation of it, not yet handed on (`holdsTextBeforeSearch`). */
type HeldStep = { delta: string } | { citation: UrlCitationAnnotation };

export type ResponseIdentity = {
  id: string;
  createdAtUnixSeconds: number;
  /** The model id the client asked for. */
  model: string;
  settings: ResponseSettings;
};

/** How the builder names new items (`msg_…`, `fc_…`, `ws_…`, `rs_…`, `call_…`). */
export type NewItemId = (prefix: 'msg_' | 'fc_' | 'ws_' | 'rs_' | 'call_') => string;

/**
 * Assembles the Response's output items from what the model rounds produce, and — when streaming — sends each change
 * as its event in the order the SDKs enforce: an item is added before its deltas, a part before its text, text before
 * the annotations that cite it, and every item done before the next one of another kind starts. Non-streamed calls
 * use the same builder without `emit`, so both paths give the same output.
 *
 * With `holdsTextBeforeSearch` (a JSON `text.format` with web search), answer text waits until it is known not to be
 * a preamble to a search ("Let me look that up."): text followed by a search is dropped, so the output's text is the
 * JSON alone, as the client's parser needs; any other next step (the end of the round, a function call, reasoning)
 * lets it through. Such a stream sends each message's text when the model moves on, not word by word.
 */
export class ResponseBuilder {
  readonly #identity: ResponseIdentity;
  readonly #newId: NewItemId;
  readonly #emit: ((event: SequencedEvent) => void) | undefined;
  readonly #output: ResponseObject['output'] = [];
  readonly #sources: SearchInputSource[] = [];
  readonly #calls = new Map<number, OpenCall>();
  #sequenceNumber = 0;
  #message: OpenMessage | undefined;
  #reasoning: OpenReasoning | undefined;
  #isStarted = false;
  #held: HeldStep[] | undefined;
  readonly #toolOrigins: ToolOrigins;

  constructor(input: {
    identity: ResponseIdentity;
    newId: NewItemId;
    emit?: (event: SequencedEvent) => void;
    holdsTextBeforeSearch?: boolean;
    /** Namespaced and custom tools by their flat name: their calls are output as the client defined them. */
    toolOrigins?: ToolOrigins;
  }) {
    this.#toolOrigins = input.toolOrigins ?? new Map();
    this.#identity = input.identity;
    this.#newId = input.newId;
    this.#emit = input.emit;
    this.#held = input.holdsTextBeforeSearch === true ? [] : undefined;
  }

  get isStarted(): boolean {
    return this.#isStarted;
  }

  /** `response.created` and `response.in_progress`; once, before anything else (the first event starts it). */
  start(): void {
    if (this.#isStarted) return;
    this.#isStarted = true;
    this.#send({ type: 'response.created', response: this.snapshot({ status: 'in_progress' }) });
    this.#send({ type: 'response.in_progress', response: this.snapshot({ status: 'in_progress' }) });
  }

  /** Sources of a finished search: later answer text may cite them by number. */
  addSources(sources: readonly SearchInputSource[]): void {
    this.#sources.push(...sources);
  }

  get sourceCount(): number {
    return this.#sources.length;
  }

  reasoningDelta(delta: string): void {
    if (delta === '') return;
    this.#releaseHeld();
    if (!this.#reasoning) {
      this.#closeMessage();
      const item = {
        id: this.#newId('rs_'),
        type: 'reasoning' as const,
        summary: [],
        content: [] as Array<{ type: 'reasoning_text'; text: string }>,
      };
      const outputIndex = this.#add(item);
      this.#reasoning = { item, outputIndex };
      item.content.push({ type: 'reasoning_text', text: '' });
      this.#send({
        type: 'response.content_part.added',
        ...this.#at(item.id, outputIndex, 0),
        part: { type: 'reasoning_text', text: '' },
      });
    }
    const { item, outputIndex } = this.#reasoning;
    const part = item.content[0];
    if (part) part.text += delta;
    this.#send({ type: 'response.reasoning_text.delta', ...this.#at(item.id, outputIndex, 0), delta });
  }

  textDelta(delta: string): void {
    if (delta === '') return;
    if (this.#held) this.#held.push({ delta });
    else this.#writeText(delta);
  }

  #writeText(delta: string): void {
    const message = this.#openMessage();
    if (!message.text) {
      const part: OutputTextPart = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      const contentIndex = message.item.content.push(part) - 1;
      message.text = { part, contentIndex, tracker: new CitationTracker(this.#sources) };
      this.#send({
        type: 'response.content_part.added',
        ...this.#at(message.item.id, message.outputIndex, contentIndex),
        part: { ...part, annotations: [] },
      });
    }
    this.#sendText(message, message.text.tracker.push(delta));
  }

  refusalDelta(delta: string): void {
    if (delta === '') return;
    this.#releaseHeld();
    const message = this.#openMessage();
    if (!message.refusal) {
      const part: RefusalPart = { type: 'refusal', refusal: '' };
      const contentIndex = message.item.content.push(part) - 1;
      message.refusal = { part, contentIndex };
      this.#send({
        type: 'response.content_part.added',
        ...this.#at(message.item.id, message.outputIndex, contentIndex),
        part: { ...part },
      });
    }
    message.refusal.part.refusal += delta;
    this.#send({
      type: 'response.refusal.delta',
      ...this.#at(message.item.id, message.outputIndex, message.refusal.contentIndex),
      delta,
    });
  }

  /** A piece of the client's function call number `index` of this round; the first piece carries its id and name. */
  functionCallDelta(
    index: number,
    piece: { callId?: string | undefined; name?: string | undefined; arguments: string },
  ): void {
    this.#releaseHeld();
    let call = this.#calls.get(index);
    if (!call) {
      this.#closeMessage();
      this.#closeReasoning();
      const item = this.#newCallItem(piece.callId ?? this.#newId('call_'), piece.name ?? '');
      call = { item, outputIndex: this.#add(item), argumentsJson: '' };
      this.#calls.set(index, call);
    }
    if (piece.arguments === '') return;
    call.argumentsJson += piece.arguments;
    if (call.item.type === 'custom_tool_call') return;
    call.item.arguments += piece.arguments;
    this.#send({
      type: 'response.function_call_arguments.delta',
      item_id: call.item.id,
      output_index: call.outputIndex,
      delta: piece.arguments,
    });
  }

  /** A function call item, or a custom tool call for a custom tool; a namespaced tool's call names its namespace. */
  #newCallItem(callId: string, flatName: string): FunctionCallItem | CustomToolCallItem {
    const origin = this.#toolOrigins.get(flatName);
    const namespace = origin?.namespace === undefined ? {} : { namespace: origin.namespace };
    const common = { id: this.#newId('fc_'), call_id: callId, ...namespace, status: 'in_progress' as const };
    if (origin?.kind === 'custom') return { ...common, type: 'custom_tool_call', name: origin.name, input: '' };
    return { ...common, type: 'function_call', name: origin?.name ?? flatName, arguments: '' };
  }

  /** Closes every item the round left open; `status` is `incomplete` when the round was cut short. */
  endRound(status: 'completed' | 'incomplete' = 'completed'): void {
    this.#releaseHeld();
    this.#closeReasoning();
    this.#closeMessage(status);
    for (const call of this.#calls.values()) {
      call.item.status = status;
      const at = { item_id: call.item.id, output_index: call.outputIndex };
      if (call.item.type === 'custom_tool_call') {
        call.item.input = readCustomInput(call.argumentsJson);
        if (call.item.input !== '') {
          this.#send({ type: 'response.custom_tool_call_input.delta', ...at, delta: call.item.input });
        }
        this.#send({ type: 'response.custom_tool_call_input.done', ...at, input: call.item.input });
      } else {
        const { name, arguments: argumentsJson } = call.item;
        this.#send({ type: 'response.function_call_arguments.done', ...at, name, arguments: argumentsJson });
      }
      this.#send({ type: 'response.output_item.done', output_index: call.outputIndex, item: { ...call.item } });
    }
    this.#calls.clear();
  }

  /** Announces a search the gateway is about to run; `finishWebSearch` records how it went. */
  startWebSearch(query: string): WebSearchCallItem {
    if (this.#held) this.#held = [];
    this.endRound();
    const item: WebSearchCallItem = {
      id: this.#newId('ws_'),
      type: 'web_search_call',
      status: 'in_progress',
      action: { type: 'search', query },
    };
    const outputIndex = this.#add(item);
    this.#send({ type: 'response.web_search_call.in_progress', item_id: item.id, output_index: outputIndex });
    this.#send({ type: 'response.web_search_call.searching', item_id: item.id, output_index: outputIndex });
    return item;
  }

  finishWebSearch(
    item: WebSearchCallItem,
    outcome: { isCompleted: boolean; sourceUrls: readonly string[] | undefined },
  ): void {
    const outputIndex = this.#output.indexOf(item);
    item.status = outcome.isCompleted ? 'completed' : 'failed';
    if (outcome.sourceUrls) item.action.sources = outcome.sourceUrls.map((url) => ({ type: 'url', url }));
    if (outcome.isCompleted)
      this.#send({ type: 'response.web_search_call.completed', item_id: item.id, output_index: outputIndex });
    this.#send({ type: 'response.output_item.done', output_index: outputIndex, item: structuredClone(item) });
  }

  /** A search the vendor ran itself (NATIVE_WEB_SEARCH): announced and finished at once, where it happened. */
  addVendorSearch(search: { query: string; sourceUrls: readonly string[] | undefined; isCompleted: boolean }): void {
    const item = this.startWebSearch(search.query);
    this.finishWebSearch(item, { isCompleted: search.isCompleted, sourceUrls: search.sourceUrls });
  }

  /**
   * A citation the vendor's search made, in code points of the text of the message the round is writing; announced
   * once that text has been sent. Without answer text there is nothing to cite.
   */
  addVendorCitation(annotation: UrlCitationAnnotation): void {
    if (this.#held && this.#held.length > 0) this.#held.push({ citation: annotation });
    else this.#writeCitation(annotation);
  }

  #writeCitation(annotation: UrlCitationAnnotation): void {
    const message = this.#message;
    if (!message?.text) return;
    this.#sendText(message, message.text.tracker.addCitation(annotation));
  }

  /** The final object, and (streaming) `response.completed` or `response.incomplete` with it. */
  complete(input: {
    incompleteReason: 'max_output_tokens' | 'content_filter' | undefined;
    usage: ResponseUsage;
    completedAtUnixSeconds: number;
  }): ResponseObject {
    const isIncomplete = input.incompleteReason !== undefined;
    this.endRound(isIncomplete ? 'incomplete' : 'completed');
    const response = this.snapshot({
      status: isIncomplete ? 'incomplete' : 'completed',
      usage: input.usage,
      completedAt: isIncomplete ? null : input.completedAtUnixSeconds,
      incompleteDetails: input.incompleteReason ? { reason: input.incompleteReason } : null,
    });
    this.#send({ type: isIncomplete ? 'response.incomplete' : 'response.completed', response });
    return response;
  }

  /**
   * After the stream started: an `error` event with the gateway's code, then `response.failed`, whose `error.code`
   * must be one of the schema's ResponseErrorCode values: `rate_limit_exceeded` for a 429, else `server_error`.
   */
  fail(error: { code: string | null; message: string; param: string | null; status: number }): void {
    this.endRound('incomplete');
    this.#send({ type: 'error', code: error.code, message: error.message, param: error.param });
    this.#send({
      type: 'response.failed',
      response: this.snapshot({
        status: 'failed',
        error: { code: error.status === 429 ? 'rate_limit_exceeded' : 'server_error', message: error.message },
      }),
    });
  }

  snapshot(input: {
    status: ResponseObject['status'];
    usage?: ResponseUsage;
    completedAt?: number | null;
    incompleteDetails?: ResponseObject['incomplete_details'];
    error?: ResponseObject['error'];
  }): ResponseObject {
    const { id, createdAtUnixSeconds, model, settings } = this.#identity;
    return {
      id,
      object: 'response',
      created_at: createdAtUnixSeconds,
      status: input.status,
      completed_at: input.completedAt ?? null,
      error: input.error ?? null,
      incomplete_details: input.incompleteDetails ?? null,
      model,
      output: structuredClone(this.#output),
      previous_response_id: null,
      store: false,
      truncation: 'disabled',
      ...(input.usage ? { usage: input.usage } : {}),
      service_tier: 'default',
      ...settings,
    };
  }

  /** Hands on the held text and citations, in order: what the model said was not a preamble to a search. */
  #releaseHeld(): void {
    const held = this.#held;
    if (!held || held.length === 0) return;
    this.#held = [];
    for (const step of held) {
      if ('delta' in step) this.#writeText(step.delta);
      else this.#writeCitation(step.citation);
    }
  }

  #openMessage(): OpenMessage {
    if (this.#message) return this.#message;
    this.#closeReasoning();
    const item: MessageItem = {
      id: this.#newId('msg_'),
      type: 'message',
      role: 'assistant',
      status: 'in_progress',
      content: [],
    };
    this.#message = { item, outputIndex: this.#add(item) };
    return this.#message;
  }

  #sendText(
    message: OpenMessage,
    step: { delta: string; annotations: readonly OutputTextPart['annotations'][number][] },
  ): void {
    const text = message.text;
    if (!text) return;
    const at = this.#at(message.item.id, message.outputIndex, text.contentIndex);
    if (step.delta !== '') {
      text.part.text += step.delta;
      this.#send({ type: 'response.output_text.delta', ...at, delta: step.delta, logprobs: [] });
    }
    for (const annotation of step.annotations) {
      const annotationIndex = text.part.annotations.push(annotation) - 1;
      this.#send({
        type: 'response.output_text.annotation.added',
        ...at,
        annotation_index: annotationIndex,
        annotation,
      });
    }
  }

  #closeMessage(status: 'completed' | 'incomplete' = 'completed'): void {
    const message = this.#message;
    if (!message) return;
    this.#message = undefined;
    if (message.text) {
      this.#sendText(message, message.text.tracker.finish());
      const at = this.#at(message.item.id, message.outputIndex, message.text.contentIndex);
      this.#send({ type: 'response.output_text.done', ...at, text: message.text.part.text, logprobs: [] });
      this.#send({ type: 'response.content_part.done', ...at, part: structuredClone(message.text.part) });
    }
    if (message.refusal) {
      const at = this.#at(message.item.id, message.outputIndex, message.refusal.contentIndex);
      this.#send({ type: 'response.refusal.done', ...at, refusal: message.refusal.part.refusal });
      this.#send({ type: 'response.content_part.done', ...at, part: { ...message.refusal.part } });
    }
    message.item.status = status;
    this.#send({
      type: 'response.output_item.done',
      output_index: message.outputIndex,
      item: structuredClone(message.item),
    });
  }

  #closeReasoning(): void {
    const reasoning = this.#reasoning;
    if (!reasoning) return;
    this.#reasoning = undefined;
    const { item, outputIndex } = reasoning;
    const part = item.content[0] ?? { type: 'reasoning_text' as const, text: '' };
    this.#send({ type: 'response.reasoning_text.done', ...this.#at(item.id, outputIndex, 0), text: part.text });
    this.#send({ type: 'response.content_part.done', ...this.#at(item.id, outputIndex, 0), part: { ...part } });
    this.#send({ type: 'response.output_item.done', output_index: outputIndex, item: structuredClone(item) });
  }

  #add(item: ResponseObject['output'][number]): number {
    // The opening events snapshot the output: they must go out before the first item joins it (`output: []`).
    if (this.#emit) this.start();
    const outputIndex = this.#output.push(item) - 1;
    this.#send({ type: 'response.output_item.added', output_index: outputIndex, item: structuredClone(item) });
    return outputIndex;
  }

  #at(itemId: string, outputIndex: number, contentIndex: number) {
    return { item_id: itemId, output_index: outputIndex, content_index: contentIndex };
  }

  #send(event: ResponseStreamEvent): void {
    if (!this.#emit) return;
    if (!this.#isStarted && event.type !== 'response.created') this.start();
    this.#emit({ ...event, sequence_number: this.#sequenceNumber });
    this.#sequenceNumber += 1;
  }
}

/**
 * A custom tool's input from the arguments of the function the vendor saw (`{"input": "…"}`, `flatten-tool-groups.ts`);
 * arguments without that string are handed on as they came, which is what the model wrote.
 */
function readCustomInput(argumentsJson: string): string {
  const value = parseBodyText(argumentsJson);
  if (typeof value === 'object' && value !== null && 'input' in value && typeof value.input === 'string') {
    return value.input;
  }
  return argumentsJson;
}
