import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import type { LanguageStorage } from './i18n/i18n-provider.tsx';
import './styles/global.css';
import './ui/ui.css';

/** `localStorage`, or a throwaway map when the browser refuses it (storage disabled by policy or privacy mode). */
function openLanguageStorage(): LanguageStorage {
  try {
    return window.localStorage;
  } catch {
    const values = new Map<string, string>();
    return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
  }
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App languageStorage={openLanguageStorage()} browserLanguage={navigator.language} />
    </StrictMode>,
  );
}
