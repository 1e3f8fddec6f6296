/** The languages the docs show examples in. */
export const codeLanguages = ['curl', 'python', 'node'] as const;
export type CodeLanguage = (typeof codeLanguages)[number];

export const codeLanguageNames = { curl: 'cURL', python: 'Python', node: 'Node.js' } as const satisfies Record<
  CodeLanguage,
  string
>;

/** The tasks the docs show, in page order. */
export const exampleIds = ['chat', 'streaming', 'tools', 'web-search', 'images'] as const;
export type ExampleId = (typeof exampleIds)[number];

/** What an example is filled in with: the base address (ending in /v1) and real model ids from the price list. */
export type ExampleParams = { baseUrl: string; textModel: string; imageModel: string };

/** The key placeholder every example uses; the reader puts their own key in its place. */
export const keyPlaceholder = 'sk-...';

export const installCommands = {
  curl: undefined,
  python: 'pip install openai',
  node: 'npm install openai',
} as const satisfies Record<CodeLanguage, string | undefined>;

const chatMessage = 'Say hello in three languages.';
const weatherQuestion = 'What is the weather in Paris right now?';
const searchQuestion = 'What are the latest Node.js LTS releases? Cite your sources.';
const imagePrompt = 'A lighthouse at dawn, watercolor';

const curlHeaders = (path: string, baseUrl: string, flags = '') =>
  `curl${flags} ${baseUrl}${path} \\
  -H "Authorization: Bearer ${keyPlaceholder}" \\
  -H "Content-Type: application/json" \\`;

const pythonClient = (baseUrl: string) => `client = OpenAI(base_url="${baseUrl}", api_key="${keyPlaceholder}")`;
const nodeClient = (baseUrl: string) =>
  `const client = new OpenAI({ baseURL: "${baseUrl}", apiKey: "${keyPlaceholder}" });`;

const weatherToolJson = `{
      "type": "function",
      "function": {
        "name": "get_weather",
        "description": "Current weather in a city",
        "parameters": {
          "type": "object",
          "properties": {"city": {"type": "string"}},
          "required": ["city"]
        }
      }
    }`;

const curlExamples = {
  chat: ({ baseUrl, textModel }) => `${curlHeaders('/chat/completions', baseUrl)}
  -d '{
    "model": "${textModel}",
    "messages": [{"role": "user", "content": "${chatMessage}"}]
  }'`,
  streaming: ({ baseUrl, textModel }) => `${curlHeaders('/chat/completions', baseUrl, ' -N')}
  -d '{
    "model": "${textModel}",
    "stream": true,
    "messages": [{"role": "user", "content": "${chatMessage}"}]
  }'`,
  tools: ({ baseUrl, textModel }) => `${curlHeaders('/chat/completions', baseUrl)}
  -d '{
    "model": "${textModel}",
    "messages": [{"role": "user", "content": "${weatherQuestion}"}],
    "tools": [${weatherToolJson}]
  }'`,
  'web-search': ({ baseUrl, textModel }) => `${curlHeaders('/responses', baseUrl)}
  -d '{
    "model": "${textModel}",
    "tools": [{"type": "web_search"}],
    "input": "${searchQuestion}"
  }'`,
  images: ({ baseUrl, imageModel }) => `${curlHeaders('/images/generations', baseUrl)}
  -d '{
    "model": "${imageModel}",
    "prompt": "${imagePrompt}",
    "size": "1024x1024"
  }'`,
} as const satisfies Record<ExampleId, (params: ExampleParams) => string>;

