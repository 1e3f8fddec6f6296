import './models.css';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { useRouter } from '../../router/router-provider.tsx';
import { ModelFilters } from './model-filters.tsx';
import { ModelTable } from './model-table.tsx';
import { usePublicModels } from './public-models-provider.tsx';
import { SandboxNotice } from './sandbox-notice.tsx';
import {
  type ModelQuery,
  defaultModelQuery,
  formatModelQuery,
  listFamilies,
  parseModelQuery,
  selectModels,
} from './select-models.ts';

/**
 * Every model of the public price list with search, vendor and type filters and price sorting. The choices live
 * in the page address, so a filtered list can be bookmarked or shared, and Back restores it.
 */
export function ModelCatalog() {
  const { messages } = useI18n();
  const { state, reload } = usePublicModels();
  const { location, navigate } = useRouter();
  const query = parseModelQuery(location.search);
  const setQuery = (next: ModelQuery) => navigate(`${location.pathname}${formatModelQuery(next)}`, { replace: true });

  if (state.status === 'loading') {
    return (
      <p className="status" role="status">
        {messages.common.loading}
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="notice notice--error" role="alert">
        <p>{messages.common.loadFailed(state.message)}</p>
        <button type="button" className="button button--secondary" onClick={reload}>
          {messages.common.retry}
        </button>
      </div>
    );
  }

  const models = state.list.data;
  const groups = selectModels(models, query);
  const shownCount = groups.reduce((count, group) => count + group.models.length, 0);
  const hasSimulated = state.list.sandbox || models.some((model) => model.is_simulated);

  return (
    <section className="model-catalog" aria-label={messages.models.title}>
      {hasSimulated && <SandboxNotice />}
      <ModelFilters query={query} families={listFamilies(models)} onChange={setQuery} />
      <p className="model-catalog__count" role="status" aria-live="polite">
        {messages.models.shownCount(shownCount, models.length)}
      </p>
      {shownCount === 0 ? (
        <div className="empty-state">
          <p>{messages.models.noMatches}</p>
          <button type="button" className="button button--secondary" onClick={() => setQuery(defaultModelQuery)}>
            {messages.models.clearFilters}
          </button>
        </div>
      ) : (
        <ModelTable groups={groups} sort={query.sort} />
      )}
      <div className="model-catalog__notes">
        <p>{messages.models.footnoteRates}</p>
        <p>{messages.models.footnoteSavings}</p>
      </div>
    </section>
  );
}
