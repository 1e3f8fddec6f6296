import { BaseAddresses } from '../features/docs/base-addresses.tsx';
import { CodeExampleList, exampleTextKeys } from '../features/docs/code-example-list.tsx';
import { exampleIds, keyPlaceholder } from '../features/docs/code-examples.ts';
import { pickExampleModels } from '../features/docs/pick-example-models.ts';
import { usePublicModels } from '../features/models/public-models-provider.tsx';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { Link } from '../router/link.tsx';
import { routePaths } from '../router/match-route.ts';
import { usePageTitle } from '../router/use-page-title.ts';

/** `/docs`: the base addresses, the key, and copy-paste examples for cURL, Python and Node.js. */
export function DocsPage() {
  const { messages } = useI18n();
  const text = messages.docs;
  const { state, reload } = usePublicModels();
  usePageTitle(text.title);

  return (
    <div className="page container docs">
      <header className="page__header">
        <h1>{text.title}</h1>
        <p className="page__lead">{text.lead}</p>
      </header>
      {state.status === 'loading' && (
        <p className="status" role="status">
          {messages.common.loading}
        </p>
      )}
      {state.status === 'error' && (
        <div className="notice notice--error" role="alert">
          <p>{messages.common.loadFailed(state.message)}</p>
          <button type="button" className="button button--secondary" onClick={reload}>
            {messages.common.retry}
          </button>
        </div>
      )}
      {state.status === 'ready' && (
        <>
          <nav className="docs__contents" aria-label={text.contents}>
            <ul>
              <li>
                <a href="#base-addresses">{text.baseUrlsTitle}</a>
              </li>
              {exampleIds.map((example) => (
                <li key={example}>
                  <a href={`#${example}`}>{text[exampleTextKeys[example].title]}</a>
                </li>
              ))}
            </ul>
          </nav>
          <section aria-labelledby="base-addresses">
            <h2 id="base-addresses">{text.baseUrlsTitle}</h2>
            <BaseAddresses publicBaseUrl={state.list.public_base_url} directBaseUrl={state.list.direct_base_url} />
          </section>
          <section aria-labelledby="api-key">
            <h2 id="api-key">{text.keyTitle}</h2>
            <p>{text.keyText}</p>
            <pre className="inline-code-block">
              <code>Authorization: Bearer {keyPlaceholder}</code>
            </pre>
          </section>
          <section aria-labelledby="examples">
            <h2 id="examples">{text.examplesTitle}</h2>
            <p>
              {text.modelsNote} <Link to={routePaths.models}>{messages.nav.models}</Link>
            </p>
            <CodeExampleList baseUrl={state.list.public_base_url} {...pickExampleModels(state.list.data)} />
          </section>
        </>
      )}
    </div>
  );
}
