import { createRandom, hashText, type Random } from '../shared/random.ts';
import { followUpSentences, pageTemplates, type PageContext } from './search-page-templates.ts';

/** One page the simulated engines find; every engine renders the same pages in its own wire format. */
export type SimulatedPage = {
  url: string;
  domain: string;
  siteName: string;
  title: string;
  /** One or two sentences, as a search engine's snippet. */
  snippet: string;
  /** Four or five sentences, as page text or highlights. */
  content: string;
  /** `2024-05-17T09:00:00` (no zone), or undefined for reference pages. */
  publishedAt: string | undefined;
  /** Relevance, falling with the rank. */
  score: number;
};

const stopWords = new Set(
  'a an and are as at be by can do does for from how i in is it me of on or should the to was what when where which who why will with you your'.split(
    ' ',
  ),
);

/**
 * The pages found for a query: 5–10 of them, on distinct well-known sites, with titles, snippets and URLs built
 * from the query's words. The same query (ignoring case and spacing) always gives the same pages.
 */
export function planSearchPages(query: string): SimulatedPage[] {
  const normalized = query.normalize('NFC').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();
  const random = createRandom(`search-pages\u0000${normalized}`);
  const words = readKeywords(normalized);
  const topic = words.join(' ');
  const slug = toSlug(words) || `topic-${hashText(normalized).slice(0, 8)}`;
  const topicTitle = words.map((word) => word.charAt(0).toLocaleUpperCase('en') + word.slice(1)).join(' ');
  const count = 5 + random.nextInt(6);
  return shuffle(pageTemplates, random)
    .slice(0, count)
    .map((template, rank) => {
      const context: PageContext = { topic, topicTitle, slug, random, date: pickDate(random) };
      const page = template.build(context);
      const sentences = pickSentences(random, topic);
      const snippet = `${page.lead} ${sentences[0]}`;
      const { year, month, day } = context.date;
      return {
        url: `https://${template.domain}${page.path}`,
        domain: template.domain,
        siteName: template.siteName,
        title: page.title,
        snippet,
        content: [snippet, ...sentences.slice(1)].join(' '),
        publishedAt: template.isDated
          ? `${year}-${pad(month)}-${pad(day)}T${pad(6 + random.nextInt(12))}:00:00`
          : undefined,
        score: Math.round((0.92 - rank * 0.06 - random.nextFloat() * 0.02) * 1000) / 1000,
      };
    });
}

function readKeywords(normalized: string): string[] {
  const words = normalized.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const keywords = words.filter((word) => !stopWords.has(word));
  const chosen = (keywords.length > 0 ? keywords : words).slice(0, 6);
  return chosen.length > 0 ? chosen : ['web', 'search'];
}

function toSlug(words: readonly string[]): string {
  return words
    .map((word) =>
      word
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^a-z0-9]/g, ''),
    )
    .filter(Boolean)
    .join('-');
}

function pickDate(random: Random): PageContext['date'] {
  return { year: 2021 + random.nextInt(5), month: 1 + random.nextInt(12), day: 1 + random.nextInt(28) };
}

function pickSentences(random: Random, topic: string): string[] {
  return shuffle(followUpSentences, random)
    .slice(0, 3)
    .map((sentence) => sentence(topic));
}

function shuffle<Item>(items: readonly Item[], random: Random): Item[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = random.nextInt(index + 1);
    [copy[index], copy[other]] = [copy[other] as Item, copy[index] as Item];
  }
  return copy;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
