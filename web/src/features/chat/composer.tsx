import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { useDrafts } from '../auth/draft-provider.tsx';

/**
 * The message box. Enter sends, Shift+Enter adds a line. While an answer streams, Send becomes Stop. The draft
 * lives in memory above the page, so an expired session's trip to sign-in does not lose it.
 */
export function Composer(props: {
  draftName: string;
  isStreaming: boolean;
  canRegenerate: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onRegenerate: () => void;
}) {
  const { messages } = useI18n();
  const text = messages.chat;
  const drafts = useDrafts();
  const [draft, setDraftState] = useState(() => drafts.read(props.draftName));
  const id = useId();
  const setDraft = (value: string) => {
    setDraftState(value);
    drafts.write(props.draftName, value);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (props.isStreaming || draft.trim() === '') return;
    props.onSend(draft.trim());
    setDraft('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        {text.messageLabel}
      </label>
      <textarea
        id={id}
        className="field__input composer__input"
        rows={3}
        value={draft}
        placeholder={text.messagePlaceholder}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer__actions">
        {props.canRegenerate && !props.isStreaming && (
          <button type="button" className="button button--secondary" onClick={props.onRegenerate}>
            {text.regenerate}
          </button>
        )}
        {props.isStreaming ? (
          <button type="button" className="button button--primary composer__stop" onClick={props.onStop}>
            {text.stop}
          </button>
        ) : (
          <button type="submit" className="button button--primary" disabled={draft.trim() === ''}>
            {text.send}
          </button>
        )}
      </div>
    </form>
  );
}
