import './docs.css';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Messages } from '../../i18n/messages-en.ts';
import { CodeBlock } from '../../ui/code-block.tsx';
import { SegmentedControl } from '../../ui/segmented-control.tsx';
import {
  type CodeLanguage,
  type ExampleId,
  type ExampleParams,
  buildCodeExample,
  codeLanguageNames,
  codeLanguages,
  exampleIds,
  installCommands,
} from './code-examples.ts';

type DocsText = Messages['docs'];

/** Each example's title and one-line explanation in the messages. */
export const exampleTextKeys = {
  chat: { title: 'exampleChat', text: 'exampleChatText' },
  streaming: { title: 'exampleStreaming', text: 'exampleStreamingText' },
  tools: { title: 'exampleTools', text: 'exampleToolsText' },
  'web-search': { title: 'exampleWebSearch', text: 'exampleWebSearchText' },
  images: { title: 'exampleImages', text: 'exampleImagesText' },
} as const satisfies Record<ExampleId, { title: keyof DocsText; text: keyof DocsText }>;

/** The examples, one section per task, in the language the reader picks (cURL, Python or Node.js). */
export function CodeExampleList(props: ExampleParams) {
  const { messages } = useI18n();
  const text = messages.docs;
  const [language, setLanguage] = useState<CodeLanguage>('curl');
  const install = installCommands[language];

  return (
    <div className="code-examples">
      <SegmentedControl<CodeLanguage>
        className="code-examples__language"
        legend={text.examplesLanguage}
        options={codeLanguages.map((value) => ({ value, label: codeLanguageNames[value] }))}
        value={language}
        onChange={setLanguage}
      />
      {install !== undefined && (
        <CodeBlock code={install} label={text.install} copyLabel={text.copyExample(text.install)} language="shell" />
      )}
      {exampleIds.map((example) => {
        const title = text[exampleTextKeys[example].title];
        return (
          <section key={example} id={example} className="code-example" aria-labelledby={`${example}-title`}>
            <h3 id={`${example}-title`}>{title}</h3>
            <p>{text[exampleTextKeys[example].text]}</p>
            <CodeBlock
              code={buildCodeExample({ ...props, language, example })}
              label={`${title} · ${codeLanguageNames[language]}`}
              copyLabel={text.copyExample(title)}
              language={language}
            />
          </section>
        );
      })}
    </div>
  );
}
