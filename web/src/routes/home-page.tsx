import { buildCodeExample } from '../features/docs/code-examples.ts';
import { pickExampleModels } from '../features/docs/pick-example-models.ts';
import { ModelCatalog } from '../features/models/model-catalog.tsx';
import { usePublicModels } from '../features/models/public-models-provider.tsx';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { routePaths } from '../router/match-route.ts';
import { usePageTitle } from '../router/use-page-title.ts';
import { ButtonLink } from '../ui/button-link.tsx';
import { CodeBlock } from '../ui/code-block.tsx';

/** `/`: what the gateway is in a few lines and a first request, then the price list itself. */
export function HomePage() {
  const { messages } = useI18n();
  const text = messages.home;
  const { state } = usePublicModels();
  usePageTitle(undefined);
  return (
    <>
      <section className="hero">
        <div className="container hero__inner">
          <div className="hero__text">
            <h1 className="hero__title">{text.title}</h1>
            <p className="hero__lead">{text.lead}</p>
            <ul className="hero__points">
              <li>{text.pointPerUse}</li>
              <li>{text.pointCompatible}</li>
              <li>{text.pointPrivacy}</li>
            </ul>
            <div className="hero__actions">
              <ButtonLink to={routePaths.models}>{text.seeModels}</ButtonLink>
              <ButtonLink to={routePaths.docs} variant="secondary">
                {text.readDocs}
              </ButtonLink>
            </div>
          </div>
          {state.status === 'ready' && (
            <div className="hero__code">
              <CodeBlock
                code={buildCodeExample({
                  language: 'python',
                  example: 'chat',
                  baseUrl: state.list.public_base_url,
                  ...pickExampleModels(state.list.data),
                })}
                label={text.firstRequest}
                copyLabel={messages.docs.copyExample(text.firstRequest)}
                language="python"
              />
            </div>
          )}
        </div>
      </section>
      <div className="page container">
        <h2 className="home__models-title">{messages.models.title}</h2>
        <ModelCatalog />
      </div>
    </>
  );
}
