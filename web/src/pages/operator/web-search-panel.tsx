import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type { WebSearchHealthView } from '../../../../contract/web-search-health.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Language } from '../../i18n/language.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { useLoad } from '../../lib/use-load.ts';
import { webSearchPanelCatalogues, type WebSearchPanelText } from './web-search-panel-messages.ts';

/**
 * The Web search tab: which engine the gateway searches (or that none is configured), whether it works, its recent
 * failures (time, kind, the engine's HTTP status; never a query) and what to do, from `GET /api/operator/web-search`.
 */
export function WebSearchPanel() {
  const { messages, language } = useI18n();
  const text = webSearchPanelCatalogues[language];
  const { state, reload } = useLoad(
    (signal) => callEndpoint(apiEndpoints.getWebSearchHealth, {}, { signal }),
    'web-search',
  );
  return (
    <section data-panel="web-search">
      <h2>{text.title}</h2>
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' && <WebSearchReport health={state.value} text={text} language={language} />}
      <button type="button" className="button" onClick={reload}>
        {text.refresh}
      </button>
    </section>
  );
}

function WebSearchReport(props: { health: WebSearchHealthView; text: WebSearchPanelText; language: Language }) {
  const { health, text, language } = props;
  const at = (iso: string) => formatDateTime(iso, language);
  const failure = health.last_failure;
  return (
    <>
      <p data-web-search-engine>{describeEngine(health, text)}</p>
      <p
        className={health.status === 'ok' ? 'notice' : 'notice notice--error'}
        role={health.status === 'ok' ? undefined : 'alert'}
        data-web-search-status={health.status}
      >
        {health.status === 'ok' && text.ok}
        {health.status === 'not_configured' && text.notConfigured}
        {health.status === 'failing' &&
          text.failingSince(health.failing_since === null ? '' : at(health.failing_since), health.failures_in_a_row)}
      </p>
      <dl className="web-search__facts">
        <dt>{text.failureCount}</dt>
        <dd data-web-search-failure-count>{health.failure_count}</dd>
        <dt>{text.lastFailure}</dt>
        <dd data-web-search-last-failure>
          {failure === null
            ? text.never
            : `${at(failure.at)}, ${text.kinds[failure.kind]}${failure.http_status === null ? '' : ` (HTTP ${failure.http_status})`}`}
        </dd>
        <dt>{text.lastSuccess}</dt>
        <dd>{health.last_success_at === null ? text.never : at(health.last_success_at)}</dd>
      </dl>
      <p className="status">{text.threshold(health.failures_before_failing)}</p>
      <p data-web-search-advice>
        {health.status === 'failing' ? text.adviceFailing : text.adviceSetup} <code>{health.setup_doc}</code>
      </p>
      <p className="status">{text.perProcess}</p>
    </>
  );
}

function describeEngine(health: WebSearchHealthView, text: WebSearchPanelText): string {
  if (health.is_simulator) return text.simulator;
  if (health.engine_name === null) return text.noEngine;
  return text.engineAt(health.engine_name, health.address ?? '');
}
