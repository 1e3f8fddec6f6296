import type { Random } from '../shared/random.ts';

/** What a template knows about the query and the page's date. */
export type PageContext = {
  /** The query's keywords, lower case: `quantum error correction`. */
  topic: string;
  /** The same in title case: `Quantum Error Correction`. */
  topicTitle: string;
  /** ASCII kebab-case: `quantum-error-correction`. */
  slug: string;
  date: { year: number; month: number; day: number };
  random: Random;
};

export type PageTemplate = {
  domain: string;
  siteName: string;
  /** Reference pages (encyclopedias, Q&A, repositories) carry no publication date. */
  isDated: boolean;
  build: (context: PageContext) => { path: string; title: string; lead: string };
};

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const authors = ['alex-morgan', 'priya-raman', 'jonas-weber', 'mei-tanaka', 'sam-okafor', 'lucia-ferraro'];

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const digits = (random: Random, count: number) => random.nextString('0123456789', count);
const isoDay = (context: PageContext) => `${context.date.year}-${pad(context.date.month)}-${pad(context.date.day)}`;
const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase('en') + text.slice(1);

/** Well-known sites with their real URL shapes, so results look like a real engine's first page. */
export const pageTemplates: readonly PageTemplate[] = [
  {
    domain: 'en.wikipedia.org',
    siteName: 'Wikipedia',
    isDated: false,
    build: ({ topic, topicTitle }) => ({
      path: `/wiki/${encodeURIComponent(capitalize(topic).replaceAll(' ', '_'))}`,
      title: `${capitalize(topic)} - Wikipedia`,
      lead: `${topicTitle} is the subject of this encyclopedia article, which covers its history, main ideas and current research.`,
    }),
  },
  {
    domain: 'www.britannica.com',
    siteName: 'Britannica',
    isDated: false,
    build: ({ slug, topicTitle, topic }) => ({
      path: `/topic/${slug}`,
      title: `${topicTitle} | Definition, History, & Facts | Britannica`,
      lead: `${capitalize(topic)}, a subject explained by Britannica's editors with its definition, history and key facts.`,
    }),
  },
  {
    domain: 'github.com',
    siteName: 'GitHub',
    isDated: false,
    build: ({ slug, topic }) => ({
      path: `/topics/${slug}`,
      title: `${slug} · GitHub Topics · GitHub`,
      lead: `Open-source repositories about ${topic}, sorted by stars and recent activity.`,
    }),
  },
  {
    domain: 'stackoverflow.com',
    siteName: 'Stack Overflow',
    isDated: false,
    build: ({ slug, topic, random }) => ({
      path: `/questions/${1 + random.nextInt(8)}${digits(random, 7)}/${slug}`,
      title: `How does ${topic} work in practice? - Stack Overflow`,
      lead: `I keep reading about ${topic} but cannot find a clear answer on how it works in practice.`,
    }),
  },
  {
    domain: 'www.reuters.com',
    siteName: 'Reuters',
    isDated: true,
    build: (context) => ({
      path: `/technology/${context.slug}-${isoDay(context)}/`,
      title: `What to know about ${context.topic} | Reuters`,
      lead: `Companies and regulators are paying closer attention to ${context.topic}, according to people familiar with the matter.`,
    }),
  },
  {
    domain: 'www.bbc.com',
    siteName: 'BBC',
    isDated: true,
    build: ({ topicTitle, topic, random }) => ({
      path: `/news/articles/c${random.nextString('0123456789abcdefghjklmnpqrstvwxyz', 10)}o`,
      title: `${topicTitle}: what the latest research shows - BBC News`,
      lead: `Scientists say new findings about ${topic} could matter for millions of people.`,
    }),
  },
  {
    domain: 'www.nature.com',
    siteName: 'Nature',
    isDated: true,
    build: ({ topic, random }) => ({
      path: `/articles/s41586-0${digits(random, 2)}-0${digits(random, 4)}-${random.pick(['x', 'y', 'z', '1', '5'])}`,
      title: `Advances in ${topic} | Nature`,
      lead: `Here we report measurements that clarify long-standing questions about ${topic}.`,
    }),
  },
  {
    domain: 'arxiv.org',
    siteName: 'arXiv',
    isDated: true,
    build: ({ topicTitle, topic, date, random }) => ({
      path: `/abs/${pad(date.year % 100)}${pad(date.month)}.${digits(random, 5)}`,
      title: `A Survey of ${topicTitle}`,
      lead: `We review recent work on ${topic}, organise it into a taxonomy and list open problems.`,
    }),
  },
  {
    domain: 'www.theguardian.com',
    siteName: 'The Guardian',
    isDated: true,
    build: ({ slug, topic, date }) => ({
      path: `/science/${date.year}/${monthNames[date.month - 1]}/${pad(date.day)}/${slug}`,
      title: `The quiet revolution in ${topic} | Science | The Guardian`,
      lead: `Few people had heard of ${topic} a decade ago; now it shapes decisions in science and industry.`,
    }),
  },
  {
    domain: 'www.nytimes.com',
    siteName: 'The New York Times',
    isDated: true,
    build: ({ slug, topicTitle, topic, date }) => ({
      path: `/${date.year}/${pad(date.month)}/${pad(date.day)}/technology/${slug}.html`,
      title: `How ${topicTitle} Is Changing Everyday Life - The New York Times`,
      lead: `From hospitals to households, ${topic} is quietly changing how people live and work.`,
    }),
  },
  {
    domain: 'medium.com',
    siteName: 'Medium',
    isDated: true,
    build: ({ slug, topic, random }) => {
      const author = random.pick(authors);
      const name = author.split('-').map(capitalize).join(' ');
      return {
        path: `/@${author}/${slug}-${random.nextString('0123456789abcdef', 12)}`,
        title: `A practical guide to ${topic} | by ${name} | Medium`,
        lead: `After two years of working with ${topic}, these are the lessons I wish I had known on day one.`,
      };
    },
  },
  {
    domain: 'pmc.ncbi.nlm.nih.gov',
    siteName: 'PubMed Central',
    isDated: true,
    build: ({ topicTitle, topic, random }) => ({
      path: `/articles/PMC${1 + random.nextInt(9)}${digits(random, 6)}/`,
      title: `${topicTitle}: a systematic review - PMC`,
      lead: `This systematic review pools the available studies on ${topic} and rates the quality of the evidence.`,
    }),
  },
  {
    domain: 'www.investopedia.com',
    siteName: 'Investopedia',
    isDated: false,
    build: ({ slug, topicTitle, topic }) => ({
      path: `/terms/${slug.charAt(0) || 't'}/${slug}.asp`,
      title: `${topicTitle}: Definition, How It Works, and Examples`,
      lead: `${capitalize(topic)} explained: what it means, how it works and examples of it in the real world.`,
    }),
  },
];

/** Follow-up sentences; each page draws two or three, so snippets and contents differ from page to page. */
export const followUpSentences: ReadonlyArray<(topic: string) => string> = [
  (topic) => `An overview of ${topic}: key concepts, common misconceptions and practical examples.`,
  (topic) => `Researchers describe how ${topic} has changed over the past decade and what to expect next.`,
  (topic) => `This guide explains ${topic} step by step, with references for further reading.`,
  (topic) => `Experts weigh the benefits and the limitations of ${topic} in everyday use.`,
  (topic) => `Recent figures on ${topic} show steady growth, according to data published this year.`,
  (topic) => `The piece compares several approaches to ${topic} and summarises the evidence behind each.`,
  (topic) => `Frequently asked questions about ${topic}, answered with sources.`,
  (topic) => `Critics argue that the debate about ${topic} often ignores its costs.`,
];
