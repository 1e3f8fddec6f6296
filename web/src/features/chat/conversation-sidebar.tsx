import { useEffect, useId, useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { ConversationEntry } from './conversations/conversation-body.ts';
import type { Conversations } from './conversations/use-conversations.ts';

/**
 * The conversation list: new, search (over decrypted titles and messages, in this browser only), rename, delete.
 * Searching opens the conversations not yet opened, since their text exists only here, decrypted.
 */
export function ConversationSidebar(props: {
  conversations: Conversations;
  activeId: string | undefined;
  onSelect: (id: string | undefined) => void;
}) {
  const { messages } = useI18n();
  const text = messages.chat;
  const { conversations } = props;
  const [query, setQuery] = useState('');
  const [renamingId, setRenamingId] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const searchId = useId();
  const entries = conversations.entries ?? [];
  const needle = query.trim().toLowerCase();
  const isSearching = needle !== '';

  const { entries: loaded, open } = conversations;
  useEffect(() => {
    if (!isSearching) return;
    for (const entry of loaded ?? []) {
      if (!entry.body) void open(entry.id).catch(() => undefined);
    }
  }, [isSearching, loaded, open]);

  const shown = isSearching ? entries.filter((entry) => matches(entry, needle)) : entries;

  const remove = async (entry: ConversationEntry) => {
    if (!window.confirm(text.confirmDelete(entry.title || text.untitled))) return;
    setError(undefined);
    try {
      await conversations.remove(entry.id);
      if (props.activeId === entry.id) props.onSelect(undefined);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };

  return (
    <aside className="chat-sidebar" aria-label={text.conversations}>
      <button
        type="button"
        className="button button--primary chat-sidebar__new"
        onClick={() => props.onSelect(undefined)}
      >
        {text.newConversation}
      </button>
      <div className="field">
        <label className="visually-hidden" htmlFor={searchId}>
          {text.searchLabel}
        </label>
        <input
          id={searchId}
          className="field__input"
          type="search"
          value={query}
          placeholder={text.searchPlaceholder}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      {conversations.loadError && (
        <p className="notice notice--error" role="alert">
          {text.loadFailed(conversations.loadError)}
        </p>
      )}
      {conversations.entries === undefined && !conversations.loadError && (
        <p className="status">{messages.common.loading}</p>
      )}
      {conversations.entries !== undefined && shown.length === 0 && (
        <p className="status">{isSearching ? text.noMatches : text.noConversations}</p>
      )}
      <ul className="chat-sidebar__list">
        {shown.map((entry) => (
          <li key={entry.id} className="chat-sidebar__item" data-conversation-id={entry.id}>
            {renamingId === entry.id ? (
              <RenameForm
                entry={entry}
                onDone={async (title) => {
                  setRenamingId(undefined);
                  if (title === undefined || title === entry.title) return;
                  try {
                    if (!entry.body) await conversations.open(entry.id);
                    await conversations.save(entry.id, { title });
                  } catch (caught) {
                    setError(caught instanceof Error ? caught.message : String(caught));
                  }
                }}
              />
            ) : (
              <>
                <button
                  type="button"
                  className="chat-sidebar__title"
                  aria-current={entry.id === props.activeId ? 'true' : undefined}
                  onClick={() => props.onSelect(entry.id)}
                >
                  {entry.title || text.untitled}
                </button>
                <div className="chat-sidebar__actions">
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={text.renameLabel(entry.title || text.untitled)}
                    onClick={() => setRenamingId(entry.id)}
                  >
                    {text.rename}
                  </button>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={text.deleteLabel(entry.title || text.untitled)}
                    onClick={() => void remove(entry)}
                  >
                    {text.delete}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </aside>
  );
}

function RenameForm(props: { entry: ConversationEntry; onDone: (title: string | undefined) => Promise<void> }) {
  const { messages } = useI18n();
  const text = messages.chat;
  const [title, setTitle] = useState(props.entry.title);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void props.onDone(title.trim() || props.entry.title);
  };
  return (
    <form className="chat-sidebar__rename" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={id}>
        {text.renamePrompt}
      </label>
      <input
        id={id}
        className="field__input"
        value={title}
        maxLength={200}
        autoFocus
        onChange={(event) => setTitle(event.target.value)}
      />
      <button type="submit" className="button button--small">
        {text.save}
      </button>
      <button type="button" className="button button--small" onClick={() => void props.onDone(undefined)}>
        {text.cancel}
      </button>
    </form>
  );
}

function matches(entry: ConversationEntry, needle: string): boolean {
  if (entry.title.toLowerCase().includes(needle)) return true;
  return entry.body?.messages.some((message) => message.content.toLowerCase().includes(needle)) ?? false;
}
