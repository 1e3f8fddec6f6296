import type { ReactNode } from 'react';
import type { PublicModel } from '../../../../contract/models.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Messages } from '../../i18n/messages-en.ts';
import { formatPercent, formatUsd } from '../../lib/format-usd.ts';
import { formatTokenCount, formatTokenCountInFull } from '../../lib/format-token-count.ts';
import { Badge } from '../../ui/badge.tsx';
import { ImagePriceView } from './image-price-view.tsx';
import type { ModelGroup, ModelSort } from './select-models.ts';
import { findTokenRateUsd } from './token-rate.ts';

export const modelColumns = [
  'model',
  'family',
  'context',
  'input',
  'output',
  'per-request',
  'list-price',
  'discount',
  'savings',
] as const;
export type ModelColumn = (typeof modelColumns)[number];

const columnTitleKeys = {
  model: 'columnModel',
  family: 'columnFamily',
  context: 'columnContext',
  input: 'columnInput',
  output: 'columnOutput',
  'per-request': 'columnPerRequest',
  'list-price': 'columnListPrice',
  discount: 'columnDiscount',
  savings: 'columnSavings',
} as const satisfies Record<ModelColumn, keyof Messages['models']>;

const sortedColumns = {
  vendor: undefined,
  name: { column: 'model', direction: 'ascending' },
  'input-asc': { column: 'input', direction: 'ascending' },
  'input-desc': { column: 'input', direction: 'descending' },
  'output-asc': { column: 'output', direction: 'ascending' },
  'output-desc': { column: 'output', direction: 'descending' },
  'per-request-asc': { column: 'per-request', direction: 'ascending' },
  'per-request-desc': { column: 'per-request', direction: 'descending' },
  'discount-desc': { column: 'discount', direction: 'descending' },
} as const satisfies Record<ModelSort, { column: ModelColumn; direction: 'ascending' | 'descending' } | undefined>;

const numericColumns: ReadonlySet<ModelColumn> = new Set(['input', 'output', 'per-request', 'discount', 'savings']);

/**
 * The price table. Sorted by vendor, it has one row group per family under a heading row. On narrow screens the
 * stylesheet turns each row into a card, labelling every value with its column title (`data-label`).
 */
export function ModelTable(props: { groups: readonly ModelGroup[]; sort: ModelSort }) {
  const { messages } = useI18n();
  const text = messages.models;
  const sorted = sortedColumns[props.sort];
  const title = (column: ModelColumn) => text[columnTitleKeys[column]];

  return (
    <div className="model-table-wrap">
      <table className="model-table">
        <caption className="visually-hidden">{text.tableCaption}</caption>
        <thead>
          <tr>
            {modelColumns.map((column) => (
              <th
                key={column}
                scope="col"
                data-column={column}
                className={numericColumns.has(column) ? 'is-numeric' : undefined}
                aria-sort={sorted?.column === column ? sorted.direction : undefined}
              >
                {title(column)}
              </th>
            ))}
          </tr>
        </thead>
        {props.groups.map((group) => (
          <tbody key={group.family ?? 'all'} data-family={group.family}>
            {group.family !== undefined && (
              <tr className="model-table__group">
                <th scope="rowgroup" colSpan={modelColumns.length}>
                  {group.family}
                </th>
              </tr>
            )}
            {group.models.map((model) => (
              <tr key={model.id} data-model-id={model.id} className="model-table__row">
                {modelColumns.map((column) => (
                  <ModelCell key={column} model={model} column={column} label={title(column)} />
                ))}
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

/** The content of one cell, or undefined where the column does not apply (a text model's per-image price). */
function useCellContent(model: PublicModel, column: ModelColumn): ReactNode {
  const { messages } = useI18n();
  const text = messages.models;
  const isImage = model.kind === 'image';
  const tokenRate = (side: 'input' | 'output') => {
    const usd = findTokenRateUsd(model, side);
    return usd === undefined ? undefined : formatUsd(usd);
  };
  switch (column) {
    case 'model':
      return (
        <>
          <span className="model-name">
            <span className="model-name__title">{model.display_name}</span>
            {isImage && <Badge tone="accent">{text.kindImageName}</Badge>}
            {model.is_simulated && (
              <Badge tone="sandbox" title={text.sandboxModelBadgeTitle}>
                {text.sandboxModelBadge}
              </Badge>
            )}
          </span>
          <code className="model-name__id">{model.id}</code>
        </>
      );
    case 'family':
      return model.family;
    case 'context':
      return model.context_length > 0 ? (
        <span title={text.tokensTitle(formatTokenCountInFull(model.context_length))}>
          {formatTokenCount(model.context_length)}
        </span>
      ) : undefined;
    case 'input':
      return tokenRate('input');
    case 'output':
      return tokenRate('output');
    case 'per-request':
      return model.usd_per_request === null ? undefined : (
        <ImagePriceView model={{ ...model, usd_per_request: model.usd_per_request }} />
      );
    case 'list-price':
      return isImage && model.list_usd_per_request !== null ? (
        text.listPricePerImage(formatUsd(model.list_usd_per_request))
      ) : (
        <>
          <span className="list-price__part">{text.listPriceInput(formatUsd(model.list_input_usd_per_million))}</span>{' '}
          <span className="list-price__part">{text.listPriceOutput(formatUsd(model.list_output_usd_per_million))}</span>
        </>
      );
    case 'discount':
      return formatPercent(model.discount_percent);
    case 'savings':
      return formatUsd(model.savings_usd_at_10_to_1);
    default: {
      const unknownColumn: never = column;
      return unknownColumn;
    }
  }
}

/** One cell; a dash where the column does not apply (marked `data-empty` so narrow screens can leave it out). */
function ModelCell(props: { model: PublicModel; column: ModelColumn; label: string }) {
  const content = useCellContent(props.model, props.column);
  const isEmpty = content === undefined;
  return (
    <td
      data-column={props.column}
      data-label={props.label}
      data-empty={isEmpty ? 'true' : undefined}
      className={numericColumns.has(props.column) ? 'is-numeric' : undefined}
    >
      {isEmpty ? <NotApplicable /> : content}
    </td>
  );
}

/** A dash for a price that does not apply, read out as words. */
function NotApplicable() {
  const { messages } = useI18n();
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{messages.common.notApplicable}</span>
    </>
  );
}
