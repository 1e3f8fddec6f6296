import { useId } from 'react';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Messages } from '../../i18n/messages-en.ts';
import { SegmentedControl } from '../../ui/segmented-control.tsx';
import { type ModelKindFilter, type ModelQuery, type ModelSort, modelSorts } from './select-models.ts';

const sortLabelKeys = {
  vendor: 'sortVendor',
  name: 'sortName',
  'input-asc': 'sortInputAsc',
  'input-desc': 'sortInputDesc',
  'output-asc': 'sortOutputAsc',
  'output-desc': 'sortOutputDesc',
  'per-request-asc': 'sortPerRequestAsc',
  'per-request-desc': 'sortPerRequestDesc',
  'discount-desc': 'sortDiscountDesc',
} as const satisfies Record<ModelSort, keyof Messages['models']>;

/** Search, vendor, type and sort controls of the models page. */
export function ModelFilters(props: {
  query: ModelQuery;
  families: readonly string[];
  onChange: (query: ModelQuery) => void;
}) {
  const { messages } = useI18n();
  const text = messages.models;
  const ids = { search: useId(), family: useId(), sort: useId() };
  const { query, onChange } = props;

  return (
    <div className="model-filters" role="search">
      <div className="field model-filters__search">
        <label className="field__label" htmlFor={ids.search}>
          {text.searchLabel}
        </label>
        <input
          id={ids.search}
          className="field__input"
          type="search"
          value={query.search}
          placeholder={text.searchPlaceholder}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onChange({ ...query, search: event.target.value })}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.family}>
          {text.familyLabel}
        </label>
        <select
          id={ids.family}
          className="field__input"
          value={query.family ?? ''}
          onChange={(event) => onChange({ ...query, family: event.target.value || undefined })}
        >
          <option value="">{text.allFamilies}</option>
          {props.families.map((family) => (
            <option key={family} value={family}>
              {family}
            </option>
          ))}
        </select>
      </div>
      <SegmentedControl<ModelKindFilter>
        legend={text.kindLabel}
        options={[
          { value: 'all', label: text.kindAll },
          { value: 'text', label: text.kindText },
          { value: 'image', label: text.kindImage },
        ]}
        value={query.kind}
        onChange={(kind) => onChange({ ...query, kind })}
      />
      <div className="field">
        <label className="field__label" htmlFor={ids.sort}>
          {text.sortLabel}
        </label>
        <select
          id={ids.sort}
          className="field__input"
          value={query.sort}
          onChange={(event) =>
            onChange({ ...query, sort: modelSorts.find((sort) => sort === event.target.value) ?? 'vendor' })
          }
        >
          {modelSorts.map((sort) => (
            <option key={sort} value={sort}>
              {text[sortLabelKeys[sort]]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
