import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatTokenCountInFull } from '../../lib/format-token-count.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { CopyButton } from '../../ui/copy-button.tsx';
import type { ChatMessage } from './conversations/conversation-body.ts';
import { MarkdownView } from './markdown/markdown-view.tsx';
import { isWebUrl } from './streaming/is-web-url.ts';

/**
 * One message. Answers render as Markdown, with their sources as numbered links, how they ended (stopped,
 * interrupted, failed) and what they cost; the user's own text is shown as written.
 */
export function MessageView(props: { message: ChatMessage; isStreaming?: boolean }) {
  const { messages } = useI18n();
  const text = messages.chat;
  const { message } = props;
  const isAssistant = message.role === 'assistant';
  return (
    <article
      className={`message message--${message.role}`}
      data-role={message.role}
      data-status={props.isStreaming ? 'streaming' : (message.status ?? 'complete')}
      aria-busy={props.isStreaming ? true : undefined}
    >
      <header className="message__author">
        {isAssistant ? text.assistant : text.you}
        {isAssistant && message.model && <span className="message__model">{message.model}</span>}
      </header>
      {isAssistant ? <MarkdownView source={message.content} /> : <p className="message__text">{message.content}</p>}
      {message.citations && message.citations.length > 0 && (
        <nav className="message__sources" aria-label={text.sources}>
          <h4>{text.sources}</h4>
          <ol>
            {message.citations.map((citation) => (
              <li key={citation.url}>
                {isWebUrl(citation.url) ? (
                  <a href={citation.url} target="_blank" rel="noopener noreferrer nofollow" data-citation>
                    {citation.title || citation.url}
                  </a>
                ) : (
                  // A history saved before links were checked may hold another scheme: shown, never followed.
                  <span>{citation.title || citation.url}</span>
                )}
                <span className="message__source-host">{hostOf(citation.url)}</span>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {message.status === 'stopped' && <p className="message__status">{text.stopped}</p>}
      {message.status === 'interrupted' && (
        <p className="message__status message__status--warning" role="status">
          {text.interrupted}
        </p>
      )}
      {message.status === 'failed' && (
        <p className="notice notice--error" role="alert">
          {text.failed(message.error ?? '')}
        </p>
      )}
      {isAssistant && !props.isStreaming && (
        <footer className="message__meta">
          {message.usage ? (
            <span data-usage>
              {text.tokens(
                formatTokenCountInFull(message.usage.inputTokens),
                formatTokenCountInFull(message.usage.outputTokens),
              )}
              {' · '}
              <span data-cost>{formatUsd(message.usage.costUsd)}</span>
            </span>
          ) : (
            message.requestId && message.status !== 'failed' && <span>{text.costPending}</span>
          )}
          {message.content && <CopyButton text={message.content} accessibleLabel={text.copyMessage} />}
        </footer>
      )}
    </article>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