const pythonExamples = {
  chat: ({ baseUrl, textModel }) => `from openai import OpenAI

${pythonClient(baseUrl)}

completion = client.chat.completions.create(
    model="${textModel}",
    messages=[{"role": "user", "content": "${chatMessage}"}],
)
print(completion.choices[0].message.content)`,
  streaming: ({ baseUrl, textModel }) => `from openai import OpenAI

${pythonClient(baseUrl)}

stream = client.chat.completions.create(
    model="${textModel}",
    messages=[{"role": "user", "content": "${chatMessage}"}],
    stream=True,
)
for chunk in stream:
    if chunk.choices and chunk.choices[0].delta.content:
        print(chunk.choices[0].delta.content, end="", flush=True)
print()`,
  tools: ({ baseUrl, textModel }) => `import json
from openai import OpenAI

${pythonClient(baseUrl)}

tools = [{
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}]
messages = [{"role": "user", "content": "${weatherQuestion}"}]

completion = client.chat.completions.create(model="${textModel}", messages=messages, tools=tools)
message = completion.choices[0].message
if message.tool_calls:
    messages.append(message)
    for call in message.tool_calls:
        city = json.loads(call.function.arguments)["city"]
        weather = {"city": city, "temperature_c": 18, "sky": "clear"}  # your real lookup here
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(weather)})
    completion = client.chat.completions.create(model="${textModel}", messages=messages, tools=tools)
print(completion.choices[0].message.content)`,
  'web-search': ({ baseUrl, textModel }) => `from openai import OpenAI

${pythonClient(baseUrl)}

response = client.responses.create(
    model="${textModel}",
    tools=[{"type": "web_search"}],
    input="${searchQuestion}",
)
print(response.output_text)

for item in response.output:
    if item.type == "message":
        for part in item.content:
            for annotation in getattr(part, "annotations", None) or []:
                if annotation.type == "url_citation":
                    print("-", annotation.title, annotation.url)`,
  images: ({ baseUrl, imageModel }) => `import base64
from openai import OpenAI

${pythonClient(baseUrl)}

result = client.images.generate(
    model="${imageModel}",
    prompt="${imagePrompt}",
    size="1024x1024",
)
image = result.data[0]
if image.b64_json:
    with open("lighthouse.png", "wb") as file:
        file.write(base64.b64decode(image.b64_json))
else:
    print(image.url)`,
} as const satisfies Record<ExampleId, (params: ExampleParams) => string>;

const nodeExamples = {
  chat: ({ baseUrl, textModel }) => `import OpenAI from "openai";

${nodeClient(baseUrl)}

const completion = await client.chat.completions.create({
  model: "${textModel}",
  messages: [{ role: "user", content: "${chatMessage}" }],
});
console.log(completion.choices[0].message.content);`,
  streaming: ({ baseUrl, textModel }) => `import OpenAI from "openai";

${nodeClient(baseUrl)}

const stream = await client.chat.completions.create({
  model: "${textModel}",
  messages: [{ role: "user", content: "${chatMessage}" }],
  stream: true,
});
for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
process.stdout.write("\\n");`,
  tools: ({ baseUrl, textModel }) => `import OpenAI from "openai";

${nodeClient(baseUrl)}

const tools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather in a city",
      parameters: {
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      },
    },
  },
];
const messages = [{ role: "user", content: "${weatherQuestion}" }];

let completion = await client.chat.completions.create({ model: "${textModel}", messages, tools });
const message = completion.choices[0].message;
if (message.tool_calls?.length) {
  messages.push(message);
  for (const call of message.tool_calls) {
    const { city } = JSON.parse(call.function.arguments);
    const weather = { city, temperature_c: 18, sky: "clear" }; // your real lookup here
    messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(weather) });
  }
  completion = await client.chat.completions.create({ model: "${textModel}", messages, tools });
}
console.log(completion.choices[0].message.content);`,
  'web-search': ({ baseUrl, textModel }) => `import OpenAI from "openai";

${nodeClient(baseUrl)}

const response = await client.responses.create({
  model: "${textModel}",
  tools: [{ type: "web_search" }],
  input: "${searchQuestion}",
});
console.log(response.output_text);

for (const item of response.output) {
  if (item.type !== "message") continue;
  for (const part of item.content) {
    if (part.type !== "output_text") continue;
    for (const annotation of part.annotations) {
      if (annotation.type === "url_citation") console.log("-", annotation.title, annotation.url);
    }
  }
}`,
  images: ({ baseUrl, imageModel }) => `import { writeFile } from "node:fs/promises";
import OpenAI from "openai";

${nodeClient(baseUrl)}

const result = await client.images.generate({
  model: "${imageModel}",
  prompt: "${imagePrompt}",
  size: "1024x1024",
});
const image = result.data?.[0];
if (image?.b64_json) await writeFile("lighthouse.png", Buffer.from(image.b64_json, "base64"));
else console.log(image?.url);`,
} as const satisfies Record<ExampleId, (params: ExampleParams) => string>;

const examples = { curl: curlExamples, python: pythonExamples, node: nodeExamples } as const satisfies Record<
  CodeLanguage,
  Record<ExampleId, (params: ExampleParams) => string>
>;

/** The copy-paste source of one example in one language, filled in with the address and model ids. */
export function buildCodeExample(input: { language: CodeLanguage; example: ExampleId } & ExampleParams): string {
  return examples[input.language][input.example](input);
}
