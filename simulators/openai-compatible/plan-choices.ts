import type { FaultSpec } from '../shared/fault-spec.ts';
import type { Conversation } from '../shared/conversation.ts';
import { planAnswer, type AnswerPlan, type PlannedUsage } from '../shared/plan-answer.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import type { ChoiceAnswer, DialectQuirks } from './dialect-quirks.ts';

/**
 * The `n` answers of a request (docs/reference/openai.md §Chat Completions: `n` choices). Each extra choice is a different answer to the same
 * prompt, seeded apart from the first; the prompt is read (and cached) once, so the usage counts it once and sums
 * the output of every choice, as OpenAI does.
 */
export function planChoices(input: {
  exchange: SimulatorExchange;
  quirks: DialectQuirks;
  conversation: Conversation;
  faults: FaultSpec;
  choiceCount: number;
}): { choices: ChoiceAnswer[]; usage: PlannedUsage } {
  const { exchange, quirks } = input;
  const plans: AnswerPlan[] = [];
  for (let index = 0; index < input.choiceCount; index += 1) {
    plans.push(
      planAnswer({
        conversation: input.conversation,
        faults: input.faults,
        namespace: index === 0 ? quirks.vendor : `${quirks.vendor}\u0000choice ${index}`,
        promptCache: exchange.state.promptCache,
        cachePolicy: index === 0 ? quirks.cachePolicy : { kind: 'none' },
        hasTextBeforeAutoToolCall: false,
      }),
    );
  }
  const choices = plans.map((plan) => ({
    plan,
    toolCallIds: plan.toolCalls.map(() => quirks.createToolCallId(exchange.ids)),
  }));
  return { choices, usage: sumUsage(plans) };
}

function sumUsage(plans: readonly AnswerPlan[]): PlannedUsage {
  const [first, ...others] = plans as [AnswerPlan, ...AnswerPlan[]];
  const usage = { ...first.usage };
  for (const plan of others) {
    usage.outputTokens += plan.usage.outputTokens;
    usage.reasoningTokens += plan.usage.reasoningTokens;
  }
  return usage;
}
