import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { copyToClipboard } from './copy-to-clipboard.ts';

type CopyStatus = 'idle' | 'copied' | 'failed';

const statusResetMs = 2000;

/** A button that copies `text` and says so ("Copied") for a moment, also to screen readers. */
export function CopyButton(props: { text: string; accessibleLabel: string; className?: string }) {
  const { messages } = useI18n();
  const [status, setStatus] = useState<CopyStatus>('idle');

  useEffect(() => {
    if (status === 'idle') return;
    const timer = window.setTimeout(() => setStatus('idle'), statusResetMs);
    return () => window.clearTimeout(timer);
  }, [status]);

  const copy = async () => setStatus((await copyToClipboard(props.text)) ? 'copied' : 'failed');
  const statusText = { idle: '', copied: messages.common.copied, failed: messages.common.copyFailed }[status];

  return (
    <span className={['copy-button', props.className].filter(Boolean).join(' ')}>
      <button
        type="button"
        className="button button--small"
        onClick={() => void copy()}
        aria-label={props.accessibleLabel}
      >
        {status === 'copied' ? messages.common.copied : messages.common.copy}
      </button>
      <span className={status === 'failed' ? 'copy-button__status' : 'visually-hidden'} role="status">
        {statusText}
      </span>
    </span>
  );
}
