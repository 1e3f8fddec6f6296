import { useEffect, useMemo, useRef, useState } from 'react';
import type { PublicModel } from '../../../../contract/models.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatTokenCountInFull } from '../../lib/format-token-count.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { Link } from '../../router/link.tsx';
import { routePaths } from '../../router/match-route.ts';
import { useChatVault } from './vault/chat-vault-provider.tsx';
import { Composer } from './composer.tsx';
import { ConversationSidebar } from './conversation-sidebar.tsx';
import { totalOf } from './conversations/conversation-body.ts';
import { useConversations } from './conversations/use-conversations.ts';
import { MessageView } from './message-view.tsx';
import { ModelPicker } from './model-picker.tsx';
import { useChatThread, type ThreadSettings } from './use-chat-thread.ts';

/** The unlocked chat: conversation list beside the active conversation, its settings, messages and composer. */
export function ChatWorkspace(props: { accountKey: CryptoKey; models: PublicModel[] }) {
  const { messages } = useI18n();
  const text = messages.chat;
  const vault = useChatVault();
  const conversations = useConversations(props.accountKey);
  const [activeId, setActiveId] = useState<string | undefined>();
  const [settings, setSettings] = useState<ThreadSettings>({ model: props.models[0]?.id ?? '', isWebSearch: false });
  const [openError, setOpenError] = useState<string | undefined>();
  const thread = useChatThread({ accountKey: props.accountKey, conversations, activeId, setActiveId, settings });
  const active = activeId ? conversations.entries?.find((entry) => entry.id === activeId) : undefined;
  const body = active?.body;
  const isStreaming = thread.streaming !== undefined;
  const endRef = useRef<HTMLDivElement>(null);
  const { open } = conversations;

  useEffect(() => {
    if (!activeId) return;
    setOpenError(undefined);
    open(activeId).then(
      (opened) => setSettings({ model: opened.model, isWebSearch: opened.isWebSearch }),
      (error: unknown) => setOpenError(error instanceof Error ? error.message : String(error)),
    );
  }, [activeId, open]);

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [body?.messages.length, thread.streaming?.content]);

  const total = useMemo(() => (body ? totalOf(body) : undefined), [body]);
  const streamingHere = thread.streaming && thread.streaming.conversationId === activeId ? thread.streaming : undefined;
  const lastMessage = body?.messages.at(-1);

  return (
    <div className="chat">
      <ConversationSidebar conversations={conversations} activeId={activeId} onSelect={setActiveId} />
      <section className="chat-main" aria-label={active?.title ?? text.newConversation}>
        <div className="chat-main__toolbar">
          <ModelPicker
            models={props.models}
            value={settings.model}
            onChange={(model) => setSettings((current) => ({ ...current, model }))}
          />
          <label className="chat-main__toggle" title={text.webSearchHint}>
            <input
              type="checkbox"
              checked={settings.isWebSearch}
              onChange={(event) => setSettings((current) => ({ ...current, isWebSearch: event.target.checked }))}
            />
            {text.webSearch}
          </label>
          <span className="chat-main__save" role="status" data-save-state={thread.saveStatus.state}>
            {thread.saveStatus.state === 'saving' && text.saving}
            {thread.saveStatus.state === 'saved' && text.saved}
          </span>
          <button type="button" className="button button--small" onClick={vault.lock}>
            {text.lock}
          </button>
          <Link to={routePaths.chatEncryption} className="chat-main__explain">
            {text.whatIsEncrypted}
          </Link>
        </div>
        {thread.saveStatus.state === 'failed' && (
          <p className="notice notice--error" role="alert">
            {text.saveFailed(thread.saveStatus.message)}
          </p>
        )}
        {openError && (
          <p className="notice notice--error" role="alert">
            {text.loadFailed(openError)}
          </p>
        )}
        <div className="chat-main__messages" aria-live="polite">
          {!body?.messages.length && !streamingHere && <p className="status chat-main__empty">{text.empty}</p>}
          {body?.messages.map((message) => (
            <MessageView key={message.id} message={message} />
          ))}
          {streamingHere && (
            <MessageView
              isStreaming
              message={{
                id: 'streaming',
                role: 'assistant',
                content: streamingHere.content,
                createdAt: '',
                model: settings.model,
              }}
            />
          )}
          <div ref={endRef} />
        </div>
        {total && total.tokens > 0 && (
          <p className="chat-main__total" data-conversation-total>
            {text.total(formatUsd(total.costUsd), formatTokenCountInFull(total.tokens))}
          </p>
        )}
        <Composer
          draftName={`chat:${activeId ?? 'new'}`}
          key={activeId ?? 'new'}
          isStreaming={isStreaming}
          canRegenerate={lastMessage?.role === 'assistant' || lastMessage?.role === 'user'}
          onSend={(message) => void thread.send(message)}
          onStop={thread.stop}
          onRegenerate={() => void thread.regenerate()}
        />
      </section>
    </div>
  );
}
