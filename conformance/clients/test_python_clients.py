"""Python agent and retrieval libraries against a sandbox gateway (docs/conformance.md, issue #18).

Run by server/test/e2e/clients-python.test.ts with GATEWAY_BASE_URL (ending in /v1), GATEWAY_API_KEY, CHAT_MODELS and
EMBEDDING_MODELS (comma-separated). Each library is pointed at the gateway the way its documentation says.
"""

import asyncio
import os
import unittest

from pydantic import BaseModel

BASE_URL = os.environ["GATEWAY_BASE_URL"]
API_KEY = os.environ["GATEWAY_API_KEY"]
CHAT_MODELS = os.environ["CHAT_MODELS"].split(",")
EMBEDDING_MODELS = os.environ["EMBEDDING_MODELS"].split(",")


class WeatherReport(BaseModel):
    city: str
    summary: str


def get_weather(city: str) -> str:
    """Current weather of a city."""
    return f"Sunny and 21 degrees in {city}."


class OpenAiAgentsSdk(unittest.TestCase):
    def test_agent_with_a_tool_and_structured_output(self):
        from agents import Agent, Runner, function_tool, set_default_openai_client, set_tracing_disabled
        from openai import AsyncOpenAI

        # Traces go to OpenAI's own servers, never to the gateway: off, as the SDK documents for other providers.
        set_tracing_disabled(True)
        set_default_openai_client(AsyncOpenAI(base_url=BASE_URL, api_key=API_KEY, max_retries=0))
        for model in CHAT_MODELS:
            with self.subTest(model=model):
                agent = Agent(
                    name="Weather",
                    instructions="Use the tool, then report the weather.",
                    model=model,
                    tools=[function_tool(get_weather)],
                    output_type=WeatherReport,
                )
                result = Runner.run_sync(agent, "What is the weather in Paris?", max_turns=5)
                self.assertIsInstance(result.final_output, WeatherReport)
                called = [item for item in result.new_items if item.type == "tool_call_item"]
                self.assertGreaterEqual(len(called), 1, "the agent called its tool")


class PydanticAi(unittest.TestCase):
    def test_agent_with_a_tool_and_structured_output(self):
        from pydantic_ai import Agent
        from pydantic_ai.models.openai import OpenAIChatModel
        from pydantic_ai.providers.openai import OpenAIProvider

        provider = OpenAIProvider(base_url=BASE_URL, api_key=API_KEY)
        for model in CHAT_MODELS:
            with self.subTest(model=model):
                agent = Agent(OpenAIChatModel(model, provider=provider), output_type=WeatherReport, tools=[get_weather])
                result = agent.run_sync("What is the weather in Paris?")
                self.assertIsInstance(result.output, WeatherReport)
                tool_returns = [
                    part
                    for message in result.all_messages()
                    for part in getattr(message, "parts", [])
                    if getattr(part, "part_kind", "") == "tool-return" and part.tool_name == "get_weather"
                ]
                self.assertGreaterEqual(len(tool_returns), 1, "the agent called get_weather")


class LangChainEmbeddings(unittest.TestCase):
    def test_openai_embeddings_give_vectors(self):
        from langchain_openai import OpenAIEmbeddings

        for model in EMBEDDING_MODELS:
            with self.subTest(model=model):
                # check_embedding_ctx_length=False: the default tokenizes with tiktoken, whose encoding files are
                # downloaded from the internet on first use; the gateway takes the text itself.
                embeddings = OpenAIEmbeddings(
                    model=model, base_url=BASE_URL, api_key=API_KEY, check_embedding_ctx_length=False
                )
                vectors = embeddings.embed_documents(["The river flows.", "Mountains rise."])
                self.assertEqual(len(vectors), 2)
                self.assertGreater(len(vectors[0]), 100)
                query = embeddings.embed_query("The river flows.")
                self.assertEqual(len(query), len(vectors[0]))
                self.assertAlmostEqual(sum(a * b for a, b in zip(query, vectors[0])), 1.0, places=4)


class LiteLlmEmbedding(unittest.TestCase):
    def test_embedding_gives_vectors(self):
        import litellm

        for model in EMBEDDING_MODELS:
            with self.subTest(model=model):
                response = litellm.embedding(
                    model=f"openai/{model}", input=["The river flows."], api_base=BASE_URL, api_key=API_KEY
                )
                vector = response.data[0]["embedding"]
                self.assertGreater(len(vector), 100)
                self.assertGreater(response.usage.prompt_tokens, 0)


if __name__ == "__main__":
    asyncio.set_event_loop(asyncio.new_event_loop())
    unittest.main(verbosity=2)
