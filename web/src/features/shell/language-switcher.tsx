import { useI18n } from '../../i18n/i18n-provider.tsx';
import { languageNames, languageShortNames, languages } from '../../i18n/language.ts';
import { SegmentedControl } from '../../ui/segmented-control.tsx';

/** Switches the site between English and Russian; the choice is remembered in this browser. */
export function LanguageSwitcher() {
  const { language, messages, setLanguage } = useI18n();
  return (
    <SegmentedControl
      className="language-switcher"
      legend={messages.site.language}
      isLegendHidden
      options={languages.map((value) => ({
        value,
        label: languageNames[value],
        shortLabel: languageShortNames[value],
        lang: value,
      }))}
      value={language}
      onChange={setLanguage}
    />
  );
}
