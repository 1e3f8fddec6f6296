import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { TotpEnrolment, TotpStatus } from '../../../../contract/totp.ts';
import { confirmTotpEnrolment, getTotpStatus, startTotpEnrolment, verifyTotp } from './security-api.ts';
import { useSecurityMessages } from './security-messages.ts';

const describe = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));

/**
 * Shows the console only once the session has passed the second factor: an operator without one (while the gateway
 * requires it) enrols here first, with a QR code; one with it enters a code. The API refuses the operator calls
 * otherwise, so this gate only spares a page of errors.
 */
export function TotpGate(props: { children: ReactNode }) {
  const [status, setStatus] = useState<TotpStatus>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const text = useSecurityMessages();
  const reload = () => getTotpStatus().then(setStatus, (failure: unknown) => setError(describe(failure)));
  useEffect(() => void reload(), []);
  const step = (() => {
    if (error) return <p className="notice notice--error" role="alert">{`${text.failed} ${error}`}</p>;
    if (!status) return <p role="status">{text.loading}</p>;
    if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />;
    if (!status.is_enabled && status.is_required) {
      return (
        <Enrolment
          onEnabled={(codes) => {
            setRecoveryCodes(codes);
            void reload();
          }}
        />
      );
    }
    if (status.is_enabled && !status.is_session_verified) return <CodeStep onVerified={() => void reload()} />;
    return undefined;
  })();
  if (step === undefined) return props.children;
  return <div className="page container operator-console">{step}</div>;
}

function Enrolment(props: { onEnabled: (recoveryCodes: string[]) => void }) {
  const text = useSecurityMessages();
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [error, setError] = useState<string>();
  const submit = async (code: string) => {
    try {
      props.onEnabled((await confirmTotpEnrolment(code)).recovery_codes);
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <section className="operator-panel" aria-label={text.totp.enrolTitle}>
      <h2>{text.totp.enrolTitle}</h2>
      <p>{text.totp.enrolLead}</p>
      {enrolment ? (
        <>
          <img
            className="totp-qr"
            alt="QR code"
            width={200}
            height={200}
            src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qr_svg)}`}
          />
          <p>
            {text.totp.secret}: <code data-field="totp-secret">{enrolment.secret}</code>
          </p>
          <CodeForm label={text.totp.code} submitLabel={text.totp.confirm} onSubmit={submit} />
        </>
      ) : (
        <button
          type="button"
          onClick={() => startTotpEnrolment().then(setEnrolment, (failure: unknown) => setError(describe(failure)))}
        >
          {text.totp.start}
        </button>
      )}
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function RecoveryCodes(props: { codes: readonly string[]; onDone: () => void }) {
  const text = useSecurityMessages();
  return (
    <section className="operator-panel" aria-label={text.totp.codesTitle}>
      <h2>{text.totp.codesTitle}</h2>
      <p>{text.totp.codesLead}</p>
      <ul data-field="recovery-codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" onClick={props.onDone}>
        {text.totp.done}
      </button>
    </section>
  );
}

function CodeStep(props: { onVerified: () => void }) {
  const text = useSecurityMessages();
  const [error, setError] = useState<string>();
  const submit = async (code: string) => {
    try {
      await verifyTotp(code);
      props.onVerified();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <section className="operator-panel" aria-label={text.totp.verifyTitle}>
      <h2>{text.totp.verifyTitle}</h2>
      <p>{text.totp.verifyLead}</p>
      <CodeForm label={text.totp.code} submitLabel={text.totp.verify} onSubmit={submit} />
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function CodeForm(props: { label: string; submitLabel: string; onSubmit: (code: string) => Promise<void> }) {
  const [code, setCode] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void props.onSubmit(code.trim());
  };
  return (
    <form className="operator-form" onSubmit={onSubmit}>
      <label>
        {props.label}
        <input
          name="totp-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </label>
      <button type="submit">{props.submitLabel}</button>
    </form>
  );
}
