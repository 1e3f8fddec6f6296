import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../../api/api-client.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { ChatMessage, ConversationBody } from './conversations/conversation-body.ts';
import { createConversation } from './conversations/conversation-store.ts';
import type { Conversations } from './conversations/use-conversations.ts';
import { findCallCost } from './streaming/find-call-cost.ts';
import { streamChatCompletion } from './streaming/stream-chat-completion.ts';
import type { StreamInput, StreamOutcome } from './streaming/stream-outcome.ts';
import { streamWebSearch } from './streaming/stream-web-search.ts';
import { useChatKey } from './streaming/use-chat-key.ts';

export type Streaming = { conversationId: string; content: string };
export type SaveStatus = { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; message: string };
export type ThreadSettings = { model: string; isWebSearch: boolean };

/**
 * Sending, regenerating and stopping answers in the active conversation. Each finished exchange (complete, stopped,
 * interrupted or failed: the partial answer always stays) is encrypted and saved.
 */
export function useChatThread(input: {
  accountKey: CryptoKey;
  conversations: Conversations;
  activeId: string | undefined;
  setActiveId: (id: string) => void;
  settings: ThreadSettings;
}) {
  const { messages } = useI18n();
  const chatKey = useChatKey();
  const [streaming, setStreaming] = useState<Streaming | undefined>();
  const [saveStatus, setSaveStatus] = useState<SaveStatus>({ state: 'idle' });
  const abort = useRef<AbortController | undefined>(undefined);
  const { conversations, accountKey } = input;

  const save = useCallback(
    async (id: string, body: ConversationBody) => {
      setSaveStatus({ state: 'saving' });
      try {
        await conversations.save(id, { body });
        setSaveStatus({ state: 'saved' });
      } catch (error) {
        setSaveStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    },
    [conversations],
  );

  const answer = useCallback(
    async (id: string, body: ConversationBody) => {
      const controller = new AbortController();
      abort.current = controller;
      setStreaming({ conversationId: id, content: '' });
      const history = body.messages
        .filter((message) => message.role === 'user' || (message.content !== '' && message.status !== 'failed'))
        .map((message) => ({ role: message.role, content: message.content }));
      const stream = (apiKey: string) => {
        const request: StreamInput = {
          apiKey,
          model: body.model,
          messages: history,
          signal: controller.signal,
          onText: (content) => setStreaming({ conversationId: id, content }),
        };
        return body.isWebSearch ? streamWebSearch(request) : streamChatCompletion(request);
      };
      let outcome: StreamOutcome;
      try {
        outcome = await stream(await chatKey.get());
        if (outcome.status === 'failed' && outcome.error?.status === 401 && outcome.content === '') {
          outcome = await stream(await chatKey.get({ isFresh: true }));
        }
      } catch (error) {
        outcome = failedOutcome(error);
      }
      abort.current = undefined;
      setStreaming(undefined);
      const reply: ChatMessage = {
        id: crypto.randomUUID(),
        role: 'assistant',
        content: outcome.content,
        createdAt: new Date().toISOString(),
        model: body.model,
        status: outcome.status,
        ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
        ...(outcome.usage ? { usage: outcome.usage } : {}),
        ...(outcome.citations.length > 0 ? { citations: outcome.citations } : {}),
        ...(outcome.error
          ? { error: outcome.error.status === 402 ? messages.chat.insufficientCredits : outcome.error.message }
          : {}),
      };
      const answered = { ...body, messages: [...body.messages, reply] };
      const entry = conversations.find(id);
      if (entry) conversations.put({ ...entry, body: answered });
      await save(id, answered);
      if (!reply.usage && reply.requestId && (reply.status === 'stopped' || reply.status === 'interrupted')) {
        const usage = await findCallCost(reply.requestId).catch(() => undefined);
        if (!usage) return;
        const costed = {
          ...answered,
          messages: answered.messages.map((message) => (message.id === reply.id ? { ...message, usage } : message)),
        };
        const current = conversations.find(id);
        if (current) conversations.put({ ...current, body: costed });
        await save(id, costed);
      }
    },
    [chatKey, conversations, messages.chat.insufficientCredits, save],
  );

  const ask = useCallback(
    async (text: string) => {
      let entry = input.activeId ? conversations.find(input.activeId) : undefined;
      if (!entry) {
        const body = { model: input.settings.model, isWebSearch: input.settings.isWebSearch, messages: [] };
        entry = await createConversation(accountKey, { title: titleFrom(text), body });
        input.setActiveId(entry.id);
      }
      const body = entry.body ?? (await conversations.open(entry.id));
      const userMessage: ChatMessage = {
        id: crypto.randomUUID(),
        role: 'user',
        content: text,
        createdAt: new Date().toISOString(),
      };
      const asked = { ...body, ...input.settings, messages: [...body.messages, userMessage] };
      conversations.put({ ...entry, body: asked });
      await answer(entry.id, asked);
    },
    [accountKey, answer, conversations, input],
  );

  const askAgain = useCallback(async () => {
    const entry = input.activeId ? conversations.find(input.activeId) : undefined;
    if (!entry?.body) return;
    const lastUser = entry.body.messages.findLastIndex((message) => message.role === 'user');
    if (lastUser < 0) return;
    const trimmed = { ...entry.body, ...input.settings, messages: entry.body.messages.slice(0, lastUser + 1) };
    conversations.put({ ...entry, body: trimmed });
    await answer(entry.id, trimmed);
  }, [answer, conversations, input]);

  const reportFailure = useCallback((error: unknown) => {
    setStreaming(undefined);
    setSaveStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
  }, []);
  const send = useCallback((text: string) => ask(text).catch(reportFailure), [ask, reportFailure]);
  const regenerate = useCallback(() => askAgain().catch(reportFailure), [askAgain, reportFailure]);
  const stop = useCallback(() => abort.current?.abort(), []);

  return { streaming, saveStatus, send, regenerate, stop };
}

/** A title from the first message: its first line, at most 60 characters. */
function titleFrom(text: string): string {
  const firstLine = text.trim().split('\n')[0] ?? '';
  return firstLine.length > 60 ? `${firstLine.slice(0, 57)}…` : firstLine;
}

function failedOutcome(error: unknown): StreamOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: 'failed',
    content: '',
    requestId: undefined,
    usage: undefined,
    citations: [],
    error: error instanceof ApiError ? error : new ApiError({ message, status: 0 }),
  };
}
