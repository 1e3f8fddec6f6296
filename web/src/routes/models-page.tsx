import { ModelCatalog } from '../features/models/model-catalog.tsx';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { usePageTitle } from '../router/use-page-title.ts';

/** `/models`: every model with its rates, the vendor's list price, discount and savings. */
export function ModelsPage() {
  const { messages } = useI18n();
  usePageTitle(messages.models.title);
  return (
    <div className="page container">
      <header className="page__header">
        <h1>{messages.models.title}</h1>
        <p className="page__lead">{messages.models.lead}</p>
      </header>
      <ModelCatalog />
    </div>
  );
}
