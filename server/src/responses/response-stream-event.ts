import type {
  OutputItem,
  OutputTextPart,
  RefusalPart,
  ResponseObject,
  UrlCitationAnnotation,
} from './response-object.ts';

type ContentPart = OutputTextPart | RefusalPart | { type: 'reasoning_text'; text: string };
type ItemAt = { item_id: string; output_index: number };
type ContentAt = ItemAt & { content_index: number };

/** The Responses stream events the gateway sends (docs/reference/openai.md §Responses), before `sequence_number` is added. */
export type ResponseStreamEvent =
  | {
      type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.incomplete';
      response: ResponseObject;
    }
  | { type: 'response.failed'; response: ResponseObject }
  | { type: 'response.output_item.added' | 'response.output_item.done'; output_index: number; item: OutputItem }
  | ({ type: 'response.content_part.added' | 'response.content_part.done'; part: ContentPart } & ContentAt)
  | ({ type: 'response.output_text.delta'; delta: string; logprobs: [] } & ContentAt)
  | ({ type: 'response.output_text.done'; text: string; logprobs: [] } & ContentAt)
  | ({
      type: 'response.output_text.annotation.added';
      annotation_index: number;
      annotation: UrlCitationAnnotation;
    } & ContentAt)
  | ({ type: 'response.refusal.delta'; delta: string } & ContentAt)
  | ({ type: 'response.refusal.done'; refusal: string } & ContentAt)
  | ({ type: 'response.reasoning_text.delta'; delta: string } & ContentAt)
  | ({ type: 'response.reasoning_text.done'; text: string } & ContentAt)
  | ({ type: 'response.function_call_arguments.delta'; delta: string } & ItemAt)
  | ({ type: 'response.function_call_arguments.done'; name: string; arguments: string } & ItemAt)
  | ({ type: 'response.custom_tool_call_input.delta'; delta: string } & ItemAt)
  | ({ type: 'response.custom_tool_call_input.done'; input: string } & ItemAt)
  | ({
      type:
        | 'response.web_search_call.in_progress'
        | 'response.web_search_call.searching'
        | 'response.web_search_call.completed';
    } & ItemAt)
  | { type: 'error'; code: string | null; message: string; param: string | null };

/** What goes on the wire: every event carries its place in the stream, from 0. */
export type SequencedEvent = ResponseStreamEvent & { sequence_number: number };
