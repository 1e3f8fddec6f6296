import type { ReactNode } from 'react';
import { useI18n } from '../../../i18n/i18n-provider.tsx';
import { CopyButton } from '../../../ui/copy-button.tsx';
import { highlightCode } from './highlight-code.ts';
import { parseMarkdown, type Block, type Inline } from './parse-markdown.ts';

/**
 * Renders a chat answer's Markdown as React elements. Text is only ever text (React escapes it); links go only to
 * http(s) or mailto and open in a new tab without a referrer. Code blocks get highlighting and a copy button.
 */
export function MarkdownView(props: { source: string }) {
  return <div className="markdown">{renderBlocks(parseMarkdown(props.source))}</div>;
}

function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((block, index) => <MarkdownBlock key={index} block={block} />);
}

function MarkdownBlock(props: { block: Block }): ReactNode {
  const { block } = props;
  switch (block.kind) {
    case 'paragraph':
      return <p>{renderInlines(block.children)}</p>;
    case 'heading': {
      const Heading = `h${Math.min(block.level + 2, 6)}` as 'h3' | 'h4' | 'h5' | 'h6';
      return <Heading>{renderInlines(block.children)}</Heading>;
    }
    case 'code':
      return <CodeView language={block.language} text={block.text} />;
    case 'quote':
      return <blockquote>{renderBlocks(block.children)}</blockquote>;
    case 'list': {
      const items = block.items.map((item, index) => <li key={index}>{renderBlocks(item)}</li>);
      return block.isOrdered ? <ol start={block.start}>{items}</ol> : <ul>{items}</ul>;
    }
    case 'table':
      return (
        <div className="markdown__table">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, index) => (
                  <th key={index}>{renderInlines(cell)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, index) => (
                    <td key={index}>{renderInlines(cell)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'rule':
      return <hr />;
    default:
      return assertNever(block);
  }
}

function renderInlines(inlines: Inline[]): ReactNode[] {
  return inlines.map((inline, index) => {
    switch (inline.kind) {
      case 'text':
        return inline.text;
      case 'code':
        return <code key={index}>{inline.text}</code>;
      case 'strong':
        return <strong key={index}>{renderInlines(inline.children)}</strong>;
      case 'emphasis':
        return <em key={index}>{renderInlines(inline.children)}</em>;
      case 'link':
        return (
          <a key={index} href={inline.href} target="_blank" rel="noopener noreferrer nofollow">
            {renderInlines(inline.children)}
          </a>
        );
      default:
        return assertNever(inline);
    }
  });
}

function CodeView(props: { language: string; text: string }) {
  const { messages } = useI18n();
  const label = props.language || 'text';
  return (
    <figure className="code-block markdown__code" data-language={label}>
      <figcaption className="code-block__bar">
        <span className="code-block__label">{label}</span>
        <CopyButton text={props.text} accessibleLabel={messages.chat.copyCodeLabel(label)} />
      </figcaption>
      <pre className="code-block__code" tabIndex={0}>
        <code>
          {highlightCode(props.text, props.language).map((token, index) =>
            token.kind === 'plain' ? (
              token.text
            ) : (
              <span key={index} className={`token token--${token.kind}`}>
                {token.text}
              </span>
            ),
          )}
        </code>
      </pre>
    </figure>
  );
}

function assertNever(value: never): never {
  throw new Error(`unexpected markdown node ${JSON.stringify(value)}`);
}
